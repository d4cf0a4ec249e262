"""The fight's refusals that depend only on the rules and the state (systems/wcbh/rules/fight.py):
who may act and on whom, the page, attacks, maneuvers, ambushes, area and team attacks, and what
follows an attack roll (WCBH-25, 31, 35, 40..47). No store: each is asked directly."""

from __future__ import annotations

import pytest

from domain.errors import Conflict, DomainError, InvalidInput
from domain.rulesets import get_ruleset
from systems.wcbh.rules import fight as rules

RULESET = get_ruleset("wcbh")
SETTINGS = RULESET.parse_settings(None)
HERO = RULESET.parse_sheet(RULESET.example_sheet(), SETTINGS, side="hero")
MINION = RULESET.parse_sheet({"kind": "minion", "threat": 2}, SETTINGS, side="minion")


def _refusal(exc: pytest.ExceptionInfo[DomainError]) -> tuple[str | None, str | None]:
    return exc.value.field, exc.value.rule


def test_a_lost_turn_is_a_409_naming_the_rule_that_took_it_wcbh_25() -> None:
    rules.check_turn("Nova", False, None)
    with pytest.raises(Conflict) as exc:
        rules.check_turn("Nova", True, "WCBH-45")
    assert exc.value.code == "turn_lost" and _refusal(exc) == ("character_id", "WCBH-45")
    with pytest.raises(Conflict, match=r"\(WCBH-25\)"):
        rules.check_turn("Nova", True, None)


def test_the_defeated_neither_act_nor_are_attacked_wcbh_31() -> None:
    rules.check_in_the_fight("Nova", "active")
    rules.check_standing("Nova", "active", "target_id")
    with pytest.raises(Conflict) as acting:
        rules.check_in_the_fight("Nova", "defeated")
    assert acting.value.code == "defeated"
    with pytest.raises(Conflict) as target:
        rules.check_standing("Nova", "defeated", "club_id")
    assert target.value.code == "target_defeated" and _refusal(target) == ("club_id", "WCBH-31")


def test_a_club_or_a_defender_is_a_third_character_wcbh_44() -> None:
    rules.check_third("c", ("a", "t"), "club", "club_id")
    with pytest.raises(InvalidInput, match="the defender is a third") as exc:
        rules.check_third("t", ("a", "t"), "defender", "defender_id")
    assert exc.value.field == "defender_id"
    with pytest.raises(InvalidInput, match="itself"):
        rules.check_other("a", "a", "a character does not attack itself", "target_id")


@pytest.mark.parametrize(
    ("actions", "all_out", "rule"),
    [(0, False, "WCBH-25"), (11, False, "WCBH-25"), (2, True, "WCBH-44")],
)
def test_declared_actions_are_one_to_ten_and_all_out_defence_takes_none_wcbh_25_44(
    actions: int, all_out: bool, rule: str
) -> None:
    with pytest.raises(InvalidInput) as exc:
        rules.check_actions(actions, all_out)
    assert _refusal(exc) == ("actions", rule)
    rules.check_actions(rules.MAX_ACTIONS, False)
    rules.check_actions(1, True)


def test_actions_are_declared_before_the_first_action_of_the_page_wcbh_25_44() -> None:
    rules.check_first_action(0, True)
    with pytest.raises(Conflict) as exc:
        rules.check_first_action(1, True)
    assert exc.value.code == "page_action_refused" and exc.value.rule == "WCBH-44"


def test_held_characters_do_not_move_and_no_target_is_attacked_twice_a_page_wcbh_40_25() -> None:
    rules.check_not_held("Nova", {"grappled": {}})
    with pytest.raises(Conflict, match="held"):
        rules.check_not_held("Nova", {"held": {}})
    rules.check_already_attacked({"a"}, "b")
    with pytest.raises(InvalidInput) as exc:
        rules.check_already_attacked({"a"}, "a")
    assert _refusal(exc) == ("target", "WCBH-25")


def test_an_attack_is_a_charge_or_all_out_and_an_effect_hits_one_target_wcbh_44_35() -> None:
    rules.check_attack_options("charge", None, True)
    rules.check_attack_options(None, "Stunned", False)
    with pytest.raises(InvalidInput) as maneuver:
        rules.check_attack_options("dance", None, False)
    assert _refusal(maneuver) == ("maneuver", "WCBH-44")
    with pytest.raises(InvalidInput) as effect:
        rules.check_attack_options(None, "Stunned", True)
    assert effect.value.field == "effect"


