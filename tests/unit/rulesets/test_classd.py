"""Class D Heroes: stats, Health and Will maxima, villain ranks by side, target difficulties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset

CLASSD = get_ruleset("classd")
SETTINGS = CLASSD.parse_settings(None)


def character(**fields: Any) -> dict[str, Any]:
    return {"might": 2, "speed": 1, "spirit": 3, "health": 10, "will": 4} | fields


def parsed(sheet: dict[str, Any], side: str = "hero") -> Any:
    return CLASSD.parse_sheet(sheet, SETTINGS, side=side)


def refusal(sheet: Any, side: str = "hero") -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        parsed(sheet, side)
    return caught.value


def test_difficulty_to_affect_is_five_plus_the_matching_stat_cd_4() -> None:
    stats = CLASSD.derived_stats(parsed(character(might=0, speed=4, spirit=7)), SETTINGS)
    assert stats["difficulty_to_affect"] == {"might": 5, "speed": 9, "spirit": 12}


@pytest.mark.parametrize(
    ("rank", "reactions", "actions"),
    [
        ("minion", "one_shared", 1),
        ("henchman", "one_per_attack_type", 1),
        ("boss", "unlimited", 2),
    ],
)
def test_villain_rank_sets_reactions_and_actions_cd_17(
    rank: str, reactions: str, actions: int
) -> None:
    stats = CLASSD.derived_stats(parsed(character(rank=rank), side="villain"), SETTINGS)
    assert (stats["reactions"], stats["actions_per_turn"]) == (reactions, actions)


def test_a_hero_has_one_action_and_no_reactions_cd_9() -> None:
    stats = CLASSD.derived_stats(parsed(character()), SETTINGS)
    assert (stats["reactions"], stats["actions_per_turn"]) == ("none", 1)


def test_health_and_will_pools_start_full_and_recover_at_rest_cd_1_cd_22() -> None:
    pools = CLASSD.resources(parsed(character(health=14, will=0)), SETTINGS)
    assert pools == {
        "health": {"max": 14, "start": 14, "refresh": "rest"},
        "will": {"max": 0, "start": 0, "refresh": "rest"},
    }


def test_a_hero_with_a_villain_rank_is_refused_cd_1() -> None:
    error = refusal(character(rank="boss"), side="hero")
    assert (error.field, error.rule) == ("sheet.rank", "CD-1")


@pytest.mark.parametrize("side", ["villain", "opponent", "minion"])
def test_a_villain_without_a_rank_is_refused_cd_17(side: str) -> None:
    error = refusal(character(), side=side)
    assert (error.field, error.rule) == ("sheet.rank", "CD-17")


def test_a_minion_without_a_rank_is_told_the_one_rank_it_takes_cd_17() -> None:
    error = refusal(character(), side="minion")
    assert "'minion'" in error.message
    assert "henchman" not in error.message and "boss" not in error.message
    villain = refusal(character(), side="villain")
    assert "minion, henchman or boss" in villain.message


@pytest.mark.parametrize("rank", ["henchman", "boss"])
def test_the_minion_side_needs_the_minion_rank_cd_17(rank: str) -> None:
    assert refusal(character(rank=rank), side="minion").field == "sheet.rank"


@pytest.mark.parametrize("rank", [None, "minion", "boss"])
def test_the_other_side_takes_a_sheet_with_or_without_a_rank(rank: str | None) -> None:
    assert parsed(character(rank=rank), side="other").rank == rank


@pytest.mark.parametrize("stat", ["might", "speed", "spirit", "health", "will"])
def test_a_missing_stat_or_maximum_is_named_cd_1(stat: str) -> None:
    sheet = character()
    del sheet[stat]
    error = refusal(sheet)
    assert (error.field, error.rule) == (f"sheet.{stat}", "CD-1")


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"speed": -1}, "sheet.speed"),
        ({"spirit": 21}, "sheet.spirit"),
        ({"might": "2"}, "sheet.might"),
        ({"health": 0}, "sheet.health"),
        ({"will": -2}, "sheet.will"),
        ({"rank": "overlord"}, "sheet.rank"),
        ({"powers": [{"name": ""}]}, "sheet.powers.0.name"),
        ({"gear": [{"name": "Rope", "weight": 2}]}, "sheet.gear.0.weight"),
        ({"class": "D"}, "sheet.class"),
    ],
)
def test_a_bad_value_is_refused_on_its_field(patch: dict[str, Any], field: str) -> None:
    assert refusal(character(**patch)).field == field


def test_every_problem_is_listed() -> None:
    error = refusal(character(might=-1, speed="fast", health=0))
    assert [e["field"] for e in error.details["errors"]] == [
        "sheet.might",
        "sheet.speed",
        "sheet.health",
    ]


@given(
    stats=st.tuples(*[st.integers(min_value=0, max_value=20)] * 3),
    rank=st.sampled_from([None, "minion", "henchman", "boss"]),
)
def test_difficulties_are_always_between_5_and_25_cd_4(
    stats: tuple[int, int, int], rank: str | None
) -> None:
    sheet = character(might=stats[0], speed=stats[1], spirit=stats[2], rank=rank)
    difficulties = CLASSD.derived_stats(parsed(sheet, side="other"), SETTINGS)
    assert list(difficulties["difficulty_to_affect"].values()) == [5 + s for s in stats]


def test_the_sheet_schema_tells_front_ends_what_each_stat_is_for_cd_7() -> None:
    """CD-7 is a reference list, not enforced: front ends read it from the sheet's JSON Schema."""
    properties = get_ruleset("classd").describe()["sheet_schema"]["properties"]
    uses = {"might": "melee", "speed": "ranged", "spirit": "mental"}
    for stat, use in uses.items():
        description = properties[stat]["description"]
        assert use in description and "CD-7" in description, (stat, description)
