"""Class D Heroes combat, pure: the round (heroes' turn, then villains' turn, CD-8), the action
economy (CD-9, CD-15, CD-17), reactions by rank (CD-17), engaged pairs (CD-19), edges from moving
(CD-18), hostage shields (CD-20) and who has left the fight (CD-14, CD-16).

The state is a JSON document kept on the Scene (``Scene.state("classd", "round")``, changed by the
event Scene.StateChanged); ``apply`` is the one place that changes it, so the aggregate and the
scene view read the same events the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Literal

from domain.errors import Conflict, InvalidInput

__all__ = [
    "ATTACK_STAT",
    "ATTACK_TYPES",
    "EDGES",
    "HERO_ACTIONS",
    "ROUND",
    "VILLAIN_ACTIONS",
    "apply",
    "check_fight_under_way",
    "check_hero_action",
    "check_in_fight",
    "check_no_grant",
    "check_turn",
    "check_villain_action",
    "engaged_with",
    "fight_under_way",
    "fleeing",
    "fresh",
    "has_reaction",
    "rank_allows_overflow",
    "state_of",
    "tell",
    "within_turn",
]

AttackType = Literal["melee", "ranged", "mental"]
ATTACK_TYPES: tuple[str, ...] = ("melee", "ranged", "mental")
ATTACK_STAT: dict[str, str] = {"melee": "might", "ranged": "speed", "mental": "spirit"}  # CD-10
HERO_ACTIONS: tuple[str, ...] = ("attack", "power", "item", "flee", "move")  # CD-9, CD-18
VILLAIN_ACTIONS: tuple[str, ...] = ("attack", "special", "flee")  # CD-15
EDGES: tuple[str, ...] = ("cover", "high_ground")  # CD-18
RANKS: dict[str, int] = {"minion": 1, "henchman": 2, "boss": 3}  # CD-13


def fresh(round_: int) -> dict[str, Any]:
    """The state of a scene before any Class D combat event: round ``round_``, heroes' turn."""
    return {
        "round": round_,
        "turn": "heroes",
        "actions": {},  # character id -> actions taken this round ("attack:melee", "move"…)
        "reactions": {},  # villain id -> attack types it reacted with this round (spent)
        "moved": [],  # who moved this round (CD-18/19)
        "stops": {},  # hero id -> {"villain_id", "stopped"}: this villains' turn (CD-16)
        "engaged": [],  # {"a", "b", "side", "round"}: a attacked b in melee (CD-19)
        "edges": {},  # hero id -> {"kind", "until_round"} (CD-18)
        "shields": {},  # villain id -> {"hostage_id", "hostage"} (CD-20)
        "left": {},  # character id -> "retreated" | "escaped" (CD-14, CD-16)
        "grants": {},  # character id -> the GM's reason: one action outside CD-8/9/15/17
        "over": False,  # the GM ended the fight; the next change of the round starts another
    }


def state_of(raw: Mapping[str, Any] | None, round_: int) -> dict[str, Any]:
    """A copy of the stored state (or a fresh one), to read or to change in an event."""
    return copy.deepcopy(dict(raw)) if raw else fresh(round_)


# ---- reading the state ----------------------------------------------------------------------


def _actions(state: Mapping[str, Any], character_id: str) -> list[str]:
    return list(state["actions"].get(character_id, []))


def has_reaction(state: Mapping[str, Any], villain_id: str, rank: str, attack_type: str) -> bool:
    """CD-17: a minion has one reaction for all attack types, a henchman one per type, a boss
    unlimited; reactions reset every round."""
    used = state["reactions"].get(villain_id, [])
    if rank == "boss":
        return True
    if rank == "minion":
        return not used
    return attack_type not in used


def engaged_with(state: Mapping[str, Any], character_id: str) -> list[str]:
    """CD-19: the characters engaged with this one."""
    found: list[str] = []
    for pair in state["engaged"]:
        if character_id in (pair["a"], pair["b"]):
            other = pair["b"] if pair["a"] == character_id else pair["a"]
            if other not in found:
                found.append(other)
    return found


def fleeing(state: Mapping[str, Any]) -> list[str]:
    """CD-15/16: villains that fled this round and that no hero has stopped."""
    stopped = {s["villain_id"] for s in state["stops"].values() if s["stopped"]}
    return [
        c
        for c, actions in state["actions"].items()
        if "flee" in actions and c not in stopped and c not in state["left"]
    ]


