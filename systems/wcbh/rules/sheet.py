"""We Can Be Heroes sheets (a character or a minion), campaign settings, derived-stat formulas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Discriminator, Field, RootModel, Tag

from domain.rulesets.base import MAX_ITEMS, CampaignSettings, Name, SheetModel, Text, kind_of

REQUIRED_ABILITIES = ("Agility", "Strength", "Stamina", "Intelligence", "Perception", "Will")
"""The Abilities the formulas read (WCBH-6, WCBH-23, WCBH-32); a character must rank all six."""

Rank = Annotated[
    int, Field(ge=1, le=100, description="Rank: the number of d6 rolled (WCBH-3, WCBH-7).")
]


class WcbhSettings(CampaignSettings):
    """Campaign settings of We Can Be Heroes."""

    trait_limit: int = Field(
        10,
        ge=1,
        le=100,
        description="Trait Limit: the highest rank any trait may have in this game (WCBH-4); "
        "also the baseline of Starting Resolve (WCBH-17).",
    )
    narration_table: Literal["player", "gm"] = Field(
        "player",
        description="Outcome table of checks: 'player' (the winner narrates, the loser "
        "embellishes) or 'gm' (the GM narrates every outcome) (WCBH-9).",
    )
    act_first_variant: Literal["act_first", "double_edge"] = Field(
        "act_first",
        description="What 1 Resolve buys in combat: acting first every Page from then on, or "
        "doubling Edge (WCBH-24).",
    )


class Abilities(SheetModel):
    """Ability name -> rank. The six below are required; further named Abilities (e.g. Charisma,
    Leadership: WCBH-6) may be added as extra keys."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Rank] = Field(init=False)

    Agility: Rank
    Strength: Rank
    Stamina: Rank
    Intelligence: Rank
    Perception: Rank
    Will: Rank

    def ranks(self) -> dict[str, int]:
        """Every Ability, required and extra, by name."""
        required = {name: getattr(self, name) for name in REQUIRED_ABILITIES}
        return required | dict(self.__pydantic_extra__ or {})


class Power(SheetModel):
    """A super power. Whether it can attack, defend or affect others decides whether it counts
    towards Starting Resolve (WCBH-17)."""

    rank: Rank | None = Field(
        description="Dice rolled; null for one of the few unranked powers (the source: 'most "
        "Powers have ranks').",
    )
    can_attack: bool = Field(False, description="Usable to attack (WCBH-17).")
    can_defend: bool = Field(False, description="Usable to defend (WCBH-17).")
    can_affect_others: bool = Field(
        False, description="Usable on other characters or objects (WCBH-17)."
    )
    defence: Literal["active", "passive"] | None = Field(
        None,
        description="How it defends (WCBH-28): 'active' (dodging, deflecting: halved by an area "
        "attack, usable for a redirect) or 'passive' (armour, a force field: it meets the attack "
        "without dodging, like Stamina but never halved as Stamina is against lethal attacks). "
        "Null: a Power with can_defend defends actively; any other does not defend.",
    )
    uses_per_issue: int | None = Field(
        None,
        ge=1,
        le=100,
        description="Uses per game Issue, for a Power the GM limits so (WCBH-2: some Powers' uses "
        "refresh at the start of every new Issue); each roll of it spends one (the character's "
        "`uses:<Power>` resource). Null: unlimited.",
    )
    description: Text = Field("", description="What the power does, its effects and range.")

    @property
    def counts_for_resolve(self) -> bool:
        # WCBH-17: powers that cannot attack, defend or affect others do not lower Starting Resolve.
        return self.rank is not None and (
            self.can_attack or self.defends is not None or self.can_affect_others
        )

    @property
    def defends(self) -> Literal["active", "passive"] | None:
        """WCBH-28: the kind of defence it gives, if any (``can_defend`` alone: active, as the
        service read every named defence before armour was a kind of its own)."""
        if self.rank is None:
            return None
        return self.defence or ("active" if self.can_defend else None)


