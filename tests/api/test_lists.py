"""The front ends' reads: who the token is, and the campaign's lists with one cursor convention."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings
from tests.api.support import Table, bearer


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """One campaign for the module: its tests only read, or add what they then look for."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("lists"))
    with TestClient(create_app(settings)) as client:
        yield Table(client)


def listed(table: Table, path: str, token: str | None = None, **query: Any) -> dict[str, Any]:
    """A page, once the views have applied everything written so far."""
    response = table.client.get(
        path,
        params={"min_position": table.position(), **query},
        headers=bearer(token or table.gm),
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def every(table: Table, path: str, limit: int, **query: Any) -> list[dict[str, Any]]:
    """Every item of a list, page by page, following `next_after`."""
    items: list[dict[str, Any]] = []
    after = 0
    while True:
        page = listed(table, path, after=after, limit=limit, **query)
        assert len(page["items"]) <= limit
        items += page["items"]
        if page["next_after"] is None:
            return items
        after = page["next_after"]


def refused(table: Table, path: str, field: str, **query: Any) -> dict[str, Any]:
    response = table.client.get(path, params=query, headers=bearer(table.gm))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert field in str(error), error
    return error  # type: ignore[no-any-return]


# ---- /v1/me --------------------------------------------------------------------------------------


def test_me_tells_a_player_its_member_and_its_campaign(table: Table) -> None:
    me = table.get("/v1/me", table.player)
    assert me["member"]["id"] == table.player_id
    assert (me["member"]["name"], me["member"]["role"]) == ("Bo", "player")
    assert me["campaign"] == {"id": table.campaign_id, "name": "Night City", "ruleset": "wcbh"}


def test_me_tells_the_gm_it_is_the_gm(table: Table) -> None:
    assert table.get("/v1/me")["member"]["role"] == "gm"


def test_me_without_a_token_is_unauthenticated(table: Table) -> None:
    assert table.client.get("/v1/me").status_code == 401


# ---- members -------------------------------------------------------------------------------------


def test_members_are_listed_in_the_order_they_joined(table: Table) -> None:
    members = listed(table, f"/v1/campaigns/{table.campaign_id}/members", table.observer)
    assert [(m["name"], m["role"]) for m in members["items"]] == [
        ("GM", "gm"),
        ("Bo", "player"),
        ("Cy", "player"),
        ("Di", "observer"),
    ]
    assert members["next_after"] is None


def test_members_page_by_page_give_each_member_once(table: Table) -> None:
    whole = listed(table, f"/v1/campaigns/{table.campaign_id}/members")["items"]
    assert every(table, f"/v1/campaigns/{table.campaign_id}/members", limit=1) == whole


def test_members_filtered_by_role(table: Table) -> None:
    players = listed(table, f"/v1/campaigns/{table.campaign_id}/members", role="player")
    assert [m["name"] for m in players["items"]] == ["Bo", "Cy"]
    refused(table, f"/v1/campaigns/{table.campaign_id}/members", "role", role="dm")
