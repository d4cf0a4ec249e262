"""`chronicle serve --workers N`: several server processes on one store, the views in one process
beside them (never one runner per worker).

On SQLite only (docs/testing.md, "Rulings"): there the workers share one file, its locks and the
views' cross-process wake-ups. Several processes writing one PostgreSQL database are
tests/e2e/test_replicas.py's, and racing writes on each store tests/api/test_concurrency.py's."""

from __future__ import annotations

import contextlib
import inspect
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from api.settings import Settings
from tests.server import loopback_client, running_server

# uvicorn's own wait for a worker's health ping, which `chronicle serve` lengthens (api/cli.py
# WORKER_HEALTHCHECK_SECONDS).
UVICORN_HEALTHCHECK_SECONDS: float = (
    inspect.signature(uvicorn.Config).parameters["timeout_worker_healthcheck"].default
)


def children_of(pid: int) -> dict[int, str]:
    """The command lines of a process's children by their pids, from /proc."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            if parent == pid:
                command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found[int(stat.parent.name)] = command
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile
    return found


def workers_of(pid: int) -> list[int]:
    """uvicorn's worker processes under a `serve --workers` process."""
    return sorted(
        p for p, command in children_of(pid).items() if "--multiprocessing-fork" in command
    )


def ok(response: httpx.Response, status: int = 201) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def scene_with_a_hero(http: httpx.Client, described: dict[str, Any]) -> tuple[str, Any]:
    """A new campaign's open scene and a roll of its hero's trait there (and the GM's token)."""
    created = ok(http.post("/v1/campaigns", json={"name": "Two", "ruleset": "wcbh"}))
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    campaign = created["id"]

    def made(path: str, body: dict[str, Any]) -> str:
        return str(ok(http.post(path, json=body, headers=gm))["id"])

    hero = {"name": "Nova", "side": "hero", "sheet": described["example_sheet"]}
    hero_id = made(f"/v1/campaigns/{campaign}/characters", hero)
    story = made(f"/v1/campaigns/{campaign}/stories", {"title": "S"})
    issue = made(f"/v1/stories/{story}/issues", {"title": "I"})
    scene = made(f"/v1/issues/{issue}/scenes", {"title": "Sc"})
    trait = next(c for c in described["checks"] if c["name"] == "trait")
    body = {"check": "trait", "request": trait["example"], "character_id": hero_id}
    return campaign, (f"/v1/scenes/{scene}/rolls", body, gm)


def test_workers_answer_concurrent_rolls_and_one_views_process_follows_them(
    tmp_path: Path,
) -> None:
    with (
        running_server(Settings(data_dir=tmp_path), "--workers", "2") as server,
        loopback_client(base_url=server.url, timeout=60) as http,
    ):
        described = ok(http.get("/v1/rulesets/wcbh"), 200)
        tables = [scene_with_a_hero(http, described) for _ in range(4)]

        def roll(n: int) -> Any:
            path, body, gm = tables[n % len(tables)][1]
            return ok(http.post(path, json=body, headers=gm))

        with ThreadPoolExecutor(8) as pool:
            rolls = list(pool.map(roll, range(24)))
        for campaign, (_, _, gm) in tables:
            mine = [r for r in rolls if r["campaign_id"] == campaign]
            assert sorted(r["nonce"] for r in mine) == list(range(6))  # none lost, none twice
            last = max(r["position"] for r in mine)
            events = f"/v1/campaigns/{campaign}/events?min_position={last}&limit=1000"
            logged = {
                item["originator_id"] for item in ok(http.get(events, headers=gm), 200)["items"]
            }
            assert {r["id"] for r in mine} <= logged  # the views process saw every roll
        children = children_of(server.pid)
        views = [c for c in children.values() if "api.cli project" in c]
        assert len(views) == 1, children
        workers = workers_of(server.pid)
        assert len(workers) == 2, children

        # A worker kept from running longer than uvicorn's own health-ping wait (the stop is the
        # stall tested, not a wait for something) is not killed and replaced: it answers again.
        os.kill(workers[0], signal.SIGSTOP)
        try:
            time.sleep(UVICORN_HEALTHCHECK_SECONDS + 1.5)
        finally:
            with contextlib.suppress(ProcessLookupError):  # the assertion below says why
                os.kill(workers[0], signal.SIGCONT)
        assert [roll(n)["nonce"] for n in range(4)] == [6] * 4
        assert workers_of(server.pid) == workers, children_of(server.pid)
