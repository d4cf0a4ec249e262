"""Exactly once: a runner stopped half-way, or cut off from its LISTEN connection, resumes where the
views' tracking says and ends with the views a rebuild gives, one log row per event of the campaign."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from api.main import build_application
from api.settings import Settings
from domain.application import Chronicle
from domain.subscriptions import LISTEN_SECONDS, PostgresPages
from projections.rebuild import rebuild
from projections.runner import Supervisor, ViewReader, open_view_store, views_env
from tests.conftest import store_settings
from tests.projections.support import (
    assert_same_views,
    dump_of,
    event_store_positions,
    view_log_positions,
    wait_for,
    write_log,
)

# On PostgreSQL the subscription's LISTEN connection is the one whose last statement was LISTEN.
LISTENERS = (
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'"
)


@pytest.fixture
def app(settings: Settings) -> Iterator[Chronicle]:
    external = settings.model_copy(update={"projections": "external"})
    application = build_application(external)
    yield application
    application.close()


def test_a_runner_stopped_half_way_and_a_new_one_apply_every_event_exactly_once(
    settings: Settings, app: Chronicle
) -> None:
    env = settings.eventsourcing_env()
    head = write_log(app, 400)
    store = open_view_store(views_env(env))
    reader = ViewReader(store)

    first = Supervisor(env, page_size=10).start()  # small pages: many commits to stop between
    wait_for(lambda: reader.position() > head // 4, timeout=30, what="a quarter of the log")
    first.stop()
    stopped_at = reader.position()
    assert head // 4 < stopped_at < head, "the first runner stopped part-way"

    second = Supervisor(env).start()
    try:
        assert reader.wait(head, timeout=30)
        resumed = store.dump()
    finally:
        second.stop()
    assert (first.restarts, second.restarts) == (0, 0)

    assert view_log_positions(store) == event_store_positions(env)
    positions = [row[0] for row in resumed["view_log"]]
    assert len(positions) == len(set(positions))
    store.datastore.close()  # type: ignore[attr-defined]
    rebuild(env)
    assert_same_views(dump_of(env), resumed)


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[Settings]:
    with store_settings("postgres", tmp_path) as value:
        yield value.model_copy(update={"projections": "external"})


def test_a_killed_listen_connection_restarts_the_runner_and_loses_no_event(
    postgres: Settings,
) -> None:
    settings = postgres
    app = build_application(settings)
    env = settings.eventsourcing_env()
    store = open_view_store(views_env(env))
    reader = ViewReader(store)
    supervisor = Supervisor(env, restart_delay=0.1).start()
    writing = threading.Event()
    written: list[int] = []

    def keep_writing() -> None:
        while writing.is_set():
            written.append(write_log(app, 5))

    try:
        written.append(write_log(app, 5))
        assert reader.wait(written[-1], timeout=10)
        writing.set()
        writer = threading.Thread(target=keep_writing)
        writer.start()
        with psycopg.connect(settings.database_url or "", autocommit=True) as admin:
            wait_for(lambda: bool(admin.execute(LISTENERS).fetchall()), 10, "the LISTEN connection")
            (pid,) = admin.execute(LISTENERS).fetchone() or (None,)
            assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
            wait_for(lambda: supervisor.restarts >= 1, 10, "the supervisor to restart the runner")
            wait_for(
                lambda: any(row[0] != pid for row in admin.execute(LISTENERS).fetchall()),
                10,
                "a new LISTEN connection",
            )
        wait_for(lambda: len(written) >= 4, 10, "writes after the restart")
        writing.clear()
        writer.join()
        assert reader.wait(written[-1], timeout=20), f"the views stopped at {reader.position()}"
        running = store.dump()
    finally:
        writing.clear()
        supervisor.stop()
        app.close()
    assert supervisor.restarts == 1
    assert view_log_positions(store) == event_store_positions(env)
    store.datastore.close()  # type: ignore[attr-defined]
    rebuild(env)
    assert_same_views(dump_of(env), running)


def _listening(settings: Settings) -> bool:
    with psycopg.connect(settings.database_url or "", autocommit=True) as admin:
        return bool(admin.execute(LISTENERS).fetchall())


def test_a_listening_subscription_wakes_for_its_stop_and_for_a_write_without_waiting_out_its_poll(
    postgres: Settings,
) -> None:
    """The LISTEN connection waits LISTEN_SECONDS between looks at its stop flag (an idle server
    does not wake ten times a second); the NOTIFY stop() sends, or a write's, ends the wait. Each
    part has its own application, so that no other pooled connection still reads as LISTEN."""
    app = build_application(postgres)
    try:
        head = write_log(app, 1)
        with app.recorder.subscribe(gt=head) as idle:
            assert isinstance(idle, PostgresPages)
            wait_for(lambda: _listening(postgres), 10, "the LISTEN connection")
            idle.stop()
            idle._listen_thread.join(timeout=LISTEN_SECONDS / 2)
            assert not idle._listen_thread.is_alive(), "stop() woke the listener"
    finally:
        app.close()

    app = build_application(postgres)
    try:
        with app.recorder.subscribe(gt=head) as following:
            wait_for(lambda: _listening(postgres), 10, "the LISTEN connection")
            started = time.monotonic()
            write_log(app, 1)
            page = following.next_page()
            assert time.monotonic() - started < LISTEN_SECONDS / 2, "the write's NOTIFY woke it"
            assert page[0].id > head
    finally:
        app.close()
