"""nWoD micro checks: an Affinity's d10 pool, 8+ succeeds, 10s explode (NW-4), the chance roll
(NW-5), melee minus Defense (NW-6, NW-10), Will Power dice (NW-9) and weapon damage (NW-11)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Face, Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    Name,
    Odds,
    RequestModel,
    form_of,
    named_or_given,
    purpose_field,
)
from systems.nwod_micro.odds import nwod_chance, nwod_pool
from systems.nwod_micro.rules.sheet import DAMAGE_BONUS, NwodSheet

SIDES = 10
SUCCESS_FROM = 8  # NW-4
DICE_PER_WILL_POWER = 3  # NW-9
MAX_POOL = 100


def explodes(face: int) -> bool:
    """NW-4: every 10 is rolled again, and the new die may succeed and explode in its turn."""
    return face == SIDES


class PoolRequest(RequestModel):
    """A roll of an Affinity's d10 pool with modifiers."""

    affinity: Literal["INT", "ELG", "VIO"] | None = Field(
        None,
        description="The Affinity the GM picked (NW-1); omit with `pool` for a raw roll.",
    )
    pool: int | None = Field(
        None,
        ge=0,
        le=MAX_POOL,
        description="Explicit Affinity value (dice) for a GM's raw roll without a character; "
        "not with `affinity`.",
    )
    modifier: int = Field(
        0,
        ge=-MAX_POOL,
        le=MAX_POOL,
        description="Dice added or taken away: situation (NW-17), maneuvers (NW-15), cover "
        "(NW-13), merits and gear as written (NW-18).",
    )
    kind: Literal["universal", "melee", "ranged"] = Field(
        "universal",
        description="NW-6: universal (win on any success), melee (VIO - target's Defense, "
        "damage on success) or ranged (Defense not subtracted, damage on success).",
    )
    target_defense: int | None = Field(
        None,
        ge=0,
        le=MAX_POOL,
        description="The target's DEF, subtracted from a melee pool (NW-10); melee only.",
    )
    will_power: int = Field(
        0,
        ge=0,
        le=MAX_POOL,
        description="Will Power points spent on this roll before it: +3d10 each (NW-9).",
    )
    weapon: Name | None = Field(
        None, description="A weapon on the sheet: its class adds damage on a hit (NW-11)."
    )
    damage_bonus: int | None = Field(
        None,
        ge=0,
        le=4,
        description="Explicit weapon damage bonus (1-4, NW-11) for a raw roll; not with `weapon`.",
    )
    target_armor: int = Field(
        0, ge=0, le=MAX_POOL, description="The target's ARM or DUR, subtracted from damage (NW-11)."
    )
    purpose: str = purpose_field()


