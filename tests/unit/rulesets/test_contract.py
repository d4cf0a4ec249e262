"""Every ruleset keeps the registry contract that the API and aggregates code against."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS, Ruleset, StatSpec, get_ruleset
from domain.rulesets.base import REFRESHES, SIDES

ALL = pytest.mark.parametrize("ruleset", list(RULESETS.values()), ids=list(RULESETS))
DESCRIBE_KEYS = {
    "id",
    "name",
    "sheet_schema",
    "settings_schema",
    "example_sheet",
    "example_sheets",
    "example_settings",
    "derived_stats",
    "resources",
    "example_derived",
    "example_resources",
    "checks",
    "follow_ups",
}


def parsed_example(ruleset: Ruleset) -> tuple[Any, Any]:
    settings = ruleset.parse_settings(ruleset.example_settings())
    return ruleset.parse_sheet(ruleset.example_sheet(), settings, side="hero"), settings


def test_registry_holds_the_four_systems_in_order() -> None:
    assert list(RULESETS) == ["wcbh", "classd", "nimble", "nwod-micro"]


@ALL
def test_get_ruleset_returns_the_registered_instance(ruleset: Ruleset) -> None:
    assert get_ruleset(ruleset.id) is ruleset


def test_unknown_ruleset_id_is_invalid_input_on_field_ruleset() -> None:
    with pytest.raises(InvalidInput) as caught:
        get_ruleset("dnd5e")
    assert caught.value.field == "ruleset"
    assert "dnd5e" in caught.value.message
    assert caught.value.details["known"] == list(RULESETS)


@ALL
def test_example_sheet_validates_under_default_settings(ruleset: Ruleset) -> None:
    sheet = ruleset.parse_sheet(ruleset.example_sheet(), ruleset.parse_settings(None), side="hero")
    assert sheet.model_dump(mode="json") == ruleset.Sheet.model_validate(
        ruleset.example_sheet()
    ).model_dump(mode="json")


@ALL
def test_example_sheet_satisfies_the_published_json_schema(ruleset: Ruleset) -> None:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    validator = jsonschema_rs.validator_for(ruleset.Sheet.model_json_schema())
    assert validator.is_valid(ruleset.example_sheet())
    assert not validator.is_valid({**ruleset.example_sheet(), "no_such_field": 1})


@ALL
def test_describe_is_json_serialisable_with_every_key(ruleset: Ruleset) -> None:
    described = json.loads(json.dumps(ruleset.describe()))
    assert set(described) == DESCRIBE_KEYS
    assert described["id"] == ruleset.id
    assert described["sheet_schema"] == ruleset.Sheet.model_json_schema()
    assert [d["name"] for d in described["derived_stats"]] == [
        s.name for s in ruleset.derived_specs
    ]
    assert [r["refresh"] for r in described["resources"]] == [
        s.refresh for s in ruleset.resource_specs
    ]


@ALL
def test_derived_stats_keys_are_the_derived_spec_names(ruleset: Ruleset) -> None:
    sheet, settings = parsed_example(ruleset)
    derived = ruleset.derived_stats(sheet, settings)
    assert list(derived) == [s.name for s in ruleset.derived_specs]
    json.dumps(derived)


@ALL
def test_resources_keys_are_the_resource_spec_names(ruleset: Ruleset) -> None:
    sheet, settings = parsed_example(ruleset)
    resources = ruleset.resources(sheet, settings)
    assert list(resources) == [s.name for s in ruleset.resource_specs]
    for spec in ruleset.resource_specs:
        pool = resources[spec.name]
        assert set(pool) == {"max", "start", "refresh"}
        assert pool["refresh"] == spec.refresh
        assert pool["start"] >= 0
        assert pool["max"] is None or pool["start"] <= pool["max"]


@ALL
def test_specs_have_unique_snake_case_names_and_known_refreshes(ruleset: Ruleset) -> None:
    specs: list[StatSpec] = [*ruleset.derived_specs, *ruleset.resource_specs]
    for spec in specs:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", spec.name), spec.name
        assert spec.rule is None or re.fullmatch(r"[A-Z]+-\d+", spec.rule), spec.rule
    assert len({s.name for s in ruleset.derived_specs}) == len(ruleset.derived_specs)
    assert all(s.refresh is None for s in ruleset.derived_specs)
    assert all(s.refresh in REFRESHES for s in ruleset.resource_specs)


@ALL
def test_empty_settings_are_valid_and_equal_the_defaults(ruleset: Ruleset) -> None:
    assert ruleset.parse_settings({}) == ruleset.parse_settings(None)
    assert ruleset.parse_settings(ruleset.example_settings()) == ruleset.parse_settings({})


@ALL
def test_unknown_settings_key_is_refused_on_its_field(ruleset: Ruleset) -> None:
    with pytest.raises(InvalidInput) as caught:
        ruleset.parse_settings({"no_such_setting": 1})
    assert caught.value.field == "settings.no_such_setting"


@ALL
def test_unknown_sheet_key_is_refused_on_its_field(ruleset: Ruleset) -> None:
    with pytest.raises(InvalidInput) as caught:
        ruleset.parse_sheet(
            {**ruleset.example_sheet(), "no_such_field": 1},
            ruleset.parse_settings(None),
            side="hero",
        )
    assert caught.value.field == "sheet.no_such_field"
    assert caught.value.details["errors"] == [
        {"field": "sheet.no_such_field", "message": "Extra inputs are not permitted"}
    ]


@ALL
@pytest.mark.parametrize("raw", [None, [], "hero", 3])
def test_a_sheet_that_is_no_object_is_refused_on_field_sheet(ruleset: Ruleset, raw: Any) -> None:
    with pytest.raises(InvalidInput) as caught:
        ruleset.parse_sheet(raw, ruleset.parse_settings(None), side="hero")
    assert caught.value.field == "sheet"


@ALL
def test_an_unknown_side_is_refused(ruleset: Ruleset) -> None:
    with pytest.raises(InvalidInput) as caught:
        ruleset.parse_sheet(ruleset.example_sheet(), ruleset.parse_settings(None), side="ally")
    assert caught.value.field == "side"
    assert caught.value.details["known"] == list(SIDES)


@ALL
def test_settings_of_another_ruleset_are_a_programming_error(ruleset: Ruleset) -> None:
    other = next(r for r in RULESETS.values() if r.Settings is not ruleset.Settings)
    with pytest.raises(TypeError):
        ruleset.parse_sheet(ruleset.example_sheet(), other.parse_settings(None), side="hero")


@ALL
def test_a_parsed_sheet_stored_as_json_parses_back_to_the_same_sheet(ruleset: Ruleset) -> None:
    sheet, settings = parsed_example(ruleset)
    stored = json.loads(json.dumps(sheet.model_dump(mode="json")))
    assert ruleset.parse_sheet(stored, settings, side="hero") == sheet


@ALL
def test_every_sides_example_sheet_validates_for_that_side(ruleset: Ruleset) -> None:
    sheets = ruleset.example_sheets()
    assert sheets["hero"] == ruleset.example_sheet()
    settings = ruleset.parse_settings(None)
    for side, sheet in sheets.items():
        ruleset.parse_sheet(sheet, settings, side=side)


def test_class_d_has_an_example_sheet_for_the_villain_and_the_minion_sides_cd_17() -> None:
    sheets = get_ruleset("classd").describe()["example_sheets"]
    assert {"hero", "villain", "minion"} <= set(sheets)
    assert sheets["minion"]["rank"] == "minion" and sheets["villain"]["rank"] is not None
    assert all("attack" in f and "damage" in f for f in sheets["villain"]["gear"])
