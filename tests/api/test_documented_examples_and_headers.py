"""The examples of the OpenAPI document are bodies the real endpoints accept (the shared operations
played in order, with real ids put in), and the headers the answers carry are the ones the document
declares for that operation and status."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from httpx import Response

from api.main import create_app
from api.openapi import operations, request_examples
from api.settings import Settings
from tests.api.support import bearer, openapi_document
from tests.client import TestClient

EXAMPLES = request_examples()
WATCHED = ("etag", "idempotent-replayed", "retry-after")  # the headers api/openapi.py declares


@functools.cache
def routes() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId -> (method, path, operation). Built when a test runs, not at collection: the
    document takes a second of every xdist worker's start, and one worker runs this module."""
    doc = openapi_document()
    found = {
        operation["operationId"]: (method, path, operation)
        for path, item in doc["paths"].items()
        for method, operation in item.items()
    }
    assert {op["operationId"] for op in operations(doc)} == found.keys()
    return found


def assert_declared(operation_id: str, response: Response) -> None:
    sent = {name for name in response.headers if name in WATCHED}
    assert sent, f"{operation_id} answered none of {WATCHED}"
    declared = routes()[operation_id][2]["responses"][str(response.status_code)].get("headers", {})
    assert sent <= {name.lower() for name in declared}, (operation_id, sent)


class Table:
    """Calls operations by operationId with their document example, real ids put in."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.token: str | None = None

    def call(self, operation_id: str, ids: dict[str, str] | None = None, **body: Any) -> Any:
        method, path, _ = routes()[operation_id]
        headers = bearer(self.token) if self.token else {}
        json = {**EXAMPLES[operation_id], **body}
        answer = self.client.request(method, path.format(**(ids or {})), json=json, headers=headers)
        assert answer.status_code in (200, 201), (operation_id, answer.text)
        assert_declared(operation_id, answer)
        return answer.json()


@pytest.fixture
def table(settings: Settings) -> Iterator[Table]:
    with TestClient(create_app(settings)) as client:
        yield Table(client)


def test_the_shared_examples_play_a_campaign_with_the_declared_headers(table: Table) -> None:
    campaign = table.call("create_campaign")
    table.token = campaign["gm_token"]
    at = {"campaign_id": campaign["id"]}
    player = table.call("add_member", at)
    table.call("rotate_member_token", {**at, "member_id": player["id"]})
    hero = table.call("create_character", at, owner_member_id=player["id"])
    mine = {"character_id": hero["id"]}
    table.call("adjust_character_resource", mine)
    table.call("replace_character_sheet", mine)
    story = table.call("start_story", at)
    issue = table.call("start_issue", {"story_id": story["id"]})
    scene = table.call("open_scene", {"issue_id": issue["id"]})
    roll = table.call("roll", {"scene_id": scene["id"]}, character_id=hero["id"])
    table.call("follow_up_roll", {"roll_id": roll["id"]})
    table.call("join_fight", {"scene_id": scene["id"]}, character_ids=[hero["id"]])
    table.call("act_first", {"scene_id": scene["id"]}, **mine)
    mission = table.call("create_mission", at)
    counter = table.call("define_mission_counter", {"mission_id": mission["id"]})
    name = EXAMPLES["define_mission_counter"]["name"]
    assert name in [c["name"] for c in counter["counters"]]
    table.call("change_mission_counter", {"mission_id": mission["id"], "counter": name})
    table.call("end_mission", {"mission_id": mission["id"]})


def test_a_replayed_command_and_a_read_answer_the_declared_headers(table: Table) -> None:
    campaign = table.call("create_campaign")
    table.token = campaign["gm_token"]
    story = table.call("start_story", {"campaign_id": campaign["id"]}, title="Once")
    keyed = {**bearer(campaign["gm_token"]), "Idempotency-Key": "start-story-0001"}
    path = f"/v1/campaigns/{campaign['id']}/stories"
    for replayed in (False, True):
        answer = table.client.post(path, json=EXAMPLES["start_story"], headers=keyed)
        assert answer.status_code == 201, answer.text
        assert ("idempotent-replayed" in answer.headers) is replayed
        assert_declared("start_story", answer)
    read = table.client.get(f"/v1/stories/{story['id']}", headers=bearer(campaign["gm_token"]))
    assert read.status_code == 200, read.text
    assert_declared("get_story", read)


def test_a_version_conflict_answers_the_declared_etag(table: Table) -> None:
    campaign = table.call("create_campaign")
    path = f"/v1/campaigns/{campaign['id']}/stories"
    stale = {**bearer(campaign["gm_token"]), "If-Match": '"999"'}
    refused = table.client.post(path, json=EXAMPLES["start_story"], headers=stale)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "version_conflict"
    assert_declared("start_story", refused)
