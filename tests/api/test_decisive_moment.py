"""Decisive Moments (WCBH-13, WCBH-15): once per character per story, one hero's per scene."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer


def declare(table: Table, scene: str, character: str, token: str) -> Any:
    body = {
        "check": "trait",
        "character_id": character,
        "request": {
            "trait": "Agility",  # no difficulty of the player's: that would wait for the GM
            "decisive_moment": True,
            "effort": "physical",  # WCBH-16
        },
    }
    return table.client.post(f"/v1/scenes/{scene}/rolls", json=body, headers=bearer(token))


def test_a_decisive_moment_is_recorded_on_its_scene_and_story_wcbh_15(table: Table) -> None:
    hero = table.character(table.player)
    scene = table.scene()
    roll = declare(table, scene, hero, table.player)
    assert roll.status_code == 201, roll.text
    assert table.get(f"/v1/scenes/{scene}")["once_per_scene_uses"] == {"decisive_moment": [hero]}
    story = table.get(f"/v1/scenes/{scene}")["story_id"]
    assert table.get(f"/v1/stories/{story}")["once_per_story_uses"] == {"decisive_moment": [hero]}


def test_a_second_decisive_moment_in_a_story_is_refused_and_writes_nothing_wcbh_15(
    table: Table,
) -> None:
    hero = table.character(table.player)
    issue = table.issue()
    first_scene, second_scene = table.scene(issue), table.scene(issue)
    assert declare(table, first_scene, hero, table.player).status_code == 201
    before = table.position()
    again = declare(table, second_scene, hero, table.player)
    assert again.status_code == 409
    error = again.json()["error"]
    assert (error["code"], error["rule"]) == ("once_per_story", "WCBH-15")
    assert table.position() == before


def test_only_one_hero_declares_a_decisive_moment_per_scene_wcbh_15(table: Table) -> None:
    nova, bolt = table.character(table.player, "Nova"), table.character(table.other_player, "Bolt")
    issue = table.issue()
    scene = table.scene(issue)
    assert declare(table, scene, nova, table.player).status_code == 201
    refused = declare(table, scene, bolt, table.other_player)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "once_per_scene"
    assert declare(table, table.scene(issue), bolt, table.other_player).status_code == 201


def test_a_new_story_gives_every_character_a_new_decisive_moment_wcbh_15(table: Table) -> None:
    hero = table.character(table.player)
    assert declare(table, table.scene(), hero, table.player).status_code == 201
    assert (
        declare(table, table.scene(), hero, table.player).status_code == 201
    )  # table.scene(): new story


def test_an_ordinary_roll_uses_no_decisive_moment(table: Table) -> None:
    hero = table.character(table.player)
    scene = table.scene()
    body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility"}}
    assert (
        table.client.post(
            f"/v1/scenes/{scene}/rolls", json=body, headers=bearer(table.player)
        ).status_code
        == 201
    )
    assert table.get(f"/v1/scenes/{scene}")["once_per_scene_uses"] == {}
