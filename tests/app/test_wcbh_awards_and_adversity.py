"""Resolve awards are 1 each (WCBH-18) and a game Issue's Adversity counts the players (WCBH-21),
on the in-memory store (issue #15)."""

from __future__ import annotations

import pytest

from domain.aggregates import Character, Issue
from domain.errors import InvalidInput
from domain.requests import ResourceChange
from tests.app.table import Table


def resolve(t: Table, character_id: object) -> int:
    character: Character = t.app.repository.get(character_id)
    assert isinstance(character, Character)
    return int(character.resources["resolve"])


def test_a_resolve_award_is_one_wcbh_18() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    start = resolve(t, nova)
    before = t.position()
    with pytest.raises(InvalidInput) as refused:
        t.gm_runs("adjust_resource", nova, ResourceChange(resource="resolve", change=2, reason="x"))
    assert (refused.value.field, refused.value.rule) == ("change", "WCBH-18")
    assert t.position() == before and resolve(t, nova) == start
    t.gm_runs(
        "adjust_resource", nova, ResourceChange(resource="resolve", change=1, reason="defeated")
    )
    assert resolve(t, nova) == start + 1


def test_taking_resolve_away_and_changing_health_are_not_awards_wcbh_18() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    start = resolve(t, nova)
    t.gm_runs(
        "adjust_resource", nova, ResourceChange(resource="resolve", change=-start, reason="fix")
    )
    t.gm_runs("adjust_resource", nova, ResourceChange(resource="health", change=-3, reason="hit"))
    t.gm_runs("adjust_resource", nova, ResourceChange(resource="health", change=2, reason="heal"))
    assert resolve(t, nova) == 0


def test_other_rulesets_awards_are_not_bounded_by_wcbh_18() -> None:
    t = Table("classd")
    hero = t.character("Ada", owner=t.player)
    character: Character = t.app.repository.get(hero)
    assert isinstance(character, Character)
    resource = next(iter(character.resources))
    t.gm_runs("adjust_resource", hero, ResourceChange(resource=resource, change=-2, reason="x"))
    t.gm_runs("adjust_resource", hero, ResourceChange(resource=resource, change=2, reason="x"))


def test_adversity_starts_at_the_number_of_players_not_of_hero_side_characters_wcbh_21() -> None:
    t = Table("wcbh")
    t.character("Nova", owner=t.player)
    t.character("Nova's sidekick", owner=t.player)  # one player, two heroes: one player
    t.character("Bolt", owner=t.other_player)
    t.character("Captain Civic", "hero")  # a hero the GM plays: no player
    t.character("Dr. Null", "villain")
    issue: Issue = t.app.repository.get(t.issue())
    assert isinstance(issue, Issue)
    assert issue.pools == {"adversity": 2}
