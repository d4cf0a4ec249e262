"""Roll command throughput through the API against raw `app.save` of one event, same run and backend.

Run: .venv/bin/python bench/bench_rolls.py [--rolls N]   (PostgreSQL at CHRONICLE_TEST_POSTGRES_URL too)
Prints rolls/s, saves/s and their ratio per backend; the ratio is what to compare between runs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from eventsourcing.domain import Aggregate, event
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.main import create_app
from tests.api.support import Table
from tests.api.test_rolls import Dice
from tests.conftest import store_settings


class Tick(Aggregate):
    @event("Ticked")
    def tick(self) -> None:
        pass


def measure(backend: str, rolls: int) -> tuple[float, float]:
    with (
        tempfile.TemporaryDirectory() as data_dir,
        store_settings(backend, Path(data_dir)) as settings,
        TestClient(create_app(settings)) as client,
    ):
        dice = Dice(Table(client))
        app = client.app.state.chronicle  # type: ignore[attr-defined]
        started = time.perf_counter()
        for _ in range(rolls):
            dice.roll()
        api_rate = rolls / (time.perf_counter() - started)
        started = time.perf_counter()
        for _ in range(rolls):
            app.save(Tick())
        save_rate = rolls / (time.perf_counter() - started)
    return api_rate, save_rate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rolls", type=int, default=300)
    args = parser.parse_args()
    print(f"{'backend':10} {'rolls/s (API)':>14} {'saves/s (raw)':>14} {'ratio':>7}")
    for backend in ("sqlite", "postgres"):
        api_rate, save_rate = measure(backend, args.rolls)
        print(f"{backend:10} {api_rate:14.0f} {save_rate:14.0f} {api_rate / save_rate:7.3f}")


if __name__ == "__main__":
    main()
