"""nWoD micro firefights, pure: the turn (one scene page, NW-7), Initiative order (NW-14), two
actions per turn and the maneuvers' costs (NW-15), aiming, reckless Defense, Defend, dodging,
cover (NW-13), magazines (NW-16), suppression and Will Power boosts for the turn (NW-9).

The state is a JSON document kept on the Scene; ``apply`` is the one place that changes it, so the
aggregate and the scene view read the same events the same way. Every check raises before any
event (a refused move writes nothing).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from domain.errors import Conflict, InvalidInput

ACTIONS_PER_TURN = 2  # NW-15
MAX_AIM = 3  # NW-15: at most three aiming actions
WILL_POWER_BOOST = 2  # NW-9: +2 Defense or Initiative

# NW-15: the dice each attack maneuver adds, whether it is ranged or melee only, and the rounds
# it spends (None: one round per shot with a magazine, 0 for melee).
ATTACKS: dict[str, dict[str, Any]] = {
    "standard": {"dice": 0, "kind": None, "rounds": None, "targets": 1},
    "precise": {"dice": -2, "kind": "ranged", "rounds": None, "targets": 1},
    "short_burst": {"dice": 1, "kind": "ranged", "rounds": (3, 5), "targets": 1},
    "long_burst": {"dice": 2, "kind": "ranged", "rounds": (15, 20), "targets": 3},
    "suppressive": {"dice": 2, "kind": "ranged", "rounds": (20, 30), "targets": 10},
    "reckless": {"dice": 2, "kind": "melee", "rounds": 0, "targets": 1},
}
LONG_BURST_PENALTY = (0, 1, 2)  # NW-15: the second target -1 DMG, the third -2 DMG

# NW-15: actions each non-attack maneuver costs ("all" = both, and only as the first action).
MOVES: dict[str, int | str] = {
    "aim": 1,
    "walk": 0,
    "run": 1,
    "sprint": "all",
    "take_cover": 1,
    "defend": "all",
    "dodge": 1,
    "reload": 1,
}
RANGES: dict[str, int] = {"close": 0, "medium": -2, "long": -4, "double_long": -6}  # NW-17
CONDITIONS = ("bad_weather", "smoke", "fog", "poor_light", "glare")  # NW-17: -2d10
CONDITION_PENALTY = -2
COVER_PENALTY = -2  # NW-13: partial cover, or no line of sight into full cover
BLIND_FIRE_PENALTY = -5  # NW-13: firing back blind from full cover
DODGE_OWN_PENALTY = -1  # NW-15: -1d10 to all own attacks this turn
DODGE_DEFENSE = 1  # NW-15: +1 DEF against ranged attacks

__all__ = [
    "ACTIONS_PER_TURN",
    "ATTACKS",
    "MOVES",
    "apply",
    "check_actions",
    "check_fighter",
    "check_turn",
    "current",
    "defense_against",
    "describe",
    "fresh",
    "order",
    "scene_rounds",
    "state_of",
]


def fresh(turn: int) -> dict[str, Any]:
    """The state of a scene before any firefight event."""
    return {
        "turn": turn,
        "initiative": {},  # id -> {"roll", "bonus", "modifier", "total", "seq"} (NW-14)
        "boosts": {},  # id -> {"defense": n, "initiative": n} this turn (NW-9)
        "actions": {},  # id -> [{"maneuver", "cost"}] this turn (NW-15)
        "done": [],  # who ended their turn early
        "aim": {},  # id -> aiming actions banked for the next shot (NW-15)
        "reckless": {},  # id -> the turn of its reckless attack (DEF 0 until its next turn)
        "defending": [],  # this turn (NW-15)
        "dodging": [],  # this turn (NW-15)
        "cover": {},  # id -> {"kind": "partial"|"full", "durability": n} (NW-13)
        "magazines": {},  # id -> {weapon: rounds left after its last shot/reload here} (NW-16)
        "suppressed": {},  # id -> {"by", "turn", "status": "pending"|"must_take_cover"}
        "lasting": {},  # id -> {"defending"|"dodging"|"defense": the turn it was taken in}
        "out": {},  # id -> {"reason", "turn", "health"}: taken out of the order by the GM (NW-8)
        "overrides": {},  # id -> [{"grant", "reason", "turn"}]: the GM's leave (NW-14, NW-15)
    }


def state_of(raw: Mapping[str, Any] | None, turn: int) -> dict[str, Any]:
    """A copy of the stored state (or a fresh one), to read or to change in an event."""
    return copy.deepcopy(dict(raw)) if raw else fresh(turn)


# ---- reading the state ------------------------------------------------------------------------


def used(state: Mapping[str, Any], fighter: str) -> int:
    return sum(int(a["cost"]) for a in state["actions"].get(fighter, []))


def initiative_of(state: Mapping[str, Any], fighter: str) -> int:
    """NW-14 total, plus this turn's Will Power boost (NW-9)."""
    entry = state["initiative"][fighter]
    points = int(state["boosts"].get(fighter, {}).get("initiative", 0))
    return int(entry["total"]) + WILL_POWER_BOOST * points


