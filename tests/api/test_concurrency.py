"""If-Match, retries of version clashes, and Idempotency-Key, including racing threads."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from api.main import create_app
from api.settings import Settings
from domain.application import command
from tests.api.support import Table, bearer, ok
from tests.client import TestClient

# Version clashes, retries and stored idempotent responses are the store's own behaviour.
pytestmark = pytest.mark.store


def test_if_match_on_a_stale_version_is_409_with_the_current_version(table: Table) -> None:
    scene_id = table.scene()
    table.post(f"/v1/scenes/{scene_id}/pages", status=200)  # version 2
    before = table.position()
    response = table.client.post(
        f"/v1/scenes/{scene_id}/pages", headers={**bearer(table.gm), "If-Match": '"1"'}
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert (error["code"], error["current_version"]) == ("version_conflict", 2)
    assert table.position() == before
    assert table.get(f"/v1/scenes/{scene_id}")["page"] == 2


def test_if_match_on_the_current_version_writes(table: Table) -> None:
    scene_id = table.scene()
    response = table.client.post(
        f"/v1/scenes/{scene_id}/pages", headers={**bearer(table.gm), "If-Match": '"1"'}
    )
    assert ok(response)["page"] == 2
    assert response.headers["ETag"] == '"2"'


def test_a_malformed_if_match_is_refused(table: Table) -> None:
    response = table.client.post(
        f"/v1/scenes/{table.scene()}/pages", headers={**bearer(table.gm), "If-Match": "yesterday"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "If-Match"


def test_racing_threads_without_if_match_are_all_applied_by_retrying(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        scene_id = table.scene()
        barrier = threading.Barrier(8)

        def advance(_: int) -> int:
            barrier.wait()
            return client.post(f"/v1/scenes/{scene_id}/pages", headers=bearer(table.gm)).status_code

        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(advance, range(8)))
        assert statuses == [200] * 8
        assert table.get(f"/v1/scenes/{scene_id}")["page"] == 9


def test_racing_threads_with_the_same_if_match_let_exactly_one_win(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        scene_id = table.scene()
        barrier = threading.Barrier(6)

        def advance(_: int) -> int:
            barrier.wait()
            headers = {**bearer(table.gm), "If-Match": '"1"'}
            return client.post(f"/v1/scenes/{scene_id}/pages", headers=headers).status_code

        with ThreadPoolExecutor(6) as pool:
            statuses = sorted(pool.map(advance, range(6)))
        assert statuses == [200] + [409] * 5
        assert table.get(f"/v1/scenes/{scene_id}")["page"] == 2


def test_the_same_idempotency_key_and_body_return_the_first_response_and_write_once(
    table: Table,
) -> None:
    headers = {**bearer(table.gm), "Idempotency-Key": "story-1"}
    path = f"/v1/campaigns/{table.campaign_id}/stories"
    first = table.client.post(path, json={"title": "Once"}, headers=headers)
    position = table.position()
    second = table.client.post(path, json={"title": "Once"}, headers=headers)
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert table.position() == position


def test_the_same_idempotency_key_with_another_body_is_422(table: Table) -> None:
    headers = {**bearer(table.gm), "Idempotency-Key": "story-2"}
    path = f"/v1/campaigns/{table.campaign_id}/stories"
    ok(table.client.post(path, json={"title": "Once"}, headers=headers), 201)
    position = table.position()
    other = table.client.post(path, json={"title": "Twice"}, headers=headers)
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert table.position() == position


def test_idempotency_keys_are_scoped_to_the_caller(table: Table) -> None:
    path = f"/v1/campaigns/{table.campaign_id}/characters"
    body = {"name": "Nova", "side": "hero", "sheet": table.example_sheet}
    mine = table.client.post(
        path, json=body, headers={**bearer(table.player), "Idempotency-Key": "k"}
    )
    theirs = table.client.post(
        path, json=body, headers={**bearer(table.other_player), "Idempotency-Key": "k"}
    )
    assert ok(mine, 201)["id"] != ok(theirs, 201)["id"]


def test_a_campaign_created_twice_with_one_key_returns_the_same_token_after_a_restart(
    settings: Settings,
) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}  # anonymous keys carry 128 random bits
    body = {"name": "Night City", "ruleset": "wcbh"}
    with TestClient(create_app(settings)) as client:
        first = ok(client.post("/v1/campaigns", json=body, headers=headers), 201)
    with TestClient(create_app(settings)) as client:
        position = ok(client.get("/health"))["position"]
        again = ok(client.post("/v1/campaigns", json=body, headers=headers), 201)
        assert again == first
        assert ok(client.get("/health"))["position"] == position
        assert (
            client.get(
                f"/v1/campaigns/{first['id']}", headers=bearer(again["gm_token"])
            ).status_code
            == 200
        )


def test_a_duplicate_arriving_while_the_first_is_in_flight_is_409(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = table.client.app.state.chronicle  # type: ignore[attr-defined]
    entered, release = threading.Event(), threading.Event()
    original = app.start_story.__wrapped__

    def slow_start_story(self, ctx, *args, **kwargs):  # type: ignore[no-untyped-def]
        entered.set()
        release.wait(timeout=10)
        return original(self, ctx, *args, **kwargs)

    monkeypatch.setattr(type(app), "start_story", command(slow_start_story))
    headers = {**bearer(table.gm), "Idempotency-Key": "slow"}
    path = f"/v1/campaigns/{table.campaign_id}/stories"
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(table.client.post, path, json={"title": "Slow"}, headers=headers)
        assert entered.wait(timeout=10)
        duplicate = table.client.post(path, json={"title": "Slow"}, headers=headers)
        release.set()
        assert duplicate.status_code == 409
        assert duplicate.json()["error"]["code"] == "idempotency_in_flight"
        assert first.result().status_code == 201
