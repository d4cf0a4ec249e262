"""What eventsourcing's `LOCK TABLE ... IN EXCLUSIVE MODE` costs, and what sharding by campaign buys.

Run: .venv/bin/python bench/bench_pg_lock.py [--seconds 5] [--writers 1,2,4,8]
(PostgreSQL at CHRONICLE_TEST_POSTGRES_URL.) K writer processes each save one-event aggregates as
fast as they can, for the same time, in three layouts measured in the same run:
- `locked`: one database, eventsourcing's recorder as we run it (every insert takes the table lock,
  so notification ids are in commit order);
- `unlocked`: the same without the lock: what the lock costs (for measurement only: readers
  following the log could then skip events committed late with lower ids);
- `4 shards`: the locked recorder on four databases, each writer on the shard of its campaigns:
  four locks instead of one.
Prints saves/s, the ratio to `locked` at the same K, p50/p99 save latency, and `waiting`: how many
writers wait for a table lock at any moment (sampled every 10 ms in pg_locks).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.settings import Settings
from domain.pg_schema import APPEND_FUNCTION, APPEND_LOCK, LockedApplicationRecorder
from tests.conftest import temporary_database


class Tick(Aggregate):
    @event("Ticked")
    def tick(self) -> None:
        pass


class UnlockedRecorder(LockedApplicationRecorder):
    """The recorder's one-statement save without its table lock, under a function name of its
    own: only to measure what the lock costs."""

    append_sql = APPEND_FUNCTION.replace(APPEND_LOCK, "")
    append_name = "bench_unlocked_append_{table}"


def writer(url: str, unlocked: bool, seconds: float, start_at: float, out: Any) -> None:
    env = Settings(database_url=url, postgres_pool_size=2).eventsourcing_env()
    if unlocked:
        env["APPLICATION_RECORDER_TOPIC"] = "bench_pg_lock:UnlockedRecorder"
    app: Any = Application(env)
    app.save(Tick())  # connect and prepare before the clock starts
    while time.time() < start_at:
        time.sleep(0.001)
    latencies = []
    end = start_at + seconds
    while (now := time.perf_counter()) and time.time() < end:
        app.save(Tick())
        latencies.append(time.perf_counter() - now)
    app.close()
    out.put(latencies)


def waiting(urls: list[str], start_at: float, seconds: float, out: Any) -> None:
    """Samples, every 10 ms while the writers run, how many of them wait for a table lock."""
    connections = [psycopg.connect(url, autocommit=True) for url in urls]
    while time.time() < start_at:
        time.sleep(0.001)
    samples = []
    while time.time() < start_at + seconds:
        samples.append(sum(c.execute(WAITING).fetchone()[0] for c in connections))  # type: ignore[index]
        time.sleep(0.01)
    out.put(statistics.fmean(samples) if samples else 0.0)


WAITING = (
    "SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'relation' "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def run(
    urls: list[str], writers: int, unlocked: bool, seconds: float
) -> tuple[float, list[float], float]:
    out: Any = multiprocessing.Queue()
    waits: Any = multiprocessing.Queue()
    start_at = time.time() + 2.0
    sampler = multiprocessing.Process(target=waiting, args=(urls, start_at, seconds, waits))
    sampler.start()
    procs = [
        multiprocessing.Process(
            target=writer, args=(urls[i % len(urls)], unlocked, seconds, start_at, out)
        )
        for i in range(writers)
    ]
    for p in procs:
        p.start()
    latencies = [x for _ in procs for x in out.get()]
    for p in procs:
        p.join()
    waited = waits.get()
    sampler.join()
    return len(latencies) / seconds, latencies, waited


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", default="1,2,4,8")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))  # the writers find UnlockedRecorder by topic
    print(
        f"{'layout':10} {'writers':>7} {'saves/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} {'waiting':>8}"
    )
    with ExitStack() as stack:
        shards = [stack.enter_context(temporary_database()) for _ in range(4)]
        for k in (int(w) for w in args.writers.split(",")):
            base = None
            for layout, urls, unlocked in (
                ("locked", shards[:1], False),
                ("unlocked", shards[:1], True),
                ("4 shards", shards, False),
            ):
                rate, lat, waited = run(urls, k, unlocked, args.seconds)
                base = base or rate
                p50, p99 = (statistics.quantiles(lat, n=100)[i] * 1000 for i in (49, 98))
                print(
                    f"{layout:10} {k:7} {rate:8.0f} {rate / base:6.2f} {p50:7.2f} {p99:7.2f} "
                    f"{waited:8.2f}"
                )


if __name__ == "__main__":
    main()