def order(state: Mapping[str, Any]) -> list[str]:
    """NW-14: higher Initiative acts first. Ruling: ties go to the higher INT, then to whoever
    rolled first."""
    return sorted(
        state["initiative"],
        key=lambda f: (
            -initiative_of(state, f),
            -int(state["initiative"][f]["bonus"]),
            state["initiative"][f]["seq"],
        ),
    )


def allowance(state: Mapping[str, Any], fighter: str) -> int:
    """NW-15: two actions per turn; NW-18: more if a merit says so (counted when the fighter
    rolled Initiative); plus each extra action the GM granted this turn (`overridden`)."""
    entry = state["initiative"].get(fighter, {})
    extra = sum(1 for g in grants(state, fighter) if g["grant"] == "extra_action")
    return int(entry.get("actions_per_turn", ACTIONS_PER_TURN)) + extra


def grants(state: Mapping[str, Any], fighter: str) -> list[dict[str, Any]]:
    """The GM's recorded overrides for the fighter in this turn."""
    return [g for g in state.get("overrides", {}).get(fighter, []) if g["turn"] == state["turn"]]


def may_act_out_of_turn(state: Mapping[str, Any], fighter: str) -> bool:
    return any(g["grant"] == "act_out_of_turn" for g in grants(state, fighter))


def finished(state: Mapping[str, Any], fighter: str) -> bool:
    return fighter in state["done"] or used(state, fighter) >= allowance(state, fighter)


def started(state: Mapping[str, Any], fighter: str) -> bool:
    """The fighter has begun its own turn: it took an action in order (not one the GM let it
    take out of turn)."""
    return any(not a.get("out_of_turn") for a in state["actions"].get(fighter, []))


def current(state: Mapping[str, Any]) -> str | None:
    """Whose turn it is: a fighter that has begun its turn and not finished it keeps it (ruling:
    a Will Power boost to Initiative, NW-9, reorders only those yet to act); otherwise the first
    in Initiative order who has actions left and has not ended."""
    ahead = [f for f in order(state) if not finished(state, f)]
    return next((f for f in ahead if started(state, f)), ahead[0] if ahead else None)


def reckless_exposed(state: Mapping[str, Any], fighter: str) -> bool:
    """NW-15: a reckless attack drops DEF to 0 until the attacker's next turn (ruling: until it
    takes its first action in a later turn)."""
    since = state["reckless"].get(fighter)
    if since is None:
        return False
    if since == state["turn"]:
        return True
    return since == state["turn"] - 1 and not state["actions"].get(fighter)


def defense_against(
    state: Mapping[str, Any], fighter: str, sheet_defense: int, kind: str, sneak: bool
) -> dict[str, Any]:
    """The target's Defense against an attack, with how it came about.

    Melee: DEF (sheet + shield, NW-10, NW-12), doubled by Defend (NW-15), +2 per Will Power this
    turn (NW-9), 0 after a reckless attack (NW-15). Ranged: DEF is not subtracted (NW-6), but a
    dodging target counts +1 DEF (NW-15). A sneak attack ignores Defense (NW-15)."""
    boost = WILL_POWER_BOOST * int(state["boosts"].get(fighter, {}).get("defense", 0))
    defending = fighter in state["defending"]
    dodging = fighter in state["dodging"]
    reckless = reckless_exposed(state, fighter)
    if kind == "melee":
        value = sheet_defense * (2 if defending else 1) + boost
    else:
        value = DODGE_DEFENSE if dodging else 0
    if reckless or sneak:
        value = 0
    return {
        "value": value,
        "sheet": sheet_defense,
        "defending": defending,
        "dodging": dodging,
        "will_power_boost": boost,
        "reckless": reckless,
        "sneak": sneak,
    }


