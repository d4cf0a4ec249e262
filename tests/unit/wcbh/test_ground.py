"""The ground's pure rules (WCBH-26, 30): situation dice from cover and relative size, moves by one
range class, contact for grabs and charges."""

from __future__ import annotations

import pytest

from domain.errors import Conflict, InvalidInput
from systems.wcbh.rules.ground import GROUND, check_contact, move, pair_key, situation_dice


@pytest.mark.parametrize(
    ("target", "attacker", "dice"),
    [
        ("same", "same", 0),
        ("double", "same", 1),
        ("tenfold", "same", 3),
        ("half", "same", -1),
        ("tenth", "same", -3),
        ("same", "tenfold", -3),  # a giant's view of a person: a tenth of it
        ("tenth", "tenfold", -3),  # two classes or more: the table's ±3
    ],
)
def test_size_counts_from_the_attackers_size_wcbh_30(target: str, attacker: str, dice: int) -> None:
    situations = {"t": {"size": target, "cover": 0}, "a": {"size": attacker, "cover": 0}}
    assert situation_dice(situations, "a", "t") == dice


def test_cover_takes_one_to_three_dice_wcbh_30() -> None:
    assert situation_dice({"t": {"cover": 3, "size": "same"}}, "a", "t") == -3
    assert situation_dice({}, "a", "t") == 0


def test_a_move_on_foot_is_under_way_one_page_and_done_the_next_wcbh_26() -> None:
    ranges = {pair_key("a", "b"): {"range": "far", "moving": None}}
    first = move(ranges, "a", "b", "close", movement_rank=None, page=1)
    assert first == {"range": "far", "moving": {"by": "a", "to": "close", "since_page": 1}}
    ranges = {pair_key("a", "b"): first}
    assert move(ranges, "a", "b", "close", movement_rank=None, page=2)["range"] == "close"
    # the same page again, or the other character moving, starts over
    assert move(ranges, "b", "a", "close", movement_rank=None, page=2)["moving"]["by"] == "b"
    assert move(ranges, "a", "b", "close", movement_rank=5, page=1)["moving"] is not None
    assert move(ranges, "a", "b", "close", movement_rank=6, page=1)["range"] == "close"


def test_a_move_changes_one_class_and_needs_a_range_wcbh_26() -> None:
    with pytest.raises(Conflict):
        move({}, "a", "b", "far", movement_rank=None, page=1)
    ranges = {pair_key("a", "b"): {"range": "close", "moving": None}}
    with pytest.raises(InvalidInput):
        move(ranges, "a", "b", "extreme", movement_rank=9, page=1)


def test_contact_is_checked_only_where_the_gm_set_a_range_wcbh_26() -> None:
    check_contact({}, "a", "b", "a grapple")
    check_contact({pair_key("a", "b"): {"range": "close"}}, "a", "b", "a grapple")
    with pytest.raises(Conflict):
        check_contact({pair_key("b", "a"): {"range": "far"}}, "a", "b", "a grapple")


def test_the_ground_state_applies_ranges_and_situations() -> None:
    raw = GROUND.apply(None, 1, "range", {"first_id": "b", "second_id": "a", "range": "far"})
    raw = GROUND.apply(
        raw, 1, "situation", {"character_id": "a", "cover": 1, "size": "half", "reason": "r"}
    )
    state = GROUND.state_of(raw, 2)
    assert state["ranges"] == {"a|b": {"range": "far", "moving": None}}
    assert state["situations"]["a"] == {"cover": 1, "size": "half", "reason": "r"}
