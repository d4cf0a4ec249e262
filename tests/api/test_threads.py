"""Where a request's blocking work runs: a sync endpoint in one hop to a thread (api/routing.py),
the app's other hops in `request_threads` threads, and the waits for min_position beside them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from anyio import to_thread
from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, field_validator

from api.main import create_app
from api.routing import OneHopRoute
from api.settings import Settings
from tests.api.support import Table, bearer
from tests.client import TestClient


class Seen(BaseModel):
    """An answer that notes the thread its response model is checked in."""

    endpoint_thread: int
    checked_in: list[int] = []

    @field_validator("checked_in", mode="after")
    @classmethod
    def note_thread(cls, value: list[int]) -> list[int]:
        return [*value, threading.get_ident()]


def test_a_sync_endpoint_runs_in_a_thread_and_its_answer_is_checked_on_the_loop() -> None:
    """FastAPI's own route checks a sync endpoint's answer in a second hop to the pool."""
    router = APIRouter(route_class=OneHopRoute)

    @router.get("/seen", response_model=Seen)
    def seen() -> dict[str, object]:
        return {"endpoint_thread": threading.get_ident(), "checked_in": []}

    app = FastAPI()
    app.router.routes.extend(router.routes)

    @app.get("/loop")
    async def loop() -> int:
        return threading.get_ident()

    with TestClient(app) as client:
        loop_thread = client.get("/loop").json()
        answer = client.get("/seen").json()
    assert answer["endpoint_thread"] != loop_thread  # the endpoint's blocking work left the loop
    assert answer["checked_in"] == [loop_thread]


def test_every_route_of_the_app_is_a_one_hop_route() -> None:
    routes = [route for route in create_app().routes if isinstance(route, APIRoute)]
    assert routes
    assert [r.path for r in routes if not isinstance(r, OneHopRoute)] == []


def test_a_wait_for_the_views_takes_none_of_the_request_threads(tmp_path: Path) -> None:
    """One request thread, no views runner (so a wait lasts its whole 2 s): a read waiting for a
    position leaves the thread to everything else. Counted on the limiters, not timed."""
    settings = Settings(data_dir=tmp_path, projections="external", request_threads=1)
    with TestClient(create_app(settings)) as client:
        assert client.portal is not None
        limiter = client.portal.call(to_thread.current_default_thread_limiter)
        assert limiter.total_tokens == 1
        table = Table(client)
        head = client.get("/health").json()["position"]
        waits = client.app.state.wait_limiter  # type: ignore[attr-defined]
        answers: list[int] = []
        path = f"/v1/campaigns/{table.campaign_id}/events?min_position={head}"
        reader = threading.Thread(
            target=lambda: answers.append(client.get(path, headers=bearer(table.gm)).status_code)
        )
        reader.start()
        while not waits.borrowed_tokens and reader.is_alive():
            time.sleep(0.001)  # polling: until the read is in its wait (or, wrongly, done)
        assert client.get("/health").status_code == 200
        assert reader.is_alive()  # /health was answered while the read still waited
        assert limiter.borrowed_tokens == 0
        reader.join()
    assert answers == [503]  # the views never caught up: not caught up, retry later


def test_a_commands_token_is_read_in_the_commands_own_hop(client: TestClient) -> None:
    """A missing or malformed token is refused before anything, a bad header included (401); a
    well-formed one is checked against its campaign in the command's thread, after the body is
    read: so a body the route refuses is 422 even under a token that names no member
    (docs/performance.md)."""
    table = Table(client)
    story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "S"})["id"]
    path = f"/v1/stories/{story}/issues"
    unknown = table.gm[:-4] + ("AAAA" if not table.gm.endswith("AAAA") else "BBBB")
    assert client.post(path, json={"title": 7}).status_code == 401
    assert client.post(path, json={"title": "I"}, headers={"If-Match": "x"}).status_code == 401
    assert client.post(path, json={"title": 7}, headers=bearer("chr_x_y_z")).status_code == 401
    refused = client.post(path, json={"title": 7}, headers=bearer(unknown))
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "validation_error")
    answered = client.post(path, json={"title": "I"}, headers=bearer(unknown))
    assert (answered.status_code, answered.json()["error"]["code"]) == (401, "unauthenticated")
    assert client.post(path, json={"title": "I"}, headers=bearer(table.gm)).status_code == 201
