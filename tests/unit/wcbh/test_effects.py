"""Special effects: duration, adding up, defeat, shaking off, extending, ticking, Scenes closing,
and back in the fight (WCBH-35..39)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.effects import (
    Effect,
    add_effect,
    check_defeat,
    close_scene,
    come_back,
    drop_effect,
    effect_pages,
    extend_effect,
    shake_off,
    tick_page,
)


@pytest.mark.parametrize(
    ("net", "pages"), [(-1, 0), (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)]
)
def test_an_effect_lasts_a_page_per_two_net_successes_rounded_up_wcbh_35(
    net: int, pages: int
) -> None:
    assert effect_pages(net) == pages


def test_durations_of_several_attacks_add_up_wcbh_35() -> None:
    stun = add_effect(None, "stun", 3, 10)
    assert stun == Effect("stun", 2)
    assert add_effect(stun, "stun", 1, 10) == Effect("stun", 3)


def test_an_attack_without_net_successes_leaves_no_effect_wcbh_35() -> None:
    assert add_effect(None, "stun", 0, 10) is None


def test_an_effect_reaching_remaining_health_defeats_for_the_scene_wcbh_36() -> None:
    assert add_effect(None, "stun", 3, 3) == Effect("stun", 2)  # 2 < 3
    assert add_effect(None, "stun", 3, 2) == Effect("stun", 2, whole_scene=True)  # 2 >= 2


def test_defeat_by_effect_is_checked_again_when_health_drops_wcbh_36() -> None:
    stun = Effect("stun", 2)
    assert check_defeat(stun, 5) == stun
    assert check_defeat(stun, 2).whole_scene


def test_shaking_off_cuts_half_the_net_successes_rounded_up_wcbh_37() -> None:
    assert shake_off(Effect("stun", 5), 3) == Effect("stun", 3)
    assert shake_off(Effect("stun", 5), 0) == Effect("stun", 5)


def test_shaking_off_to_zero_frees_the_character_wcbh_37() -> None:
    assert shake_off(Effect("stun", 2), 4) is None
    assert shake_off(Effect("stun", 2), 5) is None


def test_an_effect_that_defeated_cannot_be_shaken_off_by_a_roll_ruling_wcbh_37() -> None:
    with pytest.raises(InvalidInput) as caught:
        shake_off(Effect("stun", 2, whole_scene=True), 6)
    assert caught.value.rule == "WCBH-36"


def test_a_new_page_ticks_page_effects_but_not_scene_long_ones_wcbh_35() -> None:
    effects = {
        "stun": Effect("stun", 2),
        "snare": Effect("snare", 1),
        "frozen": Effect("frozen", 1, whole_scene=True),
    }
    assert tick_page(effects) == {
        "stun": Effect("stun", 1),
        "frozen": Effect("frozen", 1, whole_scene=True),
    }


def test_closing_the_scene_ends_effects_except_extended_ones_wcbh_36() -> None:
    frozen = extend_effect(Effect("frozen", 1, whole_scene=True))
    effects = {
        "stun": Effect("stun", 4),
        "sleep": Effect("sleep", 3, whole_scene=True),
        "frozen": frozen,
    }
    assert close_scene(effects) == {"frozen": Effect("frozen", 1, whole_scene=True)}


def test_resolve_extends_an_effect_on_a_defeated_opponent_scene_by_scene_wcbh_38() -> None:
    frozen = Effect("frozen", 1, whole_scene=True)
    extended = extend_effect(frozen)
    assert extended.extra_scenes == 1
    with pytest.raises(InvalidInput) as caught:
        extend_effect(extended)  # already bought in this Scene
    assert caught.value.rule == "WCBH-38"
    next_scene = close_scene({"frozen": extended})["frozen"]
    assert extend_effect(next_scene).extra_scenes == 1  # again in the next Scene
    assert close_scene(close_scene({"frozen": extended})) == {}


def test_only_an_effect_that_defeated_its_target_can_be_extended_wcbh_38() -> None:
    with pytest.raises(InvalidInput) as caught:
        extend_effect(Effect("stun", 3))
    assert caught.value.rule == "WCBH-38"


def test_a_defeated_character_comes_back_with_three_health_next_page_wcbh_39() -> None:
    assert come_back(0, 8, defeated_on_page=3, page=4, used_this_scene=False) == 3
    assert come_back(0, 2, defeated_on_page=3, page=4, used_this_scene=False) == 2


@pytest.mark.parametrize(
    ("health", "page", "used"),
    [(0, 4, True), (0, 5, False), (0, 3, False), (2, 4, False)],
)
def test_coming_back_is_once_per_scene_on_the_next_page_after_defeat_wcbh_39(
    health: int, page: int, used: bool
) -> None:
    with pytest.raises(InvalidInput) as caught:
        come_back(health, 8, defeated_on_page=3, page=page, used_this_scene=used)
    assert caught.value.rule == "WCBH-39"


def test_resolve_drops_a_special_effect_once_per_scene_wcbh_39() -> None:
    effects = {"stun": Effect("stun", 2), "sleep": Effect("sleep", 1, whole_scene=True)}
    assert drop_effect(effects, "sleep", used_this_scene=False) == {"stun": Effect("stun", 2)}
    with pytest.raises(InvalidInput) as caught:
        drop_effect(effects, "sleep", used_this_scene=True)
    assert caught.value.rule == "WCBH-39"
    with pytest.raises(InvalidInput):
        drop_effect(effects, "poison", used_this_scene=False)


# ---- status follows Health (issue #15: a healed hero stayed defeated) --------------------------


def test_health_back_above_zero_ends_a_defeat_by_damage_wcbh_31() -> None:
    from systems.wcbh.rules.effects import status_for_health

    assert status_for_health("defeated", 2, {}) == "active"
    assert status_for_health("active", 0, {}) == "defeated"
    assert status_for_health("active", 3, {}) is None
    assert status_for_health("defeated", 0, {}) is None


def test_an_effect_that_defeated_the_character_keeps_it_down_whatever_its_health_wcbh_36() -> None:
    from systems.wcbh.rules.effects import status_for_health

    held = {"Stunned": {"pages": 4, "whole_scene": True}}
    assert status_for_health("defeated", 5, held) is None
    assert status_for_health("defeated", 5, {"Slowed": {"pages": 1, "whole_scene": False}}) == (
        "active"
    )
    assert status_for_health("unconscious", 5, {}) is None  # a last gasp's lasts (WCBH-19)


def test_damage_that_brings_health_down_to_an_effects_pages_defeats_by_it_wcbh_36() -> None:
    from systems.wcbh.rules.effects import defeating_effects

    effects = {"Stunned": {"pages": 3, "whole_scene": False}, "Slowed": {"pages": 1}}
    assert defeating_effects(effects, 4) == []
    assert defeating_effects(effects, 3) == ["Stunned"]
    assert defeating_effects(effects, 1) == ["Stunned", "Slowed"]
    assert defeating_effects({"Held": {"pages": 9, "whole_scene": True}}, 1) == []  # already
    assert defeating_effects(effects, 0) == []  # the damage defeated it (WCBH-31, ruling)
