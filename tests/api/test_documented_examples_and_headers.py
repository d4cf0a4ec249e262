"""The examples of the OpenAPI document are bodies the real endpoints accept (the lifecycle and a
roll, with real ids put in), and the headers the answers carry are the ones the document declares
for that operation and status."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from api.main import create_app
from api.openapi import request_examples
from api.settings import Settings
from tests.api.support import bearer, ok, openapi_document

DOC = openapi_document()
EXAMPLES = request_examples()
WATCHED = ("etag", "idempotent-replayed", "retry-after")  # the headers api/openapi.py declares


def declared(operation_id: str, status: int) -> set[str]:
    for item in DOC["paths"].values():
        for operation in item.values():
            if operation.get("operationId") == operation_id:
                headers = operation["responses"][str(status)].get("headers", {})
                return {name.lower() for name in headers}
    raise AssertionError(f"no operation {operation_id}")


def assert_declared(operation_id: str, response: Response) -> None:
    sent = {name for name in response.headers if name in WATCHED}
    assert sent, f"{operation_id} answered none of {WATCHED}"
    assert sent <= declared(operation_id, response.status_code), (operation_id, sent)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as value:
        yield value


def post(client: TestClient, op: str, path: str, token: str | None, **ids: Any) -> Response:
    headers = bearer(token) if token else {}
    response = client.post(path, json={**EXAMPLES[op], **ids}, headers=headers)
    assert response.status_code == 201, (op, response.text)
    assert_declared(op, response)
    return response


def test_the_lifecycle_examples_play_a_scene_with_the_declared_headers(client: TestClient) -> None:
    campaign = post(client, "create_campaign", "/v1/campaigns", None).json()
    gm, campaign_id = campaign["gm_token"], campaign["id"]
    base = f"/v1/campaigns/{campaign_id}"
    player = post(client, "add_member", f"{base}/members", gm).json()
    hero = post(client, "create_character", f"{base}/characters", gm, owner_member_id=player["id"])
    story = post(client, "start_story", f"{base}/stories", gm).json()
    issue = post(client, "start_issue", f"/v1/stories/{story['id']}/issues", gm).json()
    scene = post(client, "open_scene", f"/v1/issues/{issue['id']}/scenes", gm).json()
    keyed = {**bearer(gm), "Idempotency-Key": "rooftop-roll-0001"}
    body = {**EXAMPLES["roll"], "character_id": hero.json()["id"]}
    for replayed in (False, True):
        rolled = client.post(f"/v1/scenes/{scene['id']}/rolls", json=body, headers=keyed)
        assert rolled.status_code == 201, rolled.text
        assert ("idempotent-replayed" in rolled.headers) is replayed
        assert_declared("roll", rolled)
    read = client.get(base, headers=bearer(gm))
    ok(read)
    assert_declared("get_campaign", read)


def test_a_version_conflict_answers_the_declared_etag(client: TestClient) -> None:
    campaign = post(client, "create_campaign", "/v1/campaigns", None).json()
    path = f"/v1/campaigns/{campaign['id']}/stories"
    stale = {**bearer(campaign["gm_token"]), "If-Match": '"999"'}
    refused = client.post(path, json=EXAMPLES["start_story"], headers=stale)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "version_conflict"
    assert_declared("start_story", refused)
