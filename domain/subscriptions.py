"""Subscriptions to the log that hand over what they have already pulled, a page at a time, so
that the views runner can apply a page of events in one transaction."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import ListenNotifySubscription, Notification
from eventsourcing.postgres import PostgresSubscription

# eventsourcing's pull loop selects this many notifications at a time (9.5: `_select_limit`).
PAGE_SIZE = 500


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
