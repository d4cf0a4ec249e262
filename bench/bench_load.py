"""The load benchmark of issue #17: real `chronicle serve` processes, `wrk`, this tree against the
baseline commit in the same run, as ratios.

Run: .venv/bin/python bench/bench_load.py [--backends sqlite postgres] [--seconds 10] [--no-baseline]
     [--profile] (PostgreSQL at CHRONICLE_TEST_POSTGRES_URL; wrk from Debian; docs/performance.md)

For each backend, and for the baseline (3d1068e, checked out once into a cached worktree under
/tmp/chronicle-bench with its own venv) and this tree, on a fresh store (SQLite file; a new
PostgreSQL database dropped after): seed WCBH campaigns through the API (campaign, hero, story,
game Issue, open scene), measure the idle server's CPU, `/health` requests/s, trait checks to a
random campaign per request at 1, 10 and 50 connections (rolls/s, p50, p99), the commit-to-view
lag at a steady rate, then a `chronicle project` worker building the views of a copy of that log
from zero against reading and decoding the same log. Prints Markdown tables and the targets.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load.probes import CatchUp, Positions, catch_up, idle_cpu, lag, wait_for_views
from bench.load.profile import profile, profile_lines
from bench.load.report import Measured, Results, render
from bench.load.servers import (
    BASELINE_COMMIT,
    Process,
    Store,
    Tree,
    baseline_tree,
    current_tree,
    fresh_store,
    log_without_views,
    serving,
)
from bench.load.workload import seed, write_targets, wrk


def options(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--backends", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"])
    add("--connections", nargs="+", type=int, default=[1, 10, 50])
    add("--seconds", type=float, default=10.0, help="per wrk run (rolls at each level)")
    add("--warmup", type=float, default=3.0, help="an unreported wrk run first (10 connections)")
    add("--campaigns", type=int, default=200)
    add("--health-seconds", type=float, default=5.0)
    add("--health-connections", type=int, default=50)
    add("--idle-seconds", type=float, default=5.0)
    add("--lag-rate", type=float, default=50.0, help="rolls/s from one client for the lag")
    add("--lag-seconds", type=float, default=6.0)
    add(
        "--catch-up-seconds",
        type=float,
        default=20.0,
        help="time the views worker this long at most",
    )
    add("--no-catch-up", action="store_true", help="skip the views worker's catch-up")
    add("--no-baseline", action="store_true", help="measure this tree only")
    add("--baseline", default=BASELINE_COMMIT, help="the commit to compare with")
    add("--serve-arg", action="append", default=[], help="passed to this tree's `serve` only")
    add("--profile", action="store_true", help="py-spy each tree on the first backend")
    add("--profile-seconds", type=float, default=10.0)
    add("--json", type=Path, help="also write every figure here")
    return parser.parse_args(argv)


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def measure(tree: Tree, backend: str, opts: argparse.Namespace) -> Measured:
    measured = Measured(tree.name, backend)
    extra = opts.serve_arg if tree.name == "current" else []
    with fresh_store(backend) as store:
        with serving(tree, store, *extra) as server:
            say(f"{tree.name} on {backend}: seeding {opts.campaigns} campaigns at {server.url}")
            targets = seed(server.url, opts.campaigns)
            positions = Positions(store)
            wait_for_views(positions)
            measured.idle = idle_cpu(server.pid, opts.idle_seconds)
            measured.health = wrk(
                f"{server.url}/health", opts.health_connections, opts.health_seconds
            )
            with tempfile.TemporaryDirectory() as work:
                file = write_targets(targets, Path(work) / "targets.tsv")
                wrk(server.url, 10, opts.warmup, file)
                for connections in opts.connections:
                    measured.rolls[connections] = wrk(server.url, connections, opts.seconds, file)
                    say(
                        f"  {connections:3} connections: {measured.rolls[connections].rate:,.0f} rolls/s"
                    )
                wait_for_views(positions)
                measured.lag = lag(server, store, targets, opts.lag_rate, opts.lag_seconds)
                if opts.profile and backend == opts.backends[0]:
                    show_profile(server, file, Path(work), tree.name, opts)
            positions.close()
        if not opts.no_catch_up:
            measured.catch_up = rebuilt(tree, store, opts.catch_up_seconds)
    return measured


def rebuilt(tree: Tree, store: Store, seconds: float) -> CatchUp:
    with log_without_views(store) as copy:
        result = catch_up(tree, copy, seconds)
    say(f"  catch-up: {result.events} events at {result.rate:,.0f}/s (raw {result.raw:,.0f}/s)")
    return result


def show_profile(
    server: Process, file: Path, work: Path, tree: str, opts: argparse.Namespace
) -> None:
    found = profile(server, file, 10, opts.profile_seconds, work / "profile.txt")
    print(f"\n### Profile: {tree}\n\n" + "\n".join(profile_lines(found)) + "\n", flush=True)


def main(argv: list[str] | None = None) -> None:
    opts = options(argv)
    trees = [current_tree()] if opts.no_baseline else [baseline_tree(opts.baseline), current_tree()]
    results: Results = {}
    started = time.monotonic()
    for backend in opts.backends:
        for tree in trees:
            results[(tree.name, backend)] = measure(tree, backend, opts)
    names = [t.name for t in trees]
    print(f"\n{render(results, opts.backends, names)}\n")
    say(f"done in {time.monotonic() - started:.0f} s")
    if opts.json:
        rows = [asdict(m) for m in results.values()]
        opts.json.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
