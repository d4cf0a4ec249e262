"""The firefight state (systems/nwod_micro/rules/combat.py): order, actions, maneuvers."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import Conflict, InvalidInput
from systems.nwod_micro.requests import ActionCreate
from systems.nwod_micro.rules import combat, maneuvers


def with_fighters(*totals: tuple[str, int, int]) -> dict[str, Any]:
    state = combat.fresh(1)
    for name, total, bonus in totals:
        state = combat.apply(
            state,
            1,
            "initiative",
            {
                "character_id": name,
                "roll": total - bonus,
                "bonus": bonus,
                "modifier": 0,
                "total": total,
            },
        )
    return state


def act(state: dict[str, Any], who: str, maneuver: str, **details: Any) -> dict[str, Any]:
    cost = combat.check_actions(state, who, who, combat.MOVES.get(maneuver, 1))
    return combat.apply(
        state,
        state["turn"],
        "acted",
        {"character_id": who, "maneuver": maneuver, "cost": cost} | details,
    )


def test_nw_14_higher_initiative_first_ties_to_higher_int() -> None:
    state = with_fighters(("a", 8, 1), ("b", 10, 2), ("c", 8, 3))
    assert combat.order(state) == ["b", "c", "a"]
    assert combat.current(state) == "b"
    with pytest.raises(Conflict) as raised:
        combat.check_turn(state, "a", "A")
    assert raised.value.rule == "NW-14"


def test_nw_9_initiative_boost_reorders_for_the_turn() -> None:
    state = with_fighters(("a", 8, 1), ("b", 9, 2))
    state = combat.apply(
        state, 1, "boosted", {"character_id": "a", "kind": "initiative", "points": 1}
    )
    assert combat.order(state) == ["a", "b"]
    state = combat.apply(state, 2, "turn_started", {"turn": 2})
    assert combat.order(state) == ["b", "a"]


def boost(state: dict[str, Any], who: str, kind: str, points: int = 1) -> dict[str, Any]:
    details = {"character_id": who, "kind": kind, "points": points}
    return combat.apply(state, state["turn"], "boosted", details)


def test_an_initiative_boost_does_not_take_the_turn_from_a_fighter_mid_turn_nw_9_nw_14() -> None:
    state = act(with_fighters(("a", 9, 1), ("b", 5, 1)), "a", "aim")
    state = boost(state, "b", "initiative", 3)  # 5 + 6 = 11, above a's 9
    assert combat.order(state) == ["b", "a"]
    assert combat.current(state) == "a"  # a has begun its turn and keeps it
    combat.check_turn(state, "a", "A")
    with pytest.raises(Conflict) as raised:
        combat.check_turn(state, "b", "B")
    assert raised.value.code == "not_your_turn"
    state = act(state, "a", "aim")
    assert combat.current(state) == "b"


def test_an_initiative_boost_before_anyone_acts_takes_the_lead_nw_9() -> None:
    state = boost(with_fighters(("a", 9, 1), ("b", 5, 1)), "b", "initiative", 3)
    assert combat.current(state) == "b"


def test_nw_15_two_actions_then_the_next_fighter() -> None:
    state = with_fighters(("a", 10, 1), ("b", 5, 1))
    state = act(state, "a", "aim")
    state = act(state, "a", "walk")
    assert combat.current(state) == "a"
    state = act(state, "a", "run")
    assert combat.current(state) == "b"
    with pytest.raises(Conflict) as raised:
        combat.check_actions(state, "a", "A", 1)
    assert raised.value.rule == "NW-15"


def test_nw_15_sprint_and_defend_only_as_the_first_action() -> None:
    state = with_fighters(("a", 10, 1))
    state = act(state, "a", "aim")
    for maneuver in ("sprint", "defend"):
        with pytest.raises(Conflict):
            combat.check_actions(state, "a", "A", combat.MOVES[maneuver])


def test_nw_15_defend_doubles_melee_defense_only() -> None:
    state = with_fighters(("a", 10, 1), ("b", 5, 1))
    state = act(state, "a", "defend")
    assert combat.defense_against(state, "a", 3, "melee", False)["value"] == 6
    assert combat.defense_against(state, "a", 3, "ranged", False)["value"] == 0


def test_nw_15_aim_at_most_three_and_spent_by_the_shot() -> None:
    state = with_fighters(("a", 10, 1))
    state = act(state, "a", "aim")
    state = act(state, "a", "aim")
    state = combat.apply(state, 2, "turn_started", {"turn": 2})
    state = act(state, "a", "aim")
    assert state["aim"]["a"] == 3
    with pytest.raises(Conflict) as raised:
        combat.check_aim(state, "a", "A")
    assert raised.value.rule == "NW-15"
    state = act(state, "a", "standard")
    assert "a" not in state["aim"]


def test_nw_15_reckless_defense_zero_until_the_attacker_s_next_turn() -> None:
    state = with_fighters(("a", 10, 1), ("b", 5, 1))
    state = act(state, "a", "reckless")
    assert combat.defense_against(state, "a", 2, "melee", False)["value"] == 0
    state = combat.apply(state, 2, "turn_started", {"turn": 2})
    assert combat.reckless_exposed(state, "a")  # still: a has not acted yet in turn 2
    state = act(state, "a", "walk")
    assert not combat.reckless_exposed(state, "a")
    assert combat.defense_against(state, "a", 2, "melee", False)["value"] == 2


def test_nw_15_sneak_attack_and_dodge() -> None:
    state = with_fighters(("a", 10, 1))
    state = act(state, "a", "run", dodge=True)
    assert combat.defense_against(state, "a", 2, "ranged", False)["value"] == 1
    assert combat.defense_against(state, "a", 2, "ranged", True)["value"] == 0
    assert combat.defense_against(state, "a", 2, "melee", True)["value"] == 0


def test_nw_9_defense_boost_adds_two_per_point() -> None:
    state = with_fighters(("a", 10, 1))
    state = combat.apply(state, 1, "boosted", {"character_id": "a", "kind": "defense", "points": 2})
    assert combat.defense_against(state, "a", 1, "melee", False)["value"] == 5


def test_nw_16_rounds_and_bursts() -> None:
    assert combat.check_rounds("standard", None, 3, "Pistol") == 1
    assert combat.check_rounds("long_burst", 15, 30, "Rifle") == 15
    with pytest.raises(InvalidInput) as bad:
        combat.check_rounds("long_burst", 14, 30, "Rifle")
    assert bad.value.rule == "NW-15"
    with pytest.raises(Conflict) as empty:
        combat.check_rounds("standard", None, 0, "Pistol")
    assert empty.value.rule == "NW-16"
    with pytest.raises(Conflict):
        combat.check_rounds("suppressive", 20, 19, "Rifle")


def test_nw_13_cover_taken_and_left_by_running() -> None:
    state = with_fighters(("a", 10, 1))
    state = act(state, "a", "take_cover", cover="full", cover_durability=3)
    assert state["cover"]["a"] == {"kind": "full", "durability": 3}
    state = act(state, "a", "run")
    assert "a" not in state["cover"]
    with pytest.raises(InvalidInput):
        combat.check_cover("partial", 2)


def test_nw_15_suppression_pending_then_resolved() -> None:
    state = with_fighters(("a", 10, 1), ("b", 5, 1))
    state = combat.apply(state, 1, "suppressed", {"character_id": "a", "target_ids": ["b"]})
    assert state["suppressed"]["b"]["status"] == "pending"
    failed = combat.apply(state, 1, "suppression_resolved", {"character_id": "b", "held": False})
    assert failed["suppressed"]["b"]["status"] == "must_take_cover"
    held = combat.apply(state, 1, "suppression_resolved", {"character_id": "b", "held": True})
    assert "b" not in held["suppressed"]


def test_describe_reads_every_change() -> None:
    assert "Initiative" in combat.describe(
        "initiative", {"roll": 5, "bonus": 2, "modifier": 0, "total": 7}, "A"
    )
    assert "aim" in combat.describe("acted", {"maneuver": "aim", "cost": 1}, "A")


# ---- how long defences last (issue #15) -------------------------------------------------------


def next_page(state: dict[str, Any]) -> dict[str, Any]:
    return combat.apply(state, state["turn"] + 1, "turn_started", {"turn": state["turn"] + 1})


def slow_b_then_fast_a(maneuver: str, **details: Any) -> dict[str, Any]:
    """Turn 1: a (9) passes, b (5) takes `maneuver`; the page turns; a acts first in turn 2."""
    state = with_fighters(("a", 9, 1), ("b", 5, 1))
    state = combat.apply(state, 1, "turn_ended", {"character_id": "a"})
    if maneuver == "boost":
        state = boost(state, "b", "defense")
    else:
        state = act(state, "b", maneuver, **details)
    return next_page(state)


def test_defend_lasts_until_the_defenders_next_turn_not_the_page_nw_15() -> None:
    state = slow_b_then_fast_a("defend")
    assert combat.current(state) == "a"
    assert combat.defense_against(state, "b", 2, "melee", False)["value"] == 4
    state = combat.apply(state, 2, "turn_ended", {"character_id": "a"})
    assert combat.defense_against(state, "b", 2, "melee", False)["value"] == 4
    state = act(state, "b", "aim")  # b's next turn has begun: Defend is over
    assert combat.defense_against(state, "b", 2, "melee", False)["value"] == 2
    assert state["defending"] == []


def test_dodging_lasts_until_the_dodgers_next_turn_its_penalty_only_its_own_turn_nw_15() -> None:
    state = slow_b_then_fast_a("dodge")
    assert combat.defense_against(state, "b", 2, "ranged", False)["value"] == 1
    assert combat.dodging_now(state, "b") is False  # a new turn: b's own attacks are free of it
    state = combat.apply(state, 2, "turn_ended", {"character_id": "a"})
    state = act(state, "b", "aim")
    assert combat.defense_against(state, "b", 2, "ranged", False)["value"] == 0
    state = act(state, "b", "dodge")
    assert combat.dodging_now(state, "b") is True


def test_a_will_power_defense_boost_lasts_until_the_next_turn_initiative_only_the_page_nw_9() -> (
    None
):
    state = slow_b_then_fast_a("boost")
    assert combat.defense_against(state, "b", 2, "melee", False)["will_power_boost"] == 2
    state = boost(state, "a", "initiative")
    state = combat.apply(state, 2, "turn_ended", {"character_id": "a"})
    state = combat.apply(state, 2, "turn_ended", {"character_id": "b"})  # b passes: it is over
    assert combat.defense_against(state, "b", 2, "melee", False)["will_power_boost"] == 0
    assert next_page(state)["boosts"] == {}  # the Initiative boost ends with the page


@pytest.mark.parametrize(("maneuver", "cost"), [("walk", 1), ("run", 1), ("sprint", 2)])
def test_dodging_rides_on_a_movement_and_costs_one_action_even_when_walking_nw_15(
    maneuver: str, cost: int
) -> None:
    state = with_fighters(("a", 9, 1))
    move = ActionCreate(character_id=uuid4(), maneuver=maneuver, dodge=True)
    assert maneuvers.check_may_move(state, "a", "A", move) == cost
    plain = ActionCreate(character_id=uuid4(), maneuver="walk")
    assert maneuvers.check_may_move(state, "a", "A", plain) == 0


def test_a_fighter_taken_out_leaves_the_order_and_the_turn_passes_nw_8_nw_14() -> None:
    state = act(with_fighters(("a", 9, 1), ("b", 5, 1)), "a", "defend")
    out = {"character_id": "a", "reason": "0 Health: bleeding out", "health": 0}
    state = combat.apply(state, 1, "taken_out", out)
    assert combat.order(state) == ["b"] and combat.current(state) == "b"
    assert state["defending"] == [] and "a" not in state["actions"]
    assert state["out"] == {"a": {"reason": "0 Health: bleeding out", "turn": 1, "health": 0}}
    with pytest.raises(Conflict) as raised:
        combat.check_fighter(state, "a", "A", "target_ids")
    assert raised.value.code == "no_initiative"


def test_only_the_gm_brings_a_fighter_taken_out_back_nw_8() -> None:
    out = {"character_id": "a", "reason": "fled", "health": 3}
    state = combat.apply(with_fighters(("a", 9, 1), ("b", 5, 1)), 1, "taken_out", out)
    with pytest.raises(Conflict) as raised:
        maneuvers.check_may_rejoin(state, "a", "A", by_gm=False)
    assert (raised.value.code, raised.value.rule) == ("taken_out", "NW-8")
    maneuvers.check_may_rejoin(state, "a", "A", by_gm=True)
    back = {"character_id": "a", "roll": 4, "bonus": 1, "modifier": 0, "total": 5}
    state = combat.apply(state, 1, "initiative", back)
    assert state["out"] == {} and state["initiative"]["a"]["seq"] == 2


def override(state: dict[str, Any], who: str, grant: str) -> dict[str, Any]:
    details = {"character_id": who, "grant": grant, "reason": "the GM rules an ambush"}
    return combat.apply(state, state["turn"], "overridden", details)


def test_the_gm_lets_a_fighter_act_out_of_turn_recorded_and_for_this_turn_nw_14() -> None:
    state = with_fighters(("a", 9, 1), ("b", 5, 1))
    with pytest.raises(Conflict) as raised:
        combat.check_turn(state, "b", "B")
    assert raised.value.code == "not_your_turn"
    state = override(state, "b", "act_out_of_turn")
    assert state["overrides"]["b"] == [
        {"grant": "act_out_of_turn", "reason": "the GM rules an ambush", "turn": 1}
    ]
    combat.check_turn(state, "b", "B")
    state = act(state, "b", "aim", out_of_turn=True)
    assert combat.current(state) == "a"  # b's leave does not begin its turn nor end a's
    assert state["actions"]["b"] == [{"maneuver": "aim", "cost": 1, "out_of_turn": True}]
    state = next_page(state)
    with pytest.raises(Conflict):
        combat.check_turn(state, "b", "B")  # the leave was for that turn


def test_the_gms_extra_action_and_a_merits_raise_the_actions_of_the_turn_nw_15_nw_18() -> None:
    state = act(act(with_fighters(("a", 9, 1), ("b", 5, 1)), "a", "aim"), "a", "aim")
    assert combat.finished(state, "a")
    state = override(state, "a", "extra_action")
    assert combat.allowance(state, "a") == 3 and combat.current(state) == "a"
    state = act(state, "a", "aim")
    assert combat.current(state) == "b"
    quick = {"character_id": "q", "roll": 1, "bonus": 1, "modifier": 0, "total": 2}
    state = combat.apply(state, 1, "initiative", quick | {"actions_per_turn": 3})
    assert combat.allowance(state, "q") == 3
    assert combat.check_actions(state, "q", "Q", "all") == 3  # a sprint takes all three
