"""Which request fields are the sheet's and which are situational modifiers, and what a player's
modifiers may do under each `player_modifiers` policy: pure, no database."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import (
    declared,
    gm_set,
    player_modifiers_verdict,
    refuse_player_numbers,
)
from systems.classd.rules.checks import StatCheck
from systems.wcbh.rules.checks import TraitCheck


def test_every_check_names_fields_of_its_own_request_and_none_twice() -> None:
    for ruleset in RULESETS.values():
        for check in ruleset.checks.values():
            fields = set(check.Request.model_fields)
            assert set(check.sheet_fields) <= fields, (ruleset.id, check.name)
            assert set(check.modifier_fields) <= fields, (ruleset.id, check.name)
            assert not set(check.sheet_fields) & set(check.modifier_fields), check.name


def test_a_check_is_either_built_by_a_verb_or_says_what_a_player_may_send() -> None:
    for ruleset in RULESETS.values():
        for check in ruleset.checks.values():
            if check.verb is None:
                assert check.sheet_fields or check.modifier_fields, (ruleset.id, check.name)


def test_a_players_rank_is_refused_naming_the_field() -> None:
    with pytest.raises(InvalidInput) as refused:
        refuse_player_numbers(TraitCheck(), {"trait": "Agility", "pool": 60})
    assert refused.value.field == "request.pool" and refused.value.rule == "player_modifiers"
    refuse_player_numbers(TraitCheck(), {"trait": "Agility", "pool": None})  # absent is fine


def test_a_verb_built_check_names_its_verb() -> None:
    attack = RULESETS["wcbh"].checks["attack"]
    with pytest.raises(InvalidInput) as refused:
        refuse_player_numbers(attack, {})
    assert refused.value.field == "check" and "/attacks" in refused.value.message


def test_only_modifiers_off_their_default_are_declared() -> None:
    check = TraitCheck()
    request = check.parse({"trait": "Agility", "modifier": 0, "difficulty": 2})
    assert check.declared_modifiers(request) == {"difficulty": 2}
    stat = StatCheck()
    edge = stat.parse({"stat": "speed", "difficulty_name": "hard", "advantage": 1})
    assert declared(edge, stat.modifier_fields) == {"difficulty_name": "hard", "advantage": 1}
    assert gm_set(check, {"pool": 4, "trait": None}) == ["pool"]


@pytest.mark.parametrize(
    ("policy", "values", "verdict"),
    [
        ("gm_approval", {}, "roll"),
        ("gm_approval", {"modifier": 2}, "ask_gm"),
        ("trusted", {"modifier": 2}, "roll"),
        ("refused", {}, "roll"),
    ],
)
def test_the_verdict_of_each_policy(policy: str, values: dict[str, int], verdict: str) -> None:
    assert player_modifiers_verdict(policy, values, "request.") == verdict


def test_refused_modifiers_name_the_first_field_and_the_setting() -> None:
    with pytest.raises(InvalidInput) as refused:
        player_modifiers_verdict("refused", {"advantage": 1, "disadvantage": 1})
    assert refused.value.field == "advantage" and refused.value.rule == "player_modifiers"
