"""Subscriptions to the log that hand over what they have already pulled, a page at a time, so
that the views runner can apply a page of events in one transaction."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
from eventsourcing.persistence import ListenNotifySubscription, Notification
from eventsourcing.postgres import PostgresSubscription
from psycopg.sql import SQL, Identifier

# eventsourcing's pull loop selects this many notifications at a time (9.5: `_select_limit`).
PAGE_SIZE = 500

# How long the listening connection waits for a NOTIFY before it looks again at whether it was
# stopped. eventsourcing 9.5 waits 0.1 s, which wakes an idle server ten times a second; here
# stop() sends a NOTIFY of its own, so the long wait does not hold up stopping.
LISTEN_SECONDS = 5.0
# How long stop() waits for a pooled connection to send that NOTIFY: past it (the database is
# gone, the pool is full), the listener notices the stop within LISTEN_SECONDS instead.
WAKE_SECONDS = 1.0


class Pages(ListenNotifySubscription[Any]):
    def next_page(self, limit: int = PAGE_SIZE) -> list[Notification]:
        """Up to `limit` notifications: waits for the first, then takes only those already
        pulled. Raises StopIteration once the subscription is stopped (or its error, if it
        failed), as iterating it does."""
        page = [next(self)]
        # The rest of the page the pull loop last selected (eventsourcing 9.5 keeps it in
        # `_notifications`, up to `_notifications_index`): taken without waiting for more.
        while len(page) < limit and self._notifications_index < len(self._notifications):
            page.append(next(self))
        return page


class PostgresPages(Pages, PostgresSubscription):
    """PostgreSQL's LISTEN/NOTIFY subscription, a page at a time."""

    def _listen(self) -> None:
        # eventsourcing 9.5's loop (`PostgresSubscription._listen`) with the longer wait.
        try:
            with self._recorder.datastore.get_connection() as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(self._recorder.channel_name)))
                while not self._has_been_stopped and not self._thread_error:
                    for _ in conn.notifies(timeout=LISTEN_SECONDS, stop_after=1):
                        self._has_been_notified.set()
        except BaseException as error:  # noqa: BLE001 - as eventsourcing: the error is kept for the reader
            if self._thread_error is None:
                self._thread_error = error
            self.stop()

    def stop(self) -> None:
        super().stop()
        listener = getattr(self, "_listen_thread", None)  # absent if stopped during __init__
        if listener is not None and listener is not threading.current_thread():
            self._wake_listener()

    def _wake_listener(self) -> None:
        """A NOTIFY on the log's channel, so that the listener sees the stop now. Every other
        listener on the channel pulls once for nothing, which costs one empty select."""
        channel = Identifier(self._recorder.channel_name)
        try:
            with self._recorder.datastore.pool.connection(timeout=WAKE_SECONDS) as conn:
                conn.execute(SQL("NOTIFY {0}").format(channel))
        except psycopg.Error:
            pass  # no connection to be had: the listener ends within LISTEN_SECONDS
