"""Nimble encounters, pure: the order of turns (NB-3, NB-4), starting actions (NB-1, NB-2), the
three actions (NB-7), free actions (NB-8), hasty attacks (NB-10), limited uses (NB-5), reactions
(NB-15), concentration activities (NB-6), Assess (NB-14) and what refreshes when.

The state is a JSON document kept on the Scene as this system's area ``encounter`` (a scene is an
encounter, its pages are rounds: ``ENCOUNTER``, ``Scene.state``/``change_state``); ``apply`` is the
one place that changes it, so the aggregate and the scene view replay the same events the same
way. The ``check_*`` functions raise before any event.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from math import ceil
from typing import Any, Protocol

from domain.errors import Conflict, InvalidInput
from systems.nimble.rules.sheet import HERO_ACTIONS

__all__ = [
    "ENCOUNTER",
    "ActionAsked",
    "action_cost",
    "activity_lapsed",
    "apply",
    "check_actions",
    "check_activity",
    "check_assess",
    "check_attack",
    "check_can_move",
    "check_can_start",
    "check_defend",
    "check_defend_helps",
    "check_free",
    "check_grant",
    "check_help_on_attack",
    "check_hero",
    "check_in",
    "check_interposed_for",
    "check_interposer",
    "check_limited_use",
    "check_mana",
    "check_may_spread",
    "check_members",
    "check_no_save_due",
    "check_not_concentrating",
    "check_not_helped",
    "check_not_pending",
    "check_running",
    "check_spend",
    "check_standing",
    "check_surprised",
    "check_swap",
    "check_targetable",
    "check_turn",
    "check_use",
    "check_weakness_target",
    "current",
    "first_round_order",
    "hasty_steps",
    "held_attack",
    "helped_assessment",
    "holds",
    "move_actions",
    "movement_cost",
    "primary_shift",
    "refreshes",
    "starting_actions",
    "state_of",
]


def fresh() -> dict[str, Any]:
    return {
        "status": "none",  # none -> running -> ended
        "round": 0,
        "order": [],  # NB-3: the fixed order (heroes in their agreed order, monster groups placed)
        "round_order": [],  # this round's order (one-round swaps, monsters first when surprised)
        "turn": 0,  # index into round_order; == len(round_order): the round is over
        "kinds": {},  # id -> "hero" | "monster"
        "actions": {},  # hero id -> actions it has now (NB-1, NB-7, NB-15)
        "initiative": {},  # hero id -> {"roll_id", "actions", "surprise"} (NB-1, NB-2)
        "uses": {"turn": {}, "round": {}, "encounter": {}},  # period -> id -> [keys] (NB-5)
        "attacks": {},  # id -> attacks and save abilities this turn (NB-10)
        "free": [],  # who used their free action this turn (NB-8)
        "movement": {},  # hero id -> squares of movement left this turn (NB-13)
        "assessed": {},  # hero id -> skills used to Assess this encounter (NB-14)
        "assessments": {},  # roll id -> the Assess, for Help (NB-19)
        "weakness": {},  # target id -> [{"by", "round"}] (NB-14 find a weakness)
        "anticipating": {},  # id -> round (NB-14 anticipate danger)
        "activities": {},  # hero id -> {"name", "cost", "paid"} (NB-6)
        "helped": [],  # roll ids already helped (NB-19)
        "max_actions": {},  # hero id -> actions it gets back at its turn's end (NB-7, NB-21)
        "pending": None,  # a held attack waiting for reactions and Help (NB-15..17, NB-19)
        "spent": {},  # hero id -> actions spent on its own current turn (NB-21's 1 a turn)
        "extra_attacks": {},  # monster id -> attacks the GM granted beyond its members this turn
    }


def state_of(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    return copy.deepcopy(dict(raw)) if raw else fresh()


def current(state: Mapping[str, Any]) -> str | None:
    """NB-4: whose turn it is (None before the encounter, after it, or when the round is over)."""
    order = state["round_order"]
    if state["status"] != "running" or state["turn"] >= len(order):
        return None
    return str(order[state["turn"]])


def starting_actions(rolled: int | None, surprise: str | None, party: str | None) -> int:
    """NB-1/NB-2: the Initiative roll's actions, unless surprise fixes them (every hero 3, a
    surprised hero 1)."""
    if party == "three_actions":
        return HERO_ACTIONS
    if surprise == "one_action":
        return 1
    assert rolled is not None
    return rolled


def first_round_order(
    order: list[str], kinds: Mapping[str, str], monsters_first: bool
) -> list[str]:
    """NB-2/NB-3: the first round keeps the fixed order, unless a surprised party lets the
    monsters act first."""
    if not monsters_first:
        return list(order)
    return [c for c in order if kinds[c] != "hero"] + [c for c in order if kinds[c] == "hero"]


def movement_cost(squares: int, difficult: int) -> int:
    """NB-13: difficult terrain costs double."""
    return squares + 2 * difficult


def move_actions(name: str, left: int, need: int, speed: int) -> tuple[int, int]:
    """NB-13: the Move actions a move of `need` squares costs beyond the `left` of the turn's
    earlier ones (each gives `speed` squares), and the squares left after it."""
    if need <= left:
        return 0, left - need
    check_can_move(name, speed)
    cost = ceil((need - left) / speed)
    return cost, left + cost * speed - need


def hasty_steps(state: Mapping[str, Any], who: str, *, reaction: bool = False) -> int:
    """NB-10: a hero's attacks (and save abilities) after the first of its turn are hasty, one
    more step each. The source gives the rule to heroes ("Герой может атаковать больше одного
    раза за ход"): a monster group's attacks are never hasty, nor is a reaction (ruling)."""
    if reaction or state["kinds"].get(who) != "hero":
        return 0
    return int(state["attacks"].get(who, 0))


def primary_shift(state: Mapping[str, Any], target: str) -> tuple[int, bool, bool]:
    """NB-14: the face shift of the next Primary die against ``target`` this round: +1 from a
    weakness found, -1 while the target anticipates danger; and whether each applies."""
    weakness = any(w["round"] == state["round"] for w in state["weakness"].get(target, []))
    anticipating = state["anticipating"].get(target) == state["round"]
    return int(weakness) - int(anticipating), weakness, anticipating


def refreshes(
    state: Mapping[str, Any], max_actions: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """What refreshes at the end of any turn, of each one's own turn, of the round and of the
    encounter (NB-5, NB-7, NB-8, NB-10, NB-13, NB-14, NB-15). ``max_actions``: what each hero
    gets back now (NB-21: its health today, which may have changed since the state learnt it)."""
    uses = state["uses"]
    back = {**state.get("max_actions", {}), **(max_actions or {})}
    own: dict[str, Any] = {}
    for who, kind in state["kinds"].items():
        if kind != "hero":
            continue
        own[who] = {
            "actions_back_to": int(back.get(who, HERO_ACTIONS)),
            "actions_now": state["actions"].get(who, 0),
            "round_uses": list(uses["round"].get(who, [])),
            "attacks_this_turn": state["attacks"].get(who, 0),
            "movement_left": state["movement"].get(who, 0),
        }
    return {
        "end_of_turn": {
            "turn_uses": {k: list(v) for k, v in uses["turn"].items() if v},
            "free_actions_used": list(state["free"]),
        },
        "end_of_own_turn": own,
        "end_of_round": {
            "weakness": {k: v for k, v in state["weakness"].items() if v},
            "anticipating": list(state["anticipating"]),
        },
        "end_of_encounter": {
            "encounter_uses": {k: list(v) for k, v in uses["encounter"].items() if v},
            "assessed": {k: list(v) for k, v in state["assessed"].items() if v},
            "activities": dict(state["activities"]),
        },
    }


# ---- checks (raise before any event) --------------------------------------------------------


def check_running(state: Mapping[str, Any]) -> None:
    if state["status"] != "running":
        raise Conflict(
            "no Nimble encounter is running in this scene; the GM rolls Initiative first",
            code="no_encounter",
            rule="NB-4",
        )


def check_in(state: Mapping[str, Any], who: str, name: str, field: str) -> None:
    if who not in state["kinds"]:
        raise InvalidInput(f"{name} takes no part in this encounter", field=field, rule="NB-4")


def check_hero(state: Mapping[str, Any], who: str, name: str, field: str, rule: str) -> None:
    if state["kinds"].get(who) != "hero":
        raise InvalidInput(f"{name} is no hero: only heroes do this", field=field, rule=rule)


def check_turn(state: Mapping[str, Any], who: str, name: str) -> None:
    """NB-4/NB-15: outside its own turn a creature acts only with a reaction."""
    now = current(state)
    if now != who:
        raise Conflict(
            f"it is not {name}'s turn: outside its own turn a hero acts only with a reaction",
            code="not_your_turn",
            rule="NB-15",
            details={"round": state["round"], "turn_of": now},
        )


def check_actions(state: Mapping[str, Any], who: str, name: str, cost: int, rule: str) -> None:
    """NB-7/NB-15: a hero cannot spend actions it does not have."""
    have = int(state["actions"].get(who, 0))
    if cost > have:
        raise Conflict(
            f"{name} has {have} action(s) left, not {cost}",
            code="no_actions",
            rule=rule,
            details={"have": have, "needed": cost},
        )


def check_use(state: Mapping[str, Any], who: str, key: str, period: str, rule: str) -> None:
    """NB-5 (NB-14, NB-15, NB-19): a use limited to once per turn, round or encounter."""
    if key in state["uses"][period].get(who, []):
        raise Conflict(
            f"{key} was already used this {period}",
            code="already_used",
            rule=rule,
            details={"use": key, "per": period},
        )


def check_free(state: Mapping[str, Any], who: str, name: str) -> None:
    """NB-8: one free action per turn."""
    if who in state["free"]:
        raise Conflict(
            f"{name} has already taken a free action this turn",
            code="free_action_used",
            rule="NB-8",
        )


def check_not_concentrating(state: Mapping[str, Any], who: str, name: str) -> None:
    """NB-6: while spreading an activity over turns, no other actions or reactions."""
    activity = state["activities"].get(who)
    if activity is not None:
        raise Conflict(
            f"{name} is concentrating on {activity['name']!r}: no other actions or reactions "
            "(free actions allowed; a free action can end the concentration)",
            code="concentrating",
            rule="NB-6",
            details=dict(activity),
        )


def check_not_pending(state: Mapping[str, Any]) -> None:
    """NB-15: reactions resolve before what triggered them, so a held attack is settled (its
    reactions declared, or none) before another attack or the end of a turn."""
    pending = state.get("pending")
    if pending:
        raise Conflict(
            "an attack is waiting for its reactions: resolve it first "
            f"(POST .../nimble/attacks/{pending['roll_id']}/resolve)",
            code="attack_pending",
            rule="NB-15",
            details={"roll_id": pending["roll_id"], "target_id": pending["target_id"]},
        )


def check_assess(state: Mapping[str, Any], who: str, skill: str) -> None:
    """NB-14: the same skill Assesses at most once per encounter."""
    if skill.casefold() in [s.casefold() for s in state["assessed"].get(who, [])]:
        raise Conflict(
            f"{skill} was already used to Assess in this encounter",
            code="skill_assessed",
            rule="NB-14",
            details={"skill": skill},
        )


# ---- apply ----------------------------------------------------------------------------------


class ActionAsked(Protocol):
    """What an action asks for (the command's request: systems/nimble/requests.py)."""

    action: str
    cost: int
    free: bool
    activity_cost: int | None
    end_concentration: bool


def action_cost(
    state: Mapping[str, Any], who: str, name: str, asked: ActionAsked
) -> tuple[int, bool, dict[str, Any]]:
    """NB-6..NB-8: what an action costs (actions, whether it is the turn's free action) and
    what it changes of an activity spread over turns; refuses what the turn cannot pay."""
    if asked.free or asked.end_concentration:
        check_free(state, who, name)
        details: dict[str, Any] = {}
        if asked.end_concentration:
            check_activity(state, who, name)
            details["activity"] = None
        return 0, True, details
    if asked.activity_cost is not None or who in state["activities"]:
        return _activity_cost(state, who, name, asked)
    if state["kinds"][who] == "hero":
        check_not_concentrating(state, who, name)
        check_actions(state, who, name, asked.cost, "NB-7")
    return asked.cost, False, {}


def _activity_cost(
    state: Mapping[str, Any], who: str, name: str, asked: ActionAsked
) -> tuple[int, bool, dict[str, Any]]:
    """NB-6: all the actions the hero has go into the activity until it is paid."""
    check_hero(state, who, name, "character_id", "NB-6")
    activity = state["activities"].get(who) or {
        "name": asked.action,
        "cost": asked.activity_cost,
        "paid": 0,
    }
    if activity["name"] != asked.action:
        check_not_concentrating(state, who, name)
    have = int(state["actions"].get(who, 0))
    if have < 1:
        check_actions(state, who, name, 1, "NB-7")
    cost = min(have, int(activity["cost"]) - int(activity["paid"]))
    paid = int(activity["paid"]) + cost
    done = paid >= int(activity["cost"])
    return (
        cost,
        asked.free,
        {"activity": None if done else {**activity, "paid": paid}, "activity_done": done},
    )


def check_members(state: Mapping[str, Any], who: str, name: str, left: int | None) -> None:
    """NB-3/NB-4 (ruling): a monster group takes its turn together, each member left making one
    attack (or grapple, or save ability) a turn, plus any the GM granted this turn (recorded,
    with its reason). `left`: None for a hero or a single monster (its stat block governs)."""
    if left is None:
        return
    made = int(state["attacks"].get(who, 0))
    allowed = left + int(state.get("extra_attacks", {}).get(who, 0))
    if made >= allowed:
        raise Conflict(
            f"{name} has {left} member(s) left, and each has attacked this turn",
            code="no_members_left",
            rule="NB-4",
            details={"members_left": left, "attacks_this_turn": made, "allowed": allowed},
        )


def activity_lapsed(
    state: Mapping[str, Any], who: str, concentration: Mapping[str, Any] | None
) -> bool:
    """NB-6 with NB-25: an activity spread over turns lasts while its Concentration does; that
    ends at 0 HP, on a failed save after a crit, or when dropped (the activity's name is the
    Concentration's effect)."""
    activity = state["activities"].get(who)
    if activity is None:
        return False
    return concentration is None or concentration.get("effect") != activity["name"]


def check_may_spread(name: str, concentration: Mapping[str, Any] | None, hp: int) -> None:
    """NB-6/NB-25: spreading an activity over turns needs Concentration: not while the hero
    concentrates on another effect, not at 0 HP."""
    if concentration is not None or hp == 0:
        held = f"concentrates on {concentration['effect']}" if concentration else "is at 0 HP"
        raise Conflict(
            f"{name} {held}: an activity spread over turns needs its Concentration",
            field="activity_cost",
            code="cannot_concentrate",
            rule="NB-6",
        )


def check_no_save_due(name: str, concentration: Mapping[str, Any] | None) -> None:
    """NB-25: a critical hit on a concentrating creature calls for its STR save; the player
    rolls it (POST .../nimble/concentration/save) before the creature acts again."""
    if concentration is not None and int(concentration.get("saves_due", 0)) > 0:
        raise Conflict(
            f"{name} must first roll the Concentration save a critical hit called for "
            f"(to keep {concentration['effect']!r})",
            field="character_id",
            code="concentration_save_due",
            rule="NB-25",
            details={"effect": concentration["effect"], "saves_due": concentration["saves_due"]},
        )


def check_mana(name: str, have: int, needed: int, field: str) -> None:
    """NB-12: a spell costs its tier in mana, which the caster must have."""
    if needed > have:
        raise Conflict(
            f"{name} has {have} mana, not {needed}",
            code="not_enough_mana",
            field=field,
            rule="NB-12",
            details={"have": have, "needed": needed},
        )


def check_standing(name: str, status: str, field: str) -> None:
    """NB-20/NB-22: the dead (and defeated monsters) take no part any more. A Dying hero
    (status "dying") still acts, with at most 1 action (NB-21)."""
    if status in ("dead", "defeated"):
        raise Conflict(
            f"{name} is {status}",
            field=field,
            code="out_of_the_fight",
            rule="NB-22" if status == "dead" else "NB-20",
        )


def check_spend(
    state: Mapping[str, Any], who: str, name: str, cost: int, *, reaction: str | None
) -> None:
    """NB-4/NB-7/NB-15: on its own turn a hero spends actions; outside it only a reaction
    (1/round each, 1 action, from the next turn's actions). A monster acts on its turn."""
    if state["kinds"].get(who) != "hero":
        if reaction is not None:
            raise Conflict("only heroes take reactions", code="no_reactions", rule="NB-15")
        check_turn(state, who, name)
        return
    check_not_concentrating(state, who, name)
    if reaction is None:
        check_turn(state, who, name)
        check_actions(state, who, name, cost, "NB-7")
    else:
        check_use(state, who, f"reaction:{reaction}", "round", "NB-15")
        check_actions(state, who, name, cost, "NB-15")


def apply(raw: Mapping[str, Any] | None, change: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The state after one change of the encounter (``change``, ``fields``)."""
    state = state_of(raw)
    handler = _HANDLERS.get(change)
    if handler is None:
        raise ValueError(f"unknown Nimble encounter change {change!r}")
    handler(state, {k: _plain(v) for k, v in fields.items()})
    return state


def _plain(value: Any) -> Any:
    if type(value).__name__ == "UUID":
        return str(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    return value


def _started(state: dict[str, Any], f: dict[str, Any]) -> None:
    fresh_state = fresh()
    state.clear()
    state.update(fresh_state)
    state.update(
        status="running",
        round=int(f["round"]),
        order=list(f["order"]),
        round_order=list(f["round_order"]),
        turn=0,
        kinds=dict(f["kinds"]),
        actions={k: int(v) for k, v in f["actions"].items()},
        initiative=dict(f["initiative"]),
    )


def _add_use(state: dict[str, Any], who: str, key: str, period: str) -> None:
    state["uses"][period].setdefault(who, []).append(key)


def _acted(state: dict[str, Any], f: dict[str, Any]) -> None:
    who = str(f["character_id"])
    details = f.get("details") or {}
    if who in state["actions"]:
        state["actions"][who] = int(state["actions"][who]) - int(f["cost"])
        if current(state) == who:
            spent = state.setdefault("spent", {})
            spent[who] = int(spent.get(who, 0)) + int(f["cost"])
    if f.get("free"):
        state["free"].append(who)
    if f.get("key") and f.get("per"):
        _add_use(state, who, f["key"], f["per"])
    if details.get("hasty"):
        state["attacks"][who] = int(state["attacks"].get(who, 0)) + 1
    if "movement_left" in details:
        state["movement"][who] = int(details["movement_left"])
    if "activity" in details:
        activity = details["activity"]
        if activity is None:
            state["activities"].pop(who, None)
        else:
            state["activities"][who] = activity
    if details.get("weakness_used"):
        target = str(details["target_id"])
        found = state["weakness"].get(target, [])
        if found:
            found.pop(0)
    assess = details.get("assess")
    if assess is not None:
        state["assessed"].setdefault(who, []).append(assess["skill"])
        state["assessments"][assess["roll_id"]] = assess
        if assess["success"]:
            _assess_effect(state, who, assess)
    helped = details.get("help")
    if helped is not None:
        state["helped"].append(helped["roll_id"])
        pending = state.get("pending")
        if pending and pending["roll_id"] == helped["roll_id"]:  # NB-19 on a held attack
            _weakness_after_help(state, pending, bool(helped.get("weakness_used")))
            if helped.get("miss"):
                state["pending"] = None  # the reroll made it a miss: nothing lands
            else:
                pending.update(
                    total=helped["total"],
                    armor=helped.get("armor", pending["armor"]),
                    damage=helped["damage"],
                    critical=helped["critical"],
                    help_roll_id=helped["reroll_id"],
                )
        assess = state["assessments"].get(helped["roll_id"])
        if assess is not None:
            was = assess["success"]
            assess.update(success=helped["success"], total=helped["total"], helped=True)
            if helped["success"] and not was:
                _assess_effect(state, str(assess["character_id"]), assess)


def _weakness_after_help(state: dict[str, Any], pending: dict[str, Any], now: bool) -> None:
    """NB-14: Help changed the held attack's Primary die: a weakness it no longer uses (the new
    die crits by itself) waits again; one it now uses is used up."""
    was = bool(pending.get("weakness_used"))
    target = str(pending["target_id"])
    if now and not was:
        found = state["weakness"].get(target, [])
        if found:
            found.pop(0)
    elif was and not now and pending.get("weakness_entry"):
        state["weakness"].setdefault(target, []).insert(0, pending["weakness_entry"])
    pending["weakness_used"] = now


def _assess_effect(state: dict[str, Any], who: str, assess: Mapping[str, Any]) -> None:
    if assess["option"] == "find_weakness" and assess.get("target_id"):
        state["weakness"].setdefault(str(assess["target_id"]), []).append(
            {"by": who, "round": state["round"]}
        )
    elif assess["option"] == "anticipate_danger":
        state["anticipating"][who] = state["round"]


def _turn_ended(state: dict[str, Any], f: dict[str, Any]) -> None:
    who = str(f["character_id"])
    # NB-5/NB-8: 1/turn uses and free actions come back at the end of every turn.
    state["uses"]["turn"] = {}
    state["free"] = []
    # NB-7/NB-5/NB-10/NB-13/NB-15: the creature's own turn ends: actions back to 3 (granted extra
    # ones unspent are gone), 1/round uses and reactions back, no hasty attacks, no movement left.
    # NB-21: a Dying hero gets 1 back, a dead one none (the verb writes `actions_back_to`).
    if who in state["actions"]:
        back = int(f.get("actions_back_to", HERO_ACTIONS))
        state["actions"][who] = back
        state.setdefault("max_actions", {})[who] = back
    state["uses"]["round"].pop(who, None)
    state.setdefault("spent", {}).pop(who, None)
    state["attacks"].pop(who, None)
    state.setdefault("extra_attacks", {}).pop(who, None)
    state["movement"].pop(who, None)
    state["turn"] = int(state["turn"]) + 1


def _activity_ended(state: dict[str, Any], f: dict[str, Any]) -> None:
    # NB-6: its Concentration ended (0 HP, a failed save, dropped): the actions paid are lost.
    state["activities"].pop(str(f["character_id"]), None)


def _round_started(state: dict[str, Any], f: dict[str, Any]) -> None:
    state["round"] = int(f["round"])
    state["round_order"] = list(state["order"])  # NB-3: swaps last one round
    state["turn"] = 0
    state["uses"]["turn"] = {}
    state["free"] = []
    state["spent"] = {}  # a turn skipped by the page turn (NB-4 ruling) ends here
    # NB-14: a found weakness and anticipated danger last this round.
    state["weakness"] = {}
    state["anticipating"] = {}


def _swapped(state: dict[str, Any], f: dict[str, Any]) -> None:
    order = state["round_order"]
    a, b = order.index(str(f["first_id"])), order.index(str(f["second_id"]))
    order[a], order[b] = order[b], order[a]


def _granted(state: dict[str, Any], f: dict[str, Any]) -> None:
    who = str(f["character_id"])
    if state["kinds"].get(who) != "hero":  # a monster group: more attacks this turn (ruling)
        extra = state.setdefault("extra_attacks", {})
        extra[who] = int(extra.get(who, 0)) + int(f["actions"])
        return
    state["actions"][who] = int(state["actions"].get(who, 0)) + int(f["actions"])


def _capped(state: dict[str, Any], f: dict[str, Any]) -> None:
    # NB-21: a hero fell Dying (or died): it has at most `actions` now and at its turn's end;
    # healed, its cap is 3 again (actions granted beyond 3 stay, NB-7).
    who = str(f["character_id"])
    cap = int(f["actions"])
    if who in state["actions"] and cap < HERO_ACTIONS:
        state["actions"][who] = min(int(state["actions"][who]), cap)
    state.setdefault("max_actions", {})[who] = cap


def _held(state: dict[str, Any], f: dict[str, Any]) -> None:
    # NB-15: an attack that hit waits for reactions (and Help, NB-19) before its damage lands.
    state["pending"] = dict(f)


def _resolved(state: dict[str, Any], f: dict[str, Any]) -> None:
    state["pending"] = None


def _ended(state: dict[str, Any], f: dict[str, Any]) -> None:
    # NB-4/NB-14: the encounter is over: its limited uses, Assess skills, activities end; an
    # attack still held lands nowhere (ruling).
    state["status"] = "ended"
    state["pending"] = None
    state["uses"] = {"turn": {}, "round": {}, "encounter": {}}
    state.update(
        assessed={}, weakness={}, anticipating={}, activities={}, free=[], attacks={}, movement={}
    )


_HANDLERS = {
    "started": _started,
    "acted": _acted,
    "turn_ended": _turn_ended,
    "round_started": _round_started,
    "swapped": _swapped,
    "granted": _granted,
    "capped": _capped,
    "held": _held,
    "resolved": _resolved,
    "ended": _ended,
    "activity_ended": _activity_ended,
}


_LINES = {
    "started": "Round {round}: Initiative! The encounter begins (NB-1..NB-3)",
    "turn_ended": "{name} ends its turn (NB-4)",
    "round_started": "Round {round} begins (NB-4)",
    "swapped": "Two heroes swap places for this round (NB-3)",
    "capped": "{name} can take at most {actions} action(s) now (NB-21)",
    "held": "{name}'s attack hits for {damage} unless the target reacts (NB-15)",
    "resolved": "The held attack lands: {damage} damage (NB-15..17)",
    "activity_ended": "{name} loses its activity {activity!r}: {reason} (NB-6)",
    "granted": "{name} gains {actions} extra action(s): {reason} (NB-7)",
    "ended": "The encounter ends after round {round} (NB-4)",
}
"""The timeline line of each change but `acted`, filled in from its fields and the name."""


def describe(change: str, fields: Mapping[str, Any], name: str) -> str:
    """A readable timeline line for one change (``name``: the character's name, if any)."""
    if change == "acted":
        return _acted_line(fields, name)
    return _LINES.get(change, _LINES["ended"]).format_map({**fields, "name": name})


def _acted_line(fields: Mapping[str, Any], name: str) -> str:
    cost = int(fields["cost"])
    spent = "a free action" if fields.get("free") else f"{cost} action(s)"
    helped = (fields.get("details") or {}).get("help")
    if fields["action"] == "help" and helped:  # NB-19: the helper gives, the ally rerolls
        return (
            f"{name} Helps ({spent}): the ally rerolls a die of roll "
            f"{str(helped['roll_id'])[:8]} (reroll {str(helped['reroll_id'])[:8]}, NB-19)"
        )
    return f"{name}: {str(fields['action']).replace('_', ' ')} ({spent})"


class EncounterState:
    """The encounter as a system state of the scene (`Scene.state("nimble", "encounter")`). Its
    rounds are counted by its own changes, so the page a change was recorded on is not needed."""

    view_key = "nimble"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        return state_of(raw)

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        return apply(raw, change, details)

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        return describe(change, details, name)


ENCOUNTER = EncounterState()


# ---- refusals of the commands, before any change (NB-2..NB-19) ----------------------------------


def check_can_start(state: Mapping[str, Any], order: list[str]) -> None:
    """NB-3/NB-4: one encounter at a time; the order names each creature once."""
    if state["status"] == "running":
        raise Conflict(
            "an encounter is already running in this scene", code="encounter_running", rule="NB-4"
        )
    if len(set(order)) != len(order) or not order:
        raise InvalidInput("the order names each creature once", field="order", rule="NB-3")


def check_surprised(kinds: Mapping[str, str], surprised: list[str]) -> None:
    """NB-2: only heroes of the order are surprised."""
    if any(kinds.get(who) != "hero" for who in surprised):
        raise InvalidInput(
            "only heroes in the order can be surprised", field="surprised", rule="NB-2"
        )


def check_swap(state: Mapping[str, Any], first: str, second: str) -> None:
    """NB-3: two heroes who have not had their turn this round swap places."""
    order = state["round_order"]
    for who, field in ((first, "first_id"), (second, "second_id")):
        if state["kinds"].get(who) != "hero":
            raise InvalidInput("only heroes of the encounter swap places", field=field, rule="NB-3")
        if order.index(who) < state["turn"]:
            raise Conflict(
                "that hero has had its turn this round", code="turn_taken", field=field, rule="NB-3"
            )
    if first == second:
        raise InvalidInput("swap two different heroes", field="second_id", rule="NB-3")


def check_grant(state: Mapping[str, Any], who: str, name: str, cap: int, actions: int) -> None:
    """NB-7 within NB-21: a Dying hero takes at most `cap` actions a turn, granted ones too."""
    have = int(state["actions"].get(who, 0))
    spent = int(state.get("spent", {}).get(who, 0))  # on this, its own turn
    if cap < HERO_ACTIONS and spent + have + actions > cap:
        raise Conflict(
            f"{name} is Dying: at most {cap} action(s) a turn; it has {have} "
            f"and spent {spent} this turn",
            field="actions",
            code="dying",
            rule="NB-21",
            details={"have": have, "spent_this_turn": spent, "max": cap},
        )


def check_limited_use(use_key: str | None, per: str | None) -> None:
    """NB-5: a limited use names its key and its period together."""
    if (use_key is None) != (per is None):
        raise InvalidInput("give use_key and per together", field="per", rule="NB-5")


def check_activity(state: Mapping[str, Any], who: str, name: str) -> None:
    """NB-6: ending the concentrated activity needs one."""
    if who not in state["activities"]:
        raise Conflict(f"{name} is concentrating on nothing", code="not_concentrating", rule="NB-6")


def check_can_move(name: str, speed: int) -> None:
    """NB-13: a Move action gives Speed squares; at speed 0 none."""
    if speed < 1:
        raise Conflict(f"{name} has speed 0", code="cannot_move", rule="NB-13")


def check_attack(attacker: str, target: str, hold: bool, reacting: bool) -> None:
    """NB-9/NB-15: a creature attacks another; a held attack takes its reactions later."""
    if target == attacker:
        raise InvalidInput("a creature does not attack itself", field="target_id")
    if hold and reacting:
        raise InvalidInput(
            "a held attack takes its reactions when it is resolved, after the roll",
            field="hold",
            rule="NB-15",
        )


def check_targetable(name: str, can_target: bool) -> None:
    """NB-26: full cover cannot be attacked."""
    if not can_target:
        raise Conflict(f"{name} is in full cover", code="full_cover", rule="NB-26")


def check_defend(state: Mapping[str, Any], who: str, name: str, interposing: bool) -> None:
    """NB-16: a hero Defends with a reaction; NB-17: an interposer that also Defends spends two
    of its actions, if it has them."""
    check_hero(state, who, name, "defend", "NB-16")
    if interposing:
        check_use(state, who, "reaction:defend", "round", "NB-15")
        check_actions(state, who, name, 2, "NB-15")
    else:
        check_spend(state, who, name, 1, reaction="defend")


def check_defend_helps(critical: bool) -> None:
    """NB-16: "critical hits ignore Armor": Defend against a crit seen would only waste the
    reaction, so it is refused rather than spent for nothing."""
    if critical:
        raise Conflict(
            "the hit is critical and ignores Armor (NB-16): Defend would reduce nothing",
            field="defend",
            code="critical_ignores_armor",
            rule="NB-16",
        )


def holds(state: Mapping[str, Any], target: str, hold: bool | None, reacting: bool) -> bool:
    """NB-15 «Можно ли Защититься, Вмешаться или Помочь, уже увидев результат броска? Да.»:
    unless the attacker says otherwise (`hold`), a hit on a hero waits for its side's reactions
    when none was declared with the attack; a hit on a monster (which never reacts) lands at
    once unless held for Help."""
    if hold is not None:
        return hold
    return not reacting and state["kinds"].get(target) == "hero"


def check_interposer(interposer: str, target: str, attacker: str) -> None:
    """NB-17: an ally of the target interposes (neither the target nor the attacker)."""
    if interposer in (target, attacker):
        raise InvalidInput("an ally of the target interposes", field="interpose_by", rule="NB-17")


def held_attack(state: Mapping[str, Any], roll_id: str) -> dict[str, Any]:
    """NB-15: the attack waiting for its reactions, if `roll_id` is it."""
    pending = state.get("pending")
    if not pending or pending["roll_id"] != roll_id:
        raise Conflict(
            "that roll is no attack waiting for reactions",
            code="not_pending",
            field="roll_id",
            rule="NB-15",
            details={"pending": pending["roll_id"] if pending else None},
        )
    return dict(pending)


def check_interposed_for(state: Mapping[str, Any], target: str) -> None:
    """NB-17: heroes interpose for their allies, not for monsters."""
    if state["kinds"].get(target) != "hero":
        raise InvalidInput(
            "heroes interpose for their allies, not for monsters",
            field="interpose_by",
            rule="NB-17",
        )


def check_weakness_target(option: str, target_id: object | None) -> None:
    """NB-14: finding a weakness names its target."""
    if option == "find_weakness" and target_id is None:
        raise InvalidInput("find a weakness in a target", field="target_id", rule="NB-14")


def check_not_helped(state: Mapping[str, Any], roll_id: str) -> None:
    """NB-19: a roll is helped once."""
    if roll_id in state["helped"]:
        raise Conflict("this roll was already helped", code="already_helped", rule="NB-19")


def helped_assessment(
    state: Mapping[str, Any], roll_id: str, helper: str, die: int | None
) -> dict[str, Any]:
    """NB-19: the ally's Assess of this encounter that the helper rerolls (its one d20)."""
    assess = state["assessments"].get(roll_id)
    if assess is None:
        raise InvalidInput(
            "Help rerolls a die of an Assess roll of this encounter or of a held attack (NB-15)",
            field="roll_id",
            rule="NB-19",
        )
    if die is not None:
        raise InvalidInput(
            "an Assess has one die to reroll: leave out `die`", field="die", rule="NB-19"
        )
    if assess["character_id"] == helper:
        raise InvalidInput("Help is for an ally's roll", field="helper_id", rule="NB-19")
    check_not_helped(state, roll_id)
    return dict(assess)


def check_help_on_attack(state: Mapping[str, Any], helper: str, die: int | None) -> None:
    """NB-19 on a held attack (NB-15): a hero ally of the attacker, not its target, rerolls one
    named die of it, once."""
    pending = state["pending"]
    attacker = pending["character_id"]
    if state["kinds"].get(attacker) != "hero":
        raise InvalidInput(
            "heroes help their allies: a monster's attack gets no Help",
            field="roll_id",
            rule="NB-19",
        )
    if attacker == helper:
        raise InvalidInput("Help is for an ally's roll", field="helper_id", rule="NB-19")
    if pending["target_id"] == helper:
        raise InvalidInput(
            "the target of an attack does not help it", field="helper_id", rule="NB-19"
        )
    if die is None:
        raise InvalidInput("name the die to reroll", field="die", rule="NB-19")
    check_not_helped(state, pending["roll_id"])
