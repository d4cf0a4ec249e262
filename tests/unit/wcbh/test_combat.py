"""A character's Page (WCBH-25), attack against the best defence, damage, minions and recovery
(WCBH-28..34), with scripted faces checked by hand."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.combat import (
    Defence,
    PageState,
    best_defence,
    hit,
    recover,
    roll_attack,
    roll_recovery,
    situational_modifier,
)
from tests.unit.checks.support import scripted

# -- WCBH-25 -----------------------------------------------------------------------------------


def test_each_extra_action_costs_two_dice_on_every_action_roll_wcbh_25() -> None:
    page = PageState("hero").declare_action().declare_action()  # three attacks
    assert page.action_penalty == -4
    assert page.dice_modifier(defence=False) == -4


def test_defence_rolls_are_not_penalised_by_extra_actions_wcbh_25() -> None:
    page = PageState("hero").declare_action()
    assert page.dice_modifier(defence=True) == 0


def test_one_action_without_extras_has_no_penalty_wcbh_25() -> None:
    assert PageState("hero").attack("thug").action_penalty == 0


def test_the_same_target_cannot_be_attacked_twice_in_a_page_wcbh_25() -> None:
    page = PageState("hero").declare_action().attack("thug")
    with pytest.raises(InvalidInput) as caught:
        page.attack("thug")
    assert (caught.value.rule, caught.value.field) == ("WCBH-25", "target")


def test_different_targets_may_each_be_attacked_with_declared_actions_wcbh_25() -> None:
    page = PageState("hero").declare_action().attack("thug").attack("boss")
    assert page.attacked == frozenset({"thug", "boss"})
    assert page.used == 2


def test_actions_beyond_those_declared_are_refused_wcbh_25() -> None:
    page = PageState("hero").attack("thug")
    with pytest.raises(InvalidInput) as caught:
        page.attack("boss")
    assert caught.value.rule == "WCBH-25"


def test_extra_actions_are_declared_before_the_first_action_wcbh_25() -> None:
    with pytest.raises(InvalidInput) as caught:
        PageState("hero").act().declare_action()
    assert caught.value.rule == "WCBH-25"


def test_only_one_move_per_page_wcbh_25() -> None:
    page = PageState("hero").move().attack("thug")
    assert page.moved
    with pytest.raises(InvalidInput) as caught:
        page.move()
    assert caught.value.rule == "WCBH-25"


def test_a_lost_turn_forbids_acting_and_moving_wcbh_25() -> None:
    page = PageState("hero", lost_turn=True)
    with pytest.raises(InvalidInput):
        page.attack("thug")
    with pytest.raises(InvalidInput):
        page.move()


# -- WCBH-28..31, 33 -----------------------------------------------------------------------------


def test_the_highest_defence_option_is_used_wcbh_28() -> None:
    options = [Defence("Agility", 5, active=True), Defence("Armour", 6, active=False)]
    assert best_defence(options) == Defence("Armour", 6, active=False)


def test_no_defence_at_all_is_refused_wcbh_28() -> None:
    with pytest.raises(InvalidInput) as caught:
        best_defence([])
    assert caught.value.rule == "WCBH-28"


def test_stamina_counts_half_rounded_up_against_lethal_attacks_wcbh_29() -> None:
    options = [Defence("Agility", 3, active=True), Defence("Stamina", 7, active=False)]
    assert best_defence(options, lethal=True) == Defence("Stamina", 4, active=False)
    assert best_defence(options, lethal=False) == Defence("Stamina", 7, active=False)


def test_armour_is_not_halved_against_lethal_attacks_wcbh_29() -> None:
    assert best_defence([Defence("Armour", 7, active=False)]).rank == 7


def test_a_halved_defence_is_halved_only_once_ruling_wcbh_29() -> None:
    stamina = [Defence("Stamina", 8, active=False)]
    assert best_defence(stamina, lethal=True, halve_passive=True).rank == 4


def test_cover_and_size_modify_the_attack_dice_wcbh_30() -> None:
    assert situational_modifier(cover=2, size="tenfold") == 1
    assert situational_modifier(size="double") == 1
    assert situational_modifier(size="half") == -1
    assert situational_modifier(cover=1, size="tenth") == -4


def test_cover_beyond_three_dice_is_refused_wcbh_30() -> None:
    with pytest.raises(InvalidInput) as caught:
        situational_modifier(cover=4)
    assert caught.value.rule == "WCBH-30"


def test_damage_is_attack_minus_defence_successes_when_positive_wcbh_31() -> None:
    result = hit(5, 2, 10)
    assert (result.net, result.damage, result.health, result.defeated) == (3, 3, 7, False)
    missed = hit(2, 5, 10)
    assert (missed.net, missed.damage, missed.health) == (-3, 0, 10)


def test_zero_health_is_defeat_wcbh_31() -> None:
    result = hit(6, 1, 5)
    assert (result.health, result.defeated) == (0, True)
    assert hit(6, 1, 3).health == 0  # never below 0


def test_one_net_success_defeats_a_minion_wcbh_33() -> None:
    assert hit(3, 2, 5, minion=True).defeated
    assert not hit(2, 2, 5, minion=True).defeated
    assert not hit(3, 2, 5).defeated  # a character with 5 Health takes 1


def test_an_attack_rolls_trait_and_weapon_against_the_best_defence_wcbh_28() -> None:
    # Attack: rank 3 + weapon 1 = 4 dice: 6, 4, 1, 2 -> 4 successes.
    # Defences: Agility 3 (active) vs Stamina 4 halved against a lethal attack -> Agility, 3 dice:
    # 2, 1, 3 -> 1 success. Damage 3: Health 5 -> 2.
    roller = scripted(6, 4, 1, 2, 2, 1, 3)
    result = roll_attack(
        roller,
        3,
        [Defence("Agility", 3, active=True), Defence("Stamina", 4, active=False)],
        5,
        weapon=1,
    )
    assert result.attack.successes == 4
    assert result.defence_used == Defence("Agility", 3, active=True)
    assert result.defence.successes == 1
    assert (result.hit.damage, result.hit.health) == (3, 2)
    assert len(roller.faces) == 7


def test_page_modifiers_reach_attack_and_defence_dice_wcbh_25() -> None:
    # Attack rank 4 with -2 for one extra action: 2 dice; defence 2 + 2 all-out: 4 dice.
    roller = scripted(2, 2, 1, 1, 1, 1)
    result = roll_attack(
        roller, 4, [Defence("Agility", 2, active=True)], 5, modifier=-2, defence_modifier=2
    )
    assert (result.attack.dice, result.defence.dice) == (2, 4)
    assert result.hit.damage == 2


# -- WCBH-34 -----------------------------------------------------------------------------------


def test_recovery_restores_one_health_per_net_success_at_difficulty_two_wcbh_34() -> None:
    # Stamina 4: 6, 4, 2, 1 -> 4 successes, net 2 at difficulty 2.
    rolled, health = roll_recovery(scripted(6, 4, 2, 1), 4, 3, 8)
    assert rolled.successes == 4
    assert health == 5


def test_a_whole_day_of_rest_lowers_recovery_difficulty_to_one_wcbh_34() -> None:
    assert recover(3, 8, 4, rested_whole_day=True) == 6


def test_recovery_never_goes_above_maximum_health_wcbh_34() -> None:
    assert recover(7, 8, 6) == 8
    assert recover(3, 8, 1) == 3  # a failed check restores nothing
