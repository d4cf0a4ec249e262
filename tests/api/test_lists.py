"""The front ends' reads: who the token is, and the campaign's lists with one cursor convention."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from api.main import create_app
from tests.api.support import Table, bearer
from tests.client import TestClient
from tests.conftest import store_settings

# The lists' queries are SQL of each backend (JSON fields, creation positions): both run them.
pytestmark = pytest.mark.store


@pytest.fixture(scope="module")
def table(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """One campaign per backend for the module: each test adds what it then looks for, and
    reads after the position it started at where others' additions would show."""
    data_dir = tmp_path_factory.mktemp(f"lists-{backend}")
    with store_settings(backend, data_dir) as settings, TestClient(create_app(settings)) as client:
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
    members = listed(table.seated(), f"/v1/campaigns/{table.campaign_id}/members", table.observer)
    assert [(m["name"], m["role"]) for m in members["items"]] == [
        ("GM", "gm"),
        ("Bo", "player"),
        ("Cy", "player"),
        ("Di", "observer"),
    ]
    assert members["next_after"] is None


def test_members_page_by_page_give_each_member_once(table: Table) -> None:
    whole = listed(table.seated(), f"/v1/campaigns/{table.campaign_id}/members")["items"]
    assert every(table, f"/v1/campaigns/{table.campaign_id}/members", limit=1) == whole


def test_members_filtered_by_role(table: Table) -> None:
    players = listed(table.seated(), f"/v1/campaigns/{table.campaign_id}/members", role="player")
    assert [m["name"] for m in players["items"]] == ["Bo", "Cy"]
    refused(table, f"/v1/campaigns/{table.campaign_id}/members", "role", role="dm")


# ---- characters ----------------------------------------------------------------------------------


def create(table: Table, name: str, side: str = "hero", token: str | None = None) -> str:
    body = {"name": name, "side": side, "sheet": table.example_sheet}
    return str(table.post(f"/v1/campaigns/{table.campaign_id}/characters", body, token)["id"])


def test_characters_after_a_position_are_those_created_since_in_order(table: Table) -> None:
    start = table.position()
    names = ["Ana", "Ben", "Cat"]
    ids = [create(table, name, token=table.player) for name in names]
    page = listed(table, f"/v1/campaigns/{table.campaign_id}/characters", after=start)
    assert [c["id"] for c in page["items"]] == ids
    assert page["items"][0] == table.get(f"/v1/characters/{ids[0]}")  # the same view as GET
    assert page["next_after"] is None


def test_characters_page_by_page_give_each_character_once_in_order(table: Table) -> None:
    for name in ("Dan", "Eve", "Fay"):
        create(table, name)
    path = f"/v1/campaigns/{table.campaign_id}/characters"
    whole = listed(table, path, limit=1000)["items"]
    assert len(whole) >= 3
    assert every(table, path, limit=2) == whole


def test_characters_filtered_by_side_and_owner(table: Table) -> None:
    start = table.position()
    hero = create(table, "Gus", token=table.player)
    villain = create(table, "Dr. Hex", side="villain")
    mine = create(table, "Ivy", token=table.other_player)
    path = f"/v1/campaigns/{table.campaign_id}/characters"

    def ids(**query: Any) -> list[str]:
        return [c["id"] for c in listed(table, path, after=start, **query)["items"]]

    assert ids(side="villain") == [villain]
    assert ids(owner=table.player_id) == [hero]
    assert ids(owner=table.member_id(table.other_player), side="hero") == [mine]
    assert ids(owner=table.member_id(table.gm)) == [villain]  # the GM's: no owner
    assert ids(owner=table.member_id(table.observer)) == []


def test_unknown_filter_values_are_refused_naming_the_field(table: Table) -> None:
    path = f"/v1/campaigns/{table.campaign_id}/characters"
    refused(table, path, "side", side="dragon")
    refused(table, path, "owner", owner="not-a-uuid")
    refused(table, path, "owner", owner="00000000-0000-4000-8000-000000000000")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"after": "x"}, "after"),
        ({"after": -1}, "after"),
        ({"after": 2**63}, "after"),
        ({"limit": 0}, "limit"),
        ({"limit": 1001}, "limit"),
        ({"limit": "many"}, "limit"),
    ],
)
def test_a_bad_cursor_or_limit_is_refused_naming_it(
    table: Table, query: dict[str, Any], field: str
) -> None:
    for path in (
        f"/v1/campaigns/{table.campaign_id}/characters",
        f"/v1/campaigns/{table.campaign_id}/members",
        f"/v1/campaigns/{table.campaign_id}/rolls",
    ):
        refused(table, path, field, **query)


def test_another_campaign_s_list_is_not_found(table: Table) -> None:
    for what in ("characters", "members", "stories", "missions", "rolls"):
        response = table.client.get(
            f"/v1/campaigns/{table.campaign_id}/{what}", headers=bearer(table.foreign)
        )
        assert response.status_code == 404, what


# ---- stories, game Issues, scenes, missions -----------------------------------------------------