def rank_allows_overflow(original_rank: str, new_rank: str) -> bool:
    """CD-13: overflow moves only to a target whose rank is not higher (minion < henchman < boss)."""
    return RANKS[new_rank] <= RANKS[original_rank]


# ---- checks (raise before any event) --------------------------------------------------------


def check_turn(state: Mapping[str, Any], side: str) -> None:
    """CD-8: heroes act in the heroes' turn, villains in the villains' turn."""
    if state["turn"] != side:
        raise Conflict(
            f"it is the {state['turn']}' turn of round {state['round']}; the {side} act in their "
            "own turn (reactions and defences excepted)",
            code="not_your_turn",
            rule="CD-8",
            details={"round": state["round"], "turn": state["turn"]},
        )


def check_in_fight(state: Mapping[str, Any], character_id: str, name: str, field: str) -> None:
    """CD-14/16: who retreated or escaped is out of this scene's fight."""
    how = state["left"].get(character_id)
    if how is not None:
        raise Conflict(
            f"{name} has {how} from this fight", code="left_the_fight", field=field, rule="CD-14"
        )


def check_hero_action(state: Mapping[str, Any], hero_id: str, name: str) -> None:
    """CD-9: a hero has one action per round."""
    done = _actions(state, hero_id)
    if done:
        raise Conflict(
            f"{name} has already acted this round ({done[0]}); a hero has one action per round",
            code="action_used",
            rule="CD-9",
            details={"round": state["round"], "actions": done},
        )


def check_villain_action(
    state: Mapping[str, Any],
    villain_id: str,
    name: str,
    rank: str,
    action: str,
    attack_type: str | None = None,
) -> None:
    """CD-15/17: one action per villain per turn; a boss two attacks, or an attack and one other
    action; a minion that reacted cannot attack this round; a henchman cannot attack with a type it
    reacted with this round."""
    done = _actions(state, villain_id)
    limit = 2 if rank == "boss" else 1
    if len(done) >= limit:
        raise Conflict(
            f"{name} has used its {limit} action(s) this turn",
            code="action_used",
            rule="CD-17" if rank == "boss" else "CD-15",
            details={"round": state["round"], "actions": done},
        )
    others = [a for a in done if not a.startswith("attack")]
    if rank == "boss" and others and not action.startswith("attack"):
        raise Conflict(
            f"{name} already took a {others[0]} action: a boss takes two attacks, or one attack "
            "and one special action",
            code="action_used",
            rule="CD-17",
            details={"round": state["round"], "actions": done},
        )
    if attack_type is None:
        return
    used = state["reactions"].get(villain_id, [])
    if rank == "minion" and used:
        raise Conflict(
            f"{name} is a minion that used its reaction this round ({used[0]}): it cannot attack",
            code="reaction_used",
            rule="CD-17",
            details={"reactions": used},
        )
    if rank == "henchman" and attack_type in used:
        raise Conflict(
            f"{name} reacted with a {attack_type} attack this round: it cannot attack with that "
            "type",
            code="reaction_used",
            rule="CD-17",
            details={"reactions": used},
        )


def within_turn(state: Mapping[str, Any], character_id: str, *checks: Callable[[], None]) -> bool:
    """CD-8, 9, 15, 17: run the turn order and action economy `checks`; a refusal of theirs gives
    way to the GM's recorded grant for this character (True: the action uses the grant up)."""
    try:
        for check in checks:
            check()
    except Conflict:
        if character_id in state.get("grants", {}):
            return True
        raise
    return False


def check_no_grant(state: Mapping[str, Any], character_id: str, name: str) -> None:
    """One grant at a time: the GM's override is one action, used before another is given."""
    if character_id in state.get("grants", {}):
        raise Conflict(
            f"{name} already has the GM's leave for one action this round",
            code="grant_unused",
            field="character_id",
            rule="CD-8",
        )


def fight_under_way(state: Mapping[str, Any] | None) -> bool:
    """CD-8: a fight is under way from the first change of its round until the GM ends it."""
    return state is not None and not state.get("over", False)


def check_fight_under_way(state: Mapping[str, Any] | None) -> None:
    if not fight_under_way(state):
        raise Conflict("no fight is under way in this scene", code="no_fight", rule="CD-8")


def check_edge_kind(kind: str) -> None:
    if kind not in EDGES:
        raise InvalidInput(f"edge must be one of {', '.join(EDGES)}", field="edge", rule="CD-18")


