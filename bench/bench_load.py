"""The load benchmark of issue #17: real `chronicle serve` processes, `wrk`, this tree against the
baseline commit in the same run, as ratios.

Run: .venv/bin/python bench/bench_load.py [--backends sqlite postgres] [--seconds 10] [--no-baseline]
     [--profile] (PostgreSQL at CHRONICLE_TEST_POSTGRES_URL; wrk from Debian; docs/performance.md)

Per backend, the baseline (3d1068e, checked out once into a cached worktree under
/tmp/chronicle-bench with its own venv) and this tree each get a fresh store (a SQLite file; a new
PostgreSQL database, dropped after) and a real server. Step by step, one server measured while the
other is frozen: seed WCBH campaigns through the API (campaign, hero, story, game Issue, open
scene), the idle server's CPU, `/health` requests/s, trait checks to a random campaign per request
at 1, 10 and 50 connections (rolls/s, p50, p99), the commit-to-view lag at a steady rate; then a
`chronicle project` worker builds the views of a copy of each log from zero, against reading and
decoding the same log. Prints Markdown tables, the ratios and issue #17's targets.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load.probes import CatchUp, Positions, catch_up, idle_cpu, lag, wait_for_views
from bench.load.profile import profile, profile_lines
from bench.load.report import Measured, Results, render
from bench.load.servers import (
    BASELINE_COMMIT,
    CACHE,
    Process,
    Store,
    Tree,
    baseline_tree,
    current_tree,
    fresh_store,
    log_without_views,
    paused,
    serving,
)
from bench.load.workload import Target, seed, write_targets, wrk


def setting(text: str) -> tuple[str, str]:
    """`NAME=VALUE` of `--serve-env`."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


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
    add(
        "--serve-env",
        action="append",
        default=[],
        type=setting,
        metavar="NAME=VALUE",
        help="in this tree's server's environment only, e.g. CHRONICLE_POSTGRES_POOL_SIZE=4",
    )
    add("--profile", action="store_true", help="py-spy each tree on the first backend")
    add("--profile-seconds", type=float, default=10.0)
    add("--profile-connections", type=int, default=1, help="1: one roll at a time")
    add("--profile-dir", type=Path, default=CACHE / "profiles", help="py-spy's raw stacks go here")
    add("--json", type=Path, help="also write every figure here")
    return parser.parse_args(argv)


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


@dataclass
class Run:
    """One checkout's server on one backend, measured phase by phase beside the other's."""

    tree: Tree
    store: Store
    server: Process
    measured: Measured
    targets: list[Target] = field(default_factory=list)
    file: Path = Path()


Step = Callable[[Run, argparse.Namespace], None]


def seeded(run: Run, opts: argparse.Namespace) -> None:
    say(f"{run.tree.name} on {run.store.backend}: seeding {opts.campaigns} campaigns")
    run.targets = seed(run.server.url, opts.campaigns)
    write_targets(run.targets, run.file)
    settled(run)


def settled(run: Run) -> None:
    with Positions(run.store) as positions:
        wait_for_views(positions)


def idle(run: Run, opts: argparse.Namespace) -> None:
    run.measured.idle = idle_cpu(run.server.pid, opts.idle_seconds)


def health(run: Run, opts: argparse.Namespace) -> None:
    url = f"{run.server.url}/health"
    run.measured.health = wrk(url, opts.health_connections, opts.health_seconds)


def warmed(run: Run, opts: argparse.Namespace) -> None:
    wrk(run.server.url, 10, opts.warmup, run.file)


def rolls_at(connections: int) -> Step:
    def rolls(run: Run, opts: argparse.Namespace) -> None:
        load = wrk(run.server.url, connections, opts.seconds, run.file)
        run.measured.rolls[connections] = load
        say(f"  {run.tree.name}: {connections:3} connections, {load.rate:,.0f} rolls/s")

    return rolls


def lagged(run: Run, opts: argparse.Namespace) -> None:
    settled(run)  # the backlog of the load is not lag
    run.measured.lag = lag(run.server, run.store, run.targets, opts.lag_rate, opts.lag_seconds)


def profiled(run: Run, opts: argparse.Namespace) -> None:
    opts.profile_dir.mkdir(parents=True, exist_ok=True)
    raw = opts.profile_dir / f"{run.tree.name}-{run.store.backend}.txt"
    found = profile(run.server, run.file, opts.profile_connections, opts.profile_seconds, raw)
    print(
        f"\n### Profile: {run.tree.name} ({raw})\n\n" + "\n".join(profile_lines(found)) + "\n",
        flush=True,
    )


def steps(backend: str, opts: argparse.Namespace) -> list[Step]:
    plan: list[Step] = [seeded, idle, health, warmed]
    plan += [rolls_at(c) for c in opts.connections]
    plan.append(lagged)
    if opts.profile and backend == opts.backends[0]:
        plan.append(profiled)
    return plan


def measure(trees: list[Tree], backend: str, opts: argparse.Namespace) -> list[Measured]:
    """Both servers run side by side; each step measures one while the other is frozen, in
    alternating order (A B, B A, ...), so that the machine's drift falls on both alike."""
    with ExitStack() as stores, tempfile.TemporaryDirectory() as work:
        runs = []
        with ExitStack() as servers:
            for tree in trees:
                store = stores.enter_context(fresh_store(backend))
                if tree.name == "current":
                    store = replace(store, extra=tuple(opts.serve_env))
                extra = opts.serve_arg if tree.name == "current" else []
                server = servers.enter_context(serving(tree, store, *extra))
                file = Path(work) / f"{tree.name}.tsv"
                runs.append(Run(tree, store, server, Measured(tree.name, backend), file=file))
            for n, step in enumerate(steps(backend, opts)):
                for run in runs if n % 2 == 0 else runs[::-1]:
                    with paused([other.server for other in runs if other is not run]):
                        try:
                            step(run, opts)
                        except RuntimeError:
                            print_server_logs(runs)
                            raise
        if not opts.no_catch_up:
            for run in runs:
                run.measured.catch_up = rebuilt(run.tree, run.store, opts.catch_up_seconds)
    return [run.measured for run in runs]


def print_server_logs(runs: list[Run]) -> None:
    """What each server last wrote besides its access lines (in either tree's log format): why
    one stopped answering."""
    for run in runs:
        lines = [line for line in run.server.tail(4000).splitlines() if "HTTP/1.1" not in line]
        print(f"--- {run.tree.name}'s server, last lines:", *lines[-40:], sep="\n", file=sys.stderr)


def rebuilt(tree: Tree, store: Store, seconds: float) -> CatchUp:
    with log_without_views(store) as copy:
        result = catch_up(tree, copy, seconds)
    say(
        f"  {tree.name} catch-up: {result.events} events at {result.rate:,.0f}/s (raw {result.raw:,.0f}/s)"
    )
    return result


def main(argv: list[str] | None = None) -> None:
    opts = options(argv)
    trees = [current_tree()] if opts.no_baseline else [baseline_tree(opts.baseline), current_tree()]
    results: Results = {}
    started = time.monotonic()
    for backend in opts.backends:
        for measured in measure(trees, backend, opts):
            results[(measured.tree, backend)] = measured
    names = [t.name for t in trees]
    print(f"\n{render(results, opts.backends, names)}\n")
    say(f"done in {time.monotonic() - started:.0f} s")
    if opts.json:
        rows = [asdict(m) for m in results.values()]
        opts.json.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
