"""The source's worked examples NW-E1..E3 and the rules of the fight roll, with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets.base import Asked
from systems.nwod_micro.rules.checks import PoolCheck, PoolRequest
from systems.nwod_micro.rules.fight_checks import (
    FightRollCheck,
    FightRollRequest,
    InitiativeCheck,
    InitiativeRequest,
    fight_damage,
)
from tests.unit.checks.support import scripted, sheet_and_settings

SHEET, SETTINGS = sheet_and_settings("nwod-micro")  # INT 2, ELG 3, VIO 4


def fight_roll(faces: list[int], sheet: Any = None, **request: Any) -> dict[str, Any]:
    req = FightRollRequest.model_validate({"affinity_value": 4} | request)
    outcome = FightRollCheck().roll(Asked(req, sheet, SETTINGS), scripted(*faces))
    return outcome.result


def test_nw_e1_elegance_4d10_one_success() -> None:
    """NW-E1: Elegance 4d10 rolls 3, 6, 8, 2: one success (hidden, with a complication)."""
    result = fight_roll([3, 6, 8, 2], affinity="ELG", affinity_value=4)
    assert result["pool"] == 4 and result["successes"] == 1 and result["success"]
    pool = PoolCheck().roll(Asked(PoolRequest(pool=4), None, SETTINGS), scripted(3, 6, 8, 2)).result
    assert pool["successes"] == 1


def test_nw_e2_tens_are_rerolled_four_successes() -> None:
    """NW-E2: 10, 10, 2, 4: the two 10s roll again, 9 and 8: four successes (NW-4)."""
    result = fight_roll([10, 10, 2, 4, 9, 8], affinity="ELG", affinity_value=4)
    assert result["successes"] == 4


def test_nw_e3_rifle_one_success_three_damage() -> None:
    """NW-E3: a professional rifle (+2 DMG) and 1 success: 3 damage before armour (NW-11)."""
    assert fight_damage(1, 2, 0, 0) == 3
    result = fight_roll([8, 1, 1, 1], kind="ranged", damage_bonus=2, target_health=7)
    assert result["damage"] == 3 and result["target_health"] == 4


def test_nw_4_a_ten_explodes_again_and_again() -> None:
    assert fight_roll([10, 1, 1, 1, 10, 8], affinity_value=4)["successes"] == 3


def test_nw_5_a_pool_of_zero_is_a_chance_roll_only_a_ten_succeeds() -> None:
    miss = fight_roll([9], modifiers=[{"source": "range", "dice": -4}])
    assert miss["chance_roll"] and miss["pool"] == 0 and miss["successes"] == 0
    hit = fight_roll([10, 8], modifiers=[{"source": "range", "dice": -6}])
    assert hit["successes"] == 2  # the 10 succeeds, its reroll as usual


def test_nw_17_total_darkness_is_a_chance_roll_whatever_the_pool() -> None:
    result = fight_roll([9], chance_only=True, affinity_value=8)
    assert result["chance_roll"] and result["successes"] == 0


def test_nw_8_nw_11_damage_only_on_a_hit_never_below_zero() -> None:
    assert fight_damage(0, 4, 0, 0) == 0  # a miss: the weapon adds nothing
    assert fight_damage(1, 1, 0, 4) == 0  # armour soaks it all, never negative
    assert fight_damage(3, 3, 0, 2) == 4


def test_nw_15_long_burst_penalty_lowers_the_weapon_damage() -> None:
    assert fight_damage(2, 2, 1, 0) == 3
    assert fight_damage(2, 2, 2, 0) == 2
    assert fight_damage(2, 1, 2, 0) == 2  # the penalty takes weapon damage, not successes


def test_nw_9_will_power_adds_three_dice_each() -> None:
    result = fight_roll([1] * 10, will_power=2)
    assert result["pool"] == 4 + 6


def test_nw_10_defense_comes_off_the_melee_pool() -> None:
    result = fight_roll([8, 8, 8], kind="melee", affinity_value=5, target_defense=2)
    assert result["pool"] == 3 and result["successes"] == 3


def test_nw_1_the_request_must_match_the_sheet() -> None:
    with pytest.raises(InvalidInput) as raised:
        fight_roll([1] * 5, sheet=SHEET, affinity="VIO", affinity_value=5)
    assert raised.value.rule == "NW-1"
    assert fight_roll([1] * 4, sheet=SHEET, affinity="VIO", affinity_value=4)["pool"] == 4


def test_nw_6_universal_rolls_carry_no_weapon_or_defense() -> None:
    with pytest.raises(InvalidInput) as raised:
        fight_roll([1] * 4, damage_bonus=2)
    assert raised.value.rule == "NW-6"


def test_nw_14_initiative_is_one_d10_plus_int() -> None:
    check = InitiativeCheck()
    req = InitiativeRequest(intelligence=2, modifier=1)
    outcome = check.roll(Asked(req, SHEET, SETTINGS), scripted(7))
    assert outcome.result["total"] == 7 + 2 + 1 and outcome.score == 10
    odds = check.odds(Asked(req, SHEET, SETTINGS), outcome)
    assert odds.at_least == pytest.approx(0.4)  # faces 7..10
