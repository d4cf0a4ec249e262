"""Achernar nWoD micro sheets, campaign settings and the parameters derived from them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from domain.rulesets.base import MAX_ITEMS, CampaignSettings, Name, SheetModel, Text

DamageClass = Literal["common", "professional", "military", "heavy"]
DAMAGE_BONUS: dict[str, int] = {"common": 1, "professional": 2, "military": 3, "heavy": 4}
"""NW-11: weapons add to successes on a hit, by class (one to four dots)."""

SHIELD_MAX_RATING = 2
"""NW-12: only light (•) and medium (••) protection can be a shield; heavier is armour only."""

Pool = Annotated[int, Field(ge=0, le=20, description="Dice pool: X d10 (NW-1).")]


class NwodSettings(CampaignSettings):
    """Campaign settings of nWoD micro. The rules have no campaign options yet."""


class Affinities(SheetModel):
    """The three Affinities, each a pool of d10s (NW-1)."""

    INT: Pool = Field(
        description="Intelligence: reasoning, observation, knowledge; Initiative (NW-14)."
    )
    ELG: Pool = Field(description="Elegance: grace, stealth, cunning, manipulation.")
    VIO: Pool = Field(description="Violence: combat, physical action, daring (NW-6).")


class Merit(SheetModel):
    """A feature, specific skill or circumstance; it works exactly as written (NW-3, NW-18)."""

    name: Name
    text: Text = Field("", description="What the merit does, as written.")
    dice_modifier: int | None = Field(
        None,
        ge=-10,
        le=10,
        description="Dice added to (or taken from) rolls it applies to (NW-18).",
    )
    extra_actions: int = Field(
        0,
        ge=0,
        le=2,
        description='Actions per turn it adds: "if a modifier says you have one more action, '
        'you do" (NW-18).',
    )


class Weapon(SheetModel):
    """A weapon; its class adds damage to successes on a hit (NW-11)."""

    name: Name
    damage_class: DamageClass = Field(
        description="common •+1, professional ••+2, military •••+3, heavy ••••+4 (NW-11)."
    )
    magazine: int | None = Field(
        None, ge=1, le=1000, description="Rounds per magazine; null for melee weapons (NW-16)."
    )
    spare_magazines: int = Field(
        0,
        ge=0,
        le=50,
        description="Full magazines carried besides the loaded one; a reload uses one (NW-16).",
    )
    kind: Literal["melee", "ranged"] | None = Field(
        None,
        description="How it attacks when an attack names no kind (NW-6): by default ranged with a "
        "magazine, melee without; a thrown weapon (a grenade) says ranged.",
    )
    notes: Text = ""


class Protection(SheetModel):
    """Armour (ARM) or durability (DUR) subtracted from damage, or a shield (SLD) adding to DEF."""

    name: Name
    kind: Literal["ARM", "DUR", "SLD"] = Field(description="ARM, DUR or SLD (NW-12).")
    rating: int = Field(
        ge=1, le=4, description="Dots: light 1, medium 2, heavy 3, ultra-heavy 4; SLD at most 2."
    )


class NwodSheet(SheetModel):
    """An Achernar character: Affinities, Parameters (NW-2), Merits and gear."""

    affinities: Affinities
    health: int = Field(ge=1, le=100, description="Health (NW-2, NW-8).")
    will_power: int = Field(ge=0, le=100, description="Will Power points (NW-2, NW-9).")
    defense: int = Field(
        ge=0, le=20, description="Defense before shields; subtracted from melee pools (NW-10)."
    )
    speed: int = Field(ge=0, le=100, description="Walking speed X in metres per turn (NW-2).")
    merits: list[Merit] = Field(default_factory=list, max_length=MAX_ITEMS)
    gear: list[Name] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="Other things carried (inventory); what they do works as the GM rules (NW-18).",
    )
    weapons: list[Weapon] = Field(default_factory=list, max_length=MAX_ITEMS)
    protection: list[Protection] = Field(default_factory=list, max_length=MAX_ITEMS)


def speeds(sheet: NwodSheet) -> dict[str, int]:
    """NW-2: walk X, run 2X, sprint 3X metres per turn."""
    return {"walk": sheet.speed, "run": 2 * sheet.speed, "sprint": 3 * sheet.speed}


def defense(sheet: NwodSheet) -> int:
    """NW-12: a shield raises DEF. Ruling: shields do not stack; the best one counts."""
    return sheet.defense + max((p.rating for p in sheet.protection if p.kind == "SLD"), default=0)


def armor(sheet: NwodSheet) -> int:
    """NW-11/NW-12: ARM or DUR is subtracted from damage. Ruling: the best counts, no stacking."""
    return max((p.rating for p in sheet.protection if p.kind != "SLD"), default=0)


def actions_per_turn(sheet: NwodSheet) -> int:
    """NW-15: two actions per turn; NW-18: plus what a merit says it adds."""
    return 2 + sum(m.extra_actions for m in sheet.merits)


def attack_kind(weapon: Weapon) -> str:
    """NW-6: how a weapon attacks unless the attack says otherwise: as the sheet says, else
    ranged with a magazine, melee without (ruling)."""
    return weapon.kind or ("ranged" if weapon.magazine is not None else "melee")


def weapon_summaries(sheet: NwodSheet) -> list[dict[str, object]]:
    """NW-11: each weapon's damage bonus; NW-16: its magazine, if it has one."""
    return [
        {
            "name": w.name,
            "damage_class": w.damage_class,
            "damage_bonus": DAMAGE_BONUS[w.damage_class],
            "magazine": w.magazine,
            "spare_magazines": w.spare_magazines,
            "kind": attack_kind(w),
        }
        for w in sheet.weapons
    ]
