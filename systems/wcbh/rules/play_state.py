"""Scene play's state on a scene (WCBH-11, 12, 27): group checks, contests and chases, by id, kept
as JSON in `Scene.state("wcbh", "play")` and changed one named change at a time (`PLAY`).

The checks below refuse what the rules refuse, from the state alone; `apply` refuses nothing (the
checks ran first) and is what the Scene aggregate and the scene's view both apply, also to the
events recorded before `Scene.StateChanged` (their names are the changes' names)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.errors import Conflict, InvalidInput, NotFound
from systems.wcbh.rules.movement import CHASE_SHIFT_NET, CHASE_WIN_BONUS, ChaseState, resolve_chase
from systems.wcbh.rules.play import GROUP_KEEP, Contest, group_check

State = dict[str, Any]
AREAS = ("group_checks", "contests", "chases")


def _found(state: Mapping[str, Any], area: str, state_id: object, label: str) -> dict[str, Any]:
    found = state[area].get(str(state_id))
    if found is None:
        raise NotFound(f"{label} {state_id} not found in this scene")
    return found  # type: ignore[no-any-return]


def _contest(contest: Mapping[str, Any]) -> Contest:
    sides = contest["sides"]
    return Contest((sides[0], sides[1]), contest["rolls"], tuple(contest["winners"]))


# ---- WCBH-11: group checks ------------------------------------------------------------------------


def check_group(participants: Sequence[object]) -> None:
    """WCBH-11: two or more characters roll separately but act as one group."""
    if len(participants) < 2 or len(set(participants)) != len(participants):
        raise InvalidInput(
            "a group check is two or more different characters",
            field="participants",
            rule="WCBH-11",
        )


def group_to_roll(state: Mapping[str, Any], group_id: object, character_id: str) -> dict[str, Any]:
    """The group check a participant may still roll in (WCBH-11: each rolls once)."""
    group = _found(state, "group_checks", group_id, "group check")
    if character_id not in group["participants"]:
        raise InvalidInput(
            "the character is not in this group check", field="character_id", rule="WCBH-11"
        )
    if character_id in group["rolls"]:
        raise Conflict(
            "the character has already rolled in this group check",
            code="already_rolled",
            rule="WCBH-11",
        )
    return group


def check_handover(
    state: Mapping[str, Any], group_id: object, giver: str, receiver: str, successes: int
) -> None:
    """WCBH-11: after everyone rolled, a character with more than 3 successes hands the ones
    above 3 to others of the group (ruling: only its own rolled ones, never received ones)."""
    group = _found(state, "group_checks", group_id, "group check")
    for who, field in ((giver, "giver_id"), (receiver, "receiver_id")):
        if who not in group["participants"]:
            raise InvalidInput(
                "the character is not in this group check", field=field, rule="WCBH-11"
            )
    if giver == receiver:
        raise InvalidInput(
            "hand successes to another member of the group", field="receiver_id", rule="WCBH-11"
        )
    waiting = [c for c in group["participants"] if c not in group["rolls"]]
    if waiting:
        raise Conflict(
            "successes are handed over once everyone in the group has rolled",
            code="group_check_incomplete",
            rule="WCBH-11",
            details={"waiting_for": waiting},
        )
    rolled = {c: r["successes"] for c, r in group["rolls"].items()}
    given = sum(h["successes"] for h in group["handovers"] if h["giver_id"] == giver)
    spare = max(0, rolled[giver] - GROUP_KEEP) - given
    if successes > spare:
        raise Conflict(
            f"the character has {spare} successes above {GROUP_KEEP} left to hand over, "
            f"not {successes}",
            code="not_enough_successes",
            rule="WCBH-11",
            details={"have": spare, "needed": successes},
        )
    done = [(h["giver_id"], h["receiver_id"], h["successes"]) for h in group["handovers"]]
    group_check(rolled, [*done, (giver, receiver, successes)])  # the library's own check


# ---- WCBH-12: contests ----------------------------------------------------------------------------


def check_contest(first: str, second: str, rolls: int) -> None:
    """WCBH-12: a series of `rolls` checks between two characters."""
    Contest((first, second), rolls)  # refuses one side twice or no rolls


def contest_bonus(state: Mapping[str, Any], contest_id: object, side: str) -> int:
    """WCBH-12: the dice a side's next roll gets (+2 after winning the previous roll);
    refuses a character that is no side, a finished contest or a second roll in a round."""
    contest = _found(state, "contests", contest_id, "contest")
    if side not in contest["sides"]:
        raise InvalidInput(
            "the character is not a side of this contest", field="character_id", rule="WCBH-12"
        )
    if contest["finished"]:
        raise Conflict("the contest is over", code="contest_over", rule="WCBH-12")
    if side in contest["current"]:
        raise Conflict(
            "the character has already rolled in this round of the contest",
            code="already_rolled",
            rule="WCBH-12",
        )
    return _contest(contest).dice_bonus(side)


def contest_round(
    state: Mapping[str, Any], contest_id: object, side: str, successes: int
) -> tuple[bool, str | None]:
    """WCBH-12: whether this roll decides its round (the other side has rolled), and its winner."""
    contest = state["contests"][str(contest_id)]
    other = next(s for s in contest["sides"] if s != side)
    if other not in contest["current"]:
        return False, None
    rolled = {side: successes, other: contest["current"][other]["successes"]}
    first, second = contest["sides"]
    return True, _contest(contest).record(rolled[first], rolled[second]).winners[-1]


# ---- WCBH-27: chases ------------------------------------------------------------------------------


def check_chase(pairs: Sequence[tuple[object, object]], distance: str) -> None:
    """WCBH-27: pursuers, each after one target, at a starting range class."""
    if distance not in ("close", "far", "extreme"):
        raise InvalidInput(
            "a chase starts at close, far or extreme range", field="range", rule="WCBH-27"
        )
    pursuers = [p for p, _ in pairs]
    if not pairs or len(set(pursuers)) != len(pursuers):
        raise InvalidInput("each pursuer picks one target", field="pairs", rule="WCBH-27")
    if any(p == t for p, t in pairs):
        raise InvalidInput("a character does not chase itself", field="pairs", rule="WCBH-27")


def chase_bonus(state: Mapping[str, Any], chase_id: object, who: str, page: int) -> int:
    """WCBH-27: the dice a participant's chase check gets (+2 after winning); refuses one who
    is in no running pair, or a second check in the same page."""
    chase = _found(state, "chases", chase_id, "chase")
    mine = [p for p in chase["pairs"] if who in (p["pursuer"], p["target"])]
    if not mine:
        raise InvalidInput(
            "the character takes no part in this chase", field="character_id", rule="WCBH-27"
        )
    if all(p["over"] for p in mine):
        raise Conflict("the character's chase is over", code="chase_over", rule="WCBH-27")
    check = chase["checks"].get(who)
    if check is not None and check["page"] == page:
        raise Conflict(
            "one chase check per page: the character has already rolled in this page",
            code="already_rolled",
            rule="WCBH-27",
            details={"page": page},
        )
    return int(chase["bonus"].get(who, 0))


def chase_results(
    state: Mapping[str, Any],
    chase_id: object,
    who: str,
    successes: int,
    shift: int | None,
    page: int,
) -> list[dict[str, Any]]:
    """WCBH-27: each running pair of `who` whose other side rolled in this page is decided (a
    lone check of an earlier page lapses)."""
    chase = state["chases"][str(chase_id)]
    this_page = {c: v for c, v in chase["checks"].items() if v["page"] == page and c != who}
    this_page[who] = {"successes": successes, "shift": shift}
    results = []
    for index, pair in enumerate(chase["pairs"]):
        if pair["over"] or who not in (pair["pursuer"], pair["target"]):
            continue
        other = pair["target"] if who == pair["pursuer"] else pair["pursuer"]
        if other not in this_page:
            continue
        pursuer, target = this_page[pair["pursuer"]], this_page[pair["target"]]
        net = pursuer["successes"] - target["successes"]
        winner = pursuer if net > 0 else target
        step = winner["shift"] if net and abs(net) >= CHASE_SHIFT_NET else None
        pair_state = ChaseState(pair["pursuer"], pair["target"], pair["range"])
        decided = resolve_chase(pair_state, pursuer["successes"], target["successes"], shift=step)
        results.append(
            {
                "pair": index,
                "winner": decided.winner,
                "net": decided.net,
                "range": decided.state.range,
            }
        )
    return results


# ---- the changes ---------------------------------------------------------------------------------


def _group_check_opened(state: State, page: int, d: Mapping[str, Any]) -> None:
    state["group_checks"][str(d["group_id"])] = {
        "participants": [str(c) for c in d["participants"]],
        "difficulty": d["difficulty"],
        "purpose": d["purpose"],
        "page": page,
        "rolls": {},
        "handovers": [],
    }
    if d.get("difficulty_set_by"):  # who gave a difficulty other than 0 (none in older logs)
        state["group_checks"][str(d["group_id"])]["difficulty_set_by"] = list(
            d["difficulty_set_by"]
        )


def _group_check_rolled(state: State, page: int, d: Mapping[str, Any]) -> None:
    state["group_checks"][str(d["group_id"])]["rolls"][str(d["character_id"])] = {
        "roll_id": str(d["roll_id"]),
        "successes": d["successes"],
        "total": d["successes"],
    }


def _successes_handed_over(state: State, page: int, d: Mapping[str, Any]) -> None:
    group = state["group_checks"][str(d["group_id"])]
    giver, receiver = str(d["giver_id"]), str(d["receiver_id"])
    group["handovers"].append(
        {"giver_id": giver, "receiver_id": receiver, "successes": d["successes"]}
    )
    group["rolls"][giver]["total"] -= d["successes"]
    group["rolls"][receiver]["total"] += d["successes"]


def _contest_started(state: State, page: int, d: Mapping[str, Any]) -> None:
    state["contests"][str(d["contest_id"])] = {
        "sides": [str(d["first_id"]), str(d["second_id"])],
        "rolls": d["rolls"],
        "purpose": d["purpose"],
        "page": page,
        "current": {},
        "winners": [],
        "history": [],
        "finished": False,
        "winner": None,
    }


def _contest_rolled(state: State, page: int, d: Mapping[str, Any]) -> None:
    contest = state["contests"][str(d["contest_id"])]
    contest["current"][str(d["character_id"])] = {
        "roll_id": str(d["roll_id"]),
        "successes": d["successes"],
        "bonus": d["bonus"],
    }
    if d["decided"]:
        round_number = len(contest["history"]) + 1
        contest["history"].append(
            {"round": round_number, "rolls": contest["current"], "winner": d["winner"]}
        )
        contest["winners"].append(d["winner"])
        contest["current"] = {}
        contest["finished"] = _contest(contest).finished
        contest["winner"] = _contest(contest).winner


def _chase_started(state: State, page: int, d: Mapping[str, Any]) -> None:
    pairs = d["pairs"]
    everyone = [c for pair in pairs for c in (pair["pursuer"], pair["target"])]
    state["chases"][str(d["chase_id"])] = {
        "pairs": [{**p, "range": d["distance"], "over": False, "history": []} for p in pairs],
        "bonus": dict.fromkeys(everyone, 0),
        "checks": {},
        "page": page,
        "over": False,
    }


def _chase_checked(state: State, page: int, d: Mapping[str, Any]) -> None:
    chase = state["chases"][str(d["chase_id"])]
    who = str(d["character_id"])
    chase["checks"] = {c: v for c, v in chase["checks"].items() if v["page"] == page}
    chase["checks"][who] = {
        "roll_id": str(d["roll_id"]),
        "successes": d["successes"],
        "bonus": d["bonus"],
        "shift": d["shift"],
        "page": page,
    }
    chase["bonus"][who] = 0  # spent on this check
    for result in d["results"]:
        pair = chase["pairs"][result["pair"]]
        pair["history"].append(
            {
                "page": page,
                "pursuer": dict(chase["checks"][pair["pursuer"]]),
                "target": dict(chase["checks"][pair["target"]]),
                "winner": result["winner"],
                "net": result["net"],
                "range": result["range"],
            }
        )
        pair["range"] = result["range"]
        pair["over"] = result["range"] in ("cornered", "escaped")
        if result["winner"] is not None:
            chase["bonus"][result["winner"]] = CHASE_WIN_BONUS
    chase["over"] = all(p["over"] for p in chase["pairs"])


CHANGES: dict[str, Callable[[State, int, Mapping[str, Any]], None]] = {
    "GroupCheckOpened": _group_check_opened,
    "GroupCheckRolled": _group_check_rolled,
    "SuccessesHandedOver": _successes_handed_over,
    "ContestStarted": _contest_started,
    "ContestRolled": _contest_rolled,
    "ChaseStarted": _chase_started,
    "ChaseChecked": _chase_checked,
}


def _describe(change: str, d: Mapping[str, Any], name: str) -> str:
    if change == "GroupCheckOpened":
        count = len(d["participants"])
        return f"Group check of {count} at difficulty {d['difficulty']} (WCBH-11) {d['purpose']}".strip()
    if change == "GroupCheckRolled":
        return f"{name} rolls for the group: {d['successes']} successes"
    if change == "SuccessesHandedOver":
        return f"{d['successes']} successes are handed over in the group (WCBH-11)"
    if change == "ContestStarted":
        return f"Contest of {d['rolls']} rolls (WCBH-12) {d['purpose']}".strip()
    if change == "ContestRolled":
        text = f"{name} rolls in the contest: {d['successes']} successes"
        if d["decided"]:
            text += "; the round is a tie" if d["winner"] is None else "; the round is decided"
        return text
    if change == "ChaseStarted":
        return f"A chase at {d['distance']} range: {len(d['pairs'])} pursuit(s) (WCBH-27)"
    text = f"{name}'s chase check: {d['successes']} successes"  # ChaseChecked
    for result in d["results"]:
        text += f"; range {result['range']}"
    return text


class PlayState:
    """Scene play as a system state of the scene (`Scene.state("wcbh", "play")`)."""

    view_key = "play"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> State:
        state = copy.deepcopy(dict(raw)) if raw else {}
        for area in AREAS:
            state.setdefault(area, {})
        return state

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> State:
        state = self.state_of(raw, page)
        CHANGES[change](state, page, details)
        return state

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        return _describe(change, details, name)


PLAY = PlayState()