def test_a_defender_defends_one_ally_a_page_with_the_kind_of_defence_it_names_wcbh_44() -> None:
    active = [{"name": "Agility", "active": True}]
    rules.check_guard("Bolt", False, active, True)
    with pytest.raises(Conflict, match="already defends"):
        rules.check_guard("Bolt", True, active, True)
    with pytest.raises(InvalidInput, match="no passive defence") as exc:
        rules.check_guard("Bolt", False, active, False)
    assert exc.value.field == "defender_active"


def test_ambushed_targets_lose_active_defences_and_a_redirect_keeps_only_them_wcbh_42_46() -> None:
    options = [{"name": "Agility", "active": True}, {"name": "Stamina", "active": False}]
    assert rules.defence_choices(options, passive_only=True, redirect_declared=False) == [
        options[1]
    ]
    assert rules.defence_choices(options, passive_only=False, redirect_declared=True) == [
        options[0]
    ]
    with pytest.raises(InvalidInput) as exc:
        rules.defence_choices(options, passive_only=True, redirect_declared=True)
    assert _refusal(exc) == ("redirect", "WCBH-46")


def test_a_grapple_aims_at_a_hold_or_a_weapon_wcbh_40() -> None:
    rules.check_aim("weapon")
    with pytest.raises(InvalidInput) as exc:
        rules.check_aim("hug")
    assert _refusal(exc) == ("aim", "WCBH-40")


def test_maneuvers_fill_their_traits_and_a_stunning_blow_names_its_own_wcbh_41() -> None:
    assert rules.maneuver_traits("taunt", None, None) == ("Charisma", "Will")
    assert rules.maneuver_traits("stunning_blow", "Strength", None) == ("Strength", "Agility")
    with pytest.raises(InvalidInput) as unnamed:
        rules.maneuver_traits("stunning_blow", None, None)
    assert _refusal(unnamed) == ("trait", "WCBH-41")
    with pytest.raises(InvalidInput) as unknown:
        rules.maneuver_traits("tickle", None, None)
    assert unknown.value.field == "maneuver"


def test_a_maneuver_rolls_its_traits_or_a_power_and_a_minion_its_threat_wcbh_41() -> None:
    rules.check_maneuver_traits("feint", HERO, "Agility", HERO, "Agility")
    rules.check_maneuver_traits("feint", HERO, "Lightning Bolt", MINION, "threat")
    with pytest.raises(InvalidInput) as exc:
        rules.check_maneuver_traits("feint", HERO, "Strength", HERO, "Agility")
    assert _refusal(exc) == ("trait", "WCBH-41")
    with pytest.raises(InvalidInput) as against:
        rules.check_maneuver_traits("taunt", HERO, "Charisma", HERO, "Agility")
    assert against.value.field == "against"


@pytest.mark.parametrize(
    ("ambushers", "targets", "field"),
    [
        ([], ["t"], "ambushers"),
        (["a"], [], "ambushers"),
        (["a", "a"], ["t"], "ambushers"),
        (["a"], ["a"], "target_ids"),
    ],
)
def test_an_ambush_needs_both_sides_each_ambusher_once_and_none_as_a_target_wcbh_42(
    ambushers: list[str], targets: list[str], field: str
) -> None:
    with pytest.raises(InvalidInput) as exc:
        rules.check_ambush_sides(ambushers, targets)
    assert exc.value.field == field
    rules.check_ambush_sides(["a", "b"], ["t", "t"])


def test_area_and_team_attacks_name_each_character_once_wcbh_43_47() -> None:
    rules.check_area_targets("a", ["t", "u"])
    for targets in ([], ["t", "t"], ["a"]):
        with pytest.raises(InvalidInput) as area:
            rules.check_area_targets("a", targets)
        assert _refusal(area) == ("targets", "WCBH-43")
    rules.check_not_in_team("t", ["a", "b"])
    rules.check_each_once(["a", "b"])
    with pytest.raises(InvalidInput, match="no attacker"):
        rules.check_not_in_team("t", ["a", "t"])
    with pytest.raises(InvalidInput, match="twice"):
        rules.check_each_once(["a", "a"])


