"""Decisive Moments (WCBH-13, WCBH-15): once per character per story, one hero's per scene."""

from __future__ import annotations

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.api.support import Table, bearer
from tests.client import TestClient


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


@pytest.mark.store  # the store is what it tests: on SQLite and PostgreSQL
def test_a_follow_on_roll_racing_its_first_is_never_refused_once_per_story_wcbh_14_15(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interleaving the race produces, made certain: the follow-on roll reads the scene, then
    the first roll commits the scene and the story, then the follow-on reads the story. It must be
    the Decisive Moment going on (WCBH-14), not a second one of the story (WCBH-15)."""
    table = Table(client)
    hero, scene = table.character(table.player), table.scene()
    chronicle = client.app.state.chronicle  # type: ignore[attr-defined]
    real = chronicle._use_limits
    paused, first_done = threading.Event(), threading.Event()
    calls = itertools.count()

    def pausing(*args: Any, **kwargs: Any) -> Any:
        if next(calls) == 0:  # the follow-on roll, its scene read, its story not yet
            paused.set()
            assert first_done.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(chronicle, "_use_limits", pausing)
    with ThreadPoolExecutor(1) as pool:
        follow_on = pool.submit(declare, table, scene, hero, table.player)
        assert paused.wait(30)
        first = declare(table, scene, hero, table.player)
        first_done.set()
        assert first.status_code == 201, first.text
        assert follow_on.result().status_code == 201, follow_on.result().text
    story = table.get(f"/v1/scenes/{scene}")["story_id"]
    assert table.get(f"/v1/stories/{story}")["once_per_story_uses"] == {"decisive_moment": [hero]}


@pytest.mark.store  # the store is what it tests: on SQLite and PostgreSQL
def test_racing_decisive_moment_rolls_of_one_hero_in_its_scene_all_go_on_wcbh_14_15(
    client: TestClient,
) -> None:
    table = Table(client)
    hero = table.character(table.player)
    for _ in range(3):
        scene = table.scene()  # a new story each round: a new Decisive Moment
        barrier = threading.Barrier(4)

        def roll(_: int, scene: str = scene, barrier: threading.Barrier = barrier) -> Any:
            barrier.wait()
            return declare(table, scene, hero, table.player)

        with ThreadPoolExecutor(4) as pool:
            responses = list(pool.map(roll, range(4)))
        assert [r.status_code for r in responses] == [201] * 4, [r.text for r in responses]
        uses = table.get(f"/v1/scenes/{scene}")["once_per_scene_uses"]
        assert uses == {"decisive_moment": [hero]}
