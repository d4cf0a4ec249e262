"""What a Class D Heroes combat command refuses, decided from the rules, the sheets and the
round's state alone (CD-1, CD-6, CD-10, CD-13..CD-20); the commands ask these before they roll.
The round's own checks (turns, actions, reactions) are in combat.py."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from domain.errors import Conflict, Forbidden, InvalidInput
from domain.rulesets.base import OPPOSING_SIDES
from systems.classd.rules.combat import fleeing, rank_allows_overflow
from systems.classd.rules.sheet import ClassdSheet, Feature

MOVE_STATS = ("speed", "might")  # CD-18: Speed to move, Might to force through
HERO_UNROLLED = ("power", "item")  # CD-9: what a hero does without a roll
VILLAIN_UNROLLED = ("special", "flee")  # CD-15: what a villain does without a roll


def _not_enough(owner: str, name: str, have: int, needed: int, rule: str) -> Conflict:
    # The shape of domain.aggregates._checks.not_enough, which pure rules may not import.
    return Conflict(
        f"{owner} has {have} {name}, not the {needed} this needs",
        code="not_enough_" + name,
        rule=rule,
        details={"resource": name, "have": have, "needed": needed},
    )


def check_side(name: str, side: str, sheet: ClassdSheet, wanted: str, field: str) -> None:
    """CD-1: a hero is on the heroes' side; a villain on the other, with a rank."""
    if wanted == "hero" and side != "hero":
        raise InvalidInput(f"{name} is no hero", field=field, rule="CD-1")
    if wanted == "villain" and (side not in OPPOSING_SIDES or sheet.rank is None):
        raise InvalidInput(f"{name} is no villain with a rank", field=field, rule="CD-1")


def check_active(name: str, status: str, field: str) -> None:
    """Who is defeated (0 Health, CD-11), captured (CD-12) or otherwise out of action fights no
    more, until its status is active again (Health above 0: a rest or the GM's healing)."""
    if status != "active":
        raise Conflict(
            f"{name} is {status}",
            code="out_of_action",
            field=field,
            rule="CD-12" if status == "captured" else "CD-11",
        )


def capture_status(name: str, status: str, health: int, release: bool) -> str:
    """CD-23: the status a hero the villains take (captured) or free (active, or defeated at 0
    Health: status follows Health, CD-11) gets."""
    if release:
        if status != "captured":
            raise Conflict(f"{name} is not captured", code="not_captured", rule="CD-23")
        return "active" if health > 0 else "defeated"
    if status == "captured":
        raise Conflict(f"{name} is captured already", code="captured", rule="CD-23")
    return "captured"


def check_will_rerolls(name: str, will: int, will_rerolls: int) -> None:
    """CD-6: each reroll costs 1 Will, so a hero declares no more than it has."""
    if will_rerolls > will:
        raise _not_enough(name, "will", will, will_rerolls, "CD-6")


def feature_used(
    name: str, features: Sequence[Feature], using: str | None, attack_type: str
) -> Feature | None:
    """CD-10: the weapon or power an attack is made with (it must make that type of attack)."""
    if using is None:
        return None
    found = next((f for f in features if f.name == using), None)
    if found is None:
        raise InvalidInput(f"{name} has no power or gear {using!r}", field="using", rule="CD-10")
    if found.attack != attack_type:
        raise InvalidInput(f"{using} makes no {attack_type} attacks", field="using", rule="CD-10")
    return found


def ranged_means(name: str, sheet: ClassdSheet, will: int, feature: Feature | None) -> Feature:
    """CD-10: a ranged attack needs a ranged weapon, or a ranged power and at least 1 Will
    (ruling: the Will is needed, not spent)."""
    if feature is None:
        gear = [g for g in sheet.gear if g.attack == "ranged"]
        powers = [p for p in sheet.powers if p.attack == "ranged"]
        if not gear and not powers:
            raise Conflict(
                f"{name} has no ranged weapon and no ranged power",
                code="no_ranged_attack",
                field="attack_type",
                rule="CD-10",
            )
        feature = (gear or powers)[0]
    is_power = feature in sheet.powers and feature not in sheet.gear
    if is_power and will < 1:
        raise _not_enough(name, "will", 0, 1, "CD-10")
    return feature


