"""Replicas and views runners that start together on a new PostgreSQL database all come up: the
schema is created by one process at a time (domain/pg_schema.py). Without the lock, two
`CREATE OR REPLACE FUNCTION`s at once fail with "tuple concurrently updated"."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from api.settings import Settings
from domain.service import Service
from projections.runner import open_view_store, views_env
from tests.conftest import temporary_database

STARTERS = 8


def _start_together(env: dict[str, str], start: Callable[[dict[str, str]], object]) -> list[str]:
    barrier = threading.Barrier(STARTERS)

    def one() -> str:
        barrier.wait()
        try:
            start(env)
        except Exception as exc:  # noqa: BLE001 - collected, so the assertion names every failure
            return f"{type(exc).__name__}: {exc}"
        return "ok"

    with ThreadPoolExecutor(STARTERS) as pool:
        return list(pool.map(lambda _: one(), range(STARTERS)))


def test_applications_and_view_stores_starting_together_on_a_new_database_all_start(
    tmp_path: Path,
) -> None:
    with temporary_database() as url:
        env = views_env(Settings(data_dir=tmp_path, database_url=url).eventsourcing_env())

        def app_then_views(env: dict[str, str]) -> None:
            Service(env).close()
            open_view_store(env).datastore.close()

        assert _start_together(env, app_then_views) == ["ok"] * STARTERS
        with psycopg.connect(url) as conn:
            tables = {
                r[0]
                for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            }
        assert {"chronicle_events", "views_tracking"} <= tables, tables