class WcbhCharacter(SheetModel):
    """A hero, villain or other full character (WCBH-3)."""

    kind: Literal["character"] = Field("character", description="Form of the sheet.")
    abilities: Abilities = Field(description="Ability name -> rank (WCBH-3, WCBH-6).")
    talents: dict[Name, Rank] = Field(
        default_factory=dict,
        max_length=MAX_ITEMS,
        description="Talent name -> rank, e.g. Stealth (WCBH-6). Talents never count towards "
        "Starting Resolve (WCBH-17).",
    )
    powers: dict[Name, Power] = Field(
        default_factory=dict, max_length=MAX_ITEMS, description="Power name -> power (WCBH-3)."
    )
    perks: list[Name] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Perks, unranked (WCBH-3)."
    )
    flaws: list[Name] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="Flaws, unranked (WCBH-3); they earn Resolve when they matter (WCBH-18).",
    )


class WcbhMinion(SheetModel):
    """A minion: no separate traits, one threat rank (WCBH-3); one net success defeats it
    (WCBH-33)."""

    kind: Literal["minion"] = Field(description="Form of the sheet.")
    threat: Rank = Field(
        description="Threat rank: the dice the minion rolls for anything (WCBH-3)."
    )


class WcbhSheet(
    RootModel[
        Annotated[
            Annotated[WcbhCharacter, Tag("character")] | Annotated[WcbhMinion, Tag("minion")],
            Discriminator(kind_of("character")),
        ]
    ]
):
    """A We Can Be Heroes sheet: a full character (``kind`` "character", the default) or a
    minion."""


def round_up_half(total: int) -> int:
    """Half of ``total`` rounded up, the rounding of every halving in the game (WCBH-5)."""
    return -(-total // 2)


def health(character: WcbhCharacter) -> int:
    """WCBH-32: the better of avg(Stamina, Strength) and avg(Stamina, Will), rounded up (WCBH-5)."""
    a = character.abilities
    return round_up_half(a.Stamina + max(a.Strength, a.Will))


def edge(character: WcbhCharacter) -> int:
    """WCBH-23: Perception plus the better of Agility and Intelligence."""
    a = character.abilities
    return a.Perception + max(a.Agility, a.Intelligence)


def highest_resolve_rank(character: WcbhCharacter) -> int:
    """WCBH-17: the highest Ability or qualifying Power rank; Talents never count."""
    power_ranks = [p.rank for p in character.powers.values() if p.counts_for_resolve and p.rank]
    return max([*character.abilities.ranks().values(), *power_ranks])


def starting_resolve(character: WcbhCharacter, trait_limit: int) -> int:
    """WCBH-17: 2 x (Trait Limit - highest qualifying rank).

    Never below 0: a sheet checked under a higher limit may meet a campaign whose limit was lowered.
    """
    return 2 * max(0, trait_limit - highest_resolve_rank(character))


POWER_USES = "uses:"
"""WCBH-2: the prefix of a character's resource counting a Power's uses left this game Issue."""


def power_uses(character: WcbhCharacter) -> dict[str, int]:
    """WCBH-2: the resource name and uses per game Issue of every Power that has them."""
    return {
        POWER_USES + name: power.uses_per_issue
        for name, power in character.powers.items()
        if power.uses_per_issue is not None
    }


def limited_power(sheet: object, trait: str | None) -> str | None:
    """WCBH-2: the resource a roll of ``trait`` spends one of, if it is a Power with uses per game
    Issue (names ignore case, as the trait lookup does)."""
    if not isinstance(sheet, WcbhCharacter) or trait is None:
        return None
    for name, power in sheet.powers.items():
        if name.casefold() == trait.casefold() and power.uses_per_issue is not None:
            return POWER_USES + name
    return None


MINION_HEALTH = 1
"""WCBH-33: one net success defeats a minion, so it has one Health."""
