"""Concurrent saves on SQLite: eventsourcing's own recorder against Chronicle's group commit
(domain/sqlite_recorder.py), in one run, rounds alternating, so the machine's drift falls on both.

Run: .venv/bin/python bench/bench_group_commit.py [--threads 16] [--saves 40] [--rounds 3]
Prints saves/s (and failed saves) per round for each recorder, and the ratio of their medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.settings import Settings

RECORDERS = {
    "eventsourcing": "eventsourcing.sqlite:SQLiteApplicationRecorder",
    "group commit": "domain.sqlite_recorder:Recorder",
}


class Tick(Aggregate):
    @event("Ticked")
    def tick(self) -> None:
        pass


def rate(topic: str, threads: int, saves: int) -> tuple[float, int]:
    """Saves per second of `threads` threads, each saving `saves` new aggregates one by one, and
    how many saves failed (the pool's timeout: a writer waited too long for the lock)."""
    with tempfile.TemporaryDirectory() as data_dir:
        env = Settings(data_dir=Path(data_dir)).eventsourcing_env()
        app: Application[UUID] = Application(env={**env, "APPLICATION_RECORDER_TOPIC": topic})
        start = threading.Barrier(threads + 1)
        failed: list[Exception] = []

        def work() -> None:
            start.wait()
            for _ in range(saves):
                try:
                    app.save(Tick())
                except Exception as exc:  # noqa: BLE001 - counted, as a client would see it
                    failed.append(exc)

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        start.wait()
        began = time.perf_counter()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - began
        app.close()
    return (threads * saves - len(failed)) / elapsed, len(failed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {name: [] for name in RECORDERS}
    for n in range(args.rounds):
        order = list(RECORDERS) if n % 2 == 0 else list(RECORDERS)[::-1]
        for name in order:
            found, failed = rate(RECORDERS[name], args.threads, args.saves)
            rates[name].append(found)
            print(f"round {n + 1}: {name:14} {found:8.0f} saves/s, {failed} failed", flush=True)
    medians = {name: statistics.median(found) for name, found in rates.items()}
    print(
        f"\n{args.threads} threads, median saves/s: "
        + ", ".join(f"{name} {median:.0f}" for name, median in medians.items())
    )
    print(
        f"group commit / eventsourcing: {medians['group commit'] / medians['eventsourcing']:.2f}×"
    )


if __name__ == "__main__":
    main()