def scene_rounds(state: Mapping[str, Any], fighter: str, weapon: str) -> int | None:
    """NW-16: the rounds left in the weapon after the fighter's last shot or reload in this scene,
    as the scene recorded them (the character's gear holds its ammunition; a fight recorded
    before that counted only here)."""
    left = state["magazines"].get(fighter, {}).get(weapon)
    return None if left is None else int(left)


# ---- checks (raise before any event) ----------------------------------------------------------


def check_fighter(state: Mapping[str, Any], fighter: str, name: str, field: str) -> None:
    """NW-14: only who has rolled Initiative takes part in the fight."""
    if fighter not in state["initiative"]:
        raise Conflict(
            f"{name} has not rolled Initiative in this fight",
            code="no_initiative",
            field=field,
            rule="NW-14",
        )


def _no_actions_left(message: str, spent: int, per_turn: int) -> Conflict:
    """NW-15: two actions per turn, and the fighter has used them (or too many for this)."""
    return Conflict(
        message,
        code="no_actions_left",
        rule="NW-15",
        details={"used": spent, "per_turn": per_turn},
    )


def check_turn(state: Mapping[str, Any], fighter: str, name: str) -> None:
    """NW-14: higher Initiative acts first; each fighter acts in its own turn, unless the GM
    let it act out of turn (a recorded override). NW-15: after its actions a fighter has no more
    this turn."""
    spent, allowed = used(state, fighter), allowance(state, fighter)
    if spent >= allowed:
        raise _no_actions_left(f"{name} has used its {allowed} actions this turn", spent, allowed)
    now = current(state)
    if now != fighter and not may_act_out_of_turn(state, fighter):
        raise Conflict(
            f"it is not {name}'s turn"
            + ("" if now else ": everyone has acted this turn; the GM turns the page"),
            code="not_your_turn",
            rule="NW-14",
            details={"current": now, "order": order(state)},
        )


def check_actions(state: Mapping[str, Any], fighter: str, name: str, cost: int | str) -> int:
    """NW-15: two actions per turn; "all" (sprint, Defend) only as the turn's first action.
    Returns the actions the maneuver costs."""
    spent, allowed = used(state, fighter), allowance(state, fighter)
    if cost == "all":
        if spent:
            raise _no_actions_left(
                f"{name} has already acted this turn; this takes all the turn's actions",
                spent,
                allowed,
            )
        return allowed
    assert isinstance(cost, int)
    if any(a["maneuver"] == "defend" for a in state["actions"].get(fighter, [])):
        raise Conflict(
            f"{name} defends this turn and can take no other action",
            code="defending",
            rule="NW-15",
        )
    if spent + cost > allowed:
        raise _no_actions_left(
            f"{name} has used {spent} of {allowed} actions this turn", spent, allowed
        )
    return cost


def check_aim(state: Mapping[str, Any], fighter: str, name: str) -> None:
    """NW-15: at most three actions of aiming (up to VIO + 3d10)."""
    if int(state["aim"].get(fighter, 0)) >= MAX_AIM:
        raise Conflict(
            f"{name} has already aimed {MAX_AIM} actions",
            code="aim_limit",
            rule="NW-15",
            details={"aim": MAX_AIM},
        )


def check_rounds(maneuver: str, rounds: int | None, left: int, weapon: str) -> int:
    """NW-15/16: the rounds a maneuver spends (the player states the exact number), and that the
    magazine holds them. Returns the rounds spent."""
    spec = ATTACKS[maneuver]["rounds"]
    if spec is None:
        if rounds not in (None, 1):
            raise InvalidInput(f"a {maneuver} shot spends one round", field="rounds", rule="NW-16")
        rounds = 1
    elif rounds is None:
        raise InvalidInput(
            f"state the rounds a {maneuver.replace('_', ' ')} spends ({spec[0]}-{spec[1]})",
            field="rounds",
            rule="NW-15",
        )
    elif not spec[0] <= rounds <= spec[1]:
        raise InvalidInput(
            f"a {maneuver.replace('_', ' ')} spends {spec[0]}-{spec[1]} rounds, not {rounds}",
            field="rounds",
            rule="NW-15",
        )
    if rounds > left:
        raise Conflict(
            f"{weapon} has {left} rounds left, not the {rounds} this needs"
            + (": the magazine is empty, reload" if left == 0 else ""),
            code="out_of_ammunition",
            field="rounds",
            rule="NW-16",
            details={"left": left, "needed": rounds},
        )
    return rounds


