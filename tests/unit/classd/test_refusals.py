"""What Class D combat commands refuse from the rules, the sheets and the round alone (CD-1,
CD-6, CD-10, CD-13..CD-20): pure, no store."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, DomainError, Forbidden, InvalidInput
from systems.classd.rules import combat, refusals
from systems.classd.rules.sheet import ClassdSheet, Feature

BASE = {"might": 2, "speed": 3, "spirit": 2, "health": 20, "will": 2}


def sheet(**fields: Any) -> ClassdSheet:
    return ClassdSheet.model_validate(BASE | fields)


def refusal(kind: type[DomainError], check: Any, *args: Any) -> DomainError:
    with pytest.raises(kind) as caught:
        check(*args)
    return caught.value


def test_a_hero_is_on_the_heroes_side_and_a_villain_has_a_rank_cd_1() -> None:
    refusals.check_side("Nova", "hero", sheet(), "hero", "attacker_id")
    refusals.check_side("Goon", "villain", sheet(rank="minion"), "villain", "target_id")
    no_hero = refusal(InvalidInput, refusals.check_side, "Goon", "villain", sheet(), "hero", "f")
    assert (no_hero.rule, no_hero.field) == ("CD-1", "f")
    unranked = refusal(InvalidInput, refusals.check_side, "X", "villain", sheet(), "villain", "f")
    assert "no villain with a rank" in unranked.message


def test_who_is_out_of_action_fights_no_more() -> None:
    refusals.check_active("Nova", "active", "hero_id")
    out = refusal(Conflict, refusals.check_active, "Nova", "defeated", "hero_id")
    assert (out.code, out.field) == ("out_of_action", "hero_id")


def test_will_rerolls_are_at_most_the_will_a_hero_has_cd_6() -> None:
    refusals.check_will_rerolls("Nova", 2, 2)
    short = refusal(Conflict, refusals.check_will_rerolls, "Nova", 2, 3)
    assert (short.code, short.rule, short.details["have"]) == ("not_enough_will", "CD-6", 2)


def test_an_attack_is_made_with_a_feature_of_its_type_cd_10() -> None:
    sling = Feature.model_validate({"name": "Sling", "attack": "ranged", "damage": 1})
    assert refusals.feature_used("Nova", [sling], None, "ranged") is None
    assert refusals.feature_used("Nova", [sling], "Sling", "ranged") == sling
    assert refusal(InvalidInput, refusals.feature_used, "N", [sling], "Fist", "melee").field == (
        "using"
    )
    assert refusal(InvalidInput, refusals.feature_used, "N", [sling], "Sling", "melee").rule == (
        "CD-10"
    )


def test_a_ranged_attack_needs_a_ranged_weapon_or_a_ranged_power_and_will_cd_10() -> None:
    bolt = {"name": "Bolt", "attack": "ranged", "damage": 2}
    none = refusal(Conflict, refusals.ranged_means, "Nova", sheet(), 2, None)
    assert (none.code, none.field) == ("no_ranged_attack", "attack_type")
    with_power = sheet(powers=[bolt])
    assert refusals.ranged_means("Nova", with_power, 1, None).name == "Bolt"
    assert refusal(Conflict, refusals.ranged_means, "Nova", with_power, 0, None).rule == "CD-10"
    with_gear = sheet(gear=[bolt])
    assert refusals.ranged_means("Nova", with_gear, 0, None).name == "Bolt"  # a weapon needs none


def test_overflow_moves_to_another_villain_of_a_rank_not_higher_cd_13() -> None:
    refusals.check_overflow_other("a", "b")
    assert refusal(InvalidInput, refusals.check_overflow_other, "a", "a").rule == "CD-13"
    refusals.check_overflow_rank("boss", "Goon", "minion")
    higher = refusal(InvalidInput, refusals.check_overflow_rank, "minion", "Big", "boss")
    assert (higher.field, higher.rule) == ("overflow_target_id", "CD-13")


@pytest.mark.parametrize(
    ("side", "action", "rule"),
    [("hero", "power", None), ("hero", "flee", "CD-9"), ("villain", "item", "CD-15")],
)
def test_actions_without_a_roll_by_side_cd_9_cd_15(side: str, action: str, rule: str) -> None:
    if rule is None:
        refusals.check_action_kind(side, action)
    else:
        assert refusal(InvalidInput, refusals.check_action_kind, side, action).rule == rule


def test_an_item_used_is_in_the_gear_and_a_power_used_among_the_powers_cd_9() -> None:
    sheet = ClassdSheet.model_validate(
        {
            "might": 1,
            "speed": 1,
            "spirit": 1,
            "health": 5,
            "will": 1,
            "gear": [{"name": "Sling", "attack": "ranged", "damage": 1}],
            "powers": [{"name": "Blink"}],
        }
    )
    refusals.check_has_feature("Nova", sheet, "item", "Sling")
    refusals.check_has_feature("Nova", sheet, "power", "Blink")
    refusals.check_has_feature("Nova", sheet, "item", None)
    refusals.check_has_feature("Vile", sheet, "special", "Blink")
    for action, feature in (("item", "Rope"), ("item", "Blink"), ("power", "Sling")):
        error = refusal(InvalidInput, refusals.check_has_feature, "N", sheet, action, feature)
        assert (error.field, error.rule) == ("feature", "CD-9")


def test_a_retreat_names_its_pursuers_and_the_hero_never_covers_itself_cd_14() -> None:
    refusals.check_retreat("h", ["v"], ["a"])
    assert refusal(InvalidInput, refusals.check_retreat, "h", ["v"], ["h"]).field == (
        "covering_ids"
    )
    assert refusal(InvalidInput, refusals.check_retreat, "h", [], []).rule == "CD-14"


def test_a_hero_stops_a_fleeing_villain_once_a_turn_cd_16() -> None:
    state = combat.apply(None, 1, "acted", {"character_id": "v", "action": "flee", "free": False})
    assert refusal(Conflict, refusals.check_stop, state, ("h", "N"), ("w", "W")).code == (
        "not_fleeing"
    )
    refusals.check_stop(state, ("h", "N"), ("v", "V"))
    tried = combat.apply(
        state, 1, "stop_attempted", {"character_id": "h", "villain_id": "v", "stopped": False}
    )
    used = refusal(Conflict, refusals.check_stop, tried, ("h", "N"), ("v", "V"))
    assert (used.code, used.details) == ("stop_used", {"villain_id": "v"})


def test_a_move_rolls_speed_or_might_and_only_the_gm_makes_it_free_cd_18() -> None:
    refusals.check_move("might", False, True)
    assert refusal(Forbidden, refusals.check_move, "speed", False, False).field == "takes_action"
    assert refusal(InvalidInput, refusals.check_move, "spirit", True, False).field == "stat"


def test_a_hostage_is_named_and_a_villain_lets_go_only_of_one_it_holds_cd_20() -> None:
    state = combat.fresh(1)
    assert refusal(Conflict, refusals.check_release, state, "v", "Boss").code == "no_hostage"
    held = combat.apply(
        state, 1, "shield_changed", {"character_id": "v", "hostage_id": None, "hostage": "Mo"}
    )
    refusals.check_release(held, "v", "Boss")
    refusals.check_hostage("v", None, "the mayor")
    assert refusal(InvalidInput, refusals.check_hostage, "v", "v", "Boss").field == "hostage_id"
    assert refusal(InvalidInput, refusals.check_hostage, "v", None, None).rule == "CD-20"


def test_a_mission_rests_as_many_characters_as_the_class_d_rest_check_takes_cd_22() -> None:
    # Missions are shared and cap a rest themselves; the Class D check must take that many.
    from domain.missions import MAX_RESTING
    from domain.rulesets import get_ruleset
    from systems.classd.rules.rest import MAX_PARTICIPANTS

    assert get_ruleset("classd").mission_rest == "rest"
    assert MAX_RESTING == MAX_PARTICIPANTS
