"""Nimble sheets (a hero, or a monster / monster group), campaign settings and derived stats."""

from __future__ import annotations

from math import ceil
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Discriminator, Field, RootModel, Tag, model_validator
from pydantic_core import PydanticCustomError

from domain.rulesets.base import MAX_ITEMS, CampaignSettings, Name, SheetModel, Text, kind_of
from systems.nimble.rules.attack_dice import parse_attack_dice

HERO_ACTIONS = 3
"""NB-7: a hero has 3 actions per turn."""


def _check_dice(text: str) -> str:
    parse_attack_dice(text)
    return text


DiceExpression = Annotated[
    str,
    AfterValidator(_check_dice),
    Field(
        min_length=1,
        max_length=100,
        description="Attack dice: NdM terms and constants joined by + or -, e.g. '2d6+3' (NB-9).",
        examples=["1d8+2", "2d6", "3"],
    ),
]
StatValue = Annotated[int, Field(ge=-5, le=20)]
MAX_TIER = 9
SpellTier = Annotated[
    int | None,
    Field(
        ge=0,
        le=MAX_TIER,
        description="NB-12: a spell's tier, the mana casting it costs (0: a cantrip, free); null "
        "(the default, and every sheet written before tiers): not a spell, no mana.",
    ),
]
Upcast = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_TIER,
        description="NB-12: the most extra mana the spell takes for a stronger effect (0, the "
        "default: it does not scale); the caster chooses how much, up to this and its mana.",
    ),
]


class NimbleSettings(CampaignSettings):
    """Campaign settings of Nimble."""

    max_wounds: int = Field(
        6,
        ge=2,
        le=6,
        description="Wounds at which a hero dies: 6, or 5 down to 2 for harder and deadlier games "
        "(NB-22).",
    )


class Stats(SheetModel):
    """The four Nimble stats (modifiers)."""

    STR: StatValue = Field(
        description="Strength; STR saves resist Dying and keep Concentration (NB-21, NB-25)."
    )
    DEX: StatValue = Field(description="Dexterity; the usual Initiative bonus (NB-1).")
    INT: StatValue = Field(description="Intelligence.")
    WIL: StatValue = Field(description="Will.")


class Attack(SheetModel):
    """An attack or damaging spell (NB-9)."""

    name: Name = Field(description="Short name, e.g. 'Longsword'.")
    dice: DiceExpression
    primary_die: bool = Field(
        True,
        description="Whether the leftmost die is a Primary die that misses on 1 and crits on its "
        "maximum (NB-9). False for fixed damage and d44/d66/d88 spells (NB-14).",
    )
    area: bool = Field(False, description="An area attack: cannot miss or crit (NB-11).")
    tier: SpellTier = None
    upcast: Upcast = 0
    description: Text = Field("", description="Range, targets, effects.")


class Spell(SheetModel):
    """A spell cast with an action rather than an attack roll, e.g. a ward or a heal (NB-12)."""

    name: Name = Field(description="Short name, e.g. 'Ward'.")
    tier: int = Field(
        ge=0, le=MAX_TIER, description="NB-12: its tier, the mana it costs (0: a cantrip)."
    )
    upcast: Upcast = 0
    description: Text = Field("", description="Range, targets, effects, what extra mana adds.")


class NimbleHero(SheetModel):
    """A hero."""

    kind: Literal["hero"] = Field("hero", description="Form of the sheet.")
    stats: Stats
    skills: dict[Name, Annotated[int, Field(ge=-10, le=30)]] = Field(
        default_factory=dict,
        max_length=MAX_ITEMS,
        description="Skill name -> modifier, e.g. Might, Finesse, Stealth (NB-14, NB-24, NB-26).",
    )
    max_hp: int = Field(ge=1, le=9999, description="Maximum hit points (NB-20).")
    armor: int = Field(0, ge=0, le=100, description="Armor: damage removed by Defend (NB-16).")
    speed: int = Field(6, ge=0, le=100, description="Squares moved per Move action (NB-13).")
    initiative_bonus: int | None = Field(
        None,
        ge=-10,
        le=30,
        description="Added to the d20 Initiative roll; null means DEX (NB-1).",
    )
    mana: int = Field(0, ge=0, le=999, description="Maximum mana; a spell costs its tier (NB-12).")
    attacks: list[Attack] = Field(default_factory=list, max_length=MAX_ITEMS)
    spells: list[Spell] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="NB-12: spells cast without an attack roll (attack spells are `attacks` with a "
        "`tier`).",
    )


class NimbleMonster(SheetModel):
    """A monster, or a group of identical monsters that takes one turn together (NB-3, NB-4)."""

    kind: Literal["monster"] = Field(description="Form of the sheet.")
    count: int = Field(1, ge=1, le=100, description="Creatures in the group (NB-3, NB-4).")
    hp: int = Field(ge=1, le=9999, description="Hit points of each creature (NB-20).")
    armor: int = Field(0, ge=0, le=100, description="Damage removed from each hit (NB-16).")
    speed: int = Field(6, ge=0, le=100, description="Squares per move (NB-13).")
    attacks: list[Attack] = Field(default_factory=list, max_length=MAX_ITEMS)
    description: Text = Field("", description="Tactics, abilities, weaknesses.")

    @model_validator(mode="after")
    def _no_mana(self) -> NimbleMonster:
        # Ruling (NB-12): mana is a hero's pool; a monster has none to pay a tier with, so a tier
        # on its sheet would promise a cost the service never charges.
        for i, attack in enumerate(self.attacks):
            if attack.tier is not None or attack.upcast:
                raise PydanticCustomError(
                    "monster_spell_tier",
                    "attacks.{index}: a monster has no mana, so its attacks carry no tier or "
                    "upcast (NB-12)",
                    {"index": i},
                )
        return self


class NimbleSheet(
    RootModel[
        Annotated[
            Annotated[NimbleHero, Tag("hero")] | Annotated[NimbleMonster, Tag("monster")],
            Discriminator(kind_of("hero")),
        ]
    ]
):
    """A Nimble sheet: a hero (``kind`` "hero", the default) or a monster / monster group."""


def initiative_bonus(hero: NimbleHero) -> int:
    """NB-1: the sheet's Initiative bonus, usually DEX."""
    return hero.stats.DEX if hero.initiative_bonus is None else hero.initiative_bonus


def attack_summary(attack: Attack) -> dict[str, Any]:
    """NB-9/NB-11/NB-14: which die, if any, is the Primary die that can miss and crit."""
    faces = parse_attack_dice(attack.dice).primary_faces
    primary = faces is not None and attack.primary_die and not attack.area
    return {
        "name": attack.name,
        "dice": attack.dice,
        "primary_die": f"d{faces}" if primary else None,
    }


def group_hp(monster: NimbleMonster) -> int:
    """Ruling: a group's hit points are one pool, each creature's HP times the count."""
    return monster.hp * monster.count


def members_left(each_hp: int, hp: int) -> int:
    """Ruling (NB-3/NB-4 groups): the pooled HP fell members one by one, each after its own HP
    are gone, so a group has as many members left as the HP left hold started members
    (4 rats of 3 HP at 3 of 12 HP: 1 rat)."""
    return ceil(max(0, hp) / each_hp)
