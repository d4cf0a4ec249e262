"""min_position: beyond the log's end is refused, not yet applied is 503 (retry), applied is 200."""

from __future__ import annotations

import time

from api.main import create_app
from api.settings import Settings
from projections.runner import WAIT_SECONDS, Supervisor
from tests.api.support import Table, bearer
from tests.client import TestClient


def test_a_min_position_beyond_the_end_of_the_log_is_invalid_input(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        response = client.get(
            f"/v1/campaigns/{table.campaign_id}",
            params={"min_position": table.position() + 1},
            headers=bearer(table.gm),
        )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "min_position"


def test_without_a_runner_a_query_waits_then_asks_to_retry_and_answers_once_one_runs(
    settings: Settings,
) -> None:
    external = settings.model_copy(update={"projections": "external"})
    with TestClient(create_app(external)) as client:
        table = Table(client)
        hero = table.character(table.player)
        head = table.position()
        path, query = f"/v1/characters/{hero}", {"min_position": head}

        started = time.monotonic()
        response = client.get(path, params=query, headers=bearer(table.gm))
        waited = time.monotonic() - started
        assert response.status_code == 503, response.text
        assert response.headers["Retry-After"].isdigit()
        assert response.json()["error"]["field"] == "min_position"
        assert WAIT_SECONDS * 0.9 <= waited < WAIT_SECONDS + 1.0

        supervisor = Supervisor(external.eventsourcing_env()).start()
        try:
            response = client.get(path, params=query, headers=bearer(table.gm))
        finally:
            supervisor.stop()
        assert response.status_code == 200, response.text
        assert response.json()["id"] == hero
