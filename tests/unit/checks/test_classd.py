"""Class D Heroes stat checks and the Will reroll, with scripted faces checked by hand."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome, FollowUpRoll
from tests.unit.checks.support import scripted, sheet_and_settings

RULES = RULESETS["classd"]
STAT = RULES.checks["stat"]
REROLL = RULES.follow_ups["will_reroll"]
SHEET, SETTINGS = sheet_and_settings("classd")  # might 1, speed 3, spirit 2


def roll(request: dict[str, Any], *faces: int, sheet: Any = SHEET) -> CheckOutcome:
    return STAT.roll(Asked(STAT.parse(request), sheet, SETTINGS), scripted(*faces))


def test_two_d6_plus_stat_meeting_the_difficulty_succeeds_cd_2() -> None:
    outcome = roll({"stat": "speed", "difficulty": 8}, 2, 3)
    assert (outcome.result["total"], outcome.score, outcome.success) == (8, 8, True)
    assert outcome.result["net"] == 0


def test_a_total_below_the_difficulty_fails_cd_2() -> None:
    outcome = roll({"stat": "speed", "difficulty_name": "hard"}, 3, 3)
    assert (outcome.result["total"], outcome.result["difficulty"]) == (9, 10)
    assert outcome.result["outcome"] == "failure"
    assert outcome.success is False


@pytest.mark.parametrize(
    ("name", "value"),
    [("fairly_easy", 6), ("medium", 8), ("hard", 10), ("very_hard", 12), ("at_the_limit", 15)],
)
def test_named_difficulties_cd_2(name: str, value: int) -> None:
    result = roll({"stat_value": 0, "difficulty_name": name}, 1, 2, sheet=None).result
    assert (result["difficulty"], result["difficulty_name"]) == (value, name)


def test_double_six_is_a_critical_success_even_below_the_difficulty_cd_3() -> None:
    outcome = roll({"stat_value": 0, "difficulty_name": "at_the_limit"}, 6, 6, sheet=None)
    assert outcome.result["critical"] == "success"
    assert outcome.result["outcome"] == "critical_success"
    assert outcome.success is True


def test_double_one_is_a_critical_failure_even_above_the_difficulty_cd_3() -> None:
    outcome = roll({"stat_value": 10, "difficulty": 6}, 1, 1, sheet=None)
    assert outcome.result["critical"] == "failure"
    assert outcome.result["outcome"] == "critical_failure"
    assert outcome.success is False


def test_acting_on_someone_is_five_plus_their_stat_cd_4() -> None:
    outcome = roll({"stat": "might", "target_stat": 3}, 4, 3)
    assert outcome.result["difficulty"] == 8
    assert outcome.success is True  # 4 + 3 + might 1


def test_exactly_one_difficulty_is_required_cd_2() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"stat": "might", "difficulty": 8, "target_stat": 2})
    assert caught.value.field == "request.target_stat"
    with pytest.raises(InvalidInput) as caught:
        roll({"stat": "might"})
    assert caught.value.field == "request.difficulty"


def test_advantage_adds_a_die_and_keeps_the_best_two_cd_5() -> None:
    roller = scripted(1, 5, 4)
    outcome = STAT.roll(
        Asked(STAT.parse({"stat_value": 0, "difficulty": 9, "advantage": 1}), None, SETTINGS),
        roller,
    )
    assert [f.kept for f in roller.faces] == [False, True, True]
    assert (outcome.result["natural"], outcome.success) == (9, True)


def test_disadvantage_keeps_the_worst_two_cd_5() -> None:
    roller = scripted(6, 2, 5, 3)
    outcome = STAT.roll(
        Asked(STAT.parse({"stat_value": 0, "difficulty": 6, "disadvantage": 2}), None, SETTINGS),
        roller,
    )
    assert [f.kept for f in roller.faces] == [False, True, False, True]
    assert outcome.result["natural"] == 5


def test_one_disadvantage_cancels_one_advantage_cd_5() -> None:
    roller = scripted(1, 6, 4)
    outcome = STAT.roll(
        Asked(
            STAT.parse({"stat_value": 0, "difficulty": 6, "advantage": 2, "disadvantage": 1}),
            None,
            SETTINGS,
        ),
        roller,
    )
    assert (outcome.result["dice"], outcome.result["edge"]) == (3, 1)
    assert outcome.result["kept"] == [6, 4]


def test_criticals_are_judged_on_the_two_kept_dice_cd_5() -> None:
    outcome = roll({"stat_value": 0, "difficulty": 6, "advantage": 1}, 6, 1, 6, sheet=None)
    assert outcome.result["critical"] == "success"
    outcome = roll({"stat_value": 0, "difficulty": 6, "advantage": 1}, 1, 1, 2, sheet=None)
    assert outcome.result["critical"] is None  # kept 1 and 2


def test_a_raw_roll_needs_a_stat_value() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"stat": "might", "difficulty": 8}, sheet=None)
    assert caught.value.field == "request.stat"


def test_will_reroll_is_allowed_only_for_ordinary_failures_cd_6() -> None:
    request = STAT.parse({"stat_value": 0, "difficulty": 8})
    failure = STAT.roll(Asked(request, None, SETTINGS), scripted(2, 3))
    critical = STAT.roll(Asked(request, None, SETTINGS), scripted(1, 1))
    success = STAT.roll(Asked(request, None, SETTINGS), scripted(4, 4))
    assert REROLL.allowed(request, failure) is None
    assert "critical failure" in str(REROLL.allowed(request, critical))
    assert "only ordinary failures" in str(REROLL.allowed(request, success))


def test_will_reroll_rolls_the_whole_check_again_for_one_will_cd_6() -> None:
    request = STAT.parse({"stat_value": 1, "difficulty": 8, "advantage": 1})
    first = scripted(2, 3, 1)
    STAT.roll(Asked(request, None, SETTINGS), first)
    old = [dataclasses.replace(f) for f in first.faces]
    again = scripted(5, 1, 3)
    outcome = REROLL.apply(FollowUpRoll(request, old, REROLL.parse({}), None, SETTINGS), again)
    assert [f.kept for f in old] == [False, False, False]
    assert [f.reroll_of for f in again.faces] == [0, 1, 2]
    assert [f.kept for f in again.faces] == [True, False, True]
    assert (outcome.result["total"], outcome.success) == (9, True)
    assert REROLL.cost(REROLL.parse({})) == {"will": 1}


def test_will_reroll_odds_are_those_of_a_fresh_check_cd_6() -> None:
    assert REROLL.odds is not None
    request = STAT.parse({"stat_value": 0, "difficulty": 7})
    outcome = STAT.roll(Asked(request, None, SETTINGS), scripted(3, 4))
    odds = REROLL.odds(FollowUpRoll(request, [], REROLL.parse({}), None, SETTINGS), outcome)
    assert odds.success == pytest.approx(21 / 36)
    assert odds.at_least == pytest.approx(21 / 36)