def check_cover(cover: str | None, durability: int) -> None:
    if cover not in ("partial", "full"):
        raise InvalidInput("take partial or full cover", field="cover", rule="NW-13")
    if cover == "partial" and durability:
        raise InvalidInput(
            "only full cover has a DUR to pierce", field="cover_durability", rule="NW-13"
        )


# ---- the one function that changes the state --------------------------------------------------


def apply(
    raw: Mapping[str, Any] | None, turn: int, change: str, details: Mapping[str, Any]
) -> dict[str, Any]:
    """The state after one ``NwodFightChanged`` event (``change`` names what happened)."""
    state = state_of(raw, turn)
    fighter = str(details.get("character_id", ""))
    if change == "turn_started":
        # Defend, dodging and a Will Power Defense boost outlast the page: they end when their
        # fighter begins its next turn (_expire), so faster attackers of the new turn meet them.
        boosts = {
            f: {"defense": b["defense"]} for f, b in state["boosts"].items() if b.get("defense")
        }
        state.update(turn=int(details["turn"]), boosts=boosts, actions={}, done=[])
    elif change == "initiative":
        seqs = [int(entry["seq"]) for entry in state["initiative"].values()]
        state["initiative"][fighter] = {
            "roll": details["roll"],
            "bonus": details["bonus"],
            "modifier": details["modifier"],
            "total": details["total"],
            "seq": max(seqs, default=-1) + 1,
        }
        if "actions_per_turn" in details:  # NW-18: a merit's extra action
            state["initiative"][fighter]["actions_per_turn"] = int(details["actions_per_turn"])
        state.get("out", {}).pop(fighter, None)
    elif change == "overridden":
        grant = {"grant": details["grant"], "reason": details["reason"], "turn": state["turn"]}
        state.setdefault("overrides", {}).setdefault(fighter, []).append(grant)
    elif change == "taken_out":
        _take_out(state, fighter)
        state.setdefault("out", {})[fighter] = {
            "reason": details["reason"],
            "turn": state["turn"],
            "health": details["health"],
        }
    elif change == "boosted":
        boosts = state["boosts"].setdefault(fighter, {})
        boosts[details["kind"]] = boosts.get(details["kind"], 0) + int(details["points"])
        if details["kind"] == "defense":
            _lasting(state, fighter, "defense")
    elif change == "turn_ended":
        _expire(state, fighter)
        if fighter not in state["done"]:
            state["done"].append(fighter)
    elif change == "acted":
        _acted(state, fighter, details)
    elif change == "suppressed":
        for target in details["target_ids"]:
            state["suppressed"][str(target)] = {
                "by": fighter,
                "turn": state["turn"],
                "status": "pending",
            }
    elif change == "suppression_resolved":
        if details["held"]:
            state["suppressed"].pop(fighter, None)
        else:
            state["suppressed"][fighter]["status"] = "must_take_cover"
    else:  # pragma: no cover - a programming error
        raise ValueError(f"unknown firefight change {change!r}")
    return state


def _take_out(state: dict[str, Any], fighter: str) -> None:
    """NW-8: the fighter leaves the Initiative order and everything it had in this fight, but
    what its gear holds (the scene's record of its magazines stays)."""
    state["initiative"].pop(fighter, None)
    kept = ("boosts", "actions", "aim", "reckless", "cover", "suppressed", "lasting", "overrides")
    for key in kept:
        state.get(key, {}).pop(fighter, None)
    for key in ("done", "defending", "dodging"):
        if fighter in state[key]:
            state[key].remove(fighter)


def _lasting(state: dict[str, Any], fighter: str, kind: str) -> None:
    """Note the turn a lasting defence was taken in (`_expire` ends it)."""
    state.setdefault("lasting", {}).setdefault(fighter, {})[kind] = state["turn"]


def _expire(state: dict[str, Any], fighter: str) -> None:
    """NW-15, NW-9: the fighter begins (or passes) a turn: its Defend, dodging and Will Power
    Defense taken in an earlier turn end. Ruling: they last "until the next turn", as the
    reckless attack's DEF 0 does, not only until the page turns."""
    lasting = state.get("lasting", {}).get(fighter, {})
    for kind in [k for k, since in lasting.items() if since < state["turn"]]:
        del lasting[kind]
        if kind == "defense":
            state["boosts"].get(fighter, {}).pop("defense", None)
            if not state["boosts"].get(fighter, True):
                del state["boosts"][fighter]
        elif fighter in state[kind]:
            state[kind].remove(fighter)
    if not lasting:
        state.get("lasting", {}).pop(fighter, None)


