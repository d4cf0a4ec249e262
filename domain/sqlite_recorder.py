"""The SQLite application recorder of the service: it can be subscribed to (eventsourcing's SQLite
recorder cannot), and a write wakes the subscribers of its process at once.

A subscriber reuses eventsourcing's pull loop (ListenNotifySubscription), a page at a time. What
wakes it in place of a PostgreSQL NOTIFY: every recorder of this process that commits events to the same file, at once
(the embedded views runner sees the API's writes without delay), and a slow tick for what other
processes write to the file (a second `chronicle serve`, a CLI command), within POLL_SECONDS.

Its writes are group commits: SQLite makes one writer wait for the other's commit, and each commit
waits for the disk (fsync, milliseconds on a busy machine), so concurrent commands' events go into
one transaction, each behind its own savepoint (a clash rolls back that command's events alone),
and one commit makes them all durable before any caller hears back (`GroupCommit`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from threading import Event, Lock, Thread
from typing import Any
from weakref import WeakSet

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from domain.subscriptions import Pages

# The bound on how late a subscriber sees another process's write. Writes of its own process wake
# it at once; before they did, every subscriber polled the file every 3 ms, an idle server's
# steady load. A tick only looks at the files' size and time (a write of another process changes
# them) and reads the log when they changed, or at least every FULL_POLL_TICKS ticks (a write
# within the file system's clock tick that leaves the sizes alone shows no change).
POLL_SECONDS = 0.05
FULL_POLL_TICKS = 20

_subscribers: dict[str, WeakSet[SubscriptionOfFile]] = {}
_subscribers_lock = Lock()


def _wake(file: str) -> None:
    with _subscribers_lock:
        subscribers = list(_subscribers.get(file, ()))
    for subscriber in subscribers:
        subscriber.wake()


def _file_state(file: str) -> tuple[tuple[int, int] | None, ...]:
    """The size and modification time of the database and its write-ahead log (None: absent)."""
    found: list[tuple[int, int] | None] = []
    for name in (file, f"{file}-wal"):
        try:
            stat = os.stat(name)
            found.append((stat.st_size, stat.st_mtime_ns))
        except OSError:
            found.append(None)
    return tuple(found)


class SubscriptionOfFile(Pages):
    def __init__(
        self, recorder: Recorder, gt: int | None = None, topics: Sequence[str] = ()
    ) -> None:
        self._stopping = Event()
        self._file = recorder.file
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        with _subscribers_lock:
            _subscribers.setdefault(self._file, WeakSet()).add(self)
        self._ticker = Thread(target=self._tick, daemon=True, name="views-poll")
        self._ticker.start()

    def wake(self) -> None:
        self._has_been_notified.set()

    def _tick(self) -> None:
        seen, ticks = _file_state(self._file), 0
        while not self._stopping.wait(POLL_SECONDS):
            now, ticks = _file_state(self._file), ticks + 1
            if now != seen or ticks >= FULL_POLL_TICKS:
                seen, ticks = now, 0
                self.wake()

    def stop(self) -> None:
        self._stopping.set()
        with _subscribers_lock:
            _subscribers.get(self._file, WeakSet()).discard(self)
        super().stop()


@dataclass
class _Insert:
    """One caller's events waiting for the group commit, and what became of them."""

    events: Sequence[StoredEvent]
    kwargs: dict[str, Any]
    done: bool = False
    ids: Sequence[int] | None = None
    error: BaseException | None = None


@dataclass
class GroupCommit:
    """Inserts that arrive while another commit is on its way are written together, in one
    transaction, by whichever caller gets the turn next: the leader. Each caller returns only once
    the transaction holding its events is committed (or has failed: then nothing of it was)."""

    waiting: list[_Insert] = field(default_factory=list)
    lock: Lock = field(default_factory=Lock)  # guards `waiting`
    turn: Lock = field(default_factory=Lock)  # one leader at a time

    def run(self, recorder: Recorder, insert: _Insert) -> Sequence[int] | None:
        with self.lock:
            self.waiting.append(insert)
        while not insert.done:
            with self.turn:
                if insert.done:  # a leader wrote it while this caller waited for the turn
                    break
                with self.lock:
                    batch, self.waiting = self.waiting, []
                if batch:
                    recorder.write_batch(batch)
        if insert.error is not None:
            raise insert.error
        return insert.ids


class Recorder(SQLiteApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._group_commit = GroupCommit()

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = self._group_commit.run(self, _Insert(stored_events, kwargs))  # committed on return
        _wake(self.file)
        return ids

    def write_batch(self, batch: list[_Insert]) -> None:
        """One transaction for the batch, a savepoint for each insert: a clash (the aggregate's
        version was taken meanwhile) undoes that insert alone, and its caller retries."""
        try:
            with self.datastore.transaction(commit=True) as cursor:
                for insert in batch:
                    self._insert_one(cursor, insert)
        except BaseException as exc:  # the commit failed: nothing of the batch was written
            for insert in batch:
                if insert.error is None:
                    insert.ids, insert.error = None, exc
            if not isinstance(exc, Exception):
                raise  # an interrupt: its callers hear of it through their inserts' error too
        finally:
            for insert in batch:
                insert.done = True

    def _insert_one(self, cursor: SQLiteCursor, insert: _Insert) -> None:
        cursor.execute("SAVEPOINT one_insert")
        try:
            insert.ids = self._insert_events(cursor, insert.events, **insert.kwargs)
        except sqlite3.IntegrityError as exc:
            cursor.execute("ROLLBACK TO one_insert")
            insert.error = IntegrityError(exc)
        cursor.execute("RELEASE one_insert")

    @cached_property
    def file(self) -> str:
        """The database file, as every recorder of the process on it names it."""
        pool = self.datastore.pool
        return pool.db_name if pool.is_sqlite_memory_mode else str(Path(pool.db_name).resolve())

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> SubscriptionOfFile:
        return SubscriptionOfFile(self, gt=gt, topics=topics)