class PoolCheck(Check[PoolRequest]):
    name: ClassVar[str] = "pool"
    description: ClassVar[str] = (
        "Roll Affinity + modifiers (- the target's Defense in melee) + 3 per Will Power in d10: "
        "8, 9, 10 succeed, every 10 rolls again; a pool of 0 or less is one chance die that "
        "succeeds only on 10. Attacks add the weapon's damage on a hit. Score: successes."
    )
    rules: ClassVar[tuple[str, ...]] = (
        "NW-4",
        "NW-5",
        "NW-6",
        "NW-9",
        "NW-10",
        "NW-11",
    )
    Request: ClassVar[type[BaseModel]] = PoolRequest
    sheet_fields: ClassVar[tuple[str, ...]] = (
        "pool",
        "damage_bonus",
        "target_defense",
        "target_armor",
    )
    modifier_fields: ClassVar[tuple[str, ...]] = ("modifier",)

    def example(self) -> dict[str, Any]:
        return {
            "affinity": "VIO",
            "kind": "ranged",
            "modifier": -2,
            "weapon": "Assault rifle",
            "purpose": "Shoot the sentry at medium range",
        }

    def cost(self, request: PoolRequest) -> dict[str, int]:
        return {"will_power": request.will_power}

    def roll(self, asked: Asked[PoolRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        affinity, value = affinity_value(req, asked.sheet)
        bonus = damage_bonus(req, asked.sheet)
        pool = pool_size(req, value)
        if pool > 0:
            faces = roller.roll(SIDES, pool, explodes=explodes, label="pool")
        else:
            faces = roller.roll(SIDES, 1, explodes=explodes, label="chance")
        return evaluate(req, affinity, value, pool, bonus, faces)

    def odds(self, asked: Asked[PoolRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        _, value = affinity_value(req, asked.sheet)
        pool = pool_size(req, value)
        successes = nwod_pool(pool) if pool > 0 else nwod_chance()
        return Odds(successes.at_least(1), successes.at_least(outcome.score))


def pool_size(req: PoolRequest, affinity: int) -> int:
    """NW-6/NW-10: Affinity ± modifiers, minus the target's DEF in melee; NW-9: +3 dice per Will
    Power. Ruling: Will Power dice count before the chance-roll test, so they can lift a pool out
    of a chance roll."""
    defense = req.target_defense or 0
    if req.kind != "melee" and req.target_defense is not None:
        raise InvalidInput(
            "Defense is subtracted only from melee attacks (NW-6, NW-10)",
            field="request.target_defense",
            rule="NW-10",
        )
    return affinity + req.modifier - defense + DICE_PER_WILL_POWER * req.will_power


def affinity_value(req: PoolRequest, sheet: BaseModel | None) -> tuple[str | None, int]:
    return named_or_given(
        req.affinity,
        req.pool,
        sheet,
        lambda sheet, name: getattr(form_of(sheet, NwodSheet).affinities, name),
        fields=("affinity", "pool"),
        named="Affinity",
    )


def damage_bonus(req: PoolRequest, sheet: BaseModel | None) -> int | None:
    """NW-11: the weapon's damage bonus, or the explicit one; None when no weapon is used."""
    if req.weapon is None and req.damage_bonus is None:
        return None
    if req.kind == "universal":
        field = "request.weapon" if req.weapon is not None else "request.damage_bonus"
        raise InvalidInput("weapons add damage only to melee and ranged attacks", field=field)
    if req.damage_bonus is not None:
        if req.weapon is not None:
            raise InvalidInput("give a weapon or a damage_bonus, not both", field="request.weapon")
        return req.damage_bonus
    if sheet is None:
        raise InvalidInput(
            "a roll without a character needs an explicit damage_bonus", field="request.weapon"
        )
    weapons = form_of(sheet, NwodSheet).weapons
    for weapon in weapons:
        if weapon.name.casefold() == str(req.weapon).casefold():
            return DAMAGE_BONUS[weapon.damage_class]
    raise InvalidInput(
        f"the sheet has no weapon {req.weapon!r}",
        field="request.weapon",
        details={"known": [w.name for w in weapons]},
    )


def face_successes(face: Face, chance: bool) -> int:
    """NW-4: 8, 9, 10 succeed; NW-5: the chance die itself only on 10 (its rerolls as usual)."""
    if chance and face.exploded_from is None:
        return 1 if face.face == SIDES else 0
    return 1 if face.face >= SUCCESS_FROM else 0


def evaluate(
    req: PoolRequest,
    affinity: str | None,
    value: int,
    pool: int,
    bonus: int | None,
    faces: list[Face],
) -> CheckOutcome:
    chance = pool <= 0
    kept = [f for f in faces if f.kept]
    successes = sum(face_successes(f, chance) for f in kept)
    hit = successes >= 1
    attack = req.kind != "universal"
    damage = None
    if attack:
        # NW-8/NW-11: each success removes 1 Health; the weapon adds to successes on a hit only.
        damage = max(0, successes + (bonus or 0) - req.target_armor) if hit else 0
    result = {
        "affinity": affinity,
        "affinity_value": value,
        "kind": req.kind,
        "pool": pool,
        "chance_roll": chance,
        "dice": sum(1 for f in kept if f.exploded_from is None),
        "exploded": sum(1 for f in kept if f.exploded_from is not None),
        "successes": successes,
        "net": successes,
        "outcome": "success" if hit else "failure",
        "success": hit,
        "will_power": req.will_power,
        "damage_bonus": bonus,
        "target_armor": req.target_armor if attack else None,
        "damage": damage,
    }
    return CheckOutcome(result, successes, hit)


CHECKS: dict[str, Check] = {PoolCheck.name: PoolCheck()}

__all__ = ["CHECKS", "PoolCheck", "PoolRequest", "evaluate", "face_successes", "pool_size"]
