"""Nimble: attack dice syntax, Primary dice, Initiative, Wounds setting, monsters and groups."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset
from systems.nimble.rules.attack_dice import AttackDice, DiceTerm, parse_attack_dice

NIMBLE = get_ruleset("nimble")


def hero(**fields: Any) -> dict[str, Any]:
    base = {"stats": {"STR": 1, "DEX": 2, "INT": 0, "WIL": 0}, "max_hp": 20}
    return base | fields


def monster(**fields: Any) -> dict[str, Any]:
    return {"kind": "monster", "hp": 8, "attacks": [{"name": "Bite", "dice": "1d6"}]} | fields


def parsed(sheet: dict[str, Any], side: str = "hero", **settings: Any) -> tuple[Any, Any]:
    parsed_settings = NIMBLE.parse_settings(settings)
    return NIMBLE.parse_sheet(sheet, parsed_settings, side=side), parsed_settings


def derived(sheet: dict[str, Any], side: str = "hero", **settings: Any) -> dict[str, Any]:
    return NIMBLE.derived_stats(*parsed(sheet, side, **settings))


def refusal(sheet: Any, side: str = "hero") -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        parsed(sheet, side)
    return caught.value


# -- attack dice -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d6+3", AttackDice((DiceTerm(2, 6),), 3)),
        ("d8", AttackDice((DiceTerm(1, 8),), 0)),
        ("1d8 + 2d6 - 1", AttackDice((DiceTerm(1, 8), DiceTerm(2, 6)), -1)),
        ("3+1D12", AttackDice((DiceTerm(1, 12),), 3)),
        ("5", AttackDice((), 5)),
    ],
)
def test_attack_dice_are_parsed_into_terms_and_a_modifier(text: str, expected: AttackDice) -> None:
    assert parse_attack_dice(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "2d6+", "+2d6", "2d", "d", "2x6", "1d6-1d4", "0d6", "101d6", "1d1", "1d101", "1d6+1000"],
)
def test_malformed_attack_dice_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_attack_dice(text)


@given(
    terms=st.lists(
        st.tuples(st.integers(1, 9), st.sampled_from([4, 6, 8, 10, 12, 20])), min_size=1, max_size=5
    ),
    modifier=st.integers(-50, 50),
)
def test_any_sum_of_dice_and_a_modifier_round_trips(
    terms: list[tuple[int, int]], modifier: int
) -> None:
    text = "+".join(f"{n}d{m}" for n, m in terms) + (f"{modifier:+d}" if modifier else "")
    dice = parse_attack_dice(text)
    assert dice.dice == tuple(DiceTerm(n, m) for n, m in terms)
    assert dice.modifier == modifier
    assert dice.primary_faces == terms[0][1]


def test_the_primary_die_is_the_leftmost_die_nb_9() -> None:
    sheet = hero(attacks=[{"name": "Combo", "dice": "2+1d10+2d6"}])
    assert derived(sheet)["attacks"] == [
        {"name": "Combo", "dice": "2+1d10+2d6", "primary_die": "d10"}
    ]


@pytest.mark.parametrize(
    "attack",
    [
        {"name": "Condemn", "dice": "6"},  # fixed damage (NB-14)
        {"name": "Chaos bolt", "dice": "1d66", "primary_die": False},  # d66 spell (NB-14)
        {"name": "Fireball", "dice": "3d6", "area": True},  # area attacks cannot miss (NB-11)
    ],
)
def test_attacks_without_a_primary_die_cannot_miss_or_crit_nb_11_nb_14(
    attack: dict[str, Any],
) -> None:
    assert derived(hero(attacks=[attack]))["attacks"][0]["primary_die"] is None


# -- derived stats and resources -------------------------------------------------------------


def test_initiative_bonus_is_dex_unless_the_sheet_gives_one_nb_1() -> None:
    assert derived(hero())["initiative_bonus"] == 2
    assert derived(hero(initiative_bonus=-1))["initiative_bonus"] == -1


@pytest.mark.parametrize("max_wounds", [2, 3, 4, 5, 6])
def test_max_wounds_follow_the_campaign_setting_nb_22(max_wounds: int) -> None:
    sheet, settings = parsed(hero(), max_wounds=max_wounds)
    assert NIMBLE.derived_stats(sheet, settings)["max_wounds"] == max_wounds
    assert NIMBLE.resources(sheet, settings)["wounds"] == {
        "max": max_wounds,
        "start": 0,
        "refresh": "rest",
    }


def test_a_hero_dies_at_six_wounds_by_default_nb_22() -> None:
    assert derived(hero())["max_wounds"] == 6


@pytest.mark.parametrize("max_wounds", [1, 7, "6"])
def test_max_wounds_outside_two_to_six_are_refused_nb_22(max_wounds: Any) -> None:
    with pytest.raises(InvalidInput) as caught:
        NIMBLE.parse_settings({"max_wounds": max_wounds})
    assert caught.value.field == "settings.max_wounds"


def test_hero_pools_start_full_and_wounds_start_at_zero_nb_20_nb_12() -> None:
    pools = NIMBLE.resources(*parsed(hero(max_hp=31, mana=4)))
    assert pools["hp"] == {"max": 31, "start": 31, "refresh": "rest"}
    assert pools["mana"] == {"max": 4, "start": 4, "refresh": "rest"}
    assert pools["temp_hp"] == {"max": None, "start": 0, "refresh": "rest"}


def test_a_monster_group_pools_hit_points_and_acts_together_nb_4() -> None:
    sheet, settings = parsed(monster(count=4, hp=7, armor=2), side="opponent")
    stats = NIMBLE.derived_stats(sheet, settings)
    assert (stats["group_size"], stats["armor"], stats["initiative_bonus"]) == (4, 2, None)
    assert stats["max_wounds"] is None
    pools = NIMBLE.resources(sheet, settings)
    assert pools["hp"] == {"max": 28, "start": 28, "refresh": "never"}
    assert pools["wounds"]["max"] == 0


# -- validation ------------------------------------------------------------------------------


def test_a_malformed_attack_is_refused_on_its_dice_field_nb_9() -> None:
    sheet = hero(attacks=[{"name": "Axe", "dice": "1d8"}, {"name": "Bow", "dice": "2d6+"}])
    error = refusal(sheet)
    assert (error.field, error.rule) == ("sheet.attacks.1.dice", "NB-9")
    assert "2d6+" in error.message


def test_a_missing_stat_is_named() -> None:
    sheet = hero()
    del sheet["stats"]["DEX"]
    assert refusal(sheet).field == "sheet.stats.DEX"


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"armor": -1}, "sheet.armor"),
        ({"max_hp": 0}, "sheet.max_hp"),
        ({"speed": "6"}, "sheet.speed"),
        ({"mana": -3}, "sheet.mana"),
        ({"skills": {"Might": 99}}, "sheet.skills.Might"),
        ({"level": 3}, "sheet.level"),
    ],
)
def test_a_bad_hero_value_is_refused_on_its_field(patch: dict[str, Any], field: str) -> None:
    assert refusal(hero(**patch)).field == field


def test_a_bad_monster_value_is_refused_on_its_field() -> None:
    error = refusal(monster(count=0, hp=-1), side="villain")
    assert {e["field"] for e in error.details["errors"]} == {"sheet.count", "sheet.hp"}


def test_a_hero_must_use_the_hero_form_nb_4() -> None:
    error = refusal(monster(), side="hero")
    assert (error.field, error.rule) == ("sheet.kind", "NB-4")


@pytest.mark.parametrize("side", ["villain", "opponent", "minion"])
def test_heroes_foes_must_use_the_monster_form_nb_4(side: str) -> None:
    assert refusal(hero(), side=side).field == "sheet.kind"


@pytest.mark.parametrize("sheet", [hero(), monster()])
def test_the_other_side_takes_either_form(sheet: dict[str, Any]) -> None:
    assert parsed(sheet, side="other")[0].kind == sheet.get("kind", "hero")


@given(
    dex=st.integers(-5, 20),
    armor=st.integers(0, 100),
    count=st.integers(1, 100),
    hp=st.integers(1, 99),
)
def test_derived_numbers_are_never_negative_except_initiative(
    dex: int, armor: int, count: int, hp: int
) -> None:
    hero_sheet = hero(stats={"STR": 0, "DEX": dex, "INT": 0, "WIL": 0}, armor=armor)
    stats = derived(hero_sheet)
    assert stats["initiative_bonus"] == dex
    assert stats["armor"] == armor >= 0
    pools = NIMBLE.resources(*parsed(monster(count=count, hp=hp), side="minion"))
    assert pools["hp"]["max"] == count * hp > 0
