"""Fixtures shared by the suite: the test layers, and a store per test on SQLite (and on a real
PostgreSQL database for the tests that check the store's own behaviour)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

# This machine and CI set PYTHONDONTWRITEBYTECODE=1, and the README installs with `--no-compile`: then
# every process compiles each module it imports from source, again and again (importing the app: 5.8 s
# instead of 2.8 s), and the suite starts many (two workers, every `chronicle serve`, every CLI run).
# The first process to import a module caches its bytecode in the checkout and the venv (both ignored
# by git); the servers the tests start inherit this environment. Before the imports below, so they
# are cached too.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from api.settings import Settings

# The maintenance database tests connect to in order to create (and drop) their own databases.
POSTGRES_URL = os.environ.get(
    "CHRONICLE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
BACKENDS = ["sqlite", "postgres"]

# The layer of each directory of tests/ (README "Running the tests"): a marker applied to every test
# in it, so `-m unit`, `-m http`... select one layer.
LAYERS = {
    "unit": "unit",
    "aggregates": "unit",
    "app": "app",
    "api": "http",
    "projections": "store",
    "e2e": "e2e",
    "browser": "browser",
}
# What runs on PostgreSQL as well as SQLite: whatever depends on the store (the `store` layer and
# tests marked `store`) and the end-to-end journeys. Everything else goes through the same code above
# the store, so a second backend would only repeat it.
BOTH_BACKENDS = {"store", "e2e"}


def layer_of(path: Path) -> str | None:
    here = Path(__file__).parent
    parts = path.relative_to(here).parts if path.is_relative_to(here) else ()
    return LAYERS.get(parts[0]) if len(parts) > 1 else None


def backends_for(node: pytest.Item) -> list[str]:
    if node.get_closest_marker("store") or layer_of(node.path) in BOTH_BACKENDS:
        return BACKENDS
    return ["sqlite"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # `backend` is module-scoped so that a module-scoped fixture (a real server) may depend on it,
    # and pytest then runs a module's tests backend by backend.
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends_for(metafunc.definition), scope="module")


# The scopes (files, and the browser tests as one) that take longest, longest first (seconds of
# wall on one worker of a `-n 3` run, 3 December). xdist hands scopes out in order, and by
# default orders them by their number of tests, so a file of one long test (a real server with
# workers, the load benchmark, a client generated with npm) started last and the run ended on one
# busy worker while the others idled: 10-20 s of a 220 s run. Longest first shortens that tail; a
# file not named here follows, the larger first. tests/unit/test_scheduling.py fails on a name
# that no longer exists.
LONGEST_FIRST = (
    "tests/browser",  # 68 s
    "tests/api/test_fuzz.py",  # 54 s
    "tests/api/test_access.py",  # 30 s
    "tests/api/test_stream.py",  # 29 s
    "tests/api/test_server_key.py",  # 24 s
    "tests/api/test_webhooks.py",  # 20 s
    "tests/e2e/test_bench_load.py",  # 19 s
    "tests/e2e/test_serve_workers.py",  # 15 s
    "tests/api/test_database_outage.py",  # 15 s
    "tests/e2e/test_readme.py",  # 14 s
    "tests/api/test_rolls.py",  # 13 s
    "tests/e2e/test_replicas.py",  # 12 s
    "tests/unit/test_typescript_client.py",  # 12 s
    "tests/app/test_audit_properties.py",  # 12 s
    "tests/api/test_malformed.py",  # 11 s
    "tests/api/test_visibility.py",  # 11 s
)


def scope_of(nodeid: str) -> str:
    """The unit of work an xdist worker is handed: a test file, or every browser test."""
    if nodeid.startswith("tests/browser/"):
        return "tests/browser"
    return nodeid.split("::", 1)[0]


class _FilesBrowserTogether(LoadFileScheduling):
    """xdist's `loadfile` (pyproject.toml), but every browser test on one worker: each worker that
    runs one starts a Chromium and a server of its own, seconds of CPU, and the machine is busy.
    The scopes are handed out in the order the workers collected them (`LONGEST_FIRST`)."""

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)


def longest_first(nodeids: list[str]) -> list[str]:
    """The node ids scope by scope: those of `LONGEST_FIRST` in its order, then the others, the
    more tests the earlier; in each scope the tests keep their order."""
    scopes: dict[str, list[str]] = {}
    for nodeid in nodeids:
        scopes.setdefault(scope_of(nodeid), []).append(nodeid)

    def rank(scope: str) -> tuple[int, int]:
        if scope in LONGEST_FIRST:
            return (0, LONGEST_FIRST.index(scope))
        return (1, -len(scopes[scope]))

    return [nodeid for scope in sorted(scopes, key=rank) for nodeid in scopes[scope]]


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getoption("dist") == "loadfile":
        config.option.loadscopereorder = False  # keep the order the workers collected
        return _FilesBrowserTogether(config, log)
    return None  # another --dist asked for: xdist's own


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        layer = layer_of(item.path)
        if layer is not None:
            item.add_marker(layer)
        if "backend" in getattr(item, "fixturenames", ()) and backends_for(item) == BACKENDS:
            item.add_marker("store")  # `-m store` then selects whatever runs on both backends
    # Ordered here, where every worker collects, not in the scheduler: xdist sends each worker
    # the indices of its tests in the collection, so all of them must agree on its order.
    by_id = {item.nodeid: item for item in items}
    items[:] = [by_id[nodeid] for nodeid in longest_first(list(by_id))]


@contextmanager
def temporary_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards whatever happened."""
    name = f"chronicle_test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base, _, _ = POSTGRES_URL.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@contextmanager
