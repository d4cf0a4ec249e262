"""The load benchmark's pieces against a real `chronicle serve` of this tree (bench/bench_load.py):
seeding through the API, wrk with the roll script, the lag probe and a views worker catching up on
a copy of the log. Small and short: what is checked is that each piece measures the right thing,
never how fast anything is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.load.probes import Positions, catch_up, cpu_seconds, lag, wait_for_views
from bench.load.servers import (
    Process,
    Store,
    current_tree,
    fresh_store,
    log_without_views,
    paused,
    process_tree,
    serving,
)
from bench.load.workload import Target, seed, write_targets, wrk
from tests.server import loopback_client


def test_the_harness_seeds_loads_probes_and_catches_up_on_one_server(tmp_path: Path) -> None:
    """Each piece of the harness in turn on one seeded server (a server and its seeding cost
    seconds). SQLite only: what is checked is the harness, not the store (docs/testing.md,
    "Rulings"); the stores' views are tested by tests/projections on both backends."""
    with fresh_store("sqlite") as store:
        with serving(current_tree(), store) as server:
            targets = seed(server.url, 3, threads=2)
            seeding_makes_one_campaign_with_a_hero_and_an_open_scene_each(server, store, targets)
            wrk_rolls_at_the_seeded_campaigns_and_every_roll_is_written(
                server, store, targets, tmp_path
            )
            wrk_without_targets_gets_the_url_it_is_given(server)
            the_lag_probe_sees_every_roll_reach_the_views(server, store, targets)
            the_server_process_tree_uses_cpu_time(server)
        # The copy needs a stopped server.
        a_views_worker_builds_the_views_of_a_copy_of_the_log_from_zero(store)


def seeding_makes_one_campaign_with_a_hero_and_an_open_scene_each(
    server: Process, store: Store, targets: list[Target]
) -> None:
    assert len({t.scene_id for t in targets}) == 3
    with Positions(store) as positions:
        wait_for_views(positions)  # the scenes are read from the views
    with loopback_client(base_url=server.url, timeout=30) as http:
        for target in targets:
            headers = {"Authorization": f"Bearer {target.token}"}
            scene = http.get(f"/v1/scenes/{target.scene_id}", headers=headers).json()
            assert scene["status"] == "open"
            rolled = http.post(target.path, json=target.body, headers=headers)
            assert rolled.status_code == 201, rolled.text
            assert rolled.json()["character_id"] == target.body["character_id"]


def wrk_rolls_at_the_seeded_campaigns_and_every_roll_is_written(
    server: Process, store: Store, targets: list[Target], tmp_path: Path
) -> None:
    file = write_targets(targets, tmp_path / "targets.tsv")
    with Positions(store) as positions:
        before = positions.head()
        done = wrk(server.url, 2, 1.0, file)
        # A roll writes at least one event (a last answer may land after wrk has stopped).
        assert done.requests > 0 and done.errors == 0
        assert positions.head() - before >= done.requests
        head = wait_for_views(positions)
        assert head >= before + done.requests
        assert positions.views() >= head


def wrk_without_targets_gets_the_url_it_is_given(server: Process) -> None:
    done = wrk(f"{server.url}/health", 1, 1)
    assert done.requests > 0 and done.errors == 0
    missing = wrk(f"{server.url}/no-such-page", 1, 1)
    assert missing.requests > 0 and missing.errors == missing.requests  # 404s are not counted


def the_lag_probe_sees_every_roll_reach_the_views(
    server: Process, store: Store, targets: list[Target]
) -> None:
    found = lag(server, store, targets, rate=20, seconds=0.5)
    assert found.samples == 10
    assert 0 <= found.p50 <= found.p99


def the_server_process_tree_uses_cpu_time(server: Process) -> None:
    before = cpu_seconds(server.pid)
    with loopback_client(timeout=30) as http:
        http.get(f"{server.url}/health")
    assert cpu_seconds(server.pid) > before


def a_views_worker_builds_the_views_of_a_copy_of_the_log_from_zero(store: Store) -> None:
    with Positions(store) as original:
        head = original.head()
    with log_without_views(store) as copy:
        with Positions(copy) as positions:
            assert (positions.head(), positions.views()) == (head, 0)
        found = catch_up(current_tree(), copy)
        with Positions(copy) as positions:
            assert positions.views() == head
    assert 0 <= found.events < head
    assert found.raw > 0


def state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]


def test_a_paused_server_is_stopped_with_its_children_and_goes_on_after(tmp_path: Path) -> None:
    grandchild = "import signal; signal.pause()"
    child = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {grandchild!r}])"
    popen = subprocess.Popen([sys.executable, "-c", child])
    tree = [popen.pid]
    try:
        deadline = time.monotonic() + 30
        while len(tree := process_tree(popen.pid)) < 2:  # the grandchild is starting
            assert time.monotonic() < deadline, "the child never started its own child"
        with paused([Process(popen, tmp_path / "log")]):
            assert {state(pid) for pid in tree} == {"T"}
        assert "T" not in {state(pid) for pid in tree}
    finally:
        for pid in reversed(tree):
            os.kill(pid, signal.SIGKILL)
        popen.wait()
