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


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    with store_settings(request.param, tmp_path) as value:
        yield value
