"""Time travel: a character at any log position or moment is the character replayed up to there."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any
from uuid import UUID

import pytest

from api.main import create_app
from api.schemas import character_public
from api.settings import Settings
from domain.aggregates import Campaign, Character
from domain.application import Chronicle
from tests.api.support import bearer
from tests.client import TestClient
from tests.projections.support import Played, caught_up, play

FIELDS = ("name", "side", "sheet", "version")


@pytest.fixture
def played(settings: Settings) -> Iterator[tuple[TestClient, Played]]:
    with TestClient(create_app(settings)) as client:
        done = play(client)
        caught_up(client, done.last)
        yield client, done


def comparable(character: dict[str, Any]) -> dict[str, Any]:
    levels = {name: spec["current"] for name, spec in character["resources"].items()}
    return {**{f: character[f] for f in FIELDS}, "resources": levels}


def replayed(app: Chronicle, played: Played, version: int) -> dict[str, Any]:
    character: Character = app.repository.get(UUID(played.hero), version=version)
    campaign: Campaign = app.repository.get(UUID(played.table.campaign_id))
    return comparable(character_public(character, campaign).model_dump(mode="json"))


def campaign_log(client: TestClient, played: Played) -> list[dict[str, Any]]:
    path = f"/v1/campaigns/{played.table.campaign_id}/events?limit=1000&min_position={played.last}"
    return played.table.get(path)["items"]  # type: ignore[no-any-return]


def test_the_character_at_every_log_position_is_its_events_replayed_up_to_there(
    played: tuple[TestClient, Played],
) -> None:
    client, game = played
    app: Chronicle = client.app.state.chronicle  # type: ignore[attr-defined]
    log = campaign_log(client, game)
    own = [e["position"] for e in log if e["originator_id"] == game.hero]
    assert len(own) >= 5 and {e["type"] for e in log if e["originator_id"] == game.hero} >= {
        "Character.Created",
        "Character.SheetChanged",
        "Character.ResourceSpent",
    }
    for position in [0, *(e["position"] for e in log)]:
        version = len([p for p in own if p <= position])
        response = client.get(
            f"/v1/characters/{game.hero}",
            params={"at_position": position, "min_position": game.last},
            headers=bearer(game.table.gm),
        )
        if version == 0:
            assert response.status_code == 404, position
            continue
        assert response.status_code == 200, response.text
        assert comparable(response.json()) == replayed(app, game, version), position


def test_the_character_as_of_a_moment_between_two_changes_is_the_earlier_one(
    played: tuple[TestClient, Played],
) -> None:
    client, game = played
    app: Chronicle = client.app.state.chronicle  # type: ignore[attr-defined]
    own = [e for e in campaign_log(client, game) if e["originator_id"] == game.hero]
    moments = [datetime.fromisoformat(e["timestamp"]) for e in own]
    for version, (earlier, later) in enumerate(pairwise(moments), start=1):
        between = earlier + (later - earlier) / 2
        assert earlier < between < later
        character = game.table.get(f"/v1/characters/{game.hero}?as_of={_query(between)}")
        assert comparable(character) == replayed(app, game, version)
    before = moments[0] - timedelta(seconds=1)
    response = client.get(
        f"/v1/characters/{game.hero}?as_of={_query(before)}", headers=bearer(game.table.gm)
    )
    assert response.status_code == 404
    assert response.json()["error"]["field"] == "as_of"


def _query(moment: datetime) -> str:
    return moment.isoformat().replace("+", "%2B")
