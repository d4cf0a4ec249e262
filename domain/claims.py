"""In-flight claims on Idempotency-Keys: held while the first request with a key runs, so that a
duplicate arriving meanwhile is refused (409) by whichever process or replica it reaches.

The event store alone already writes a key's command once (the idempotency record's id is derived
from the key, so a second save clashes), but a duplicate that read the state after the first one
committed and before its record was visible would answer the first one's *effect* as its own
refusal ("the story is already started"): the claim keeps the duplicate out until then."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import psycopg
from eventsourcing.persistence import OperationalError
from eventsourcing.postgres import PostgresDatastore


class Claims:
    """Claims within one process: enough for one server process on its own store."""

    def __init__(self) -> None:
        self._held: set[str] = set()
        self._lock = threading.Lock()

    def claim(self, key: str) -> bool:
        """True if the caller now holds `key`; False while another request holds it."""
        with self._lock:
            if key in self._held:
                return False
            self._held.add(key)
        if self._claim_shared(key):
            return True
        with self._lock:
            self._held.discard(key)
        return False

    def release(self, key: str) -> None:
        self._release_shared(key)
        with self._lock:
            self._held.discard(key)

    def close(self) -> None:
        """Nothing is held outside the process."""

    def _claim_shared(self, key: str) -> bool:
        return True

    def _release_shared(self, key: str) -> None:
        """Nothing is shared."""


class PostgresClaims(Claims):
    """Claims shared by every process on one PostgreSQL database: a session advisory lock per key,
    on one connection of this process's own. A session's advisory locks are reentrant (the set of
    `Claims` keeps this process's own duplicates out), and they end with the session: a process that
    crashes holds nothing, so no claim is ever left behind to expire."""

    def __init__(self, connection_kwargs: dict[str, Any]) -> None:
        super().__init__()
        self._kwargs = {**connection_kwargs, "autocommit": True}
        self._connection: psycopg.Connection[Any] | None = None
        self._session_lock = threading.Lock()  # one connection, one statement at a time

    def _claim_shared(self, key: str) -> bool:
        row = self._execute("SELECT pg_try_advisory_lock(%s) AS held", lock_id(key))
        return bool(row["held"] if isinstance(row, dict) else row[0])

    def _release_shared(self, key: str) -> None:
        try:
            self._execute("SELECT pg_advisory_unlock(%s)", lock_id(key), attempts=1)
        except OperationalError:
            pass  # the session died, and its locks with it

    def _execute(self, statement: str, param: int, attempts: int = 2) -> Any:
        with self._session_lock:
            for attempt in range(attempts):
                try:
                    if self._connection is None or self._connection.closed:
                        self._connection = psycopg.connect(**self._kwargs)
                    return self._connection.execute(statement, (param,)).fetchone()
                except psycopg.OperationalError as exc:
                    # A restarted database dropped the session (and its locks): reconnect once.
                    self._drop()
                    if attempt == attempts - 1:
                        raise OperationalError(str(exc)) from exc
        raise AssertionError("unreachable")

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
        self._connection = None

    def close(self) -> None:
        with self._session_lock:
            self._drop()


def lock_id(key: str) -> int:
    """A key's advisory lock: 64 bits of its hash (the key itself never reaches the database)."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


def claims_for(recorder: Any) -> Claims:
    """Shared claims when the store is PostgreSQL, with the pool's own connection settings."""
    datastore = getattr(recorder, "datastore", None)
    if not isinstance(datastore, PostgresDatastore):
        return Claims()
    pool = datastore.pool
    kwargs = pool.kwargs if isinstance(pool.kwargs, dict) else {}
    return PostgresClaims({**kwargs, "connect_timeout": max(1, int(pool.timeout))})
