"""The Class D round, pure: turns, actions by rank, reactions, engaged pairs, edges (CD-8..CD-20)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict
from systems.classd.rules import combat


def play(*events: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    state: dict[str, Any] | None = None
    for name, fields in events:
        state = combat.apply(state, 1, name, fields)
    return state or combat.fresh(1)


def refused(rule: str, check: Any, *args: Any) -> None:
    with pytest.raises(Conflict) as caught:
        check(*args)
    assert caught.value.rule == rule


def test_the_heroes_act_first_then_the_villains_cd_8() -> None:
    state = combat.fresh(1)
    combat.check_turn(state, "heroes")
    refused("CD-8", combat.check_turn, state, "villains")
    state = play(("turn_ended", {"round": 1}))
    refused("CD-8", combat.check_turn, state, "heroes")
    state = combat.apply(state, 2, "round_started", {"round": 2, "escaped": []})
    assert (state["round"], state["turn"]) == (2, "heroes")


def test_a_hero_has_one_action_a_round_cd_9() -> None:
    state = play(("acted", {"character_id": "h", "action": "attack:melee", "free": False}))
    refused("CD-9", combat.check_hero_action, state, "h", "Nova")
    free = play(("acted", {"character_id": "h", "action": "move", "free": True}))
    combat.check_hero_action(free, "h", "Nova")
    assert free["moved"] == ["h"]


@pytest.mark.parametrize(
    ("rank", "reacted", "attack_type", "allowed"),
    [
        ("minion", [], "melee", True),
        ("minion", ["ranged"], "melee", False),
        ("henchman", ["ranged"], "melee", True),
        ("henchman", ["melee"], "melee", False),
        ("boss", ["melee", "melee"], "melee", True),
    ],
)
def test_reactions_by_rank_cd_17(
    rank: str, reacted: list[str], attack_type: str, allowed: bool
) -> None:
    state = play(
        *(("reacted", {"character_id": "v", "attack_type": t, "spent": True}) for t in reacted)
    )
    assert combat.has_reaction(state, "v", rank, attack_type) is allowed
    if allowed:
        combat.check_villain_action(state, "v", "V", rank, "attack", attack_type)
    else:
        refused("CD-17", combat.check_villain_action, state, "v", "V", rank, "attack", attack_type)


def test_a_boss_takes_two_attacks_or_an_attack_and_one_special_cd_17() -> None:
    acted = {"character_id": "b", "free": False}
    two = play(
        ("acted", acted | {"action": "attack:melee"}),
        ("acted", acted | {"action": "special"}),
    )
    refused("CD-17", combat.check_villain_action, two, "b", "Boss", "boss", "attack", "melee")
    one = play(("acted", acted | {"action": "special"}))
    refused("CD-17", combat.check_villain_action, one, "b", "Boss", "boss", "special")
    combat.check_villain_action(one, "b", "Boss", "boss", "attack", "ranged")


def test_unstopped_fleeing_villains_escape_at_the_next_round_cd_16() -> None:
    state = play(
        ("turn_ended", {"round": 1}),
        ("acted", {"character_id": "v", "action": "flee", "free": False}),
        ("acted", {"character_id": "w", "action": "flee", "free": False}),
        ("stop_attempted", {"character_id": "h", "villain_id": "v", "stopped": True}),
    )
    assert combat.fleeing(state) == ["w"]
    state = combat.apply(state, 2, "round_started", {"round": 2, "escaped": combat.fleeing(state)})
    assert state["left"] == {"w": "escaped"} and state["stops"] == {}


def test_engagements_end_at_the_start_of_the_attacker_s_next_turn_or_a_move_cd_19() -> None:
    state = play(
        ("engaged", {"character_id": "h", "target_id": "v", "side": "heroes"}),
        ("turn_ended", {"round": 1}),
        ("engaged", {"character_id": "w", "target_id": "g", "side": "villains"}),
    )
    assert combat.engaged_with(state, "v") == ["h"]
    state = combat.apply(state, 2, "round_started", {"round": 2, "escaped": []})
    assert [(e["a"], e["b"]) for e in state["engaged"]] == [("w", "g")]
    moved = combat.apply(state, 2, "acted", {"character_id": "g", "action": "move", "free": False})
    assert moved["engaged"] == []


def test_edges_last_until_the_end_of_the_next_round_cd_18() -> None:
    state = play(("edge_gained", {"character_id": "h", "kind": "cover", "until_round": 2}))
    state = combat.apply(state, 2, "round_started", {"round": 2, "escaped": []})
    assert state["edges"] == {"h": {"kind": "cover", "until_round": 2}}
    state = combat.apply(state, 3, "round_started", {"round": 3, "escaped": []})
    assert state["edges"] == {}


def test_overflow_only_moves_down_or_across_the_ranks_cd_13() -> None:
    assert combat.rank_allows_overflow("henchman", "minion")
    assert combat.rank_allows_overflow("henchman", "henchman")
    assert not combat.rank_allows_overflow("henchman", "boss")


@pytest.mark.parametrize(
    ("recorded", "fields", "change", "details"),
    [
        ("ClassDTurnEnded", {"round_number": 1}, "turn_ended", {"round": 1}),
        (
            "ClassDReacted",
            {"villain_id": "v", "attack_type": "melee", "spent": True},
            "reacted",
            {"character_id": "v", "attack_type": "melee", "spent": True},
        ),
        (
            "ClassDEngaged",
            {"attacker_id": "h", "target_id": "v", "side": "heroes"},
            "engaged",
            {"character_id": "h", "target_id": "v", "side": "heroes"},
        ),
        (
            "ClassDStopAttempted",
            {"hero_id": "h", "villain_id": "v", "stopped": False},
            "stop_attempted",
            {"character_id": "h", "villain_id": "v", "stopped": False},
        ),
        (
            "ClassDShieldChanged",
            {"villain_id": "v", "hostage_id": None, "hostage": "the mayor"},
            "shield_changed",
            {"character_id": "v", "hostage_id": None, "hostage": "the mayor"},
        ),
    ],
)
def test_an_event_recorded_before_state_changed_is_read_as_its_change(
    recorded: str, fields: dict[str, Any], change: str, details: dict[str, Any]
) -> None:
    assert combat.upgraded(recorded, fields) == (change, details)
    assert combat.apply(None, 1, recorded, fields) == combat.apply(None, 1, change, details)
    names = {"v": "Boss", "h": "Nova"}

    def name_of(c: Any) -> str:
        return names[c]

    assert combat.tell(recorded, fields, name_of) == combat.tell(change, details, name_of)


def test_the_round_is_told_with_the_names_of_who_it_names() -> None:
    known = {"h": "Nova", "v": "Boss"}

    def names(c: Any) -> str:
        return known[c]

    engaged = {"character_id": "h", "target_id": "v", "side": "heroes"}
    assert combat.tell("engaged", engaged, names) == "Nova and Boss are engaged (CD-19)"
    started = {"round": 2, "escaped": ["v"]}
    assert combat.tell("round_started", started, names) == (
        "Round 2 begins: the heroes act; Boss escaped (CD-16)"
    )
    assert combat.ROUND.describe("engaged", engaged, "Nova") == (
        "Nova and another are engaged (CD-19)"
    )