def store_settings(backend: str, data_dir: Path) -> Iterator[Settings]:
    if backend == "sqlite":
        yield Settings(data_dir=data_dir)
    else:
        with temporary_database() as url:
            # A small pool (4 + 4 overflow): two workers, and a concurrent run on the same
            # server, stay well inside PostgreSQL's default 100 connections.
            yield Settings(data_dir=data_dir, database_url=url, postgres_pool_size=4)


def empty_database(url: str) -> None:
    """Leave the database as the service leaves a new one after creating its tables: no other
    session on it, every row deleted and every sequence restarted (log positions start at 1 again).

    Deleting a test's few rows costs a few milliseconds; dropping the schema cost 0.2-0.8 s, with
    the tables made again at the next start. The tables stay, but the marker row eventsourcing
    writes into a tracking table when it creates it (`__migration__`) must stay too: without it
    the next start takes the table for an old layout and migrates it.
    """
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        with conn.transaction():
            tracking = {
                name
                for (name,) in conn.execute(
                    "SELECT table_name FROM information_schema.columns "
                    "WHERE table_schema = 'public' AND column_name = 'application_name'"
                )
            }
            tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            for (table,) in tables.fetchall():
                keep = " WHERE application_name <> '__migration__'" if table in tracking else ""
                conn.execute(sql.SQL("DELETE FROM {}" + keep).format(sql.Identifier(table)))
            sequences = conn.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            )
            for (sequence,) in sequences.fetchall():
                conn.execute(sql.SQL("ALTER SEQUENCE {} RESTART").format(sql.Identifier(sequence)))


@pytest.fixture(scope="session")
def worker_database() -> Iterator[str]:
    """One PostgreSQL database per test worker, dropped when the session ends; each test that
    uses it starts on it emptied (creating and dropping a database per test cost ~0.5 s)."""
    with temporary_database() as url:
        yield url


@pytest.fixture
def settings(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    """The service's settings on the test's backend (see `backends_for`)."""
    if backend == "sqlite":
        yield Settings(data_dir=tmp_path)
        return
    url = request.getfixturevalue("worker_database")
    empty_database(url)
    yield Settings(data_dir=tmp_path, database_url=url, postgres_pool_size=4)
