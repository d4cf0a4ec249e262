"""Grappling, maneuvers, ambush, area attacks, charge, bashing, defending others, all-out attack and
defence, knockback, redirect and team attacks (WCBH-40..47), with scripted faces checked by hand."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.combat import Defence, PageState, best_defence
from systems.wcbh.rules.maneuvers import (
    ALL_OUT_BONUS,
    CHARGE_BONUS,
    AreaTarget,
    ManeuverEffect,
    ambush,
    area_attack,
    bash,
    charge_collision,
    defend_other,
    grapple,
    knockback,
    maneuver_effect,
    redirect,
    roll_team_attack,
    team_attack,
)
from tests.unit.checks.support import scripted

AGILITY = Defence("Agility", 4, active=True)


@pytest.mark.parametrize(
    ("strength", "defence", "outcome"),
    [(3, 3, "failed"), (2, 4, "failed"), (3, 2, "partial"), (4, 2, "partial"), (4, 1, "held")],
)
def test_grapple_by_net_successes_wcbh_40(strength: int, defence: int, outcome: str) -> None:
    assert grapple(strength, defence) == outcome


@pytest.mark.parametrize(
    ("net", "effect"),
    [
        (0, ManeuverEffect(0)),
        (-2, ManeuverEffect(-2)),
        (1, ManeuverEffect(1, penalty=-1, halve_speed=True)),
        (2, ManeuverEffect(2, penalty=-1, halve_speed=True)),
        (3, ManeuverEffect(3, penalty=-2, cannot_move=True, loses_weapon=True)),
        (4, ManeuverEffect(4, penalty=-2, cannot_move=True, loses_weapon=True)),
        (5, ManeuverEffect(5, penalty=-3, loses_turn=True)),
    ],
)
def test_maneuver_effects_by_net_successes_wcbh_41(net: int, effect: ManeuverEffect) -> None:
    assert maneuver_effect(net) == effect


def test_a_surprised_target_loses_the_first_page_unless_it_embellishes_wcbh_42() -> None:
    outcomes = ambush([4], {"guard": 1, "captain": 3, "boss": 4})
    guard, captain, boss = outcomes["guard"], outcomes["captain"], outcomes["boss"]
    assert (guard.surprised, guard.may_defend_actively) == (True, False)  # net 3
    assert (captain.surprised, captain.may_defend_actively) == (True, True)  # net 1
    assert (boss.surprised, boss.may_defend_actively) == (False, True)  # net 0


def test_a_group_ambush_is_as_good_as_its_worst_member_ruling_wcbh_42() -> None:
    assert ambush([6, 2], {"guard": 1})["guard"].net == 1


def test_an_ambush_needs_an_ambusher_wcbh_42() -> None:
    with pytest.raises(InvalidInput) as caught:
        ambush([], {"guard": 1})
    assert caught.value.rule == "WCBH-42"


def test_an_area_attack_is_one_roll_each_target_defending_separately_wcbh_43() -> None:
    # Attack 3 dice: 6, 4, 2 -> 4 successes.
    # dodger: Agility 4 halved -> 2 dice: 2, 1 -> 1; damage 3, Health 5 -> 2.
    # diver: skips its next turn for full Agility 4: 2, 2, 1, 1 -> 2; damage 2, Health 5 -> 3.
    # goon (minion, threat 2 as active defence) halved -> 1 die: 1 -> 0; one net success defeats.
    roller = scripted(6, 4, 2, 2, 1, 2, 2, 1, 1, 1)
    results, skipping = area_attack(
        roller,
        3,
        {
            "dodger": AreaTarget((AGILITY,), 5),
            "diver": AreaTarget((AGILITY,), 5, skip_turn=True),
            "goon": AreaTarget((Defence("threat", 2, active=True),), 1, minion=True),
        },
    )
    assert {name: r.attack.successes for name, r in results.items()} == dict.fromkeys(
        ("dodger", "diver", "goon"), 4
    )
    assert (results["dodger"].defence.dice, results["dodger"].hit.health) == (2, 2)
    assert (results["diver"].defence.dice, results["diver"].hit.health) == (4, 3)
    assert results["goon"].hit.defeated
    assert skipping == frozenset({"diver"})
    assert len(roller.faces) == 10  # the attack was rolled once


def test_a_charge_adds_two_dice_and_halves_the_chargers_active_defence_wcbh_44() -> None:
    assert CHARGE_BONUS == 2
    page = PageState("brick").charge("thug")
    assert page.attacked == frozenset({"thug"})
    assert (page.halve_active, page.halve_passive) == (True, False)
    assert best_defence([AGILITY], halve_active=page.halve_active).rank == 2


def test_charge_collision_damage_is_reduced_by_the_damage_dealt_wcbh_44() -> None:
    assert charge_collision(6, 2, 3) == 1
    assert charge_collision(6, 4, 3) == 0


def test_bashing_fails_for_both_if_the_first_target_dodges_all_damage_wcbh_44() -> None:
    first, second = bash(4, (5, True, 6), (0, 6))
    assert (first.damage, second.damage, second.health) == (0, 0, 6)


def test_bashing_hits_both_targets_separately_wcbh_44() -> None:
    first, second = bash(4, (5, False, 6), (1, 6))  # passive: the attack goes on
    assert (first.damage, second.damage, second.health) == (0, 3, 3)
    first, second = bash(4, (2, True, 6), (3, 6))
    assert (first.damage, second.damage) == (2, 1)


def test_defending_an_ally_actively_and_passively_wcbh_44() -> None:
    held = defend_other(4, 4, active=True, ally_health=5, defender_health=8)
    assert (held.ally.damage, held.defender) == (0, None)
    failed = defend_other(
        4, 2, active=True, ally_health=5, defender_health=8, ally_defence_successes=1
    )
    assert (failed.ally.damage, failed.ally.health) == (3, 2)
    shielded = defend_other(4, 1, active=False, ally_health=5, defender_health=8)
    assert shielded.ally.damage == 0
    assert shielded.defender is not None
    assert (shielded.defender.damage, shielded.defender.health) == (3, 5)


def test_all_out_attack_gives_two_dice_and_halves_both_defences_wcbh_44() -> None:
    assert ALL_OUT_BONUS == 2
    page = PageState("brute").all_out_attack("hero")
    options = [AGILITY, Defence("Armour", 6, active=False)]
    chosen = best_defence(options, halve_active=page.halve_active, halve_passive=page.halve_passive)
    assert chosen == Defence("Armour", 3, active=False)


def test_all_out_defence_gives_two_dice_and_forbids_actions_but_not_moving_wcbh_44() -> None:
    page = PageState("hero").defend_all_out()
    assert page.dice_modifier(defence=True) == 2
    assert page.move().moved
    with pytest.raises(InvalidInput) as caught:
        page.attack("thug")
    assert caught.value.rule == "WCBH-44"
    with pytest.raises(InvalidInput):
        PageState("hero").act().defend_all_out()


def test_knockback_throws_by_the_attack_rank_and_costs_the_next_turn_wcbh_45() -> None:
    thrown = knockback(6, 8)
    assert (thrown.distance, thrown.extra_damage, thrown.loses_next_turn) == ("far", 0, True)
    assert knockback(7, 14).distance == "extreme"


def test_knockback_into_an_object_deals_half_the_damage_again_wcbh_45() -> None:
    assert knockback(7, 8, hits_object="sturdier").extra_damage == 4
    through = knockback(6, 8, hits_object="weaker")
    assert (through.extra_damage, through.smashed_through) == (3, True)


def test_knockback_needs_six_damage_wcbh_45() -> None:
    with pytest.raises(InvalidInput) as caught:
        knockback(5, 8)
    assert caught.value.rule == "WCBH-45"


def test_redirect_needs_an_active_defence_beating_the_attack_by_three_wcbh_46() -> None:
    behind = redirect(2, 5, AGILITY, declared_before_defence=True)
    assert (behind.loses_next_turn, behind.new_target_defends) == (False, False)
    at_thug = redirect(2, 5, AGILITY, declared_before_defence=True, at_someone=True)
    assert (at_thug.loses_next_turn, at_thug.new_target_defends) == (True, True)


@pytest.mark.parametrize(
    ("defence_successes", "defence", "declared"),
    [
        (4, AGILITY, True),  # beats by 2
        (5, Defence("Armour", 6, active=False), True),
        (5, AGILITY, False),
    ],
)
def test_redirect_is_refused_otherwise_wcbh_46(
    defence_successes: int, defence: Defence, declared: bool
) -> None:
    with pytest.raises(InvalidInput) as caught:
        redirect(2, defence_successes, defence, declared_before_defence=declared)
    assert caught.value.rule == "WCBH-46"


def test_a_team_attack_needs_two_attackers_once_per_battle_wcbh_47() -> None:
    with pytest.raises(InvalidInput) as caught:
        team_attack("boss", ["a", "a"])
    assert caught.value.rule == "WCBH-47"
    with pytest.raises(InvalidInput) as caught:
        team_attack("boss", ["a", "b"], teamed_this_battle=["b"])
    assert caught.value.rule == "WCBH-47"
    again = team_attack("boss", ["a", "b"], teamed_this_battle=["b"], gm_allows_again=True)
    assert again.attackers == ("a", "b")


def test_only_team_members_power_up_a_team_attack_wcbh_47() -> None:
    with pytest.raises(InvalidInput) as caught:
        team_attack("boss", ["a", "b"], exploding=["c"])
    assert caught.value.rule == "WCBH-47"
    team = team_attack("boss", ["a", "b"], exploding=["a"])
    assert (team.resolve_cost("a"), team.resolve_cost("b")) == (1, 0)


def test_team_attackers_get_two_dice_and_resolve_makes_sixes_explode_wcbh_47() -> None:
    # a (rank 1 + 2, powered): 6, 1, 1, then the 6 explodes: 6, which explodes: 2 -> 5 successes;
    # boss defends with Agility 2: 1, 1 -> 0; damage 5, Health 8 -> 3.
    # b (rank 1 + 2): 6, 1, 1 -> 2, no explosion; boss: 2, 1 -> 1; damage 1, Health 3 -> 2.
    team = team_attack("boss", ["a", "b"], exploding=["a"])
    roller = scripted(6, 1, 1, 6, 2, 1, 1, 6, 1, 1, 2, 1)
    results = roll_team_attack(roller, team, {"a": 1, "b": 1}, [Defence("Agility", 2, True)], 8)
    assert (results["a"].attack.dice, results["a"].attack.successes) == (3, 5)
    assert results["a"].attack.faces == (6, 1, 1, 6, 2)
    assert (results["a"].hit.damage, results["a"].hit.health) == (5, 3)
    assert results["b"].attack.faces == (6, 1, 1)
    assert (results["b"].hit.damage, results["b"].hit.health) == (1, 2)
