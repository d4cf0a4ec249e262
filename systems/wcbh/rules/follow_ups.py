"""We Can Be Heroes follow-ups: Resolve spent after seeing a roll (WCBH-20b dice, WCBH-20c reroll),
on a trait check or on an attack (WCBH-13..15, 20: "any roll").

On an attack each side's Resolve works on its own dice (`side`: the attacker's, or the target's on
its defence), and the hit (damage, Health, defeat: WCBH-31, 33) is decided again from both. Follow-ups
of one roll combine in order: each reads the dice as the earlier ones left them (`chained`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Face, Roller
from domain.errors import InvalidInput
from domain.rulesets.base import CheckOutcome, FollowUp, FollowUpRoll, Odds, RequestModel
from systems.wcbh.odds import wcbh_pool
from systems.wcbh.rules.attack import AttackRequest
from systems.wcbh.rules.checks import (
    MAX_POOL,
    SIDES,
    TraitRequest,
    _explodes,
    evaluate,
    face_successes,
    resolve_dice,
    trait_rank,
)
from systems.wcbh.rules.combat import Defence, best_defence, hit

ATTACKER_LABELS = ("attack", "resolve")
DEFENDER_LABELS = ("defence", "defence_resolve")


Side = Literal["attack", "defence"]
SIDE_DESCRIPTION = (
    "Whose dice: `attack` (the roller's; on an attack, the attacker's) or `defence` (an attack's "
    "target spends on its defence; the caller must act for the target)."
)


class ResolveDiceRequest(RequestModel):
    """Resolve spent after seeing the roll for more dice (WCBH-20b)."""

    resolve: int = Field(
        ge=1, le=MAX_POOL, description="Resolve spent: 1 die each, 3 in a Decisive Moment."
    )
    side: Side = Field("attack", description=SIDE_DESCRIPTION)


class ResolveRerollRequest(RequestModel):
    """1 Resolve rerolls every die of the roll, Resolve dice included (WCBH-20c)."""

    side: Side = Field("attack", description=SIDE_DESCRIPTION)


def _payer(original: BaseModel, request: BaseModel) -> str | None:
    """The target pays for Resolve on its defence; None: the roller pays."""
    if getattr(request, "side", "attack") != "defence":
        return None
    if not isinstance(original, AttackRequest):
        raise InvalidInput(
            "only an attack has a defence to spend Resolve on",
            field="request.side",
            rule="WCBH-20b",
        )
    if original.target_id is None:
        raise InvalidInput(
            "this attack roll names no target to spend Resolve on its defence",
            field="request.side",
            rule="WCBH-20b",
        )
    return str(original.target_id)


def _defends(roll: FollowUpRoll) -> bool:
    return getattr(roll.request, "side", "attack") == "defence"


def _allowed(original: BaseModel, outcome: CheckOutcome) -> str | None:
    """Ruling: Resolve works on a trait check and on a plain or all-out attack of one character on
    another. An attack with a club, a defending ally, a charge's collision, an effect, a team's
    exploding dice or a declared redirect rolls several parties' dice in one record; re-deciding
    those from the attacker's dice alone is not supported, and it is refused."""
    if isinstance(original, TraitRequest):
        return None
    if not isinstance(original, AttackRequest):
        return "Resolve after the roll works on trait checks and attacks only (WCBH-20b, 20c)"
    parts = {
        "a club": original.club is not None,
        "a defending ally": original.guard is not None,
        "a charge": original.charger is not None,
        "an effect": original.effect is not None,
        "a team attack": original.team,
        "a declared redirect": original.redirect,
    }
    named = [name for name, present in parts.items() if present]
    if named:
        return (
            f"Resolve after the roll is not supported on an attack with {named[0]}: it works on "
            "a plain or all-out attack (WCBH-20b, 20c)"
        )
    return None


