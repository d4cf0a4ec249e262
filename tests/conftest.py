"""Fixtures shared by the suite: a store per test on SQLite and on a real PostgreSQL database."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from api.settings import Settings

# The maintenance database tests connect to in order to create (and drop) their own databases.
POSTGRES_URL = os.environ.get(
    "CHRONICLE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
BACKENDS = ["sqlite", "postgres"]


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
    """Leave the database as a new one would be: no other session on it and its schema empty
    (dropped and made again; the service creates its tables at start)."""
    name = url.rpartition("/")[2]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture(scope="session")
def worker_database() -> Iterator[str]:
    """One PostgreSQL database per test worker, dropped when the session ends; each test that
    uses it starts on it emptied (creating and dropping a database per test cost ~0.5 s)."""
    with temporary_database() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    if request.param == "sqlite":
        yield Settings(data_dir=tmp_path)
        return
    url = request.getfixturevalue("worker_database")
    empty_database(url)
    yield Settings(data_dir=tmp_path, database_url=url, postgres_pool_size=4)
