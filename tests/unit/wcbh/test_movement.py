"""Ranges, thrown range by Strength, moving and chases (WCBH-26, WCBH-27)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.movement import (
    ChaseState,
    chase_dice,
    pages_to_move,
    resolve_chase,
    roll_chase,
    thrown_range,
)
from tests.unit.checks.support import scripted


@pytest.mark.parametrize(
    ("strength", "reach"),
    [
        (1, "close"),  # ruling: below the table
        (3, "close"),
        (6, "close"),
        (7, "far"),
        (12, "far"),
        (13, "extreme"),
        (24, "extreme"),
        (25, "beyond"),
    ],
)
def test_thrown_range_follows_the_strength_table_wcbh_26(strength: int, reach: str) -> None:
    assert thrown_range(strength) == reach


def test_moving_within_close_takes_one_page_wcbh_26() -> None:
    assert pages_to_move(0) == 1


def test_changing_range_class_takes_two_pages_or_one_with_a_fast_power_wcbh_26() -> None:
    assert pages_to_move(1) == 2
    assert pages_to_move(1, movement_power=5) == 2
    assert pages_to_move(1, movement_power=6) == 1
    assert pages_to_move(2) == 4


def test_on_foot_against_a_faster_power_rolls_half_the_trait_wcbh_27() -> None:
    assert chase_dice(5, on_foot_against_faster=True) == 3
    assert chase_dice(5) == 5
    assert chase_dice(5, on_foot_against_faster=True, bonus=2) == 5


def test_the_winner_gets_two_dice_on_the_next_chase_check_wcbh_27() -> None:
    state = ChaseState("cop", "thief", "far", target_bonus=2)
    result = resolve_chase(state, 4, 2)
    assert (result.winner, result.net) == ("cop", 2)
    assert result.state == ChaseState("cop", "thief", "far", pursuer_bonus=2, target_bonus=0)


def test_three_net_successes_move_the_range_one_class_wcbh_27() -> None:
    closer = resolve_chase(ChaseState("cop", "thief", "far"), 5, 2).state
    assert closer.range == "close"
    farther = resolve_chase(ChaseState("cop", "thief", "far"), 1, 4).state
    assert farther.range == "extreme"
    held = resolve_chase(ChaseState("cop", "thief", "far"), 5, 2, shift=0).state
    assert held.range == "far"


def test_moving_the_range_needs_three_net_successes_wcbh_27() -> None:
    with pytest.raises(InvalidInput) as caught:
        resolve_chase(ChaseState("cop", "thief", "far"), 4, 2, shift=-1)
    assert caught.value.rule == "WCBH-27"


def test_the_chase_ends_when_cornered_or_escaped_wcbh_27() -> None:
    cornered = resolve_chase(ChaseState("cop", "thief", "close"), 3, 0).state
    assert (cornered.range, cornered.over) == ("cornered", True)
    escaped = resolve_chase(ChaseState("cop", "thief", "extreme"), 0, 3).state
    assert (escaped.range, escaped.over) == ("escaped", True)
    with pytest.raises(InvalidInput) as caught:
        resolve_chase(escaped, 1, 0)
    assert caught.value.rule == "WCBH-27"


def test_a_tied_chase_page_has_no_winner_ruling_wcbh_27() -> None:
    result = resolve_chase(ChaseState("cop", "thief", "far", pursuer_bonus=2), 2, 2)
    assert result.winner is None
    assert result.state == ChaseState("cop", "thief", "far")


def test_a_chase_page_rolls_both_sides_with_bonus_and_halving_wcbh_27() -> None:
    # Cop: Agility 3 + 2 won dice = 5: 2, 2, 2, 1, 1 -> 3. Thief on foot against a flying cop:
    # Agility 4 halved = 2 dice: 6, 6 -> 4. The thief wins by 1: no change of range.
    state = ChaseState("cop", "thief", "far", pursuer_bonus=2)
    roller = scripted(2, 2, 2, 1, 1, 6, 6)
    cop, thief, result = roll_chase(roller, state, 3, 4, target_on_foot_against_faster=True)
    assert (cop.dice, cop.successes, thief.dice, thief.successes) == (5, 3, 2, 4)
    assert result.winner == "thief"
    assert result.state == ChaseState("cop", "thief", "far", pursuer_bonus=0, target_bonus=2)
