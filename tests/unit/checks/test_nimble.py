"""Nimble attacks (Primary die, crits, advantage, hasty attacks) and Initiative, scripted."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome
from tests.unit.checks.support import scripted, sheet_and_settings

RULES = RULESETS["nimble"]
ATTACK = RULES.checks["attack"]
INITIATIVE = RULES.checks["initiative"]
SHEET, SETTINGS = sheet_and_settings("nimble")  # Greataxe 1d12+2, Javelin 1d6+2, DEX 1


def attack(request: dict[str, Any], *faces: int, sheet: Any = SHEET) -> CheckOutcome:
    return ATTACK.roll(Asked(ATTACK.parse(request), sheet, SETTINGS), scripted(*faces))


def test_damage_is_the_total_rolled_nb_9() -> None:
    outcome = attack({"attack": "greataxe"}, 7)
    assert (outcome.result["damage"], outcome.score, outcome.success) == (9, 9, True)
    assert outcome.result["outcome"] == "hit"


def test_a_one_on_the_primary_die_misses_nb_9() -> None:
    outcome = attack({"dice": "2d6+3"}, 1, 6, sheet=None)
    assert (outcome.result["miss"], outcome.result["damage"], outcome.score) == (True, 0, 0)
    assert outcome.success is False


def test_only_the_leftmost_die_is_primary_nb_9() -> None:
    outcome = attack({"dice": "2d6"}, 3, 1, sheet=None)
    assert (outcome.result["miss"], outcome.result["damage"]) == (False, 4)


def test_the_primary_dies_maximum_crits_and_explodes_without_limit_nb_9() -> None:
    roller = scripted(6, 2, 6, 6, 3)
    outcome = ATTACK.roll(Asked(ATTACK.parse({"dice": "1d6+1d4"}), None, SETTINGS), roller)
    assert [f.sides for f in roller.faces] == [6, 4, 6, 6, 6]
    assert [f.exploded_from for f in roller.faces] == [None, None, 0, 2, 3]
    assert outcome.result["critical"] is True
    assert outcome.result["crit_dice"] == 3
    assert outcome.result["damage"] == 6 + 2 + 6 + 6 + 3


def test_other_dice_showing_their_maximum_do_not_crit_nb_9() -> None:
    outcome = attack({"dice": "2d6"}, 2, 6, sheet=None)
    assert (outcome.result["critical"], outcome.result["damage"]) == (False, 8)


def test_hasty_attacks_get_a_growing_step_of_disadvantage_nb_10() -> None:
    roller = scripted(9, 4, 10)
    outcome = ATTACK.roll(
        Asked(ATTACK.parse({"attack": "Greataxe", "attack_number": 3}), SHEET, SETTINGS), roller
    )
    assert outcome.result["edge"] == -2
    assert [f.kept for f in roller.faces] == [False, True, False]  # the highest two dropped
    assert outcome.result["damage"] == 4 + 2


def test_advantage_adds_a_die_and_drops_the_lowest_nb_11() -> None:
    roller = scripted(1, 5)
    outcome = ATTACK.roll(
        Asked(ATTACK.parse({"attack": "Javelin", "advantage": 1}), SHEET, SETTINGS), roller
    )
    assert [f.kept for f in roller.faces] == [False, True]
    assert (outcome.result["primary_face"], outcome.result["miss"]) == (5, False)
    assert outcome.result["damage"] == 7


def test_dropping_happens_before_the_primary_die_is_chosen_nb_11() -> None:
    # 2d8 with disadvantage: 8, 3, 5 -> the 8 is dropped; the Primary die is the 3.
    outcome = attack({"dice": "2d8", "disadvantage": 1}, 8, 3, 5, sheet=None)
    assert (outcome.result["primary_face"], outcome.result["critical"]) == (3, False)
    assert outcome.result["damage"] == 8


def test_equal_faces_drop_the_leftmost_first_nb_11() -> None:
    roller = scripted(4, 4, 9)
    ATTACK.roll(Asked(ATTACK.parse({"dice": "2d10", "advantage": 1}), None, SETTINGS), roller)
    assert [f.kept for f in roller.faces] == [False, True, True]


def test_advantage_and_disadvantage_cancel_step_for_step_nb_11() -> None:
    roller = scripted(5)
    outcome = ATTACK.roll(
        Asked(
            ATTACK.parse({"attack": "Javelin", "advantage": 2, "disadvantage": 2}), SHEET, SETTINGS
        ),
        roller,
    )
    assert len(roller.faces) == 1
    assert outcome.result["edge"] == 0


def test_area_attacks_cannot_miss_or_crit_nb_11() -> None:
    miss = attack({"dice": "2d6", "area": True}, 1, 2, sheet=None)
    assert (miss.result["miss"], miss.result["damage"], miss.success) == (False, 3, True)
    roller = scripted(6, 6)
    crit = ATTACK.roll(Asked(ATTACK.parse({"dice": "2d6", "area": True}), None, SETTINGS), roller)
    assert (crit.result["critical"], len(roller.faces)) == (False, 2)


def test_damage_never_goes_below_zero_ruling() -> None:
    assert attack({"dice": "1d4-3"}, 2, sheet=None).result["damage"] == 0


def test_an_attack_the_sheet_lacks_is_invalid_input() -> None:
    with pytest.raises(InvalidInput) as caught:
        attack({"attack": "Bow"})
    assert caught.value.field == "request.attack"


def test_bad_raw_dice_are_invalid_input_nb_9() -> None:
    with pytest.raises(InvalidInput) as caught:
        attack({"dice": "2d6-1d4"}, sheet=None)
    assert caught.value.field == "request.dice"


@pytest.mark.parametrize(
    ("natural", "bonus", "actions"),
    [(8, 1, 1), (9, 1, 2), (18, 1, 2), (19, 1, 3), (20, -5, 3), (1, -5, 1), (5, 5, 2)],
)
def test_initiative_total_gives_the_starting_actions_nb_1(
    natural: int, bonus: int, actions: int
) -> None:
    outcome = INITIATIVE.roll(
        Asked(INITIATIVE.parse({"bonus": bonus}), None, SETTINGS), scripted(natural)
    )
    assert (outcome.result["actions"], outcome.score, outcome.success) == (actions, actions, None)


def test_initiative_uses_the_sheets_bonus_nb_1() -> None:
    outcome = INITIATIVE.roll(Asked(INITIATIVE.parse({}), SHEET, SETTINGS), scripted(9))
    assert (outcome.result["bonus"], outcome.result["total"], outcome.score) == (1, 10, 2)


def test_initiative_with_advantage_keeps_the_higher_d20_nb_2() -> None:
    roller = scripted(3, 20)
    outcome = INITIATIVE.roll(
        Asked(INITIATIVE.parse({"bonus": 0, "advantage": 1}), None, SETTINGS), roller
    )
    assert (outcome.result["natural"], outcome.score) == (20, 3)


def test_initiative_odds_are_exact_nb_1() -> None:
    request = INITIATIVE.parse({"bonus": 0})
    outcome = INITIATIVE.roll(Asked(request, None, SETTINGS), scripted(12))
    odds = INITIATIVE.odds(Asked(request, None, SETTINGS), outcome)
    assert odds.success is None
    assert odds.at_least == pytest.approx(11 / 20)  # 10..20


def test_monsters_do_not_roll_initiative_nb_3() -> None:
    monster, settings = sheet_and_settings("nimble", {"kind": "monster", "hp": 10}, side="opponent")
    with pytest.raises(InvalidInput) as caught:
        INITIATIVE.roll(Asked(INITIATIVE.parse({}), monster, settings), scripted(10))
    assert caught.value.rule == "NB-3"
