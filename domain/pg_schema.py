"""PostgreSQL recorders that create their tables one process at a time.

Every replica and every views runner creates the tables, types and functions it needs when it
starts (`CREATE ... IF NOT EXISTS`, `CREATE OR REPLACE FUNCTION`, a tracking table's migration
marker row). None of that is safe to run twice at once: two `CREATE OR REPLACE FUNCTION`s fail with
"tuple concurrently updated" (seen in CI when two API replicas started on one store), and two new
tracking tables both try to insert their marker. So each recorder's `create_table` runs while its
process holds one advisory lock, and a second process waits, then finds everything in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresRecorder,
    PostgresTrackingRecorder,
)

from domain.subscriptions import PostgresPages

# Any fixed 64-bit number; it only has to differ from other advisory locks on the same database.
SCHEMA_LOCK_KEY = 0x6368726F6E69636C  # "chronicl"


class SerialisedSchema(PostgresRecorder):
    """Listed first, so that the whole of the concrete recorder's `create_table` (the tracking
    recorder reads its migration state before it creates anything) runs under the lock."""

    def create_table(self) -> None:
        # A session lock on one pooled connection while the recorder uses others: the pool always
        # has at least two (POSTGRES_MAX_OVERFLOW equals the pool size, at least 1).
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
            try:
                super().create_table()
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))


class LockedApplicationRecorder(SerialisedSchema, PostgresApplicationRecorder):
    """The event store's recorder (chosen through APPLICATION_RECORDER_TOPIC)."""

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> PostgresPages:
        return PostgresPages(recorder=self, gt=gt, topics=topics)


class LockedTrackingRecorder(SerialisedSchema, PostgresTrackingRecorder):
    """The base of the views store on PostgreSQL."""
