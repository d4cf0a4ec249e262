"""Class D combat rolls with scripted faces, checked by hand (CD-6, CD-10..CD-15, CD-19, CD-20)."""

from __future__ import annotations

from typing import Any

from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome
from tests.unit.checks.support import scripted

RULES = RULESETS["classd"]
ATTACK = RULES.checks["hero_attack"]
DEFENCE = RULES.checks["villain_attack"]
ACTION = RULES.checks["action"]
REROLL = RULES.follow_ups["will_reroll"]

BASE: dict[str, Any] = {
    "attack_type": "melee",
    "stat_value": 2,
    "target_stat": 3,  # difficulty 8
    "damage_modifier": 1,
    "target_health": 10,
    "reaction": True,
    "strike_back_modifier": 2,
    "attacker_health": 12,
    "attacker_will": 4,
}


def attack(*faces: int, **changes: Any) -> dict[str, Any]:
    outcome = ATTACK.roll(
        Asked(ATTACK.parse(BASE | changes), None, RULES.parse_settings(None)), scripted(*faces)
    )
    return outcome.result


def test_a_success_deals_one_die_plus_the_modifier_cd_11() -> None:
    result = attack(3, 3, 4)  # 3 + 3 + 2 = 8 >= 8; damage 4 + 1
    assert (result["outcome"], result["damage_dice"], result["damage"]) == ("success", [4], 5)
    assert result["target_health"] == 5 and result["strike_back"] is None


def test_a_critical_success_deals_two_dice_plus_the_modifier_cd_11() -> None:
    result = attack(6, 6, 2, 5, target_stat=20)  # a double 6 succeeds at any difficulty
    assert (result["outcome"], result["damage"]) == ("critical_success", 2 + 5 + 1)


def test_a_failure_lets_a_target_with_a_reaction_hit_back_and_spend_it_cd_11() -> None:
    result = attack(2, 3, 4)  # 7 < 8; strike-back 4 + 2
    assert result["damage"] == 0
    assert result["strike_back"] == {
        "reaction_spent": True,
        "dice": [4],
        "damage": 6,
        "resource": "health",
        "level": 6,
    }
    assert attack(2, 3, reaction=False)["strike_back"] is None


def test_a_critical_failure_hits_back_without_a_reaction_cd_11() -> None:
    result = attack(1, 1, 5, reaction=False)
    assert result["outcome"] == "critical_failure"
    assert result["strike_back"]["reaction_spent"] is False and result["strike_back"]["damage"] == 7


def test_a_mental_attack_to_zero_captures_and_its_strike_back_hurts_will_cd_12() -> None:
    captured = attack(4, 4, 6, attack_type="mental", target_health=3)
    assert captured["target_out"] and captured["captured"] and captured["target_health"] == 0
    failed = attack(1, 2, 3, attack_type="mental")
    assert failed["strike_back"]["resource"] == "will" and failed["strike_back"]["level"] == 0


def test_overflow_moves_for_one_will_only_when_the_target_is_out_cd_13() -> None:
    result = attack(4, 4, 6, target_health=3, overflow_target_health=5)  # 7 damage, 4 over
    assert (result["overflow"], result["overflow_moved"], result["overflow_target_health"]) == (
        4,
        True,
        1,
    )
    assert result["will_spent"] == 1
    kept = attack(4, 4, 6, target_health=3)  # not asked for: the overflow is only reported
    assert (kept["overflow"], kept["overflow_moved"], kept["will_spent"]) == (4, False, 0)
    broke = attack(4, 4, 6, target_health=3, overflow_target_health=5, attacker_will=0)
    assert broke["overflow_moved"] is False  # no Will left to pay


def test_will_rerolls_stop_at_a_success_or_a_critical_failure_cd_6() -> None:
    result = attack(2, 3, 1, 1, 5, will_rerolls=3)  # failure, then a critical failure: stop
    assert result["outcome"] == "critical_failure" and result["will_spent"] == 1
    assert result["rerolled_totals"] == [7]
    good = attack(2, 3, 4, 4, 2, will_rerolls=3)  # failure, then a success
    assert (good["outcome"], good["will_spent"], good["damage"]) == ("success", 1, 3)


def test_a_hostage_shield_adds_disadvantage_and_a_critical_failure_hits_the_hostage_cd_20() -> None:
    result = attack(1, 6, 1, 3, 2, hostage_shield=True, hostage_health=4)  # worst two: 1, 1
    assert result["edge"] == -1 and result["outcome"] == "critical_failure"
    assert (result["hostage_dice"], result["hostage_damage"], result["hostage_health"]) == (
        [3],
        4,
        0,
    )
    assert result["strike_back"]["dice"] == [2]
    mental = attack(3, 3, 4, hostage_shield=True, attack_type="mental")
    assert mental["edge"] == 0


def test_an_area_attack_reports_who_the_target_is_engaged_with_cd_19() -> None:
    assert attack(3, 3, 4, area=True, engaged_with=["x"])["also_at_risk"] == ["x"]
    assert attack(3, 3, 4, engaged_with=["x"])["also_at_risk"] == []


def defend(*faces: int, **changes: Any) -> CheckOutcome:
    request = {
        "attack_type": "ranged",
        "stat_value": 3,
        "target_stat": 2,  # difficulty 7
        "damage_modifier": 1,
        "defender_health": 12,
        "defender_will": 5,
    } | changes
    return DEFENCE.roll(
        Asked(DEFENCE.parse(request), None, RULES.parse_settings(None)), scripted(*faces)
    )


def test_a_failed_defence_takes_a_die_and_a_critical_failure_one_more_cd_15() -> None:
    assert defend(2, 2).result["damage"] == 0  # 7 >= 7
    failed = defend(1, 2, 5).result
    assert (failed["damage_dice"], failed["damage"], failed["level"]) == ([5], 6, 6)
    fumbled = defend(1, 1, 5, 6).result
    assert (fumbled["damage_dice"], fumbled["damage"]) == ([5, 6], 12)
    mental = defend(1, 2, 5, attack_type="mental").result
    assert (mental["resource"], mental["level"]) == ("will", 0)


def test_the_action_check_rerolls_ordinary_failures_cd_6() -> None:
    request = ACTION.parse({"stat_value": 3, "difficulty": 10, "will_rerolls": 2})
    result = ACTION.roll(
        Asked(request, None, RULES.parse_settings(None)), scripted(2, 2, 3, 3, 4, 4)
    ).result
    assert (result["outcome"], result["will_spent"], result["rerolled_totals"]) == (
        "success",
        2,
        [7, 9],
    )


def test_combat_rolls_take_no_will_reroll_follow_up_cd_6() -> None:
    first = CheckOutcome({"outcome": "failure"}, 5, False)
    assert REROLL.allowed(ATTACK.parse(BASE), first) is not None
    assert REROLL.allowed(ACTION.parse({"stat_value": 1, "difficulty": 9}), first) is not None
