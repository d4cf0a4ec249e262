"""We Can Be Heroes: sheet validation, the Trait Limit, Health, Edge and Starting Resolve."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

WCBH = get_ruleset("wcbh")


ABILITIES = ("Agility", "Strength", "Stamina", "Intelligence", "Perception", "Will")


def hero(base: int = 3, **abilities: Any) -> dict[str, Any]:
    """A plain character with every Ability at ``base`` unless given."""
    return {"abilities": dict.fromkeys(ABILITIES, base) | abilities}


def derived(sheet: dict[str, Any], **settings: Any) -> dict[str, Any]:
    parsed_settings = WCBH.parse_settings(settings)
    return WCBH.derived_stats(
        WCBH.parse_sheet(sheet, parsed_settings, side="hero"), parsed_settings
    )


def refusal(sheet: Any, side: str = "hero", **settings: Any) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        WCBH.parse_sheet(sheet, WCBH.parse_settings(settings), side=side)
    return caught.value


# -- derived stats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stamina", "strength", "will", "expected"),
    [
        (4, 4, 2, 4),  # avg(4, 4) = 4 beats avg(4, 2) = 3
        (4, 2, 6, 5),  # avg(4, 6) = 5 beats avg(4, 2) = 3
        (5, 2, 4, 5),  # 4.5 rounds up to 5
        (3, 6, 1, 5),  # 4.5 rounds up to 5
        (1, 1, 1, 1),
    ],
)
def test_health_is_max_of_averages_rounded_up_wcbh_32(
    stamina: int, strength: int, will: int, expected: int
) -> None:
    sheet = hero(Stamina=stamina, Strength=strength, Will=will)
    assert derived(sheet)["health"] == expected


def test_half_of_an_odd_total_rounds_up_wcbh_5() -> None:
    assert derived(hero(Stamina=5, Strength=4, Will=1))["health"] == 5


@pytest.mark.parametrize(
    ("perception", "agility", "intelligence", "expected"),
    [(4, 6, 2, 10), (4, 2, 7, 11), (1, 3, 3, 4)],
)
def test_edge_is_perception_plus_better_of_agility_and_intelligence_wcbh_23(
    perception: int, agility: int, intelligence: int, expected: int
) -> None:
    sheet = hero(Perception=perception, Agility=agility, Intelligence=intelligence)
    assert derived(sheet)["edge"] == expected


@pytest.mark.parametrize(("highest", "expected"), [(10, 0), (9, 2), (8, 4), (7, 6), (1, 18)])
def test_starting_resolve_is_two_per_rank_below_limit_wcbh_17(highest: int, expected: int) -> None:
    sheet = hero(base=1, Strength=highest)
    assert derived(sheet, trait_limit=10)["starting_resolve"] == expected


def test_starting_resolve_follows_the_campaign_trait_limit_wcbh_17() -> None:
    assert derived(hero(Will=6), trait_limit=6)["starting_resolve"] == 0
    assert derived(hero(Will=6), trait_limit=20)["starting_resolve"] == 28


def test_talents_do_not_count_towards_starting_resolve_wcbh_17() -> None:
    sheet = hero(Agility=6) | {"talents": {"Stealth": 10}}
    assert derived(sheet, trait_limit=10)["starting_resolve"] == 8


@pytest.mark.parametrize("flag", ["can_attack", "can_defend", "can_affect_others"])
def test_a_power_that_attacks_defends_or_affects_others_counts_wcbh_17(flag: str) -> None:
    sheet = hero(Agility=6) | {"powers": {"Blast": {"rank": 9, flag: True}}}
    assert derived(sheet, trait_limit=10)["starting_resolve"] == 2


def test_a_power_that_cannot_attack_defend_or_affect_others_does_not_count_wcbh_17() -> None:
    sheet = hero(Agility=6) | {"powers": {"Glowing eyes": {"rank": 10}}}
    assert derived(sheet, trait_limit=10)["starting_resolve"] == 8


def test_an_unranked_power_is_allowed_and_does_not_count_wcbh_3() -> None:
    sheet = hero(Agility=6) | {"powers": {"Wall-crawling": {"rank": None, "can_attack": True}}}
    assert derived(sheet, trait_limit=10)["starting_resolve"] == 8


def test_a_minion_has_one_health_no_edge_and_no_resolve_wcbh_33() -> None:
    settings = WCBH.parse_settings(None)
    minion = WCBH.parse_sheet({"kind": "minion", "threat": 4}, settings, side="minion")
    assert isinstance(minion, WcbhMinion)
    assert WCBH.derived_stats(minion, settings) == {
        "health": 1,
        "edge": None,
        "starting_resolve": 0,
    }
    assert WCBH.resources(minion, settings)["health"] == {"max": 1, "start": 1, "refresh": "never"}


def test_resolve_starts_at_starting_resolve_and_refreshes_each_issue_wcbh_17() -> None:
    settings = WCBH.parse_settings({"trait_limit": 10})
    sheet = WCBH.parse_sheet(hero(Will=7), settings, side="hero")
    assert WCBH.resources(sheet, settings)["resolve"] == {
        "max": None,
        "start": 6,
        "refresh": "issue",
    }


def test_health_resource_is_capped_at_derived_health_wcbh_32() -> None:
    settings = WCBH.parse_settings(None)
    sheet = WCBH.parse_sheet(hero(Stamina=6, Strength=5), settings, side="hero")
    assert WCBH.resources(sheet, settings)["health"] == {"max": 6, "start": 6, "refresh": "never"}


@given(
    ranks=st.lists(st.integers(min_value=1, max_value=12), min_size=6, max_size=6),
    power=st.integers(min_value=1, max_value=12),
    extra=st.integers(min_value=0, max_value=8),
)
def test_derived_stats_stay_within_their_ranges_wcbh_17_32(
    ranks: list[int], power: int, extra: int
) -> None:
    limit = max([*ranks, power]) + extra
    sheet = {
        "abilities": dict(zip(ABILITIES, ranks, strict=True)),
        "powers": {"Blast": {"rank": power, "can_attack": True}},
    }
    stats = derived(sheet, trait_limit=limit)
    assert 1 <= stats["health"] <= limit
    assert stats["edge"] >= 2
    assert stats["starting_resolve"] == 2 * extra


# -- validation ------------------------------------------------------------------------------


def test_a_missing_required_ability_is_named() -> None:
    sheet = hero()
    del sheet["abilities"]["Perception"]
    error = refusal(sheet)
    assert error.field == "sheet.abilities.Perception"
    assert error.rule == "WCBH-6"
    assert "required" in error.message.lower()


@pytest.mark.parametrize("rank", [0, -1])
@pytest.mark.parametrize(
    ("patch", "field"),
    [
        (lambda s, r: s["abilities"].update(Agility=r), "sheet.abilities.Agility"),
        (lambda s, r: s["abilities"].update(Charisma=r), "sheet.abilities.Charisma"),
        (lambda s, r: s.update(talents={"Stealth": r}), "sheet.talents.Stealth"),
        (lambda s, r: s.update(powers={"Blast": {"rank": r}}), "sheet.powers.Blast.rank"),
    ],
)
def test_a_rank_below_one_is_refused_naming_the_trait(patch: Any, field: str, rank: int) -> None:
    sheet = hero()
    patch(sheet, rank)
    error = refusal(sheet)
    assert error.field == field
    assert "greater than or equal to 1" in error.message


@pytest.mark.parametrize("value", ["3", True, 2.5, None])
def test_a_rank_must_be_an_integer(value: Any) -> None:
    assert refusal(hero(Will=value)).field == "sheet.abilities.Will"


def test_a_rank_above_the_trait_limit_is_refused_wcbh_4() -> None:
    sheet = hero(Strength=9) | {"talents": {"Science": 9}}
    error = refusal(sheet, trait_limit=8)
    assert error.field == "sheet.abilities.Strength"
    assert error.rule == "WCBH-4"
    assert [e["field"] for e in error.details["errors"]] == [
        "sheet.abilities.Strength",
        "sheet.talents.Science",
    ]


def test_a_rank_equal_to_the_trait_limit_is_accepted_wcbh_4() -> None:
    sheet = hero(Strength=8) | {"powers": {"Blast": {"rank": 8, "can_attack": True}}}
    assert derived(sheet, trait_limit=8)["starting_resolve"] == 0


def test_a_power_rank_above_the_trait_limit_is_refused_wcbh_4() -> None:
    sheet = hero() | {"powers": {"Blast": {"rank": 11, "can_attack": True}}}
    assert refusal(sheet, trait_limit=10).field == "sheet.powers.Blast.rank"


def test_abilities_differing_only_in_case_are_refused_wcbh_6() -> None:
    sheet = hero()
    sheet["abilities"]["will"] = 2
    error = refusal(sheet)
    assert error.field == "sheet.abilities.will"


def test_an_extra_field_on_a_power_is_refused() -> None:
    sheet = hero() | {"powers": {"Blast": {"rank": 3, "lethal": True}}}
    assert refusal(sheet).field == "sheet.powers.Blast.lethal"


def test_every_schema_problem_is_listed() -> None:
    sheet = copy.deepcopy(hero(Agility=0))
    del sheet["abilities"]["Will"]
    sheet["perks"] = [""]
    error = refusal(sheet)
    fields = {e["field"] for e in error.details["errors"]}
    assert fields == {"sheet.abilities.Agility", "sheet.abilities.Will", "sheet.perks.0"}


def test_the_minion_side_needs_the_minion_form_wcbh_3() -> None:
    error = refusal(hero(), side="minion")
    assert (error.field, error.rule) == ("sheet.kind", "WCBH-3")


def test_a_minion_sheet_that_names_no_form_is_told_to_give_kind_minion_wcbh_3() -> None:
    error = refusal({"threat": 3}, side="minion")
    assert (error.field, error.rule) == ("sheet.kind", "WCBH-3")
    assert '"kind": "minion"' in error.message
    assert [e["field"] for e in error.details["errors"]] == ["sheet.kind"]


def test_a_minion_sheet_without_kind_lists_the_minion_forms_problems_not_a_characters_wcbh_3() -> (
    None
):
    error = refusal({"threat": 3, "rank": "minion"}, side="minion")
    fields = [e["field"] for e in error.details["errors"]]
    assert fields == ["sheet.kind", "sheet.rank"]  # no "sheet.abilities: Field required"


@pytest.mark.parametrize("side", ["hero", "villain", "opponent", "other"])
def test_the_minion_form_is_only_for_the_minion_side_wcbh_3(side: str) -> None:
    assert refusal({"kind": "minion", "threat": 3}, side=side).field == "sheet.kind"


@pytest.mark.parametrize("side", ["villain", "opponent", "other"])
def test_villains_and_others_use_the_character_form(side: str) -> None:
    sheet = WCBH.parse_sheet(hero(), WCBH.parse_settings(None), side=side)
    assert isinstance(sheet, WcbhCharacter)


def test_a_minion_threat_above_the_trait_limit_is_refused_wcbh_4() -> None:
    error = refusal({"kind": "minion", "threat": 7}, side="minion", trait_limit=6)
    assert (error.field, error.rule) == ("sheet.threat", "WCBH-4")


def test_an_unknown_form_is_refused_on_kind() -> None:
    assert refusal({"kind": "sidekick"}).field == "sheet.kind"


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"trait_limit": 0}, "settings.trait_limit"),
        ({"trait_limit": "10"}, "settings.trait_limit"),
        ({"narration_table": "players"}, "settings.narration_table"),
        ({"act_first_variant": "double"}, "settings.act_first_variant"),
    ],
)
def test_bad_settings_are_refused_on_their_field_wcbh_4_9_24(
    settings: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        WCBH.parse_settings(settings)
    assert caught.value.field == field