def check_overflow_other(target_id: str, other_id: str) -> None:
    """CD-13: overflow moves to another target."""
    if other_id == target_id:
        raise InvalidInput(
            "overflow moves to another target", field="overflow_target_id", rule="CD-13"
        )


def check_overflow_rank(target_rank: str, other_name: str, other_rank: str) -> None:
    """CD-13: overflow moves only to a villain of a rank not higher than the target's."""
    if not rank_allows_overflow(target_rank, other_rank):
        raise InvalidInput(
            f"{other_name} is a {other_rank}: overflow from a {target_rank} moves only to a "
            "rank not higher",
            field="overflow_target_id",
            rule="CD-13",
        )


def check_action_kind(side: str, action: str) -> None:
    """CD-9/15: without a roll a hero uses a power or an item; a villain a special action or
    flight."""
    allowed = HERO_UNROLLED if side == "hero" else VILLAIN_UNROLLED
    if action not in allowed:
        raise InvalidInput(
            f"a {side}'s action here is one of {', '.join(allowed)}",
            field="action",
            rule="CD-9" if side == "hero" else "CD-15",
        )


def check_has_feature(name: str, sheet: ClassdSheet, action: str, feature: str | None) -> None:
    """CD-9: a power used is one of the character's powers, an item used one of its gear (its
    inventory); a villain's special action may name either."""
    if feature is None:
        return
    pool = {"power": sheet.powers, "item": sheet.gear}.get(action, [*sheet.gear, *sheet.powers])
    if not any(f.name == feature for f in pool):
        what = {"power": "power", "item": "item in its gear"}.get(action, "power or gear")
        raise InvalidInput(f"{name} has no {what} {feature!r}", field="feature", rule="CD-9")


def check_retreat(hero_id: str, pursuers: Collection[str], covering: Collection[str]) -> None:
    """CD-14: a hero retreats from named pursuers; allies cover it, never the hero itself."""
    if hero_id in covering:
        raise InvalidInput(
            "a hero cannot cover its own retreat", field="covering_ids", rule="CD-14"
        )
    if not pursuers:
        raise InvalidInput("name the villains who may pursue", field="pursuer_ids", rule="CD-14")


def check_stop(state: Mapping[str, Any], hero: tuple[str, str], villain: tuple[str, str]) -> None:
    """CD-16: a hero stops a villain fleeing this turn, one attempt per hero per turn
    (`hero`, `villain`: id and name)."""
    if villain[0] not in fleeing(state):
        raise Conflict(f"{villain[1]} is not fleeing this turn", code="not_fleeing", rule="CD-16")
    tried = state["stops"].get(hero[0])
    if tried is not None:
        raise Conflict(
            f"{hero[1]} already tried to stop a villain this turn",
            code="stop_used",
            rule="CD-16",
            details={"villain_id": tried["villain_id"]},
        )


def check_move(stat: str, takes_action: bool, by_gm: bool) -> None:
    """CD-18: a move rolls Speed (or Might to force through); only the GM rules that it takes
    no action."""
    if not takes_action and not by_gm:
        raise Forbidden(
            "only the GM rules that a move takes no action", field="takes_action", rule="CD-18"
        )
    if stat not in MOVE_STATS:
        raise InvalidInput(
            "a move rolls speed, or might to force through", field="stat", rule="CD-18"
        )


def check_release(state: Mapping[str, Any], villain_id: str, name: str) -> None:
    """CD-20: a villain lets go only of a hostage it holds."""
    if villain_id not in state["shields"]:
        raise Conflict(f"{name} holds no hostage", code="no_hostage", rule="CD-20")


def check_hostage(villain_id: str, hostage_id: str | None, hostage: str | None) -> None:
    """CD-20: the hostage is named (or a character, not the villain itself)."""
    if hostage_id is not None and hostage_id == villain_id:
        raise InvalidInput("a villain is not its own hostage", field="hostage_id", rule="CD-20")
    if not hostage:
        raise InvalidInput("name the hostage, or give hostage_id", field="hostage", rule="CD-20")
