"""The refusals of scene play and the Resolve area, decided in pure code (no store, no HTTP)."""

from __future__ import annotations

import pytest

import domain.rulesets  # noqa: F401  (first: importing a system's rules first is an import cycle)
from domain.errors import Conflict, Forbidden, InvalidInput
from systems.wcbh.rules import resolve, scene_play
from systems.wcbh.rules.effects import Effect


def test_help_needs_one_to_ten_other_distinct_helpers_wcbh_10() -> None:
    scene_play.check_helpers(["b", "c"], "a")
    for helpers in ([], ["b"] * 11, ["b", "b"], ["a"]):
        with pytest.raises(InvalidInput) as refused:
            scene_play.check_helpers(helpers, "a")
        assert (refused.value.field, refused.value.rule) == ("helpers", "WCBH-10")


def test_a_player_starts_a_group_thing_only_with_an_own_character_in_it() -> None:
    scene_play.check_starter(is_gm=True, is_player=False, owns_one=False)
    scene_play.check_starter(is_gm=False, is_player=True, owns_one=True)
    with pytest.raises(Forbidden):
        scene_play.check_starter(is_gm=False, is_player=True, owns_one=False)
    with pytest.raises(Forbidden):
        scene_play.check_starter(is_gm=False, is_player=False, owns_one=True)  # an observer


def test_a_group_roll_is_at_the_groups_difficulty_wcbh_11() -> None:
    scene_play.check_group_difficulty(None, {"difficulty": 2})
    scene_play.check_group_difficulty(2, {"difficulty": 2})
    with pytest.raises(InvalidInput) as refused:
        scene_play.check_group_difficulty(1, {"difficulty": 2})
    assert refused.value.field == "request.difficulty"


def test_a_chase_check_on_foot_against_a_faster_power_rolls_agility_only_wcbh_27() -> None:
    scene_play.check_chase_check(-1, "agility", on_foot=True)
    scene_play.check_chase_check(None, "Flight", on_foot=False)
    with pytest.raises(InvalidInput) as refused:
        scene_play.check_chase_check(None, "Flight", on_foot=True)
    assert refused.value.field == "request.trait"
    with pytest.raises(InvalidInput) as refused:
        scene_play.check_chase_check(2, "Agility", on_foot=False)
    assert refused.value.field == "shift"


def test_recovery_and_coming_back_are_once_per_scene_wcbh_34_39() -> None:
    scene_play.check_once_in_scene(False, "Nova", "recovery")
    for use, rule in (("recovery", "WCBH-34"), ("back_in_the_fight", "WCBH-39")):
        with pytest.raises(Conflict) as refused:
            scene_play.check_once_in_scene(True, "Nova", use)
        assert (refused.value.code, refused.value.rule) == ("once_per_scene", rule)


def test_an_effect_that_defeated_its_target_is_not_shaken_off_wcbh_36() -> None:
    effects = {"Stunned": {"pages": 2}, "Frozen": {"pages": 1, "whole_scene": True}}
    assert scene_play.effect_on(effects, "Stunned", "Nova") == Effect("Stunned", 2)
    scene_play.check_shakeable(scene_play.effect_on(effects, "Stunned", "Nova"), "Nova")
    with pytest.raises(Conflict) as refused:
        scene_play.check_shakeable(scene_play.effect_on(effects, "Frozen", "Nova"), "Nova")
    assert refused.value.code == "effect_defeated"
    with pytest.raises(Conflict) as refused:
        scene_play.effect_on(effects, "Blinded", "Nova")
    assert refused.value.code == "no_such_effect"


def test_an_effect_is_extended_on_a_defeated_opponent_only_wcbh_38() -> None:
    scene_play.check_opponent(False)
    scene_play.check_defeated(True, "Dr. Null")
    with pytest.raises(InvalidInput):
        scene_play.check_opponent(True)
    with pytest.raises(Conflict) as refused:
        scene_play.check_defeated(False, "Dr. Null")
    assert refused.value.code == "target_not_defeated"


def test_coming_back_is_on_the_page_after_a_defeat_by_damage_in_its_scene_wcbh_39() -> None:
    at = {"scene_id": "s", "page": 3}
    args = {"defeated": True, "health": 0, "defeated_at": at, "scene_id": "s"}
    assert scene_play.check_come_back("Nova", **args, page=4) == 3
    with pytest.raises(Conflict) as refused:
        scene_play.check_come_back("Nova", **args, page=5)
    assert refused.value.code == "wrong_page"
    with pytest.raises(Conflict) as refused:
        scene_play.check_come_back("Nova", **{**args, "health": 1}, page=4)
    assert refused.value.code == "not_defeated"
    scene_play.check_use("come_back", None)
    scene_play.check_use("drop_effect", "Stunned")
    for use, effect in (("come_back", "Stunned"), ("drop_effect", None), ("nap", None)):
        with pytest.raises(InvalidInput):
            scene_play.check_use(use, effect)


def test_resolve_goes_to_another_character_with_resolve_and_afar_with_a_flashback_wcbh_20a() -> (
    None
):
    resolve.check_gift(to_self=False, receiver_side="hero", directly=True, flashback=False)
    resolve.check_gift(to_self=False, receiver_side="hero", directly=False, flashback=True)
    cases = [
        ({"to_self": True}, "receiver_id"),
        ({"receiver_side": "minion"}, "receiver_id"),
        ({"flashback": True}, "flashback"),
        ({"directly": False}, "flashback"),
    ]
    for change, field in cases:
        gift = {"to_self": False, "receiver_side": "hero", "directly": True, "flashback": False}
        with pytest.raises(InvalidInput) as refused:
            resolve.check_gift(**(gift | change))  # type: ignore[arg-type]
        assert refused.value.field == field


def test_the_resolve_areas_other_refusals_wcbh_19_21() -> None:
    assert resolve.text("  luck ", "detail") == "luck"
    with pytest.raises(InvalidInput):
        resolve.text("  ", "detail")
    with pytest.raises(Conflict) as refused:
        resolve.check_awake(True, "Nova", "imitate a Power")
    assert refused.value.code == "unconscious"
    with pytest.raises(InvalidInput):
        resolve.check_not_known(["Flight"], "flight", "Nova")
    resolve.check_scene_pool("adversity", ["adversity"])
    with pytest.raises(InvalidInput):
        resolve.check_scene_pool("doom", ["adversity"])
    resolve.check_villain("villain", "Dr. Null")
    with pytest.raises(InvalidInput):
        resolve.check_villain("hero", "Nova")
    with pytest.raises(InvalidInput):
        resolve.check_same_issue(False)
    assert resolve.ability_name("will", ["Agility", "Will"]) == "Will"
    assert resolve.owed_loss("mental", "s")["options"] == ["Intelligence", "Perception", "Will"]


def test_scene_play_rolls_a_named_trait_and_minions_have_no_abilities_wcbh_3() -> None:
    scene_play.check_trait_named("Agility", None)
    for trait, pool in ((None, None), ("Agility", 4)):
        with pytest.raises(InvalidInput) as refused:
            scene_play.check_trait_named(trait, pool)
        assert refused.value.field == "request.trait"
    with pytest.raises(InvalidInput) as refused:
        resolve.with_abilities(object(), "a minion has no Abilities", "ability", "WCBH-16")
    assert (refused.value.field, refused.value.rule) == ("ability", "WCBH-16")