# ---- the one place the state changes ---------------------------------------------------------


def apply(
    raw: Mapping[str, Any] | None, round_: int, change: str, details: Mapping[str, Any]
) -> dict[str, Any]:
    """The state after one change (``acted``, ``engaged``…; or an event type recorded before
    Scene.StateChanged, ``ClassDActed``…, read as the change it was) with its ``details``."""
    change, fields = upgraded(change, details)
    state = state_of(raw, round_)
    handler = _HANDLERS.get(change)
    if handler is None:
        raise ValueError(f"unknown Class D combat change {change!r}")
    handler(state, {k: (str(v) if _is_uuid(v) else v) for k, v in fields.items()})
    if change not in ("fight_ended", "round_started"):
        state["over"] = False  # any change of the fight itself starts one (CD-8)
    return state


def upgraded(change: str, details: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A change as StateChanged records it: the old event types become their change, their
    `round_number` the `round`, and the one who acts is always `character_id`."""
    fields = dict(details)
    if change not in RECORDED_AS:
        return change, fields
    if "round_number" in fields:
        fields["round"] = fields.pop("round_number")
    actor_field = _ACTOR_FIELD.get(change)
    if actor_field is not None:
        fields["character_id"] = fields.pop(actor_field)
    return RECORDED_AS[change], fields


def _is_uuid(value: Any) -> bool:
    return type(value).__name__ == "UUID"


def _turn_ended(state: dict[str, Any], f: dict[str, Any]) -> None:
    # CD-19: an engagement a villain started lasts until the start of the villains' next turn.
    state["turn"] = "villains"
    state["stops"] = {}
    state["engaged"] = [e for e in state["engaged"] if e["side"] != "villains"]


def _round_started(state: dict[str, Any], f: dict[str, Any]) -> None:
    round_ = int(f["round"])
    for villain in f.get("escaped", []):
        state["left"][str(villain)] = "escaped"
    state.update(
        round=round_, turn="heroes", actions={}, reactions={}, moved=[], stops={}, grants={}
    )
    # CD-19: an engagement a hero started lasts until the start of the heroes' next turn.
    state["engaged"] = [e for e in state["engaged"] if e["side"] != "heroes"]
    state["edges"] = {c: e for c, e in state["edges"].items() if e["until_round"] >= round_}


def _acted(state: dict[str, Any], f: dict[str, Any]) -> None:
    who = str(f["character_id"])
    if f.get("granted"):
        state.setdefault("grants", {}).pop(who, None)
    if not f.get("free"):
        state["actions"].setdefault(who, []).append(f["action"])
    if f["action"] == "move":
        _moved(state, who)


def _moved(state: dict[str, Any], who: str) -> None:
    if who not in state["moved"]:
        state["moved"].append(who)
    state["engaged"] = [e for e in state["engaged"] if who not in (e["a"], e["b"])]


def _reacted(state: dict[str, Any], f: dict[str, Any]) -> None:
    if f["spent"]:
        state["reactions"].setdefault(str(f["character_id"]), []).append(f["attack_type"])


def _engaged(state: dict[str, Any], f: dict[str, Any]) -> None:
    a, b = str(f["character_id"]), str(f["target_id"])
    state["engaged"] = [e for e in state["engaged"] if {e["a"], e["b"]} != {a, b}]
    state["engaged"].append({"a": a, "b": b, "side": f["side"], "round": state["round"]})


def _edge_gained(state: dict[str, Any], f: dict[str, Any]) -> None:
    state["edges"][str(f["character_id"])] = {
        "kind": f["kind"],
        "until_round": int(f["until_round"]),
    }


def _left(state: dict[str, Any], f: dict[str, Any]) -> None:
    who = str(f["character_id"])
    state["left"][who] = f["how"]
    state["engaged"] = [e for e in state["engaged"] if who not in (e["a"], e["b"])]
    state["edges"].pop(who, None)


def _stop_attempted(state: dict[str, Any], f: dict[str, Any]) -> None:
    state["stops"][str(f["character_id"])] = {
        "villain_id": str(f["villain_id"]),
        "stopped": bool(f["stopped"]),
    }


def _shield_changed(state: dict[str, Any], f: dict[str, Any]) -> None:
    villain = str(f["character_id"])
    if f.get("hostage") is None:
        state["shields"].pop(villain, None)
    else:
        hostage_id = f.get("hostage_id")
        state["shields"][villain] = {
            "hostage_id": str(hostage_id) if hostage_id else None,
            "hostage": f["hostage"],
        }


def _fight_ended(state: dict[str, Any], f: dict[str, Any]) -> None:
    # Nothing of the fight outlives it: the next one starts from a fresh round.
    state.clear()
    state.update(fresh(int(f["round"])), over=True)


def _override_granted(state: dict[str, Any], f: dict[str, Any]) -> None:
    state.setdefault("grants", {})[str(f["character_id"])] = f["reason"]


_HANDLERS = {
    "fight_ended": _fight_ended,
    "override_granted": _override_granted,
    "turn_ended": _turn_ended,
    "round_started": _round_started,
    "acted": _acted,
    "reacted": _reacted,
    "engaged": _engaged,
    "edge_gained": _edge_gained,
    "left": _left,
    "stop_attempted": _stop_attempted,
    "shield_changed": _shield_changed,
}
# The Scene's event types of the round before Scene.StateChanged: old logs still hold them.
RECORDED_AS: dict[str, str] = {
    "ClassDTurnEnded": "turn_ended",
    "ClassDRoundStarted": "round_started",
    "ClassDActed": "acted",
    "ClassDReacted": "reacted",
    "ClassDEngaged": "engaged",
    "ClassDEdgeGained": "edge_gained",
    "ClassDLeftFight": "left",
    "ClassDStopAttempted": "stop_attempted",
    "ClassDShieldChanged": "shield_changed",
}
# Who acted, in the old event types that did not call it `character_id`.
_ACTOR_FIELD = {
    "ClassDReacted": "villain_id",
    "ClassDEngaged": "attacker_id",
    "ClassDStopAttempted": "hero_id",
    "ClassDShieldChanged": "villain_id",
}


# ---- the change in words (the scene's replay) ------------------------------------------------


def tell(change: str, details: Mapping[str, Any], name_of: Callable[[Any], str]) -> str:
    """One change of the round in words; `name_of` names a character by id."""
    change, f = upgraded(change, details)
    if change == "turn_ended":
        return f"Round {f['round']}: the heroes' turn ends, the villains act (CD-8)"
    if change == "round_started":
        gone = ", ".join(name_of(c) for c in f.get("escaped", []))
        return f"Round {f['round']} begins: the heroes act" + (
            f"; {gone} escaped (CD-16)" if gone else ""
        )
    if change == "fight_ended":
        return f"Round {f['round']}: the GM ends the fight ({f['reason']})"
    who = name_of(f["character_id"])
    if change == "override_granted":
        return f"The GM lets {who} act outside the turn order once this round ({f['reason']})"
    if change == "acted":
        free = " (no action taken)" if f.get("free") else ""
        granted = " (by the GM's leave)" if f.get("granted") else ""
        return f"{who}: {f['action'].replace(':', ' ')}{free}{granted}"
    if change == "reacted":
        how = "spends its reaction" if f["spent"] else "without spending a reaction"
        return f"{who} hits back ({f['attack_type']}), {how} (CD-11)"
    if change == "engaged":
        return f"{who} and {name_of(f['target_id'])} are engaged (CD-19)"
    if change == "edge_gained":
        kind = f["kind"].replace("_", " ")
        return f"{who} gains {kind} until round {f['until_round']} (CD-18)"
    if change == "left":
        return f"{who} {f['how']} from the fight"
    if change == "stop_attempted":
        verb = "stops" if f["stopped"] else "fails to stop"
        return f"{who} {verb} {name_of(f['villain_id'])} fleeing (CD-16)"
    if f.get("hostage") is None:
        return f"{who} lets the hostage go (CD-20)"
    return f"{who} shields itself with {f['hostage']} (CD-20)"


class RoundState:
    """The round as a system state of the scene (`Scene.state("classd", "round")`)."""

    view_key = "classd"
    state_of = staticmethod(state_of)
    apply = staticmethod(apply)

    @staticmethod
    def describe(change: str, details: Mapping[str, Any], name: str) -> str:
        # The shared replay names only the one who acts (`character_id`); anyone else the
        # change names (a target, the villain stopped, who escaped) is told without a name.
        actor = str(details.get("character_id"))
        return tell(change, details, lambda c: name if str(c) == actor else "another")


ROUND = RoundState()
