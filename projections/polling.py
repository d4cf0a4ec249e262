"""A SQLite application recorder that can be subscribed to: eventsourcing's SQLite recorder cannot.

It reuses eventsourcing's pull loop (ListenNotifySubscription) and wakes it every few milliseconds
instead of on a PostgreSQL NOTIFY.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Event, Thread
from typing import Any

from eventsourcing.persistence import ListenNotifySubscription
from eventsourcing.sqlite import SQLiteApplicationRecorder

POLL_SECONDS = 0.003  # the subscription's latency bound


class PollingSubscription(ListenNotifySubscription[Any]):
    def __init__(self, recorder: Any, gt: int | None = None, topics: Sequence[str] = ()) -> None:
        self._stopping = Event()
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._ticker = Thread(target=self._tick, daemon=True, name="views-poll")
        self._ticker.start()

    def _tick(self) -> None:
        while not self._stopping.wait(POLL_SECONDS):
            self._has_been_notified.set()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> PollingSubscription:
        return PollingSubscription(self, gt=gt, topics=topics)
