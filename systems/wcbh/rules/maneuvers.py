"""The special cases of We Can Be Heroes combat (WCBH-40..47): grappling, maneuvers, ambush, area
attacks, charge, bashing, defending others, all-out attack and defence, knockback, redirect and
team attacks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from systems.wcbh.rules.combat import AttackResult, Defence, Hit, best_defence, hit
from systems.wcbh.rules.movement import Range, thrown_range
from systems.wcbh.rules.pools import halve, roll_pool

__all__ = [
    "ALL_OUT_BONUS",
    "BASH_PENALTY",
    "CHARGE_BONUS",
    "KNOCKBACK_DAMAGE",
    "MANEUVERS",
    "REDIRECT_MARGIN",
    "TEAM_ATTACK_BONUS",
    "AmbushOutcome",
    "AreaTarget",
    "DefendOthers",
    "Knockback",
    "ManeuverEffect",
    "Redirect",
    "TeamAttack",
    "ambush",
    "area_attack",
    "bash",
    "charge_collision",
    "defend_other",
    "grapple",
    "knockback",
    "maneuver_effect",
    "redirect",
    "roll_team_attack",
    "team_attack",
]

CHARGE_BONUS = 2  # WCBH-44
BASH_PENALTY = -2  # WCBH-44
ALL_OUT_BONUS = 2  # WCBH-44, attack or defence
KNOCKBACK_DAMAGE = 6  # WCBH-45
REDIRECT_MARGIN = 3  # WCBH-46
TEAM_ATTACK_BONUS = 2  # WCBH-47


# -- WCBH-40, 41: grappling and maneuvers ------------------------------------------------------


def grapple(
    strength_successes: int, defence_successes: int
) -> Literal["failed", "partial", "held"]:
    """WCBH-40: Strength against any active defence: net <= 0 fails; 1–2 a partial hold (both
    roll Strength again next Page, read with this same table); 3+ held, or the weapon or object
    taken. Powers stay usable if the hold allows (the GM's call)."""
    net = strength_successes - defence_successes
    return "failed" if net <= 0 else "partial" if net <= 2 else "held"


MANEUVERS = {
    "feint": (("Agility", "movement Power"), ("Agility", "matching Power")),
    "stunning_blow": (("attack",), ("a physical trait chosen by the GM",)),
    "overpower": (("Strength", "Power moving objects"), ("Strength", "active defence")),
    "taunt": (("Charisma", "Leadership"), ("Will",)),
}
"""WCBH-41 examples: name -> (traits rolled, traits opposing)."""


@dataclass(frozen=True)
class ManeuverEffect:
    """WCBH-41: what a maneuver can impose, by net successes. ``penalty`` is dice off the target's
    rolls."""

    net: int
    penalty: int = 0
    halve_speed: bool = False
    cannot_move: bool = False
    loses_weapon: bool = False
    loses_turn: bool = False


def maneuver_effect(net: int) -> ManeuverEffect:
    """WCBH-41: <= 0 nothing; 1–2 −1 to rolls, speed halved; 3–4 −2, cannot move, loses the
    weapon; 5+ −3, loses the turn. Rulings: the source calls these *example* effects and gives
    the GM the last word, so all of the band's are returned and the GM picks; they last through
    the target's next Page."""
    if net <= 0:
        return ManeuverEffect(net)
    if net <= 2:
        return ManeuverEffect(net, penalty=-1, halve_speed=True)
    if net <= 4:
        return ManeuverEffect(net, penalty=-2, cannot_move=True, loses_weapon=True)
    return ManeuverEffect(net, penalty=-3, loses_turn=True)


# -- WCBH-42: ambush ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AmbushOutcome:
    """How one target fares on the fight's first Page."""

    net: int
    surprised: bool
    may_defend_actively: bool


def ambush(
    ambusher_successes: Sequence[int], perception: Mapping[str, int]
) -> dict[str, AmbushOutcome]:
    """WCBH-42: Stealth (Charisma for deceit or seduction) against each target's Perception.
    A surprised target cannot act on the first Page (``PageState(lost_turn=True)``); one that
    earned an embellishment (net 1–2, WCBH-9) may still declare active defence on it.

    Rulings: several ambushers roll as a group (hand successes over first, WCBH-11) and the
    ambush is as good as its worst member against each target; minions do not roll their own
    Perception: give every minion the one roll made for them all.
    """
    if not ambusher_successes:
        raise InvalidInput("an ambush needs an ambusher", field="ambushers", rule="WCBH-42")
    worst = min(ambusher_successes)
    outcomes = {}
    for target, successes in perception.items():
        net = worst - successes
        outcomes[target] = AmbushOutcome(net, net >= 1, net <= 2)
    return outcomes


# -- WCBH-43: area attacks -----------------------------------------------------------------------


@dataclass(frozen=True)
class AreaTarget:
    """A target in the area: ``skip_turn`` dodges at full rank by giving up its next turn."""

    defences: tuple[Defence, ...]
    health: int
    minion: bool = False
    skip_turn: bool = False


def area_attack(
    roller: Roller,
    attack_rank: int,
    targets: Mapping[str, AreaTarget],
    *,
    modifier: int = 0,
    lethal: bool = True,
) -> tuple[dict[str, AttackResult], frozenset[str]]:
    """WCBH-43: one attack roll; every target defends separately (in the order given); an active
    defence counts half unless the target skips its next turn. Returns each target's result and
    who lost its next turn (ruling: only targets that did dodge actively at full rank)."""
    attack = roll_pool(roller, attack_rank, modifier, label="attack")
    results: dict[str, AttackResult] = {}
    skipping: set[str] = set()
    for name, target in targets.items():
        defence = best_defence(target.defences, lethal=lethal, halve_active=not target.skip_turn)
        rolled = roll_pool(roller, defence.rank, label="defence")
        outcome = hit(attack.successes, rolled.successes, target.health, minion=target.minion)
        results[name] = AttackResult(attack, defence, rolled, outcome)
        if target.skip_turn and defence.active:
            skipping.add(name)
    return results, frozenset(skipping)


# -- WCBH-44: charge, bashing, defending others, all-out --------------------------------------------


def charge_collision(
    attack_successes: int, charger_passive_successes: int, damage_dealt: int
) -> int:
    """WCBH-44: a charge gets +2 dice (``CHARGE_BONUS``) and halves the charger's active defence
    to the end of the Page. Against a passive defence the charger rolls its own passive defence
    against the attack: the collision damage it takes is what gets through, less the damage it
    dealt."""
    return max(0, attack_successes - charger_passive_successes - damage_dealt)


def bash(
    attack_successes: int,
    first: tuple[int, bool, int],
    second: tuple[int, int],
    *,
    first_minion: bool = False,
    second_minion: bool = False,
) -> tuple[Hit, Hit]:
    """WCBH-44: hitting one foe with another, at −2 dice (``BASH_PENALTY``). ``first`` is the foe
    used as a club (defence successes, whether the defence was active, Health); ``second`` the one
    hit (defence successes, Health). Both defend separately; if the first avoids all damage with an
    active defence, the attack fails for both."""
    first_successes, first_active, first_health = first
    second_successes, second_health = second
    first_hit = hit(attack_successes, first_successes, first_health, minion=first_minion)
    if first_active and first_hit.damage == 0:
        return first_hit, hit(0, 0, second_health)
    return first_hit, hit(attack_successes, second_successes, second_health, minion=second_minion)


@dataclass(frozen=True)
class DefendOthers:
    ally: Hit
    defender: Hit | None


def defend_other(
    attack_successes: int,
    defender_successes: int,
    *,
    active: bool,
    ally_health: int,
    defender_health: int,
    ally_defence_successes: int = 0,
) -> DefendOthers:
    """WCBH-44: instead of its next action (``PageState.act``) a character defends an ally within
    Close, rolling the defence for them. Active: if it fails the ally is hit but still defends
    (``ally_defence_successes``). Passive: the defender takes the damage.
    Ruling: a defence fails when it has fewer successes than the attack."""
    if not active:
        return DefendOthers(
            hit(0, 0, ally_health), hit(attack_successes, defender_successes, defender_health)
        )
    if defender_successes >= attack_successes:
        return DefendOthers(hit(attack_successes, defender_successes, ally_health), None)
    return DefendOthers(hit(attack_successes, ally_defence_successes, ally_health), None)


# -- WCBH-45, 46: knockback and redirect ----------------------------------------------------------


@dataclass(frozen=True)
class Knockback:
    """WCBH-45: how far the target flies, the extra damage of what it hits; it loses its next
    turn. Costs 1 Resolve (``play.RESOLVE_SPENDS``)."""

    distance: Range
    extra_damage: int
    smashed_through: bool
    loses_next_turn: bool = True


def knockback(
    damage: int, attack_rank: int, *, hits_object: Literal["sturdier", "weaker"] | None = None
) -> Knockback:
    """WCBH-45: after an attack that dealt 6+ damage, 1 Resolve throws the target as far as a
    Strength equal to the attack's rank throws (WCBH-26); it loses its next turn; an object hit
    deals half the attack's damage (rounded up) again. Ruling: a weaker object is smashed through
    and still deals that damage (the source has the target crash into it, then fly through)."""
    if damage < KNOCKBACK_DAMAGE:
        raise InvalidInput(
            f"knockback needs {KNOCKBACK_DAMAGE}+ damage, not {damage}",
            field="damage",
            rule="WCBH-45",
        )
    extra = halve(damage) if hits_object else 0
    return Knockback(thrown_range(attack_rank), extra, hits_object == "weaker")


@dataclass(frozen=True)
class Redirect:
    """WCBH-46: 1 Resolve; aimed at someone, it costs the defender its next turn and that someone
    may defend."""

    at_someone: bool
    loses_next_turn: bool
    new_target_defends: bool


def redirect(
    attack_successes: int,
    defence_successes: int,
    defence: Defence,
    *,
    declared_before_defence: bool,
    at_someone: bool = False,
) -> Redirect:
    """WCBH-46: declared before the defence roll, with an active defence only; if the defence beats
    the attack by 3+ successes, 1 Resolve sends the attack at something behind the defender, or
    at someone else (then the defender loses its next turn and the new target may defend)."""
    if not declared_before_defence:
        raise InvalidInput(
            "a redirect is declared before the defence roll", field="redirect", rule="WCBH-46"
        )
    if not defence.active:
        raise InvalidInput(
            "only an active defence redirects an attack", field="defence", rule="WCBH-46"
        )
    if defence_successes - attack_successes < REDIRECT_MARGIN:
        raise InvalidInput(
            f"the defence must beat the attack by {REDIRECT_MARGIN}+ successes",
            field="defence",
            rule="WCBH-46",
        )
    return Redirect(at_someone, at_someone, at_someone)


# -- WCBH-47: team attacks -----------------------------------------------------------------------


@dataclass(frozen=True)
class TeamAttack:
    """Characters jointly attacking one target at the end of the Page (``order_of_action(...,
    team_attack=...)``); ``exploding`` spent 1 Resolve each for exploding 6s."""

    target: str
    attackers: tuple[str, ...]
    exploding: frozenset[str] = frozenset()

    def resolve_cost(self, attacker: str) -> int:
        return 1 if attacker in self.exploding else 0


def team_attack(
    target: str,
    attackers: Iterable[str],
    *,
    teamed_this_battle: Iterable[str] = (),
    exploding: Iterable[str] = (),
    gm_allows_again: bool = False,
) -> TeamAttack:
    """WCBH-47: two or more characters attack one target together; each gets +2 dice and may spend
    1 Resolve to make its 6s explode. A character takes part in one team attack per battle unless
    the GM allows a particularly creative one (``gm_allows_again``)."""
    team = tuple(dict.fromkeys(attackers))
    if len(team) < 2:
        raise InvalidInput(
            "a team attack takes two or more attackers", field="attackers", rule="WCBH-47"
        )
    again = sorted(set(team) & set(teamed_this_battle))
    if again and not gm_allows_again:
        raise InvalidInput(
            f"already in a team attack this battle: {again}", field="attackers", rule="WCBH-47"
        )
    powered = frozenset(exploding)
    if not powered <= set(team):
        raise InvalidInput(
            "only attackers of the team power it up", field="exploding", rule="WCBH-47"
        )
    return TeamAttack(target, team, powered)


def roll_team_attack(
    roller: Roller,
    team: TeamAttack,
    ranks: Mapping[str, int],
    defences: Iterable[Defence],
    health: int,
    *,
    lethal: bool = True,
    minion: bool = False,
) -> dict[str, AttackResult]:
    """WCBH-47: each attacker rolls its rank + 2 dice (exploding 6s if powered, WCBH-13) in team
    order. Ruling: the target defends each attack separately with its best defence, and the
    Health left after one attack is what the next one hits."""
    options = tuple(defences)
    results: dict[str, AttackResult] = {}
    for attacker in team.attackers:
        if attacker not in ranks:
            raise InvalidInput(f"no rank for {attacker!r}", field="ranks", rule="WCBH-47")
        attack = roll_pool(
            roller,
            ranks[attacker],
            TEAM_ATTACK_BONUS,
            explode=attacker in team.exploding,
            label="attack",
        )
        defence = best_defence(options, lethal=lethal)
        rolled = roll_pool(roller, defence.rank, label="defence")
        outcome = hit(attack.successes, rolled.successes, health, minion=minion)
        results[attacker] = AttackResult(attack, defence, rolled, outcome)
        health = outcome.health
    return results
