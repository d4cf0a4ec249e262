"""nWoD micro pool checks, with the source's worked examples (NW-E1..E3) and scripted faces."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome
from tests.unit.checks.support import scripted, sheet_and_settings

RULES = RULESETS["nwod-micro"]
POOL = RULES.checks["pool"]
SHEET, SETTINGS = sheet_and_settings("nwod-micro")  # INT 2, ELG 3, VIO 4, DEF 2


def roll(request: dict[str, Any], *faces: int, sheet: Any = SHEET) -> CheckOutcome:
    return POOL.roll(Asked(POOL.parse(request), sheet, SETTINGS), scripted(*faces))


def test_elegance_four_dice_rolling_3_6_8_2_is_one_success_nw_e1() -> None:
    outcome = roll({"pool": 4}, 3, 6, 8, 2, sheet=None)
    assert outcome.result["successes"] == 1
    assert outcome.success is True
    assert outcome.result["outcome"] == "success"


def test_two_tens_roll_two_more_dice_9_and_8_for_four_successes_nw_e2() -> None:
    roller = scripted(10, 10, 2, 4, 9, 8)
    outcome = POOL.roll(Asked(POOL.parse({"pool": 4}), None, SETTINGS), roller)
    assert [f.exploded_from for f in roller.faces] == [None, None, None, None, 0, 1]
    assert outcome.result["successes"] == 4


def test_a_professional_rifle_adds_two_damage_to_one_success_nw_e3() -> None:
    outcome = roll({"pool": 1, "kind": "ranged", "damage_bonus": 2}, 8, sheet=None)
    assert (outcome.result["successes"], outcome.result["damage"]) == (1, 3)


def test_the_sheets_weapon_class_gives_the_damage_bonus_nw_11() -> None:
    outcome = roll({"affinity": "VIO", "kind": "ranged", "weapon": "assault rifle"}, 9, 1, 1, 1)
    assert (outcome.result["damage_bonus"], outcome.result["damage"]) == (2, 3)


def test_weapons_add_nothing_on_a_miss_and_armour_is_subtracted_nw_11() -> None:
    miss = roll({"pool": 1, "kind": "ranged", "damage_bonus": 4}, 7, sheet=None)
    assert miss.result["damage"] == 0
    hit = roll({"pool": 2, "kind": "melee", "damage_bonus": 1, "target_armor": 3}, 8, 9, sheet=None)
    assert hit.result["damage"] == 0  # 2 + 1 - 3
    hit = roll({"pool": 2, "kind": "melee", "damage_bonus": 3, "target_armor": 2}, 8, 9, sheet=None)
    assert hit.result["damage"] == 3


@pytest.mark.parametrize(("face", "successes"), [(1, 0), (7, 0), (8, 1), (9, 1)])
def test_eight_nine_and_ten_succeed_nw_4(face: int, successes: int) -> None:
    assert roll({"pool": 1}, face, sheet=None).result["successes"] == successes


def test_tens_chain_while_they_keep_coming_nw_4() -> None:
    outcome = roll({"pool": 1}, 10, 10, 3, sheet=None)
    assert outcome.result["successes"] == 2
    assert outcome.result["exploded"] == 2


def test_no_successes_is_a_failure_nw_4() -> None:
    outcome = roll({"pool": 3}, 1, 5, 7, sheet=None)
    assert (outcome.success, outcome.result["outcome"], outcome.score) == (False, "failure", 0)


@pytest.mark.parametrize(("face", "successes"), [(8, 0), (9, 0), (1, 0)])
def test_a_chance_roll_fails_on_anything_but_ten_nw_5(face: int, successes: int) -> None:
    outcome = roll({"pool": 1, "modifier": -2}, face, sheet=None)
    assert outcome.result["chance_roll"] is True
    assert outcome.result["dice"] == 1
    assert outcome.result["successes"] == successes


def test_a_chance_roll_succeeds_on_ten_and_its_reroll_counts_as_usual_nw_5() -> None:
    outcome = roll({"pool": 0}, 10, 8, sheet=None)
    assert outcome.result["successes"] == 2
    assert outcome.success is True


def test_melee_subtracts_the_targets_defense_nw_10() -> None:
    # Defense 2, attacker VIO 5 -> 3d10.
    roller = scripted(1, 1, 1)
    outcome = POOL.roll(
        Asked(POOL.parse({"pool": 5, "kind": "melee", "target_defense": 2}), None, SETTINGS), roller
    )
    assert len(roller.faces) == 3
    assert outcome.result["pool"] == 3


def test_melee_against_too_much_defense_is_a_chance_roll_nw_6() -> None:
    outcome = roll({"affinity": "VIO", "kind": "melee", "target_defense": 4}, 10, 1)
    assert outcome.result["chance_roll"] is True
    assert outcome.result["successes"] == 1


def test_defense_is_not_subtracted_from_ranged_attacks_nw_6() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"affinity": "VIO", "kind": "ranged", "target_defense": 2})
    assert caught.value.field == "request.target_defense"


def test_each_will_power_point_adds_three_dice_and_is_its_cost_nw_9() -> None:
    request = POOL.parse({"affinity": "INT", "will_power": 1})
    roller = scripted(1, 1, 1, 1, 8)
    outcome = POOL.roll(Asked(request, SHEET, SETTINGS), roller)
    assert len(roller.faces) == 5  # INT 2 + 3
    assert outcome.result["successes"] == 1
    assert POOL.cost(request) == {"will_power": 1}


def test_will_power_dice_lift_a_pool_out_of_a_chance_roll_ruling_nw_9() -> None:
    outcome = roll({"pool": 1, "modifier": -3, "will_power": 1}, 8, sheet=None)
    assert outcome.result["chance_roll"] is False
    assert outcome.result["successes"] == 1


def test_a_raw_roll_needs_an_explicit_pool() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"affinity": "VIO"}, sheet=None)
    assert caught.value.field == "request.affinity"


def test_weapons_only_apply_to_attacks_nw_11() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"affinity": "VIO", "weapon": "Knife"})
    assert caught.value.field == "request.weapon"


def test_a_weapon_the_sheet_lacks_is_invalid_input() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"affinity": "VIO", "kind": "melee", "weapon": "Railgun"})
    assert caught.value.field == "request.weapon"


def test_odds_of_one_die_are_three_in_ten_nw_4() -> None:
    request = POOL.parse({"pool": 1})
    outcome = POOL.roll(Asked(request, None, SETTINGS), scripted(9))
    odds = POOL.odds(Asked(request, None, SETTINGS), outcome)
    assert odds.success == pytest.approx(0.3)
    assert odds.at_least == pytest.approx(0.3)


def test_odds_of_a_chance_roll_are_one_in_ten_nw_5() -> None:
    request = POOL.parse({"pool": 0})
    outcome = POOL.roll(Asked(request, None, SETTINGS), scripted(10, 10, 1))
    odds = POOL.odds(Asked(request, None, SETTINGS), outcome)
    assert odds.success == pytest.approx(0.1)
    # Two successes: the chance die's 10, then its reroll succeeding as usual (8, 9 or 10).
    assert odds.at_least == pytest.approx(0.1 * 0.3)
