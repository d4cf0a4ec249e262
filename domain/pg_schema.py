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
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresRecorder,
    PostgresTrackingRecorder,
)
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

from domain.subscriptions import PostgresPages

# The save (`LockedApplicationRecorder`): the lock eventsourcing's own save takes, the insert of
# every event of the save, and the notification its subscribers wait for, in one statement whose
# transaction (the statement's own: the connections are in autocommit) holds the lock to its commit.
APPEND_LOCK = "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
APPEND_FUNCTION = (
    "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
    "RETURNS TABLE (notification_id bigint) LANGUAGE plpgsql AS $BODY$ "
    "BEGIN "
    "SET LOCAL lock_timeout = '{lock_timeout}s'; "
    f"{APPEND_LOCK}"
    "NOTIFY {channel}; "
    "RETURN QUERY INSERT INTO {schema}.{table} AS t "
    "(originator_id, originator_version, topic, state) "
    "SELECT e.originator_id, e.originator_version, e.topic, e.state FROM unnest(events) AS e "
    "RETURNING t.notification_id; "
    "END; $BODY$"
)

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
    """The event store's recorder (chosen through APPLICATION_RECORDER_TOPIC). A save is one
    statement, a function that locks the table, inserts and notifies (`APPEND_FUNCTION`).

    eventsourcing's save takes the table's EXCLUSIVE lock, so that positions are committed in the
    order they are issued, in a transaction of two round trips: the lock, the insert and the
    notification, then the commit. The lock is held over the second trip and over the Python
    between them, which under load waits its turn for the interpreter: at 50 connections saves
    queued behind a lock whose holder was waiting for its own process. In one statement the lock
    is taken and released (at the commit, as before) within the server. The ordering is the same
    (one lock, held to the commit), and so is the durability (the commit is PostgreSQL's own).

    Why not eventsourcing's own one-statement save (POSTGRES_ENABLE_DB_FUNCTIONS): its function
    takes no lock, and it is named for the id type only (`es_insert_events_uuid`), not for the
    table, so two applications on one schema replace each other's (the last to start wins, and
    the other's saves go to its table). Ours is named after its table."""

    append_sql = APPEND_FUNCTION
    append_name = "chronicle_append_{table}"

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.append_function = Identifier(self.append_name.format(table=self.events_table_name))
        schema = Identifier(self.datastore.schema)
        self.sql_create_statements.append(
            SQL(self.append_sql).format(
                schema=schema,
                function=self.append_function,
                event=Identifier(self.stored_event_type_name),
                table=Identifier(self.events_table_name),
                channel=Identifier(self.channel_name),
                lock_timeout=self.datastore.lock_timeout,
            )
        )
        self.append_statement = SQL("SELECT * FROM {schema}.{function}(%s)").format(
            schema=schema, function=self.append_function
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int]:
        if not stored_events:
            return []
        events = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events
        ]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.append_statement, (events,), prepare=True)
            return [row["notification_id"] for row in curs.fetchall()]

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> PostgresPages:
        return PostgresPages(recorder=self, gt=gt, topics=topics)


class LockedTrackingRecorder(SerialisedSchema, PostgresTrackingRecorder):
    """The base of the views store on PostgreSQL."""