def dodging_now(state: Mapping[str, Any], fighter: str) -> bool:
    """NW-15: the fighter dodged in this very turn (its own attacks take -1d10)."""
    since = state.get("lasting", {}).get(fighter, {}).get("dodging")
    return fighter in state["dodging"] and (since is None or since == state["turn"])


def _acted(state: dict[str, Any], fighter: str, details: Mapping[str, Any]) -> None:
    _expire(state, fighter)
    maneuver = str(details["maneuver"])
    entry: dict[str, Any] = {"maneuver": maneuver, "cost": int(details["cost"])}
    if details.get("out_of_turn"):
        entry["out_of_turn"] = True  # by the GM's leave: it does not begin the fighter's turn
    state["actions"].setdefault(fighter, []).append(entry)
    if maneuver == "aim":
        state["aim"][fighter] = int(state["aim"].get(fighter, 0)) + 1
    elif maneuver != "walk":
        state["aim"].pop(fighter, None)  # ruling: anything but aiming or walking spends the aim
    weapon = details.get("weapon")
    if details.get("rounds_left") is not None and weapon:
        state["magazines"].setdefault(fighter, {})[str(weapon)] = int(details["rounds_left"])
    if maneuver == "reckless":
        state["reckless"][fighter] = state["turn"]
    elif fighter in state["reckless"] and state["reckless"][fighter] < state["turn"]:
        del state["reckless"][fighter]  # its next turn has come
    if maneuver == "defend":
        state["defending"].append(fighter)
        _lasting(state, fighter, "defending")
    if maneuver == "dodge" or details.get("dodge"):
        if fighter not in state["dodging"]:
            state["dodging"].append(fighter)
        _lasting(state, fighter, "dodging")
    if maneuver in ("run", "sprint"):
        state["cover"].pop(fighter, None)  # ruling: running or sprinting leaves cover
    if maneuver == "take_cover":
        state["cover"][fighter] = {
            "kind": details["cover"],
            "durability": int(details.get("cover_durability") or 0),
        }
        if details.get("cover_durability_set_by"):  # who gave the DUR (none in older logs)
            state["cover"][fighter]["set_by"] = list(details["cover_durability_set_by"])
        state["suppressed"].pop(fighter, None)


# ---- readable text for the timeline -----------------------------------------------------------


_LINES = {
    "turn_started": "Turn {turn} of the firefight begins (NW-7, NW-14)",
    "taken_out": "{name} is out of the fight: {reason} (NW-8)",
    "turn_ended": "{name} ends the turn",
}
"""The timeline line of each change that only fills in its fields and the name."""


def describe(change: str, details: Mapping[str, Any], name: str) -> str:
    """A readable timeline line for one change (``name``: the fighter's name, if any)."""
    line = _LINES.get(change)
    if line is not None:
        return line.format_map({**details, "name": name})
    if change == "initiative":
        return (
            f"{name} rolls Initiative: {details['roll']} + INT {details['bonus']}"
            + (f" {details['modifier']:+d}" if details["modifier"] else "")
            + f" = {details['total']} (NW-14)"
        )
    if change == "overridden":
        what = (
            "may act out of turn"
            if details["grant"] == "act_out_of_turn"
            else "gets an extra action"
        )
        return f"GM: {name} {what} this turn: {details['reason']} (NW-14, NW-15)"
    if change == "boosted":
        return (
            f"{name} spends {details['points']} Will Power: +{WILL_POWER_BOOST * details['points']}"
            f" {details['kind'].capitalize()} this turn (NW-9)"
        )
    if change == "suppressed":
        return f"{name}'s suppressive fire pins {len(details['target_ids'])} target(s) (NW-15)"
    if change == "suppression_resolved":
        how = "keeps acting" if details["held"] else "must spend actions taking cover"
        return f"{name} under suppressive fire {how} (NW-15)"
    maneuver = str(details["maneuver"]).replace("_", " ")
    extra = ""
    if details.get("rounds_left") is not None:
        extra = f", {details['rounds_left']} rounds left in the {details['weapon']}"
    if details.get("cover"):
        extra = f": {details['cover']} cover"
    return f"{name}: {maneuver} ({details['cost']} action(s)){extra}"


class FightState:
    """The firefight as a system state of the scene (`Scene.state(ruleset, "fight")`)."""

    view_key = "nwod"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        return state_of(raw, page)

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        return apply(raw, page, change, details)

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        return describe(change, details, name)


FIGHT = FightState()