def test_stories_their_issues_and_scenes_are_listed_in_order_with_status_filters(
    table: Table,
) -> None:
    start = table.position()
    first, second = table.story(), table.story()
    issue = table.issue(second)
    table.post(f"/v1/issues/{issue}/end", status=200)
    issue_2 = table.issue(second)
    scenes = [table.scene(issue_2), table.scene(issue_2)]
    table.post(f"/v1/scenes/{scenes[0]}/close", status=200)

    stories = listed(table, f"/v1/campaigns/{table.campaign_id}/stories", after=start)["items"]
    assert [s["id"] for s in stories] == [first, second]
    assert stories[1] == table.get(f"/v1/stories/{second}")
    issues = listed(table, f"/v1/stories/{second}/issues")["items"]
    assert [(i["id"], i["number"], i["status"]) for i in issues] == [
        (issue, 1, "ended"),
        (issue_2, 2, "running"),
    ]
    assert issues[1] == table.get(f"/v1/issues/{issue_2}")
    assert [
        i["id"] for i in listed(table, f"/v1/stories/{second}/issues", status="ended")["items"]
    ] == [issue]
    assert listed(table, f"/v1/stories/{first}/issues")["items"] == []
    shown = listed(table, f"/v1/issues/{issue_2}/scenes")["items"]
    assert [(s["id"], s["status"], s["title"]) for s in shown] == [
        (scenes[0], "closed", "The vault"),
        (scenes[1], "open", "The vault"),
    ]
    assert [
        s["id"] for s in listed(table, f"/v1/issues/{issue_2}/scenes", status="open")["items"]
    ] == [scenes[1]]
    refused(table, f"/v1/issues/{issue_2}/scenes", "status", status="ajar")


def test_missions_are_listed_with_their_counters(table: Table) -> None:
    start = table.position()
    first, second = table.mission(), table.mission()
    table.post(f"/v1/missions/{first}/end", {"outcome": "failed"}, status=200)
    path = f"/v1/campaigns/{table.campaign_id}/missions"
    missions = listed(table, path, after=start)["items"]
    assert [(m["id"], m["status"]) for m in missions] == [(first, "ended"), (second, "active")]
    assert [c["name"] for c in missions[1]["counters"]] == ["alarm", "rival_progress"]
    assert [m["id"] for m in listed(table, path, after=start, status="active")["items"]] == [second]


# ---- rolls ---------------------------------------------------------------------------------------


def test_rolls_are_listed_with_their_proof_and_time_filtered_by_scene_and_character(
    table: Table,
) -> None:
    described = table.get(f"/v1/rulesets/{table.ruleset}")
    check = described["checks"][0]
    request = {k: v for k, v in check["example"].items() if k not in check["modifier_fields"]}
    hero, other = create(table, "Jo", token=table.player), create(table, "Kit")
    scene, elsewhere = table.scene(), table.scene()
    start = table.position()

    def roll(scene_id: str, character_id: str) -> dict[str, Any]:
        body = {"check": check["name"], "request": request, "character_id": character_id}
        return table.post(f"/v1/scenes/{scene_id}/rolls", body)  # type: ignore[no-any-return]

    made = [roll(scene, hero), roll(scene, other), roll(elsewhere, hero)]
    path = f"/v1/campaigns/{table.campaign_id}/rolls"
    rolls = listed(table, path, after=start)["items"]
    assert [r["id"] for r in rolls] == [r["id"] for r in made]
    assert rolls[0] == table.get(f"/v1/rolls/{made[0]['id']}")  # the view shows what GET does
    for key in ("proof", "receipt", "recorded_at", "faces", "result"):
        assert rolls[0][key] == made[0][key], key

    def ids(**query: Any) -> list[str]:
        return [r["id"] for r in listed(table, path, after=start, **query)["items"]]

    assert ids(scene_id=scene) == [made[0]["id"], made[1]["id"]]
    assert ids(character_id=hero) == [made[0]["id"], made[2]["id"]]
    assert ids(scene_id=elsewhere, character_id=other) == []
    refused(table, path, "scene_id", scene_id=hero)  # a character is no scene
    refused(table, path, "character_id", character_id="00000000-0000-4000-8000-000000000000")

    table.post(f"/v1/scenes/{scene}/close", status=200)
    revealed = listed(table, path, after=start, scene_id=scene)["items"]
    assert revealed[0]["proof"]["seed"] is not None
    assert revealed[0] == table.get(f"/v1/rolls/{made[0]['id']}")


def test_a_roll_carries_the_time_of_its_event(table: Table) -> None:
    described = table.get(f"/v1/rulesets/{table.ruleset}")
    check = described["checks"][0]
    request = {k: v for k, v in check["example"].items() if k not in check["modifier_fields"]}
    body = {"check": check["name"], "request": request, "character_id": create(table, "Lu")}
    start = table.position()
    made = table.post(f"/v1/scenes/{table.scene()}/rolls", body)
    log = listed(table, f"/v1/campaigns/{table.campaign_id}/events", after=start)["items"]
    [entry] = [e for e in log if e["type"] == "Roll.Recorded" and e["originator_id"] == made["id"]]
    moment = datetime.fromisoformat(entry["timestamp"])
    assert datetime.fromisoformat(made["recorded_at"]) == moment
    assert table.get(f"/v1/rolls/{made['id']}")["recorded_at"] == made["recorded_at"]
