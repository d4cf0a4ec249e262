"""Class D Heroes combat rolls: a hero's attack with its damage, strike-back, overflow and hostage
(CD-10..13, CD-19, CD-20), a hero's defence against a villain's attack (CD-15), and the combat
action checks (retreat CD-14, stopping a fleeing villain CD-16, moving for an edge CD-18).

Every number a roll reads is in its request, so the record recomputes offline. Will rerolls of an
ordinary failure (CD-6) are declared up front (``will_rerolls``, an upper bound) and happen inside
the same record: consequences such as a strike-back follow only the final attempt.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, Field

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from domain.rulesets.base import Asked, Check, CheckOutcome, Odds, RequestModel, Text
from systems.classd.odds import classd_success, classd_total
from systems.classd.rules.checks import (
    KEPT,
    SIDES,
    StatRequest,
    difficulty_of,
    evaluate,
    keep,
    stat_value,
)
from systems.classd.rules.sheet import stat_field

__all__ = [
    "FIGHT_CHECKS",
    "ActionCheck",
    "ActionRequest",
    "HeroAttackCheck",
    "HeroAttackRequest",
    "VillainAttackCheck",
    "VillainAttackRequest",
]

AttackType = Literal["melee", "ranged", "mental"]
ATTACK_STAT = {"melee": "might", "ranged": "speed", "mental": "spirit"}  # CD-10
Level = Field(ge=0, le=100)
MAX_EDGE = 9  # CD-5; one below the stat check's bound, which leaves room for a hostage shield
MAX_REROLLS = 20
MAX_MODIFIER = 40

WillRerolls = Field(
    0,
    ge=0,
    le=MAX_REROLLS,
    description="CD-6: at most this many Will spent, one per ordinary failure, to roll the whole "
    "check again (a critical failure is never rerolled).",
)


class ActionRequest(StatRequest):
    """A combat action check: the stat check (CD-2..5) with Will rerolls declared up front."""

    will_rerolls: int = WillRerolls


def _rolled(
    core: StatRequest, stat: str | None, value: int, roller: Roller, will_rerolls: int
) -> tuple[CheckOutcome, int, list[int]]:
    """CD-2..6: the check, rerolled whole while it is an ordinary failure and rerolls remain."""
    difficulty = difficulty_of(core)
    faces = roller.roll(SIDES, KEPT + abs(core.edge), label="check")
    keep(faces, core.edge, roller)
    outcome = evaluate(core, stat, value, difficulty, faces)
    earlier: list[int] = []
    while outcome.result["outcome"] == "failure" and len(earlier) < will_rerolls:
        earlier.append(outcome.result["total"])
        faces = roller.reroll(faces)
        keep(faces, core.edge, roller)
        outcome = evaluate(core, stat, value, difficulty, faces)
    return outcome, len(earlier), earlier


def _odds(core: StatRequest, value: int, outcome: CheckOutcome) -> Odds:
    """The odds of one attempt (rerolls aside)."""
    success = classd_success(core.edge, value, difficulty_of(core))
    return Odds(success, classd_total(core.edge).at_least(outcome.score - value))


def _damage(roller: Roller, dice: int, modifier: int, label: str) -> tuple[list[int], int]:
    faces = [f.face for f in roller.roll(SIDES, dice, label=label)] if dice else []
    return faces, (sum(faces) + modifier if dice else 0)


class ActionCheck(Check[ActionRequest]):
    name: ClassVar[str] = "action"
    description: ClassVar[str] = (
        "A combat action: the stat check (retreat CD-14, stopping a fleeing villain CD-16, "
        "moving for an edge CD-18) with up to `will_rerolls` Will rerolls of an ordinary failure "
        "(CD-6) in the same record. Score: the final total."
    )
    rules: ClassVar[tuple[str, ...]] = ("CD-2", "CD-3", "CD-4", "CD-5", "CD-6")
    Request: ClassVar[type[BaseModel]] = ActionRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/classd/retreats, .../stops or .../moves"

    def example(self) -> dict[str, Any]:
        return {"stat": "speed", "target_stat": 2, "will_rerolls": 1, "purpose": "Retreat"}

    def roll(self, asked: Asked[ActionRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        stat, value = stat_value(req, asked.sheet)
        outcome, spent, earlier = _rolled(req, stat, value, roller, req.will_rerolls)
        result = {**outcome.result, "will_spent": spent, "rerolled_totals": earlier}
        return CheckOutcome(result, outcome.score, outcome.success)

    def odds(self, asked: Asked[ActionRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        return _odds(req, stat_value(req, asked.sheet)[1], outcome)


def _attempt(
    req: HeroAttackRequest | VillainAttackRequest, will: int, who: str, roller: Roller
) -> tuple[CheckOutcome, int, list[int]]:
    """CD-6, CD-10: the attack's stat check with its Will rerolls, no more than the Will of the
    one who pays them (the attacking hero, or the hero defending against a villain)."""
    if req.will_rerolls > will:
        raise InvalidInput(
            f"will_rerolls is more than the {who}'s Will",
            field="request.will_rerolls",
            rule="CD-6",
        )
    stat = ATTACK_STAT[req.attack_type]
    return _rolled(req.core(), stat, req.stat_value, roller, req.will_rerolls)


AttackT = TypeVar("AttackT", bound="HeroAttackRequest | VillainAttackRequest")


class _AttackCheck(Check[AttackT]):
    """A hero's or a villain's attack: its odds are those of one attempt of the stat check at
    its core (rerolls and damage aside)."""

    def odds(self, asked: Asked[AttackT], outcome: CheckOutcome) -> Odds:
        req = asked.request
        return _odds(req.core(), req.stat_value, outcome)


# ---- a hero's attack (CD-10..13, CD-19, CD-20) ---------------------------------------------------


class HeroAttackRequest(RequestModel):
    """A hero's attack on a villain, with every number it reads (filled in by the server)."""

    attack_type: AttackType = Field(
        description="CD-10: melee (Might), ranged (Speed) or mental (Spirit)."
    )
    stat_value: int = stat_field("The attacker's stat for this attack type.")
    target_stat: int = stat_field("The target's same stat: difficulty 5 + it (CD-4).")
    advantage: int = Field(0, ge=0, le=MAX_EDGE, description="CD-5 (edges from moving, CD-18).")
    disadvantage: int = Field(0, ge=0, le=MAX_EDGE, description="CD-5.")
    hostage_shield: bool = Field(
        False, description="CD-20: the target holds a hostage: +1 disadvantage on melee/ranged."
    )
    will_rerolls: int = WillRerolls
    damage_modifier: int = Field(
        0, ge=0, le=MAX_MODIFIER, description="CD-11: added to the damage dice (powers, gear…)."
    )
    target_health: int = Level
    reaction: bool = Field(
        description="CD-11/17: the target has a reaction for this attack type (it hits back on a "
        "failure)."
    )
    strike_back_modifier: int = Field(
        0, ge=0, le=MAX_MODIFIER, description="The target's damage modifier for this type."
    )
    attacker_health: int = Level
    attacker_will: int = Level
    overflow_target_health: int | None = Field(
        None, ge=0, le=100, description="CD-13: Health of the target overflow moves to, for 1 Will."
    )
    hostage_health: int | None = Field(
        None, ge=0, le=100, description="CD-20: the hostage's Health, if it is a character."
    )
    area: bool = Field(False, description="CD-19: an area attack.")
    engaged_with: list[str] = Field(
        default_factory=list, max_length=20, description="CD-19: who the target is engaged with."
    )
    purpose: Text = ""

    def core(self) -> StatRequest:
        shield = 1 if self.hostage_shield and self.attack_type != "mental" else 0  # CD-20
        return StatRequest.model_validate(
            {
                "stat_value": self.stat_value,
                "target_stat": self.target_stat,
                "advantage": self.advantage,
                "disadvantage": self.disadvantage + shield,
            }
        )


