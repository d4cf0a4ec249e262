"""The request models of nWoD micro's commands (NW-1..NW-18): the routes validate a body into one
and hand it to the command whole (systems/nwod_micro/routes/fight.py)."""

from __future__ import annotations

from typing import ClassVar, Literal
from uuid import UUID

from pydantic import Field

from domain.requests import Recorded, Strict, seed_field

Affinity = Literal["INT", "ELG", "VIO"]
RangeBand = Literal["close", "medium", "long", "double_long"]
Condition = Literal["bad_weather", "smoke", "fog", "poor_light", "glare"]
Seed = seed_field("Your own randomness.")


class NwodSituation(Strict):
    """What the situation adds to the pool of a roll of a character's Affinity (an attack, a
    suppression roll, a roll, a side of a contest), read the same way by every command."""

    conditions: list[Condition] = Field(
        default_factory=list,
        max_length=5,
        description="NW-17: very bad weather, smoke, fog, too little or too much light: -2d10 "
        "(once, however many).",
    )
    darkness: bool = Field(
        default=False, description="NW-17: blindness or total darkness: a chance roll only (NW-5)."
    )
    merits: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="NW-3/NW-18: merits of the sheet whose dice modifier applies to this roll.",
    )
    modifier: int = Field(
        0, ge=-20, le=20, description="Other dice the GM rules for the situation (NW-17, NW-18)."
    )
    will_power: int = Field(0, ge=0, le=20, description="NW-9: Will Power spent, +3d10 each.")


class InitiativeCreate(Strict):
    character_id: UUID
    modifier: int = Field(0, ge=-10, le=10, description="A merit's modifier, as written (NW-18).")
    client_seed: str | None = Seed


class AttackCreate(NwodSituation, Recorded):
    # roll requests recorded before the command took its body whole held `range` as `range_band`
    recorded_renamed: ClassVar[dict[str, str]] = {"range_band": "range"}

    attacker_id: UUID
    target_ids: list[UUID] = Field(
        min_length=1,
        max_length=10,
        description="One target; a long burst up to three (the 2nd -1 DMG, the 3rd -2 DMG); "
        "suppressive fire any in the area (NW-15).",
    )
    kind: Literal["melee", "ranged"] | None = Field(
        None,
        description="NW-6: melee subtracts the target's Defense; ranged does not. Left out: the "
        "maneuver's (bursts ranged, reckless melee), else the weapon's (its sheet `kind`; ranged "
        "with a magazine, melee without), else melee.",
    )
    maneuver: Literal[
        "standard", "precise", "short_burst", "long_burst", "suppressive", "reckless"
    ] = Field(
        "standard",
        description="NW-15: standard shot/strike; precise shot -2d10; short burst +1d10 (3-5 "
        "rounds); long burst +2d10 (15-20 rounds, up to 3 targets); suppressive fire +2d10 "
        "(20-30 rounds); reckless melee attack +2d10 (DEF 0 until the attacker's next turn).",
    )
    weapon: str | None = Field(
        default=None, min_length=1, max_length=80, description="A weapon of the sheet (NW-11)."
    )
    rounds: int | None = Field(
        default=None, ge=1, le=100, description="Rounds a burst or suppressive fire spends (NW-16)."
    )
    range: RangeBand = Field(
        "close", description="NW-17: medium -2d10, long -4d10, double long -6d10."
    )
    sneak: bool = Field(
        default=False, description="NW-15: the target cannot see the attacker: no Defense."
    )
    hit_location: str | None = Field(
        default=None, min_length=1, max_length=80, description="A precise shot's aim (NW-15)."
    )
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ActionCreate(Strict):
    character_id: UUID
    maneuver: Literal["aim", "walk", "run", "sprint", "take_cover", "defend", "dodge", "reload"] = (
        Field(
            description="NW-15: aim (1 action, at most 3), walk (free), run (1), sprint (all), "
            "take cover (1), defend (all: doubles DEF), dodge (1; with a run or sprint no more, "
            "a walk while dodging 1), reload (1, a spare magazine, NW-16)."
        )
    )
    cover: Literal["partial", "full"] | None = Field(default=None, description="NW-13.")
    cover_durability: int = Field(
        0, ge=0, le=20, description="The DUR of full cover, added to armour against attacks."
    )
    weapon: str | None = Field(default=None, min_length=1, max_length=80)
    dodge: bool = Field(
        default=False,
        description="NW-15: dodge with the movement: no extra action for a run or sprint; a walk "
        "while dodging costs the dodge's one action.",
    )
    difficult_terrain: bool = Field(default=False, description="NW-17: -50% speed.")


class WillPowerCreate(Strict):
    character_id: UUID
    boost: Literal["defense", "initiative"] = Field(
        description="NW-9: +2 Defense until the fighter's next turn, or +2 Initiative this turn."
    )
    points: int = Field(1, ge=1, le=10)


class TurnEnd(Strict):
    character_id: UUID


class TurnOverride(Strict):
    character_id: UUID
    grant: Literal["act_out_of_turn", "extra_action"] = Field(
        description="NW-14: act now though it is not its turn (its actions count as usual); "
        "NW-15: one action more this turn."
    )
    reason: str = Field(min_length=1, max_length=200, description="The GM's reason, recorded.")


class TakeOut(Strict):
    character_id: UUID
    reason: str = Field(
        min_length=1,
        max_length=200,
        description="NW-8: why the fighter leaves the fight (0 Health: what it means is the GM's).",
    )


class SuppressionRollCreate(NwodSituation):
    character_id: UUID
    client_seed: str | None = Seed


class NwodRollCreate(NwodSituation):
    character_id: UUID
    affinity: Affinity = Field(description="The Affinity the GM picked (NW-1).")
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ContestSide(NwodSituation):
    character_id: UUID
    affinity: Affinity


class NwodContestCreate(Strict):
    sides: list[ContestSide] = Field(min_length=2, max_length=10)
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed
