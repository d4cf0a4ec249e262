"""Every ruleset shows an example sheet for each side, not only for its heroes."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import BaseModel, RootModel

from domain.rulesets import RULESETS, Ruleset, get_ruleset
from domain.rulesets.base import SIDES
from systems.wcbh.rules.ruleset import WcbhRuleset

ALL = pytest.mark.parametrize("ruleset", list(RULESETS.values()), ids=list(RULESETS))


def parsed(ruleset: Ruleset) -> dict[str, BaseModel]:
    settings = ruleset.parse_settings(None)
    return {
        side: ruleset.parse_sheet(sheet, settings, side=side)
        for side, sheet in ruleset.example_sheets().items()
    }


def forms_of(sheet: type[BaseModel]) -> set[type[BaseModel]]:
    """The models a sheet may be: the members of a RootModel's tagged union, or the model itself."""
    if not issubclass(sheet, RootModel):
        return {sheet}
    found: set[type[BaseModel]] = set()
    pending: list[Any] = [sheet.model_fields["root"].annotation]
    while pending:
        hint = pending.pop()
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            found.add(hint)
        else:
            pending.extend(typing.get_args(hint))
    return found


@ALL
def test_every_side_has_an_example_that_parses_for_that_side(ruleset: Ruleset) -> None:
    examples = parsed(ruleset)
    assert list(examples) == list(SIDES)
    assert ruleset.example_sheets()["hero"] == ruleset.example_sheet()


@ALL
def test_the_examples_show_every_form_of_the_sheet(ruleset: Ruleset) -> None:
    assert {type(sheet) for sheet in parsed(ruleset).values()} == forms_of(ruleset.Sheet)


@ALL
def test_the_examples_satisfy_the_published_json_schema(ruleset: Ruleset) -> None:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    validator = jsonschema_rs.validator_for(ruleset.Sheet.model_json_schema())
    for side, sheet in ruleset.example_sheets().items():
        assert validator.is_valid(sheet), side


@ALL
def test_the_examples_are_copies_a_caller_may_change(ruleset: Ruleset) -> None:
    ruleset.example_sheets()["villain"]["spoiled"] = True
    assert "spoiled" not in ruleset.example_sheets()["villain"]


@ALL
def test_the_description_carries_the_examples_by_side(ruleset: Ruleset) -> None:
    assert ruleset.describe()["example_sheets"] == ruleset.example_sheets()


def test_a_ruleset_that_gives_no_other_examples_shows_its_hero_alone() -> None:
    class HeroOnly(WcbhRuleset):
        other_sides = Ruleset.other_sides  # the base's: none

    hero_only = HeroOnly()
    assert hero_only.example_sheets() == {"hero": hero_only.example_sheet()}


def test_class_d_shows_a_villain_of_every_rank_cd_17() -> None:
    ranks = {side: sheet["rank"] for side, sheet in get_ruleset("classd").example_sheets().items()}
    assert {ranks["villain"], ranks["opponent"], ranks["minion"]} == {"boss", "henchman", "minion"}
    assert ranks["hero"] is None


def test_nimble_shows_a_monster_group_nb_4() -> None:
    examples = get_ruleset("nimble").example_sheets()
    assert examples["minion"]["kind"] == "monster" and examples["minion"]["count"] > 1
    assert examples["villain"]["count"] == 1


def test_wcbh_shows_the_minion_form_for_its_minions_wcbh_3() -> None:
    examples = get_ruleset("wcbh").example_sheets()
    assert examples["minion"] == {"kind": "minion", "threat": 3}
    assert all(sheet["kind"] == "character" for side, sheet in examples.items() if side != "minion")
