"""The WCBH fight checks: attacks (with charge, all-out attack, bashing, defending others and team
attacks), grappling, maneuvers, ambushes, area attacks and redirected attacks (WCBH-25, 28..33,
35, 40..47).

Every request carries resolved numbers (ranks, the defence options, Health, the dice the Page and
conditions add) so that a roll record recomputes from itself alone; the application fills them in
from the characters' sheets, the scene's page states and the characters' conditions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from domain.dice.odds import Distribution
from domain.dice.roller import Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    ATTACK_CHECK,
    Asked,
    Check,
    CheckOutcome,
    Name,
    Odds,
    Once,
    RequestModel,
    Text,
    unwrap,
)
from systems.wcbh.odds import wcbh_pool
from systems.wcbh.rules.checks import (
    MAX_POOL,
    SIDES,
    PageDice,
    PowerUse,
    TraitRequest,
    _explodes,
    base_dice,
    decisive_moment_limits,
    face_successes,
    power_use_cost,
    resolve_dice,
    trait_rank,
)
from systems.wcbh.rules.combat import Defence, Hit, best_defence, hit
from systems.wcbh.rules.effects import Effect, add_effect, effect_besides_damage
from systems.wcbh.rules.maneuvers import (
    ALL_OUT_BONUS,
    BASH_PENALTY,
    CHARGE_BONUS,
    TEAM_ATTACK_BONUS,
    ambush,
    bash,
    charge_collision,
    defend_other,
    grapple,
    maneuver_effect,
)
from systems.wcbh.rules.play import GROUP_KEEP, group_check
from systems.wcbh.rules.pools import PoolRoll, roll_pool
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

DefenceDice = Field(
    default=0,
    ge=-MAX_POOL,
    le=MAX_POOL,
    description="Server-filled: dice added to this defence roll: +2 under all-out defence "
    "(WCBH-44), a maneuver's -1..-3 (WCBH-41)",
)


class DefenceOption(RequestModel):
    name: Name = Field(
        description="The defending trait, e.g. Agility (active) or Stamina (passive)"
    )
    rank: int = Field(ge=0, le=100)
    active: bool = Field(description="Active (dodging, parrying) or passive (armour, Stamina)")


class Party(RequestModel):
    """A character the roll's attack meets besides its target: the foe used as a club (WCBH-44),
    the ally defending the target (WCBH-44) or a charger meeting a passive defence (WCBH-44)."""

    character_id: str | None = None
    defences: list[DefenceOption] = Field(min_length=1, max_length=10)
    health: int = Field(ge=0, le=1000)
    minion: bool = False
    defence_modifier: int = DefenceDice
    halve_active: bool = Field(default=False, description="Its own charge or all-out attack")
    halve_passive: bool = Field(default=False, description="Its own all-out attack")


class AttackResolve(BaseModel):
    """WCBH-13, 16, 20b: Resolve in the fight; an attack is a roll like any other. The attack's
    check request and the fight's attack body (systems/wcbh/requests.py) both take these fields
    from here, so that what the body lets a caller ask is what the check accepts."""

    resolve: int = Field(
        default=0,
        ge=0,
        le=MAX_POOL,
        description="The attacker's Resolve spent before the roll: 1 attack die each, 3 in a "
        "Decisive Moment (WCBH-20b, 13)",
    )
    decisive_moment: bool = Field(
        default=False,
        description="The attacker declares its Decisive Moment: its 6s explode (WCBH-13, 15)",
    )
    effort: Literal["physical", "mental"] | None = Field(
        default=None,
        description="A Decisive Moment's effort (required then): the Ability it costs (WCBH-16)",
    )
    defence_resolve: int = Field(
        default=0,
        ge=0,
        le=MAX_POOL,
        description="The target's Resolve spent on its defence roll: 1 defence die each "
        "(WCBH-20b); the target pays, so the caller must act for the target",
    )


class AttackRequest(RequestModel, AttackResolve):
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
        description="A special effect power: the hit gives the effect, besides the damage when "
        "`besides_damage` (WCBH-35)",
    )
    besides_damage: bool = Field(
        default=False,
        description="WCBH-35: the effect comes besides the damage (the source: 'помимо урона'), "
        "as every attack since issue #15 asks; false in attack rolls recorded before, which gave "
        "the effect instead of damage and still recompute so",
    )
    effect_pages_before: int = Field(
        default=0, ge=0, le=1000, description="Pages of the same effect the target still has"
    )
    purpose: Text | None = None
    power_use: Name | None = PowerUse
    situation: int = Field(
        default=0,
        ge=-MAX_POOL,
        le=MAX_POOL,
        description="Server-filled: the target's cover or poor visibility and the sizes the GM "
        "set on the scene's ground (WCBH-30)",
    )
    # -- the fight (WCBH-25, 41, 44..47); all default to a plain attack --
    target_id: str | None = Field(default=None, description="The target (for the log)")
    page_modifier: int = PageDice
    defence_modifier: int = DefenceDice
    halve_active: bool = Field(
        default=False, description="The target charged or attacked all-out this Page (WCBH-44)"
    )
    halve_passive: bool = Field(
        default=False, description="The target attacked all-out this Page (WCBH-44)"
    )
    maneuver: Literal["charge", "all_out"] | None = Field(
        default=None, description="+2 dice: a charge or an all-out attack (WCBH-44)"
    )
    charger: Party | None = Field(
        default=None,
        description="A charge's attacker: its passive defences meet the attack for collision "
        "damage if the target defends passively (WCBH-44)",
    )
    club: Party | None = Field(
        default=None,
        description="Bashing one foe with another: the foe used as a club; -2 dice (WCBH-44)",
    )
    guard: Party | None = Field(
        default=None,
        description="Defending others: the ally rolling the defence for the target (WCBH-44)",
    )
    guard_active: bool = Field(default=True, description="The ally defends actively or passively")
    team: bool = Field(default=False, description="Part of a team attack: +2 dice (WCBH-47)")
    explode: bool = Field(
        default=False, description="A team attacker's 1 Resolve: its 6s explode (WCBH-47)"
    )
    redirect: bool = Field(
        default=False,
        description="The target declared a redirect before its defence roll (WCBH-46): it "
        "defends actively only",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> AttackRequest:
        kinds = [self.maneuver is not None, self.club is not None, self.team]
        if sum(kinds) > 1:
            raise ValueError("one of maneuver, club or team")
        if self.explode and not self.team:
            raise ValueError("only a team attack explodes for Resolve (WCBH-47)")
        if self.charger is not None and self.maneuver != "charge":
            raise ValueError("a charger belongs to a charge")
        if self.effect is not None and (self.club is not None or self.guard is not None):
            raise ValueError("a special effect hits one target without a guard")
        if self.defence_resolve and (self.club is not None or self.guard is not None):
            raise ValueError(
                "the target's Resolve dice go to its own defence roll, without a club or guard"
            )
        return self

    @property
    def explodes(self) -> bool:
        """WCBH-13 (a Decisive Moment) or WCBH-47 (a powered team attack): the attacker's 6s explode."""
        return self.explode or self.decisive_moment