def test_knockback_and_redirect_follow_plain_attack_rolls_on_a_named_target_wcbh_45_46() -> None:
    rules.check_attack_roll({"check": "attack", "follow_up": None}, ("attack",))
    for record in ({"check": "trait"}, {"check": "attack", "follow_up": "resolve_dice"}):
        with pytest.raises(Conflict) as exc:
            rules.check_attack_roll(record, ("attack",))
        assert exc.value.code == "not_an_attack"
    rules.check_redirectable({"target_id": "t"})
    with pytest.raises(Conflict, match="names no target"):
        rules.check_redirectable({"target_id": None})
    with pytest.raises(Conflict) as bashed:
        rules.check_redirectable({"target_id": "t", "club": {"character_id": "c"}})
    assert bashed.value.rule == "WCBH-46"
    rules.check_hits_object("weaker")
    with pytest.raises(InvalidInput):
        rules.check_hits_object("softer")


def test_an_attack_rolls_entry_is_its_targets_and_an_area_attacks_names_one_wcbh_43_45() -> None:
    plain = rules.entry_for("attack", {"target_id": "t"}, {"damage": 6}, None)
    assert plain == {"damage": 6, "target_id": "t"}
    with pytest.raises(InvalidInput, match="not the target"):
        rules.entry_for("attack", {"target_id": "t"}, {"damage": 6}, "u")
    area = {"targets": [{"target_id": "t", "damage": 1}, {"target_id": "u", "damage": 7}]}
    assert rules.entry_for("area_attack", {}, area, "u")["damage"] == 7
    with pytest.raises(InvalidInput, match="no target of this area attack"):
        rules.entry_for("area_attack", {}, area, None)
    one = {"targets": [{"target_id": "t", "damage": 2}]}
    assert rules.entry_for("area_attack", {}, one, None)["target_id"] == "t"


def test_the_page_rules_refusals_become_409s_keeping_field_and_rule() -> None:
    refused = rules.refused(InvalidInput("no", field="target", rule="WCBH-25"), "knockback_refused")
    assert isinstance(refused, Conflict)
    assert (refused.code, refused.field, refused.rule) == ("knockback_refused", "target", "WCBH-25")


def test_the_page_dice_are_the_servers_and_resolve_comes_before_a_knockback_wcbh_25_20b() -> None:
    rules.check_page_dice(-2, -2, "Nova")
    with pytest.raises(InvalidInput) as dice:
        rules.check_page_dice(0, -2, "Nova")
    assert dice.value.field == "request.page_modifier" and dice.value.details == {"expected": -2}
    rules.check_resolve_first(False)
    with pytest.raises(Conflict) as late:
        rules.check_resolve_first(True)
    assert (late.value.code, late.value.rule) == ("follow_up_refused", "WCBH-20b")


# ---- effects have consequences (issue #15: a paralysed villain still attacked and moved) --------


def test_an_effect_forbids_acting_moving_and_dodging_until_ruled_otherwise_wcbh_35_37() -> None:
    from systems.wcbh.rules.effects import effect_forbidding

    paralysed = {"Paralysed": {"pages": 2, "whole_scene": False}}
    for what in ("may_act", "may_move", "may_defend_actively"):
        assert effect_forbidding(paralysed, {}, what) == "Paralysed"
        assert effect_forbidding({}, {}, what) is None  # free once it is gone (WCBH-37)
    slowed = {"Paralysed": {"may_act": True, "may_move": False, "may_defend_actively": True}}
    assert effect_forbidding(paralysed, slowed, "may_act") is None
    assert effect_forbidding(paralysed, slowed, "may_move") == "Paralysed"
    with pytest.raises(Conflict) as exc:
        rules.check_free("Dr. Null", paralysed, {}, "may_act")
    assert exc.value.code == "under_effect" and _refusal(exc) == ("character_id", "WCBH-37")
    assert exc.value.details == {"effect": "Paralysed", "limit": "may_act"}
    rules.check_free("Dr. Null", paralysed, slowed, "may_act")


def test_a_weapon_taken_gives_no_weapon_dice_wcbh_40_41() -> None:
    rules.check_armed("Nova", {"taunt": {"loses_weapon": False}}, 3)
    rules.check_armed("Nova", {"disarmed": {"rule": "WCBH-40"}}, 0)  # unarmed: nothing to lose
    with pytest.raises(Conflict) as exc:
        rules.check_armed("Nova", {"disarmed": {"rule": "WCBH-40"}}, 2)
    assert _refusal(exc) == ("weapon", "WCBH-40")
    with pytest.raises(Conflict) as exc:
        rules.check_armed("Nova", {"stunning_blow": {"loses_weapon": True, "rule": "WCBH-41"}}, 1)
    assert _refusal(exc) == ("weapon", "WCBH-41")