def attack_outcome(req: AttackRequest, faces: list[Face]) -> CheckOutcome:
    """The attack read again from its kept dice: the attacker's (attack and Resolve dice) against
    the defence as rolled; damage, Health and defeat by WCBH-31, 33 from the Health before it."""
    attack = sum(face_successes(f.face) for f in faces if f.kept and f.label in ATTACKER_LABELS)
    defence = sum(face_successes(f.face) for f in faces if f.kept and f.label in DEFENDER_LABELS)
    used = best_defence(
        [Defence(d.name, d.rank, d.active) for d in req.defences],
        lethal=req.lethal,
        halve_active=req.halve_active,
        halve_passive=req.halve_passive,
    )
    done = hit(attack, defence, req.target_health, minion=req.minion)
    result = {
        "attack_successes": attack,
        "defence": used.name,
        "defence_rank": used.rank,
        "defence_successes": defence,
        "net": done.net,
        "target_id": req.target_id,
        "damage": done.damage,
        "health": done.health,
        "defeated": done.defeated,
        "success": done.net >= 1,
    }
    if req.target_id is None:
        del result["target_id"]
    return CheckOutcome(result, done.net, done.net >= 1)


def _apply_resolve_dice(roll: FollowUpRoll, roller: Roller) -> CheckOutcome:
    assert isinstance(roll.request, ResolveDiceRequest)
    if isinstance(roll.original, AttackRequest) and _defends(roll):
        # WCBH-20b: 1 die each on the target's defence; the attacker's Decisive Moment is not the
        # target's (WCBH-13), so they never explode
        added = roller.roll(SIDES, roll.request.resolve, label="defence_resolve")
        return attack_outcome(roll.original, roll.faces + added)
    if isinstance(roll.original, AttackRequest):
        # WCBH-20b: 1 die each; WCBH-13: 3 each, exploding, in the attacker's Decisive Moment
        moment = roll.original.decisive_moment
        added = roller.roll(
            SIDES,
            resolve_dice(roll.request.resolve, moment),
            explodes=_explodes(roll.original.explodes),
            label="resolve",
        )
        return attack_outcome(roll.original, roll.faces + added)
    assert isinstance(roll.original, TraitRequest)
    trait, rank = trait_rank(roll.original, roll.sheet)
    dice = resolve_dice(roll.request.resolve, roll.original.decisive_moment)
    explodes = _explodes(roll.original.decisive_moment)
    added = roller.roll(SIDES, dice, explodes=explodes, label="resolve")
    return evaluate(roll.original, trait, rank, roll.faces + added, roll.settings)


def _odds_resolve_dice(roll: FollowUpRoll, outcome: CheckOutcome) -> Odds:
    """Given the roll already seen: the chance the added dice bring success / this many."""
    assert isinstance(roll.request, ResolveDiceRequest)
    if isinstance(roll.original, AttackRequest) and _defends(roll):
        # the hit stands while the defence's successes stay below the attack's
        attack = int(outcome.result["attack_successes"])
        defence = _successes(roll.faces, DEFENDER_LABELS)
        added = wcbh_pool(roll.request.resolve, False)
        return Odds(
            added.at_most(attack - defence - 1), added.at_most(attack - defence - outcome.score)
        )
    if isinstance(roll.original, AttackRequest):
        attack = sum(
            face_successes(f.face) for f in roll.faces if f.kept and f.label in ATTACKER_LABELS
        )
        before = attack - int(outcome.result["defence_successes"])
        moment = roll.original.decisive_moment
        added = wcbh_pool(resolve_dice(roll.request.resolve, moment), roll.original.explodes)
        return Odds(added.at_least(1 - before), added.at_least(outcome.score - before))
    assert isinstance(roll.original, TraitRequest)
    before = sum(face_successes(f.face) for f in roll.faces if f.kept)
    dice = resolve_dice(roll.request.resolve, roll.original.decisive_moment)
    added = wcbh_pool(dice, roll.original.decisive_moment)
    return Odds(
        added.at_least(roll.original.difficulty + 1 - before),
        added.at_least(outcome.score - before),
    )


def _successes(faces: list[Face], labels: tuple[str, ...]) -> int:
    return sum(face_successes(f.face) for f in faces if f.kept and f.label in labels)


def _rerolled_now(faces: list[Face], labels: tuple[str, ...]) -> int:
    """The dice of ``labels`` a reroll replaces: those no earlier die replaced (explosion dice go
    with their die). Read from the dice before the reroll, its own marks aside: an unrevealed
    roll's odds are checked without replaying it."""
    replaced = {f.reroll_of for f in faces if f.reroll_of is not None}
    return sum(
        1
        for f in faces
        if f.label in labels and f.exploded_from is None and f.index not in replaced
    )