def _options(defences: Sequence[DefenceOption]) -> list[Defence]:
    return [Defence(d.name, d.rank, d.active) for d in defences]


def _defence(req: AttackRequest) -> Defence:
    return best_defence(
        _options(req.defences),
        lethal=req.lethal,
        halve_active=req.halve_active,
        halve_passive=req.halve_passive,
    )


def _party_defence(party: Party, lethal: bool, *, active: bool | None = None) -> Defence:
    options = [d for d in _options(party.defences) if active is None or d.active == active]
    return best_defence(
        options, lethal=lethal, halve_active=party.halve_active, halve_passive=party.halve_passive
    )


@lru_cache(maxsize=1024)
def _net_at_least(
    attack_dice: int, defence_dice: int, explode: bool = False
) -> tuple[int, tuple[float, ...]]:
    """P(attack successes − defence successes ≥ k) for every k, as (lowest k, tail sums)."""
    attack, defence = wcbh_pool(attack_dice, explode), wcbh_pool(defence_dice, False)
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


def _p_net_at_least(attack_dice: int, defence_dice: int, k: int, explode: bool = False) -> float:
    low, tails = _net_at_least(attack_dice, defence_dice, explode)
    if k <= low:
        return 1.0
    if k - low >= len(tails):
        return 0.0
    return tails[k - low]


def _net_odds(attack_dice: int, defence_dice: int, score: int, explode: bool = False) -> Odds:
    return Odds(
        _p_net_at_least(attack_dice, defence_dice, 1, explode),
        _p_net_at_least(attack_dice, defence_dice, score, explode),
    )


def _hit_json(defence: Defence, rolled: PoolRoll, done: Hit) -> dict[str, Any]:
    return {
        "defence": defence.name,
        "defence_rank": defence.rank,
        "defence_active": defence.active,
        "defence_successes": rolled.successes,
        "net": done.net,
        "damage": done.damage,
        "health": done.health,
        "defeated": done.defeated,
    }


def attack_bonus(req: AttackRequest) -> int:
    """Dice on top of the rank: weapon, situation (WCBH-30: the declared `modifier` and the GM's
    ground, `situation`), the Page (WCBH-25, 41), a charge or all-out
    attack (+2, WCBH-44), bashing (−2, WCBH-44), a team attack (+2, WCBH-47)."""
    bonus = req.weapon + req.modifier + req.page_modifier + req.situation
    if req.maneuver == "charge":
        bonus += CHARGE_BONUS
    elif req.maneuver == "all_out":
        bonus += ALL_OUT_BONUS
    if req.club is not None:
        bonus += BASH_PENALTY
    if req.team:
        bonus += TEAM_ATTACK_BONUS
    return bonus


