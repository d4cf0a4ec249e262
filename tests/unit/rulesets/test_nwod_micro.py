"""nWoD micro: Affinities, parameters, speeds, shields and armour, weapon classes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset

NWOD = get_ruleset("nwod-micro")
SETTINGS = NWOD.parse_settings(None)


def character(**fields: Any) -> dict[str, Any]:
    base = {
        "affinities": {"INT": 3, "ELG": 2, "VIO": 4},
        "health": 7,
        "will_power": 2,
        "defense": 1,
        "speed": 4,
    }
    return base | fields


def derived(sheet: dict[str, Any], side: str = "hero") -> dict[str, Any]:
    return NWOD.derived_stats(NWOD.parse_sheet(sheet, SETTINGS, side=side), SETTINGS)


def refusal(sheet: Any) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        NWOD.parse_sheet(sheet, SETTINGS, side="hero")
    return caught.value


def test_speed_is_walk_x_run_2x_sprint_3x_nw_2() -> None:
    assert derived(character(speed=6))["speed"] == {"walk": 6, "run": 12, "sprint": 18}


def test_initiative_bonus_is_intelligence_nw_14() -> None:
    assert derived(character(affinities={"INT": 5, "ELG": 1, "VIO": 1}))["initiative_bonus"] == 5


def test_a_shield_raises_defense_and_the_best_one_counts_nw_12() -> None:
    protection = [
        {"name": "Riot shield", "kind": "SLD", "rating": 2},
        {"name": "Buckler", "kind": "SLD", "rating": 1},
        {"name": "Vest", "kind": "ARM", "rating": 3},
    ]
    stats = derived(character(defense=2, protection=protection))
    assert (stats["defense"], stats["armor"]) == (4, 3)


def test_armor_is_the_best_arm_or_dur_rating_and_zero_without_nw_11() -> None:
    assert derived(character())["armor"] == 0
    protection = [
        {"name": "Hull", "kind": "DUR", "rating": 4},
        {"name": "Vest", "kind": "ARM", "rating": 1},
    ]
    assert derived(character(protection=protection))["armor"] == 4


def test_a_shield_heavier_than_medium_is_refused_nw_12() -> None:
    error = refusal(character(protection=[{"name": "Wall", "kind": "SLD", "rating": 3}]))
    assert (error.field, error.rule) == ("sheet.protection.0.rating", "NW-12")


@pytest.mark.parametrize(
    ("damage_class", "bonus"), [("common", 1), ("professional", 2), ("military", 3), ("heavy", 4)]
)
def test_weapon_class_sets_the_damage_bonus_nw_11(damage_class: str, bonus: int) -> None:
    weapon = {"name": "Gun", "damage_class": damage_class, "magazine": 15}
    assert derived(character(weapons=[weapon]))["weapons"] == [
        {
            "name": "Gun",
            "damage_class": damage_class,
            "damage_bonus": bonus,
            "magazine": 15,
            "spare_magazines": 0,
            "kind": "ranged",
        }
    ]


def test_spare_magazines_need_a_magazine_and_weapons_their_own_names_nw_16() -> None:
    knife = {"name": "Knife", "damage_class": "common", "spare_magazines": 1}
    error = refusal(character(weapons=[knife]))
    assert (error.field, error.rule) == ("sheet.weapons.0.spare_magazines", "NW-16")
    twins = [
        {"name": "Pistol", "damage_class": "common"},
        {"name": "pistol", "damage_class": "common"},
    ]
    error = refusal(character(weapons=twins))
    assert (error.field, error.rule) == ("sheet.weapons.1.name", "NW-16")


def test_a_weapon_attacks_as_its_sheet_says_else_ranged_with_a_magazine_nw_6() -> None:
    weapons = [
        {"name": "Rifle", "damage_class": "professional", "magazine": 30},
        {"name": "Club", "damage_class": "common"},
        {"name": "Grenade", "damage_class": "professional", "kind": "ranged"},
    ]
    kinds = [w["kind"] for w in derived(character(weapons=weapons))["weapons"]]
    assert kinds == ["ranged", "melee", "ranged"]


def test_a_professional_rifle_with_one_success_deals_three_nw_e3() -> None:
    weapon = {"name": "Rifle", "damage_class": "professional", "magazine": 30}
    assert 1 + derived(character(weapons=[weapon]))["weapons"][0]["damage_bonus"] == 3


def test_health_and_will_power_pools_come_from_the_sheet_nw_8_nw_9() -> None:
    sheet = NWOD.parse_sheet(character(health=9, will_power=0), SETTINGS, side="hero")
    assert NWOD.resources(sheet, SETTINGS) == {
        "health": {"max": 9, "start": 9, "refresh": "never"},
        "will_power": {"max": 0, "start": 0, "refresh": "never"},
    }


@pytest.mark.parametrize("side", ["hero", "villain", "opponent", "minion", "other"])
def test_every_side_uses_the_same_sheet(side: str) -> None:
    assert derived(character(), side=side)["initiative_bonus"] == 3


def test_a_missing_affinity_is_named_nw_1() -> None:
    error = refusal(character(affinities={"INT": 1, "ELG": 1}))
    assert (error.field, error.rule) == ("sheet.affinities.VIO", "NW-1")


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"affinities": {"INT": -1, "ELG": 1, "VIO": 1}}, "sheet.affinities.INT"),
        ({"affinities": {"INT": 1, "ELG": 1, "VIO": 1, "STR": 2}}, "sheet.affinities.STR"),
        ({"health": 0}, "sheet.health"),
        ({"defense": -1}, "sheet.defense"),
        ({"will_power": "3"}, "sheet.will_power"),
        (
            {"weapons": [{"name": "Laser", "damage_class": "sci-fi"}]},
            "sheet.weapons.0.damage_class",
        ),
        (
            {"weapons": [{"name": "Pistol", "damage_class": "common", "magazine": 0}]},
            "sheet.weapons.0.magazine",
        ),
        ({"merits": [{"name": "Lucky", "dice_modifier": 11}]}, "sheet.merits.0.dice_modifier"),
        ({"protection": [{"name": "Vest", "kind": "KEV", "rating": 1}]}, "sheet.protection.0.kind"),
    ],
)
def test_a_bad_value_is_refused_on_its_field(patch: dict[str, Any], field: str) -> None:
    assert refusal(character(**patch)).field == field


@given(
    pools=st.tuples(*[st.integers(0, 20)] * 3),
    defense=st.integers(0, 20),
    speed=st.integers(0, 100),
    shields=st.lists(st.integers(1, 2), max_size=3),
)
def test_derived_parameters_are_never_negative_nw_2(
    pools: tuple[int, int, int], defense: int, speed: int, shields: list[int]
) -> None:
    protection = [
        {"name": f"Shield {i}", "kind": "SLD", "rating": r} for i, r in enumerate(shields)
    ]
    sheet = character(
        affinities=dict(zip(("INT", "ELG", "VIO"), pools, strict=True)),
        defense=defense,
        speed=speed,
        protection=protection,
    )
    stats = derived(sheet)
    assert stats["defense"] == defense + max(shields, default=0)
    assert min(stats["speed"].values()) >= 0
    assert stats["armor"] == 0