class HeroAttackCheck(_AttackCheck[HeroAttackRequest]):
    name: ClassVar[str] = "hero_attack"
    description: ClassVar[str] = (
        "A hero's attack (CD-10): 2d6 + stat against 5 + the target's same stat; critical "
        "success 2d6 + modifier damage, success 1d6 + modifier (CD-11); at 0 Health the target is "
        "out, captured alive by a mental attack (CD-12), and overflow may move to another target "
        "for 1 Will (CD-13); a failure lets a target with a reaction hit back (1d6 + its "
        "modifier), a critical failure always does, to Will after a mental attack (CD-11, CD-12); "
        "a hostage shield gives disadvantage and a critical failure hits the hostage (CD-20). "
        "Score: the check's final total."
    )
    rules: ClassVar[tuple[str, ...]] = (
        "CD-4",
        "CD-5",
        "CD-6",
        "CD-10",
        "CD-11",
        "CD-12",
        "CD-13",
        "CD-19",
        "CD-20",
    )
    Request: ClassVar[type[BaseModel]] = HeroAttackRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/classd/attacks"

    def example(self) -> dict[str, Any]:
        return {
            "attack_type": "melee",
            "stat_value": 1,
            "target_stat": 2,
            "damage_modifier": 1,
            "target_health": 6,
            "reaction": True,
            "attacker_health": 12,
            "attacker_will": 5,
        }

    def roll(self, asked: Asked[HeroAttackRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        check, spent, earlier = _attempt(req, req.attacker_will, "attacker", roller)
        kind = check.result["outcome"]
        will = req.attacker_will - spent
        dice = {"critical_success": 2, "success": 1}.get(kind, 0)  # CD-11
        damage_faces, damage = _damage(roller, dice, req.damage_modifier, "damage")
        health = max(0, req.target_health - damage)
        out = dice > 0 and health == 0
        result: dict[str, Any] = {
            **check.result,
            "attack_type": req.attack_type,
            "will_spent": spent,
            "rerolled_totals": earlier,
            "damage_dice": damage_faces,
            "damage": damage,
            "target_health": health,
            "target_out": out,
            "captured": out and req.attack_type == "mental",  # CD-12
            "overflow": max(0, damage - req.target_health) if out else 0,
            "overflow_moved": False,
            "overflow_target_health": None,
            "hostage_dice": [],
            "hostage_damage": 0,
            "hostage_health": None,
            "strike_back": None,
            "also_at_risk": list(req.engaged_with) if req.area else [],  # CD-19
        }
        if result["overflow"] and req.overflow_target_health is not None and will >= 1:  # CD-13
            will -= 1
            result["will_spent"] = spent + 1
            result["overflow_moved"] = True
            result["overflow_target_health"] = max(
                0, req.overflow_target_health - result["overflow"]
            )
        if kind == "critical_failure" and req.hostage_shield and req.attack_type != "mental":
            faces, hurt = _damage(roller, 1, req.damage_modifier, "hostage")  # CD-20
            result.update(hostage_dice=faces, hostage_damage=hurt)
            if req.hostage_health is not None:
                result["hostage_health"] = max(0, req.hostage_health - hurt)
        if kind == "critical_failure" or (kind == "failure" and req.reaction):  # CD-11
            faces, hurt = _damage(roller, 1, req.strike_back_modifier, "strike_back")
            resource = "will" if req.attack_type == "mental" else "health"  # CD-12
            level = will if resource == "will" else req.attacker_health
            result["strike_back"] = {
                "reaction_spent": kind == "failure",
                "dice": faces,
                "damage": hurt,
                "resource": resource,
                "level": max(0, level - hurt),
            }
        return CheckOutcome(result, check.score, check.success)


# ---- a villain's attack: the hero defends (CD-15) ------------------------------------------------


class VillainAttackRequest(RequestModel):
    """A villain's attack on a hero: the hero's defence check, with every number it reads."""

    attack_type: AttackType = Field(description="CD-15: melee, ranged or mental.")
    stat_value: int = stat_field("The defending hero's matching stat.")
    target_stat: int = stat_field("The villain's same stat: difficulty 5 + it (CD-4, CD-15).")
    advantage: int = Field(0, ge=0, le=MAX_EDGE, description="CD-5 (edges from moving, CD-18).")
    disadvantage: int = Field(0, ge=0, le=MAX_EDGE, description="CD-5.")
    will_rerolls: int = WillRerolls
    damage_modifier: int = Field(
        0, ge=0, le=MAX_MODIFIER, description="The villain's damage modifier for this type."
    )
    defender_health: int = Level
    defender_will: int = Level
    purpose: Text = ""

    def core(self) -> StatRequest:
        return StatRequest.model_validate(
            {
                "stat_value": self.stat_value,
                "target_stat": self.target_stat,
                "advantage": self.advantage,
                "disadvantage": self.disadvantage,
            }
        )


class VillainAttackCheck(_AttackCheck[VillainAttackRequest]):
    name: ClassVar[str] = "villain_attack"
    description: ClassVar[str] = (
        "A villain attacks a hero (CD-15): the hero rolls 2d6 + the matching stat against 5 + "
        "the villain's same stat; a failure takes 1d6 + the villain's modifier, a critical failure "
        "one die more; a mental attack hurts Will (ruling, after CD-12). Score: the defence's "
        "final total."
    )
    rules: ClassVar[tuple[str, ...]] = ("CD-4", "CD-5", "CD-6", "CD-15")
    Request: ClassVar[type[BaseModel]] = VillainAttackRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/classd/villain-attacks"

    def example(self) -> dict[str, Any]:
        return {
            "attack_type": "ranged",
            "stat_value": 3,
            "target_stat": 2,
            "damage_modifier": 1,
            "defender_health": 12,
            "defender_will": 5,
        }

    def roll(self, asked: Asked[VillainAttackRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        check, spent, earlier = _attempt(req, req.defender_will, "defender", roller)
        kind = check.result["outcome"]
        dice = {"failure": 1, "critical_failure": 2}.get(kind, 0)  # CD-15
        faces, damage = _damage(roller, dice, req.damage_modifier, "damage")
        resource = "will" if req.attack_type == "mental" else "health"
        level = req.defender_will - spent if resource == "will" else req.defender_health
        result = {
            **check.result,
            "attack_type": req.attack_type,
            "will_spent": spent,
            "rerolled_totals": earlier,
            "damage_dice": faces,
            "damage": damage,
            "resource": resource,
            "level": max(0, level - damage),
        }
        return CheckOutcome(result, check.score, check.success)


FIGHT_CHECKS: dict[str, Check] = {
    check.name: check for check in (ActionCheck(), HeroAttackCheck(), VillainAttackCheck())
}