class AttackCheck(Check[AttackRequest]):
    name = ATTACK_CHECK
    description = (
        "An attack: the attacking trait (+ weapon, situational and Page dice) against the target's "
        "best defence; damage = net successes, defeat at 0 Health, a minion falls to one net "
        "success. Also a charge, an all-out attack, bashing one foe with another, an ally "
        "defending the target, a team attack (WCBH-44, 47)."
    )
    rules = (
        "WCBH-25",
        "WCBH-28",
        "WCBH-29",
        "WCBH-30",
        "WCBH-31",
        "WCBH-33",
        "WCBH-44",
        "WCBH-47",
    )
    Request = AttackRequest
    verb = "POST /v1/scenes/{id}/attacks"

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

    def once(self, request: AttackRequest, side: str) -> list[Once]:
        """WCBH-15, 16: an attack may be the attacker's Decisive Moment, as any roll."""
        return decisive_moment_limits(request.decisive_moment, request.effort, side, "effort")

    def cost(self, request: AttackRequest) -> dict[str, int]:
        """The attacker's Resolve: dice bought before the roll (WCBH-20b) and a team attacker's
        exploding 6s (WCBH-47); a use of a limited Power (WCBH-2). The target's `defence_resolve`
        is the target's to pay (the command spends it)."""
        resolve = request.resolve + (1 if request.explode else 0)
        return {"resolve": resolve, **power_use_cost(request.power_use)}

    def roll(self, asked: Asked[AttackRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        if req.club is not None:
            return _roll_bash(req, roller)
        if req.guard is not None:
            return _roll_guarded(req, roller)
        attack = roll_attacker(req, roller, req.explodes)
        defence = _defence(req)
        rolled = roll_defender(req, defence, roller)
        done = hit(attack, rolled, req.target_health, minion=req.minion)
        result: dict[str, Any] = {
            "attack_successes": attack,
            "defence": defence.name,
            "defence_rank": defence.rank,
            "defence_successes": rolled,
            "net": done.net,
        }
        if req.target_id is not None:
            result["target_id"] = req.target_id
        if req.effect is not None and req.besides_damage:
            result.update(_effect_and_damage(req, done))
        elif req.effect is not None:
            # WCBH-35/36 as read before issue #15: the effect instead of damage.
            current = (
                Effect(req.effect, req.effect_pages_before) if req.effect_pages_before else None
            )
            effect = add_effect(current, req.effect, done.net, req.target_health)
            result.update(
                damage=0,
                health=req.target_health,
                effect=req.effect,
                effect_pages=effect.pages if effect else 0,
                whole_scene=bool(effect and effect.whole_scene),
                defeated=bool(effect and effect.whole_scene),
            )
        else:
            result.update(damage=done.damage, health=done.health, defeated=done.defeated)
        if req.charger is not None and not defence.active:
            # WCBH-44: against a passive defence the charger's own passive defence meets the
            # attack; what gets through, less the damage dealt, hits the charger.
            own = _party_defence(req.charger, req.lethal, active=False)
            rolled_own = roll_pool(
                roller, own.rank, req.charger.defence_modifier, label="collision"
            )
            taken = charge_collision(attack, rolled_own.successes, result["damage"])
            left = max(0, req.charger.health - taken)
            result["collision"] = {
                "defence": own.name,
                "defence_rank": own.rank,
                "defence_successes": rolled_own.successes,
                "damage": taken,
                "health": left,
                "defeated": left == 0,
            }
        result["success"] = done.net >= 1
        return CheckOutcome(result, done.net, done.net >= 1)

    def odds(self, asked: Asked[AttackRequest], outcome: CheckOutcome) -> Odds:
        """Exact for a plain, charging, all-out or team attack. With a club or a guard: the
        attack against the defence the result names (the others' rolls are left out)."""
        req = asked.request
        attack_dice = base_dice(req.attack_rank, attack_bonus(req)) + resolve_dice(
            req.resolve, req.decisive_moment
        )
        if req.club is None and req.guard is None:
            defence_dice = base_dice(_defence(req).rank, req.defence_modifier) + req.defence_resolve
        else:
            defence_dice = base_dice(outcome.result.get("defence_rank", 0), req.defence_modifier)
        return _net_odds(attack_dice, defence_dice, outcome.score, req.explodes)


def roll_attacker(req: AttackRequest, roller: Roller, explode: bool) -> int:
    """The attacker's successes: the attack dice, then the Resolve dice bought before the roll
    (WCBH-20b: 1 each, 3 in a Decisive Moment, WCBH-13); with `explode` 6s explode (a Decisive
    Moment, WCBH-13; a powered team attack, WCBH-47, on a plain attack only, as it always was)."""
    attack = roll_pool(roller, req.attack_rank, attack_bonus(req), explode=explode, label="attack")
    bought = roller.roll(
        SIDES,
        resolve_dice(req.resolve, req.decisive_moment),
        explodes=_explodes(explode),
        label="resolve",
    )
    return attack.successes + sum(face_successes(f.face) for f in bought)


def roll_defender(req: AttackRequest, defence: Defence, roller: Roller) -> int:
    """The target's defence successes: its best defence, then the dice its own Resolve bought
    (WCBH-20b: a defence roll is a roll too; 1 die each, the attacker's Decisive Moment is not
    the defender's)."""
    rolled = roll_pool(roller, defence.rank, req.defence_modifier, label="defence")
    bought = roller.roll(SIDES, req.defence_resolve, label="defence_resolve")
    return rolled.successes + sum(face_successes(f.face) for f in bought)


def _effect_and_damage(req: AttackRequest, done: Hit) -> dict[str, Any]:
    """WCBH-35, 36: the damage of the hit and the effect of the same net successes; the effect
    defeats if its Pages reach the Health the damage left (effects.effect_besides_damage)."""
    assert req.effect is not None
    current = Effect(req.effect, req.effect_pages_before) if req.effect_pages_before else None
    effect = effect_besides_damage(current, req.effect, done.net, done.health)
    whole_scene = bool(effect and effect.whole_scene)
    return {
        "damage": done.damage,
        "health": done.health,
        "effect": req.effect,
        "effect_pages": effect.pages if effect else 0,
        "whole_scene": whole_scene,
        "defeated_by_damage": done.defeated,
        "defeated": done.defeated or whole_scene,
    }


def _roll_bash(req: AttackRequest, roller: Roller) -> CheckOutcome:
    """WCBH-44: one attack at −2 dice; the club defends first, then the target; if the club
    avoids all damage with an active defence, the attack fails for both."""
    assert req.club is not None
    attack = roll_attacker(req, roller, req.decisive_moment)
    club_defence = _party_defence(req.club, req.lethal)
    club_rolled = roll_pool(roller, club_defence.rank, req.club.defence_modifier, label="club")
    target_defence = _defence(req)
    target_rolled = roll_pool(roller, target_defence.rank, req.defence_modifier, label="defence")
    club_hit, target_hit = bash(
        attack,
        (club_rolled.successes, club_defence.active, req.club.health),
        (target_rolled.successes, req.target_health),
        first_minion=req.club.minion,
        second_minion=req.minion,
    )
    failed = club_defence.active and club_hit.damage == 0
    result = {
        "attack_successes": attack,
        **_hit_json(target_defence, target_rolled, target_hit),
        "club": {
            "character_id": req.club.character_id,
            **_hit_json(club_defence, club_rolled, club_hit),
        },
        "failed_for_both": failed,
        "success": target_hit.damage >= 1,
    }
    if req.target_id is not None:
        result["target_id"] = req.target_id
    return CheckOutcome(result, target_hit.net, target_hit.damage >= 1)


def _roll_guarded(req: AttackRequest, roller: Roller) -> CheckOutcome:
    """WCBH-44: an ally rolls the defence for the target. Active: when it fails the target is hit
    but still rolls its own defence; passive: the ally takes the damage."""
    assert req.guard is not None
    attack = roll_attacker(req, roller, req.decisive_moment)
    guard_defence = _party_defence(req.guard, req.lethal, active=req.guard_active)
    guard_rolled = roll_pool(roller, guard_defence.rank, req.guard.defence_modifier, label="guard")
    target_defence, target_rolled = guard_defence, guard_rolled
    own = 0
    if req.guard_active and guard_rolled.successes < attack:
        target_defence = _defence(req)
        target_rolled = roll_pool(
            roller, target_defence.rank, req.defence_modifier, label="defence"
        )
        own = target_rolled.successes
    outcome = defend_other(
        attack,
        guard_rolled.successes,
        active=req.guard_active,
        ally_health=req.target_health,
        defender_health=req.guard.health,
        ally_defence_successes=own,
    )
    target_hit = outcome.ally
    if req.minion and req.guard_active and target_hit.net >= 1:
        target_hit = hit(attack, target_rolled.successes, req.target_health, minion=True)
    result: dict[str, Any] = {
        "attack_successes": attack,
        **_hit_json(target_defence, target_rolled, target_hit),
        "guard": {
            "character_id": req.guard.character_id,
            "active": req.guard_active,
            "defence": guard_defence.name,
            "defence_rank": guard_defence.rank,
            "defence_successes": guard_rolled.successes,
        },
        "success": target_hit.damage >= 1,
    }
    if outcome.defender is not None:
        result["guard"].update(
            damage=outcome.defender.damage,
            health=outcome.defender.health,
            defeated=outcome.defender.defeated,
        )
    if req.target_id is not None:
        result["target_id"] = req.target_id
    score = target_hit.net if outcome.defender is None else outcome.defender.net
    return CheckOutcome(result, score, target_hit.damage >= 1)


# -- WCBH-40: grappling ---------------------------------------------------------------------------


class GrappleRequest(RequestModel):
    trait: Name = Field(default="Strength", description="Strength (WCBH-40)")
    rank: int = Field(ge=0, le=100)
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    page_modifier: int = PageDice
    defences: list[DefenceOption] = Field(
        default_factory=list, max_length=10, description="The target's active defences"
    )
    defence_modifier: int = DefenceDice
    halve_active: bool = False
    aim: Literal["hold", "weapon"] = Field(
        default="hold", description="Hold the target, or take its weapon or object"
    )
    target_id: str | None = None
    power_use: Name | None = PowerUse
    purpose: Text | None = None


def _grapple_defence(req: GrappleRequest) -> Defence:
    active = [d for d in _options(req.defences) if d.active]
    if not active:
        return Defence("none", 0, True)
    return best_defence(active, halve_active=req.halve_active)


class GrappleCheck(Check[GrappleRequest]):
    name = "grapple"
    description = (
        "Grappling: Strength against the target's best active defence; net <= 0 fails, 1-2 a "
        "partial hold (both roll Strength again next Page), 3+ held or the weapon taken."
    )
    rules = ("WCBH-40", "WCBH-25")
    Request = GrappleRequest
    verb = "POST /v1/scenes/{id}/grapples"

    def cost(self, request: GrappleRequest) -> dict[str, int]:
        return power_use_cost(request.power_use)  # WCBH-2

    def example(self) -> dict[str, Any]:
        return {"rank": 4, "defences": [{"name": "Agility", "rank": 5, "active": True}]}

    def roll(self, asked: Asked[GrappleRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        rolled = roll_pool(roller, req.rank, req.modifier + req.page_modifier, label="grapple")
        defence = _grapple_defence(req)
        against = roll_pool(roller, defence.rank, req.defence_modifier, label="defence")
        net = rolled.successes - against.successes
        outcome = grapple(rolled.successes, against.successes)
        result = {
            "trait": req.trait,
            "rank": req.rank,
            "successes": rolled.successes,
            "defence": defence.name,
            "defence_rank": defence.rank,
            "defence_successes": against.successes,
            "net": net,
            "outcome": outcome,
            "aim": req.aim,
            "target_id": req.target_id,
            "success": outcome != "failed",
        }
        return CheckOutcome(result, net, outcome != "failed")

    def odds(self, asked: Asked[GrappleRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        dice = base_dice(req.rank, req.modifier + req.page_modifier)
        against = base_dice(_grapple_defence(req).rank, req.defence_modifier)
        return _net_odds(dice, against, outcome.score)


# -- WCBH-41: maneuvers ---------------------------------------------------------------------------

ManeuverName = Literal["feint", "stunning_blow", "overpower", "taunt"]


class ManeuverRequest(RequestModel):
    maneuver: ManeuverName
    trait: Name
    rank: int = Field(ge=0, le=100)
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    page_modifier: int = PageDice
    against: Name = Field(description="The target's opposing trait")
    against_rank: int = Field(ge=0, le=100)
    defence_modifier: int = DefenceDice
    target_id: str | None = None
    power_use: Name | None = PowerUse
    purpose: Text | None = None


class ManeuverCheck(Check[ManeuverRequest]):
    name = "maneuver"
    description = (
        "A maneuver (feint, stunning blow, overpower, taunt): the attacker's trait against the "
        "target's; net 1-2: -1 to its rolls, speed halved; 3-4: -2, cannot move, loses its "
        "weapon; 5+: -3 and loses its turn."
    )
    rules = ("WCBH-41", "WCBH-25")
    Request = ManeuverRequest
    verb = "POST /v1/scenes/{id}/maneuvers"

    def cost(self, request: ManeuverRequest) -> dict[str, int]:
        return power_use_cost(request.power_use)  # WCBH-2

    def example(self) -> dict[str, Any]:
        return {
            "maneuver": "taunt",
            "trait": "Charisma",
            "rank": 3,
            "against": "Will",
            "against_rank": 4,
        }

    def roll(self, asked: Asked[ManeuverRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        rolled = roll_pool(roller, req.rank, req.modifier + req.page_modifier, label="maneuver")
        against = roll_pool(roller, req.against_rank, req.defence_modifier, label="defence")
        net = rolled.successes - against.successes
        effect = maneuver_effect(net)
        result = {
            "maneuver": req.maneuver,
            "trait": req.trait,
            "rank": req.rank,
            "successes": rolled.successes,
            "against": req.against,
            "against_rank": req.against_rank,
            "against_successes": against.successes,
            "net": net,
            "penalty": effect.penalty,
            "halve_speed": effect.halve_speed,
            "cannot_move": effect.cannot_move,
            "loses_weapon": effect.loses_weapon,
            "loses_turn": effect.loses_turn,
            "target_id": req.target_id,
            "success": net >= 1,
        }
        return CheckOutcome(result, net, net >= 1)

    def odds(self, asked: Asked[ManeuverRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        dice = base_dice(req.rank, req.modifier + req.page_modifier)
        return _net_odds(dice, base_dice(req.against_rank, req.defence_modifier), outcome.score)


# -- WCBH-42: ambush ------------------------------------------------------------------------------


class Ambusher(RequestModel):
    character_id: str
    trait: Name = Field(description="Stealth, or Charisma for deceit or seduction (WCBH-42)")
    rank: int = Field(ge=0, le=100)
    page_modifier: int = PageDice


class AmbushTarget(RequestModel):
    target_id: str
    perception: int = Field(ge=0, le=100, description="Perception, or a minion's threat")
    minion: bool = False


class AmbushRequest(RequestModel):
    ambushers: list[Ambusher] = Field(min_length=1, max_length=10)
    targets: list[AmbushTarget] = Field(min_length=1, max_length=30)
    purpose: Text | None = None


def hand_over(successes: dict[str, int]) -> list[tuple[str, str, int]]:
    """WCBH-11 for an ambush, which is as good as its worst member: every success above 3 goes
    to whoever has the fewest, while that raises the worst (ruling: done for the group, since
    the handing over is decided before anyone sees a target's Perception)."""
    totals = dict(successes)
    spare = {k: max(0, v - GROUP_KEEP) for k, v in successes.items()}
    moves: dict[tuple[str, str], int] = {}
    while True:
        receiver = min(totals, key=lambda k: totals[k])
        givers = [
            g for g in totals if spare[g] and g != receiver and totals[g] > totals[receiver] + 1
        ]
        if not givers:
            break
        giver = max(givers, key=lambda g: totals[g])
        spare[giver] -= 1
        totals[giver] -= 1
        totals[receiver] += 1
        moves[(giver, receiver)] = moves.get((giver, receiver), 0) + 1
    return [(g, r, n) for (g, r), n in moves.items()]


class AmbushCheck(Check[AmbushRequest]):
    name = "ambush"
    description = (
        "An ambush: every ambusher rolls Stealth (Charisma for deceit) as a group, successes "
        "above 3 handed to the weakest; every target rolls its own Perception (minions one roll "
        "for all); a target the worst ambusher beats cannot act on the first Page."
    )
    rules = ("WCBH-42", "WCBH-11")
    Request = AmbushRequest
    verb = "POST /v1/scenes/{id}/ambushes"

    def example(self) -> dict[str, Any]:
        return {
            "ambushers": [{"character_id": "a", "trait": "Stealth", "rank": 4}],
            "targets": [{"target_id": "t", "perception": 3}],
        }

    def roll(self, asked: Asked[AmbushRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        rolled = {
            a.character_id: roll_pool(roller, a.rank, a.page_modifier, label="ambush").successes
            for a in req.ambushers
        }
        handovers = hand_over(rolled)
        totals = group_check(rolled, handovers)
        minions = [t for t in req.targets if t.minion]
        perception: dict[str, int] = {}
        if minions:  # ruling: one roll for all the minions, at their best threat
            shared = roll_pool(roller, max(t.perception for t in minions), label="perception")
            perception.update({t.target_id: shared.successes for t in minions})
        for t in req.targets:
            if not t.minion:
                perception[t.target_id] = roll_pool(
                    roller, t.perception, label="perception"
                ).successes
        outcomes = ambush(list(totals.values()), perception)
        worst = min(totals.values())
        result = {
            "ambushers": [
                {"character_id": cid, "successes": rolled[cid], "total": totals[cid]}
                for cid in rolled
            ],
            "handovers": [{"from": g, "to": r, "successes": n} for g, r, n in handovers],
            "worst": worst,
            "targets": [
                {
                    "target_id": t.target_id,
                    "perception_successes": perception[t.target_id],
                    "net": outcomes[t.target_id].net,
                    "surprised": outcomes[t.target_id].surprised,
                    "may_defend_actively": outcomes[t.target_id].may_defend_actively,
                }
                for t in req.targets
            ],
        }
        return CheckOutcome(result, worst, None)

    def odds(self, asked: Asked[AmbushRequest], outcome: CheckOutcome) -> Odds:
        """The chance every ambusher rolls at least the worst total (hand-overs left out)."""
        req = asked.request
        p = 1.0
        for a in req.ambushers:
            p *= wcbh_pool(base_dice(a.rank, a.page_modifier), False).at_least(outcome.score)
        return Odds(None, max(p, 1e-300))


# -- WCBH-43: area attacks ------------------------------------------------------------------------


class AreaTargetRequest(RequestModel):
    target_id: str
    defences: list[DefenceOption] = Field(min_length=1, max_length=10)
    health: int = Field(ge=0, le=1000)
    minion: bool = False
    skip_turn: bool = Field(
        default=False,
        description="Dodge at the full active rank by skipping the next turn (WCBH-43)",
    )
    defence_modifier: int = DefenceDice
    halve_active: bool = False
    halve_passive: bool = False


class AreaAttackRequest(RequestModel):
    attack_rank: int = Field(ge=0, le=100)
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    page_modifier: int = PageDice
    lethal: bool = True
    targets: list[AreaTargetRequest] = Field(min_length=1, max_length=30)
    power_use: Name | None = PowerUse
    purpose: Text | None = None


class AreaAttackCheck(Check[AreaAttackRequest]):
    name = "area_attack"
    description = (
        "An area attack: one attack roll; every target defends separately, an active defence "
        "at half its rank unless the target skips its next turn."
    )
    rules = ("WCBH-43", "WCBH-25", "WCBH-28", "WCBH-31")
    Request = AreaAttackRequest
    verb = "POST /v1/scenes/{id}/area-attacks"

    def cost(self, request: AreaAttackRequest) -> dict[str, int]:
        return power_use_cost(request.power_use)  # WCBH-2

    def example(self) -> dict[str, Any]:
        return {
            "attack_rank": 8,
            "targets": [
                {
                    "target_id": "t",
                    "defences": [{"name": "Agility", "rank": 4, "active": True}],
                    "health": 6,
                }
            ],
        }

    def roll(self, asked: Asked[AreaAttackRequest], roller: Roller) -> CheckOutcome:
        # maneuvers.area_attack, plus the defence dice of all-out defence and maneuvers (WCBH-41,
        # 44) and defences halved by the target's own charge (WCBH-44), which it does not take.
        req = asked.request
        attack = roll_pool(
            roller, req.attack_rank, req.weapon + req.modifier + req.page_modifier, label="attack"
        )
        targets = []
        for t in req.targets:
            defence = best_defence(
                _options(t.defences),
                lethal=req.lethal,
                halve_active=t.halve_active or not t.skip_turn,
                halve_passive=t.halve_passive,
            )
            rolled = roll_pool(roller, defence.rank, t.defence_modifier, label="defence")
            done = hit(attack.successes, rolled.successes, t.health, minion=t.minion)
            targets.append(
                {
                    "target_id": t.target_id,
                    **_hit_json(defence, rolled, done),
                    "skips_turn": t.skip_turn and defence.active,
                }
            )
        result = {
            "attack_successes": attack.successes,
            "targets": targets,
            "damage": sum(t["damage"] for t in targets),
        }
        return CheckOutcome(result, attack.successes, None)

    def odds(self, asked: Asked[AreaAttackRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        dice = base_dice(req.attack_rank, req.weapon + req.modifier + req.page_modifier)
        return Odds(None, wcbh_pool(dice, False).at_least(outcome.score))


# -- WCBH-46: a redirected attack -----------------------------------------------------------------


class RedirectedRequest(RequestModel):
    redirected_from: str = Field(description="The attack roll the defender redirected")
    attack_successes: int = Field(ge=0, le=1000, description="The attack's successes")
    target_id: str | None = None
    defences: list[DefenceOption] = Field(min_length=1, max_length=10)
    target_health: int = Field(ge=0, le=1000)
    lethal: bool = True
    minion: bool = False
    defence_modifier: int = DefenceDice
    halve_active: bool = False
    halve_passive: bool = False


class RedirectedCheck(Check[RedirectedRequest]):
    name = "redirected_attack"
    description = (
        "A redirected attack: the new target defends against the attack's successes (WCBH-46)."
    )
    rules = ("WCBH-46", "WCBH-31")
    Request = RedirectedRequest
    verb = "POST /v1/rolls/{id}/redirect"

    def example(self) -> dict[str, Any]:
        return {
            "redirected_from": "roll",
            "attack_successes": 4,
            "defences": [{"name": "Agility", "rank": 4, "active": True}],
            "target_health": 6,
        }

    def roll(self, asked: Asked[RedirectedRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        defence = _redirected_defence(req)
        rolled = roll_pool(roller, defence.rank, req.defence_modifier, label="defence")
        done = hit(req.attack_successes, rolled.successes, req.target_health, minion=req.minion)
        result = {
            "attack_successes": req.attack_successes,
            "target_id": req.target_id,
            **_hit_json(defence, rolled, done),
            "success": done.net >= 1,
        }
        return CheckOutcome(result, done.net, done.net >= 1)

    def odds(self, asked: Asked[RedirectedRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        defence: Distribution = wcbh_pool(
            base_dice(_redirected_defence(req).rank, req.defence_modifier), False
        )
        # net >= k  <=>  defence successes <= attack successes - k
        return Odds(
            defence.at_most(req.attack_successes - 1),
            defence.at_most(req.attack_successes - outcome.score),
        )


def _redirected_defence(req: RedirectedRequest) -> Defence:
    return best_defence(
        _options(req.defences),
        lethal=req.lethal,
        halve_active=req.halve_active,
        halve_passive=req.halve_passive,
    )


FIGHT_CHECKS: dict[str, Check] = {
    c.name: c
    for c in (GrappleCheck(), ManeuverCheck(), AmbushCheck(), AreaAttackCheck(), RedirectedCheck())
}
"""The fight's checks besides the attack, for the ruleset's `checks`."""


# -- requests from sheets -------------------------------------------------------------------------


def rank_of(sheet: BaseModel, trait: str, field: str, rule: str) -> int:
    """The rank of ``trait`` on a sheet (a minion: its threat), as an InvalidInput on ``field``."""
    try:
        return trait_rank(TraitRequest.model_validate({"trait": trait}), sheet)[1]
    except InvalidInput as exc:
        raise InvalidInput(exc.message, field=field, rule=rule, details=exc.details) from None


def is_minion(sheet: BaseModel) -> bool:
    return isinstance(unwrap(sheet), WcbhMinion)


ACTIVE_BY_DEFAULT = ("Agility",)
"""WCBH-28: the Ability every character dodges with (the source's example of an active defence)."""


def defence_options(
    target: BaseModel, chosen: Sequence[str] | None = None, field: str = "defences"
) -> list[dict[str, Any]]:
    """WCBH-28: every defence the target has, for the rules to pick the best of: its passive ones
    (Stamina, halved against lethal attacks by WCBH-29, and armour-type Powers) always, and its
    active ones: Agility and its actively defending Powers, or, where the target's side names
    them (``chosen``), those traits. A minion defends with its threat rank (WCBH-3)."""
    form = unwrap(target)
    if isinstance(form, WcbhMinion):
        return [{"name": "threat", "rank": form.threat, "active": False}]
    assert isinstance(form, WcbhCharacter)
    passive = _passive_defences(form)
    if chosen is None:
        active = [*ACTIVE_BY_DEFAULT, *_powers_defending(form, "active")]
    else:
        active = list(dict.fromkeys(chosen))
    options = [{"name": name, "rank": rank, "active": False} for name, rank in passive.items()]
    for name in active:
        if name.casefold() in {p.casefold() for p in passive}:
            raise InvalidInput(
                f"{name!r} defends passively: the passive defences always count",
                field=field,
                rule="WCBH-28",
            )
        try:
            rank = trait_rank(TraitRequest.model_validate({"trait": name}), target)[1]
        except InvalidInput:
            raise InvalidInput(
                f"the target has no trait {name!r} to defend with", field=field, rule="WCBH-28"
            ) from None
        options.append({"name": name, "rank": rank, "active": True})
    return options


def _passive_defences(form: WcbhCharacter) -> dict[str, int]:
    """WCBH-28, 29: Stamina and every armour-type (passive) Power, by name."""
    return {"Stamina": form.abilities.Stamina, **_powers_defending(form, "passive")}


def _powers_defending(form: WcbhCharacter, kind: str) -> dict[str, int]:
    return {
        name: power.rank
        for name, power in form.powers.items()
        if power.defends == kind and power.rank is not None
    }


def attack_request(
    attacker: BaseModel,
    target: BaseModel,
    *,
    trait: str,
    active_defences: Sequence[str] | None = None,
    **asked: Any,
) -> dict[str, Any]:
    """The attack check's request from both sheets (WCBH-28): the attacker's trait rank; the target's
    defences (``defence_options``: `active_defences` are the ones its side names, None: all it has);
    a minion defends with its threat rank and falls to one net success (WCBH-3, WCBH-33). What else
    the attack asks (`target_health`, `weapon`, `modifier`, `lethal`, `effect`...) are the
    request's own fields, as they are."""
    _, rank = trait_rank(TraitRequest.model_validate({"trait": trait}), attacker)
    return {
        "attack_rank": rank,
        "defences": defence_options(target, active_defences),
        "minion": is_minion(target),
        **asked,
    }
