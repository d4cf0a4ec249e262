"""The WCBH attack check: the attacker's pool against the target's best defence, damage and defeat.

The request carries resolved numbers (ranks, the defence options, the target's Health) so that a roll
record recomputes from itself alone; the application fills them in from both characters' sheets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field

from domain.dice.odds import wcbh_pool
from domain.dice.roller import Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    ATTACK_CHECK,
    Check,
    CheckOutcome,
    Name,
    Odds,
    RequestModel,
    Text,
    unwrap,
)
from domain.rulesets.wcbh.checks import TraitRequest, base_dice, trait_rank
from domain.rulesets.wcbh.combat import Defence, best_defence, roll_attack
from domain.rulesets.wcbh.effects import Effect, add_effect
from domain.rulesets.wcbh.sheet import WcbhMinion


class DefenceOption(RequestModel):
    name: Name = Field(
        description="The defending trait, e.g. Agility (active) or Stamina (passive)"
    )
    rank: int = Field(ge=0, le=100)
    active: bool = Field(description="Active (dodging, parrying) or passive (armour, Stamina)")


class AttackRequest(RequestModel):
    attack_rank: int = Field(ge=0, le=100, description="Rank of the attacking trait (WCBH-28)")
    weapon: int = Field(default=0, ge=0, le=20, description="Weapon bonus dice (WCBH-28)")
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[DefenceOption] = Field(min_length=1, max_length=10)
    target_health: int = Field(ge=0, le=1000, description="The target's Health before the hit")
    lethal: bool = Field(default=True, description="Lethal: passive Stamina counts half (WCBH-29)")
    minion: bool = Field(
        default=False, description="A minion target falls to one net success (WCBH-33)"
    )
    effect: Name | None = Field(
        default=None,
        description="A special effect power: the hit gives the effect instead of damage (WCBH-35)",
    )
    effect_pages_before: int = Field(
        default=0, ge=0, le=1000, description="Pages of the same effect the target still has"
    )
    purpose: Text | None = None


def _request(request: BaseModel) -> AttackRequest:
    if not isinstance(request, AttackRequest):
        raise TypeError(f"expected AttackRequest, got {type(request).__name__}")
    return request


def _defence(req: AttackRequest) -> Defence:
    options = [Defence(d.name, d.rank, d.active) for d in req.defences]
    return best_defence(options, lethal=req.lethal)


@lru_cache(maxsize=1024)
def _net_at_least(attack_dice: int, defence_dice: int) -> tuple[int, tuple[float, ...]]:
    """P(attack successes − defence successes ≥ k) for every k, as (lowest k, tail sums)."""
    attack, defence = wcbh_pool(attack_dice, False), wcbh_pool(defence_dice, False)
    low = attack.low - defence.high
    high = attack.high - defence.low
    exact = [0.0] * (high - low + 1)
    for a, pa in enumerate(attack.probs, start=attack.low):
        for d, pd in enumerate(defence.probs, start=defence.low):
            exact[a - d - low] += pa * pd
    tails = []
    running = 0.0
    for p in reversed(exact):
        running += p
        tails.append(running)
    return low, tuple(reversed(tails))


def _p_net_at_least(attack_dice: int, defence_dice: int, k: int) -> float:
    low, tails = _net_at_least(attack_dice, defence_dice)
    if k <= low:
        return 1.0
    if k - low >= len(tails):
        return 0.0
    return tails[k - low]


class AttackCheck(Check):
    name = ATTACK_CHECK
    description = (
        "An attack: the attacking trait (+ weapon and situational dice) against the target's best "
        "defence; damage = net successes, defeat at 0 Health, a minion falls to one net success."
    )
    rules = ("WCBH-28", "WCBH-29", "WCBH-30", "WCBH-31", "WCBH-33")
    Request = AttackRequest

    def example(self) -> dict[str, Any]:
        return {
            "attack_rank": 8,
            "defences": [
                {"name": "Agility", "rank": 4, "active": True},
                {"name": "Stamina", "rank": 5, "active": False},
            ],
            "target_health": 6,
            "purpose": "Lightning Bolt at Dr. Null",
        }

    def roll(
        self, request: BaseModel, sheet: BaseModel | None, settings: BaseModel, roller: Roller
    ) -> CheckOutcome:
        req = _request(request)
        options = [Defence(d.name, d.rank, d.active) for d in req.defences]
        done = roll_attack(
            roller,
            req.attack_rank,
            options,
            req.target_health,
            weapon=req.weapon,
            modifier=req.modifier,
            lethal=req.lethal,
            minion=req.minion,
        )
        if req.effect is not None:
            # WCBH-35/36: durations add up; at least the remaining Health defeats for the scene.
            current = (
                Effect(req.effect, req.effect_pages_before) if req.effect_pages_before else None
            )
            effect = add_effect(current, req.effect, done.hit.net, req.target_health)
            result = {
                "attack_successes": done.attack.successes,
                "defence": done.defence_used.name,
                "defence_rank": done.defence_used.rank,
                "defence_successes": done.defence.successes,
                "net": done.hit.net,
                "damage": 0,
                "health": req.target_health,
                "effect": req.effect,
                "effect_pages": effect.pages if effect else 0,
                "whole_scene": bool(effect and effect.whole_scene),
                "defeated": bool(effect and effect.whole_scene),
                "success": done.hit.net >= 1,
            }
            return CheckOutcome(result, done.hit.net, done.hit.net >= 1)
        result = {
            "attack_successes": done.attack.successes,
            "defence": done.defence_used.name,
            "defence_rank": done.defence_used.rank,
            "defence_successes": done.defence.successes,
            "net": done.hit.net,
            "damage": done.hit.damage,
            "health": done.hit.health,
            "defeated": done.hit.defeated,
            "success": done.hit.net >= 1,
        }
        return CheckOutcome(result, done.hit.net, done.hit.net >= 1)

    def odds(
        self,
        request: BaseModel,
        sheet: BaseModel | None,
        settings: BaseModel,
        outcome: CheckOutcome,
    ) -> Odds:
        req = _request(request)
        attack_dice = base_dice(req.attack_rank, req.weapon + req.modifier)
        defence_dice = base_dice(_defence(req).rank, 0)
        return Odds(
            _p_net_at_least(attack_dice, defence_dice, 1),
            _p_net_at_least(attack_dice, defence_dice, outcome.score),
        )


def attack_request(
    attacker: BaseModel,
    target: BaseModel,
    *,
    trait: str,
    target_health: int,
    weapon: int = 0,
    modifier: int = 0,
    active_defences: tuple[str, ...] = ("Agility",),
    lethal: bool = True,
    purpose: str | None = None,
    effect: str | None = None,
    effect_pages_before: int = 0,
) -> dict[str, Any]:
    """The attack check's request from both sheets (WCBH-28): the attacker's trait rank; the target's
    passive Stamina and the active defences it has among `active_defences`; a minion defends with
    its threat rank and falls to one net success (WCBH-3, WCBH-33)."""
    _, rank = trait_rank(TraitRequest.model_validate({"trait": trait}), attacker)
    target_form = unwrap(target)
    if isinstance(target_form, WcbhMinion):
        defences = [{"name": "threat", "rank": target_form.threat, "active": False}]
    else:
        defences = [
            {
                "name": "Stamina",
                "rank": trait_rank(TraitRequest.model_validate({"trait": "Stamina"}), target)[1],
                "active": False,
            }
        ]
        for name in active_defences:
            try:
                _, defence_rank = trait_rank(TraitRequest.model_validate({"trait": name}), target)
            except InvalidInput:
                raise InvalidInput(
                    f"the target has no trait {name!r} to defend with",
                    field="defences",
                    rule="WCBH-28",
                ) from None
            defences.append({"name": name, "rank": defence_rank, "active": True})
    return {
        "attack_rank": rank,
        "weapon": weapon,
        "modifier": modifier,
        "defences": defences,
        "target_health": target_health,
        "lethal": lethal,
        "minion": isinstance(target_form, WcbhMinion),
        "purpose": purpose,
        "effect": effect,
        "effect_pages_before": effect_pages_before,
    }
