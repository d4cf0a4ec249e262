"""The SQLite application recorder of the service: it can be subscribed to (eventsourcing's SQLite
recorder cannot), and a write wakes the subscribers of its process at once.

A subscriber reuses eventsourcing's pull loop (ListenNotifySubscription), a page at a time. What wakes it in place of a
PostgreSQL NOTIFY: every recorder of this process that commits events to the same file, at once
(the embedded views runner sees the API's writes without delay), and a slow tick for what other
processes write to the file (a second `chronicle serve`, a CLI command), within POLL_SECONDS.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from threading import Event, Lock, Thread
from typing import Any
from weakref import WeakSet

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from domain.subscriptions import Pages

# The bound on how late a subscriber sees another process's write. Writes of its own process wake
# it at once; before they did, every subscriber polled the file every 3 ms, an idle server's
# steady load.
POLL_SECONDS = 0.05

_subscribers: dict[str, WeakSet[SubscriptionOfFile]] = {}
_subscribers_lock = Lock()


def _wake(file: str) -> None:
    with _subscribers_lock:
        subscribers = list(_subscribers.get(file, ()))
    for subscriber in subscribers:
        subscriber.wake()


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
        while not self._stopping.wait(POLL_SECONDS):
            self.wake()

    def stop(self) -> None:
        self._stopping.set()
        with _subscribers_lock:
            _subscribers.get(self._file, WeakSet()).discard(self)
        super().stop()


class Recorder(SQLiteApplicationRecorder):
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super().insert_events(stored_events, **kwargs)  # committed on return
        _wake(self.file)
        return ids

    @cached_property
    def file(self) -> str:
        """The database file, as every recorder of the process on it names it."""
        pool = self.datastore.pool
        return pool.db_name if pool.is_sqlite_memory_mode else str(Path(pool.db_name).resolve())

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> SubscriptionOfFile:
        return SubscriptionOfFile(self, gt=gt, topics=topics)
