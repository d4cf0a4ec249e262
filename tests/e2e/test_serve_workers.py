"""`chronicle serve --workers N`: several server processes on one store, the views in one process
beside them (never one runner per worker).

On SQLite only (docs/testing.md, "Rulings"): there the workers share one file, its locks and the
views' cross-process wake-ups. Several processes writing one PostgreSQL database are
tests/e2e/test_replicas.py's, and racing writes on each store tests/api/test_concurrency.py's."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from api.settings import Settings
from tests.server import loopback_client, running_server


def children_of(pid: int) -> list[str]:
    """The command lines of a process's children, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            if parent == pid:
                found.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile
    return found


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
    views = [c for c in children if "api.cli project" in c]
    assert len(views) == 1, children
    workers = [c for c in children if "--multiprocessing-fork" in c]  # uvicorn's workers
    assert len(workers) == 2, children
