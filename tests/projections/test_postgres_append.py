"""The PostgreSQL save (domain/pg_schema.py `LockedApplicationRecorder`): one statement that takes
the events table's EXCLUSIVE lock, inserts and notifies, on a real server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import psycopg
import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from api.settings import Settings
from domain.pg_schema import LockedApplicationRecorder
from tests.conftest import empty_database


class Counter(Aggregate):
    @event("Counted")
    def count(self) -> None:
        pass


@pytest.fixture
def database(worker_database: str) -> str:
    empty_database(worker_database)
    return worker_database


@pytest.fixture
def app(database: str, tmp_path: Path) -> Iterator[Application[UUID]]:
    env = Settings(data_dir=tmp_path, database_url=database).eventsourcing_env()
    application: Application[UUID] = Application(env=env)
    assert isinstance(application.recorder, LockedApplicationRecorder)
    yield application
    application.close()


def waiting_for_a_lock(database: str, table: str) -> bool:
    with psycopg.connect(database, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "JOIN pg_database d ON d.oid = l.database "
            "WHERE d.datname = current_database() AND c.relname = %s AND NOT l.granted",
            (table,),
        ).fetchone()
    return bool(row and row[0])


def test_a_save_takes_the_tables_exclusive_lock(app: Application[UUID], database: str) -> None:
    """ROW SHARE (another session's SELECT ... FOR UPDATE) does not stop a plain INSERT but
    conflicts with EXCLUSIVE: a save that takes eventsourcing's lock waits for it, and goes on
    once it is released, in order after the events before it."""
    first = Counter()
    app.save(first)
    table = f"{app.name.lower()}_events"
    saved: list[int] = []
    with psycopg.connect(database) as holder:
        holder.execute(f"LOCK TABLE {table} IN ROW SHARE MODE")
        later = Counter()
        saver = threading.Thread(target=lambda: saved.append(app.save(later)[-1].notification.id))
        saver.start()
        while not waiting_for_a_lock(database, table):
            assert saver.is_alive(), "the save went through the other session's lock"
            time.sleep(0.01)  # polling: until the save waits
        holder.rollback()
    saver.join()
    assert saved == [2]
    assert [n.originator_id for n in app.recorder.select_notifications(1, 10)] == [
        first.id,
        later.id,
    ]


def test_a_save_of_several_events_is_one_run_of_positions_and_a_clash_saves_nothing(
    app: Application[UUID],
) -> None:
    counter = Counter()
    counter.count()
    counter.count()
    recordings = app.save(counter)
    assert [r.notification.id for r in recordings] == [1, 2, 3]
    stale: Counter = app.repository.get(counter.id)
    stale.count()
    counter.count()
    app.save(counter)
    with pytest.raises(IntegrityError):
        app.save(stale)
    assert app.recorder.max_notification_id() == 4
