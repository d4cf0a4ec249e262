"""Readiness: GET /ready and `chronicle status` see the views' lag behind the log on each store,
answer 503 (exit 1) while it is over the bound and ready once the views catch up."""

from __future__ import annotations

import json

import pytest

from api.main import create_app
from api.settings import Settings
from projections.runner import Supervisor, ViewReader, open_view_store, views_env
from tests.cli import chronicle
from tests.client import TestClient

pytestmark = pytest.mark.store  # the lag is read from the store: both backends


def store_flags(settings: Settings) -> list[str]:
    if settings.database_url:
        return ["--database-url", settings.database_url]
    return ["--data-dir", str(settings.data_dir)]


def catch_up(settings: Settings, position: int) -> None:
    """Run a views runner until the views have applied `position`."""
    env = settings.eventsourcing_env()
    supervisor = Supervisor(env).start()
    store = open_view_store(views_env(env))
    try:
        assert ViewReader(store).wait(position, timeout=60)
    finally:
        supervisor.stop()
        store.datastore.close()  # type: ignore[attr-defined]


def test_ready_reports_the_lag_and_waits_for_the_views_within_the_bound(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No views runner in the server (they run elsewhere, here: not yet), and no lag allowed.
    monkeypatch.setenv("CHRONICLE_READY_MAX_LAG", "0")
    external = settings.model_copy(update={"projections": "external", "ready_max_lag": 0})
    with TestClient(create_app(external)) as client:
        created = client.post("/v1/campaigns", json={"name": "Lag", "ruleset": "wcbh"})
        head = client.get("/health").json()["position"]
        behind = client.get("/ready")
        assert behind.status_code == 503
        assert behind.headers["Retry-After"] == "2"
        error = behind.json()["error"]
        assert error["code"] == "not_ready"
        assert error["details"]["head"] == head
        assert error["details"]["lag"] == head - error["details"]["views_position"] > 0
        assert error["request_id"] == behind.headers["X-Request-Id"]
        assert created.status_code == 201

        status = chronicle("status", "--json", *store_flags(external))
        assert status.returncode == 1, status.stderr
        assert json.loads(status.stdout)["lag"] == error["details"]["lag"]

        catch_up(external, head)
        ready = client.get("/ready")
    assert ready.status_code == 200
    assert ready.json() == {
        "status": "ready",
        "head": head,
        "views_position": head,
        "lag": 0,
        "max_lag": 0,
    }
    caught_up = chronicle("status", *store_flags(external))
    assert caught_up.returncode == 0, caught_up.stderr
    assert f"log head        {head}" in caught_up.stdout
    assert "lag             0 (at most 0: ready)" in caught_up.stdout


def test_status_exits_5_when_the_store_does_not_answer(settings: Settings) -> None:
    if settings.database_url:
        flags = ["--database-url", "postgresql://postgres@127.0.0.1:1/nowhere"]
    else:
        flags = ["--data-dir", str(settings.data_dir / "nowhere")]
    ran = chronicle("status", *flags)
    assert ran.returncode == 5
    assert ran.stdout == ""
    assert "chronicle:" in ran.stderr