def _apply_resolve_reroll(roll: FollowUpRoll, roller: Roller) -> CheckOutcome:
    if isinstance(roll.original, AttackRequest) and _defends(roll):
        # WCBH-20c: every die of the target's defence, its Resolve dice too; they never explode
        mine = [f for f in roll.faces if f.kept and f.label in DEFENDER_LABELS]
        return attack_outcome(roll.original, roll.faces + roller.reroll(mine))
    if isinstance(roll.original, AttackRequest):
        # WCBH-20c: every die of the attacker's; the defender's dice are the defender's. As on a
        # trait check, explosion dice go with the die that set them off (WCBH-13, 47).
        mine = [
            f
            for f in roll.faces
            if f.kept and f.label in ATTACKER_LABELS and f.exploded_from is None
        ]
        for face in roll.faces:
            if face.label in ATTACKER_LABELS and face.exploded_from is not None:
                face.kept = False
        new = roller.reroll(mine, explodes=_explodes(roll.original.explodes))
        return attack_outcome(roll.original, roll.faces + new)
    assert isinstance(roll.original, TraitRequest)
    trait, rank = trait_rank(roll.original, roll.sheet)
    # Explosion dice belong to the die that set them off: they go with it, and the new die
    # sets off its own chain in a Decisive Moment.
    rolled = [f for f in roll.faces if f.kept and f.exploded_from is None]
    for face in roll.faces:
        if face.exploded_from is not None:
            face.kept = False
    new = roller.reroll(rolled, explodes=_explodes(roll.original.decisive_moment))
    return evaluate(roll.original, trait, rank, roll.faces + new, roll.settings)


def _odds_resolve_reroll(roll: FollowUpRoll, outcome: CheckOutcome) -> Odds:
    if isinstance(roll.original, AttackRequest) and _defends(roll):
        pool = wcbh_pool(_rerolled_now(roll.faces, DEFENDER_LABELS), False)
        attack = int(outcome.result["attack_successes"])
        return Odds(pool.at_most(attack - 1), pool.at_most(attack - outcome.score))
    if isinstance(roll.original, AttackRequest):
        rerolled = _rerolled_now(roll.faces, ATTACKER_LABELS)
        pool = wcbh_pool(rerolled, roll.original.explodes)
        defence = int(outcome.result["defence_successes"])
        return Odds(pool.at_least(defence + 1), pool.at_least(defence + outcome.score))
    assert isinstance(roll.original, TraitRequest)
    pool = wcbh_pool(outcome.result["dice"], roll.original.decisive_moment)
    return Odds(pool.at_least(roll.original.difficulty + 1), pool.at_least(outcome.score))


RESOLVE_DICE = FollowUp(
    name="resolve_dice",
    description="Spend Resolve after seeing the roll: +1 die each (3 in a Decisive Moment, "
    "exploding 6s); the result counts every kept die. On an attack, the attacker's dice: the hit "
    "is decided again and the target's Health changes in the same save. Odds are given the roll "
    "already seen.",
    rules=("WCBH-20b", "WCBH-13"),
    Request=ResolveDiceRequest,
    cost=lambda request: {"resolve": getattr(request, "resolve", 0)},
    apply=_apply_resolve_dice,
    allowed=_allowed,
    odds=_odds_resolve_dice,
    chained=True,
    payer=_payer,
)

RESOLVE_REROLL = FollowUp(
    name="resolve_reroll",
    description="Spend 1 Resolve to reroll every die of the roll, Resolve dice included; "
    "explosion dice go with the die that set them off. On an attack, the attacker's dice: the "
    "hit is decided again and the target's Health changes in the same save. Odds are those of a "
    "fresh pool.",
    rules=("WCBH-20c", "WCBH-13"),
    Request=ResolveRerollRequest,
    cost=lambda request: {"resolve": 1},
    apply=_apply_resolve_reroll,
    allowed=_allowed,
    odds=_odds_resolve_reroll,
    chained=True,
    payer=_payer,
)

FOLLOW_UPS: dict[str, FollowUp] = {f.name: f for f in (RESOLVE_DICE, RESOLVE_REROLL)}

__all__ = [
    "FOLLOW_UPS",
    "RESOLVE_DICE",
    "RESOLVE_REROLL",
    "ResolveDiceRequest",
    "ResolveRerollRequest",
    "attack_outcome",
]
