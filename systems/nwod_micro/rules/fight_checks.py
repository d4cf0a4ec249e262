"""nWoD micro firefight checks: Initiative 1d10 + INT (NW-14) and the fight roll, a d10 pool with
every modifier itemised (maneuvers NW-15, cover NW-13, situation and range NW-17, merits NW-18,
Will Power NW-9), Defense (NW-10), chance rolls (NW-5, NW-17) and damage (NW-8, NW-11).

Every number the roll uses is in its request, so the record recomputes offline (docs/fair-dice.md);
the firefight verbs (systems/nwod_micro/commands/fight.py) fill the request from the sheet and the scene.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.odds import Distribution
from domain.dice.roller import Roller
from domain.errors import InvalidInput
from domain.rulesets.base import Asked, Check, CheckOutcome, Name, Odds, RequestModel, Text, form_of
from systems.nwod_micro.odds import nwod_chance, nwod_pool
from systems.nwod_micro.rules.checks import DICE_PER_WILL_POWER, SIDES, explodes, face_successes
from systems.nwod_micro.rules.sheet import NwodSheet

MAX = 100


class InitiativeRequest(RequestModel):
    intelligence: int = Field(ge=0, le=MAX, description="The character's INT (NW-14).")
    modifier: int = Field(
        0, ge=-20, le=20, description="A merit's or the GM's modifier, as written (NW-18)."
    )
    purpose: Text = ""


class InitiativeCheck(Check[InitiativeRequest]):
    name: ClassVar[str] = "initiative"
    description: ClassVar[str] = "Initiative: 1d10 + INT (+ modifier); higher acts first."
    rules: ClassVar[tuple[str, ...]] = ("NW-14", "NW-18")
    Request: ClassVar[type[BaseModel]] = InitiativeRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/nwod/initiative"

    def example(self) -> dict[str, Any]:
        return {"intelligence": 2}

    def roll(self, asked: Asked[InitiativeRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        _check_sheet_value(asked.sheet, "INT", req.intelligence, "request.intelligence")
        face = roller.roll(SIDES, 1, label="initiative")[0].face
        total = face + req.intelligence + req.modifier
        result = {
            "roll": face,
            "intelligence": req.intelligence,
            "modifier": req.modifier,
            "total": total,
        }
        return CheckOutcome(result, total, None)

    def odds(self, asked: Asked[InitiativeRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        base = req.intelligence + req.modifier
        dist = Distribution.of({base + face: 1 / SIDES for face in range(1, SIDES + 1)})
        return Odds(None, dist.at_least(outcome.score))


class Modifier(RequestModel):
    source: Name = Field(description="Where the dice come from (maneuver, cover, range, merit…).")
    dice: int = Field(ge=-MAX, le=MAX)
    rule: str = Field("", max_length=20, description="The rule id behind it.")


class FightRollRequest(RequestModel):
    kind: Literal["universal", "melee", "ranged"] = Field(
        "universal", description="NW-6: universal, melee (minus DEF) or ranged."
    )
    affinity: Literal["INT", "ELG", "VIO"] = "VIO"
    affinity_value: int = Field(ge=0, le=MAX, description="The Affinity's dice (NW-1).")
    modifiers: list[Modifier] = Field(default_factory=list, max_length=40)
    target_defense: int = Field(
        0, ge=0, le=MAX, description="Defense subtracted from the pool (NW-10, NW-15)."
    )
    chance_only: bool = Field(
        False, description="Blindness or total darkness: a chance roll whatever the pool (NW-17)."
    )
    will_power: int = Field(0, ge=0, le=MAX, description="+3d10 each (NW-9).")
    damage_bonus: int = Field(0, ge=0, le=4, description="The weapon's class (NW-11).")
    damage_penalty: int = Field(
        0, ge=0, le=2, description="Long burst: second target -1, third -2 DMG (NW-15)."
    )
    target_armor: int = Field(
        0, ge=0, le=2 * MAX, description="ARM/DUR plus a full cover's DUR (NW-11, NW-13)."
    )
    target_health: int | None = Field(None, ge=0, le=MAX, description="Health before the hit.")
    purpose: Text = ""


class FightRollCheck(Check[FightRollRequest]):
    name: ClassVar[str] = "fight_roll"
    description: ClassVar[str] = (
        "A firefight roll: Affinity + itemised modifiers - Defense + 3 per Will Power in d10 "
        "(8+ succeeds, 10s roll again); a pool of 0 or less, or total darkness, is one chance die. "
        "An attack that hits deals successes + weapon damage - penalty - armour (not below 0)."
    )
    rules: ClassVar[tuple[str, ...]] = (
        "NW-4",
        "NW-5",
        "NW-6",
        "NW-8",
        "NW-9",
        "NW-10",
        "NW-11",
        "NW-13",
        "NW-15",
        "NW-17",
        "NW-18",
    )
    Request: ClassVar[type[BaseModel]] = FightRollRequest
    verb: ClassVar[str | None] = (
        "POST /v1/scenes/{id}/nwod/attacks, .../rolls, .../suppression-rolls or .../contests"
    )

    def example(self) -> dict[str, Any]:
        return {
            "kind": "ranged",
            "affinity": "VIO",
            "affinity_value": 4,
            "modifiers": [{"source": "medium range", "dice": -2, "rule": "NW-17"}],
            "damage_bonus": 2,
            "target_armor": 1,
            "target_health": 7,
        }

    def cost(self, request: FightRollRequest) -> dict[str, int]:
        return {"will_power": request.will_power}

    def roll(self, asked: Asked[FightRollRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        _check_sheet_value(asked.sheet, req.affinity, req.affinity_value, "request.affinity_value")
        _check_request(req)
        pool = fight_pool(req)
        chance = pool <= 0 or req.chance_only
        faces = roller.roll(SIDES, 1 if chance else pool, explodes=explodes, label="pool")
        kept = [f for f in faces if f.kept]
        successes = sum(face_successes(f, chance) for f in kept)
        return CheckOutcome(fight_result(req, pool, chance, successes), successes, successes >= 1)

    def odds(self, asked: Asked[FightRollRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        pool = fight_pool(req)
        dist = nwod_chance() if pool <= 0 or req.chance_only else nwod_pool(pool)
        return Odds(dist.at_least(1), dist.at_least(outcome.score))


def fight_pool(req: FightRollRequest) -> int:
    """NW-4/6/9/10: Affinity + modifiers - Defense + 3 dice per Will Power point."""
    return (
        req.affinity_value
        + sum(m.dice for m in req.modifiers)
        - req.target_defense
        + DICE_PER_WILL_POWER * req.will_power
    )


def fight_damage(successes: int, bonus: int, penalty: int, armor: int) -> int:
    """NW-8/NW-11: on a hit, successes + weapon damage (- a long burst's penalty) - armour,
    never below 0; nothing on a miss."""
    if successes < 1:
        return 0
    return max(0, successes + max(0, bonus - penalty) - armor)


def fight_result(req: FightRollRequest, pool: int, chance: bool, successes: int) -> dict[str, Any]:
    attack = req.kind != "universal"
    damage = fight_damage(successes, req.damage_bonus, req.damage_penalty, req.target_armor)
    health = req.target_health
    after = max(0, health - damage) if attack and health is not None else None
    return {
        "kind": req.kind,
        "affinity": req.affinity,
        "affinity_value": req.affinity_value,
        "modifier_dice": sum(m.dice for m in req.modifiers),
        "target_defense": req.target_defense,
        "will_power": req.will_power,
        "pool": pool,
        "chance_roll": chance,
        "successes": successes,
        "success": successes >= 1,
        "outcome": "success" if successes >= 1 else "failure",
        "damage_bonus": req.damage_bonus if attack else None,
        "damage_penalty": req.damage_penalty if attack else None,
        "target_armor": req.target_armor if attack else None,
        "damage": damage if attack else None,
        "target_health": after,
        "target_at_zero": after == 0 if after is not None else None,
    }


def _check_request(req: FightRollRequest) -> None:
    if req.kind == "universal" and (
        req.target_defense or req.damage_bonus or req.damage_penalty or req.target_armor
    ):
        raise InvalidInput(
            "Defense, weapons and armour are for melee and ranged attacks",
            field="request.kind",
            rule="NW-6",
        )


def _check_sheet_value(sheet: BaseModel | None, affinity: str, value: int, field: str) -> None:
    """With a character, the Affinity in the request is the sheet's (NW-1)."""
    if sheet is None:
        return
    have = getattr(form_of(sheet, NwodSheet).affinities, affinity)
    if have != value:
        raise InvalidInput(
            f"the sheet's {affinity} is {have}, not {value}", field=field, rule="NW-1"
        )


FIGHT_CHECKS: dict[str, Check] = {
    InitiativeCheck.name: InitiativeCheck(),
    FightRollCheck.name: FightRollCheck(),
}

__all__ = [
    "FIGHT_CHECKS",
    "FightRollCheck",
    "FightRollRequest",
    "InitiativeCheck",
    "fight_damage",
    "fight_pool",
]
