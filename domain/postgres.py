"""PostgreSQL as the event store and the views' store: eventsourcing's own, failing at once while the
server is known to be unreachable (the PERSISTENCE_MODULE for PostgreSQL).

eventsourcing retries each recorder call up to 10 times, 0.2 s apart, and each attempt waits the
pool's whole timeout for a connection: the first caller of an outage waited ten timeouts. Here, once
the pool gives no connection and one plain connection fails too, every caller in the process fails at
once until a plain connection succeeds again: the first caller of an outage answers after about one
timeout (and eventsourcing's short sleeps). A busy pool on a healthy server still waits and retries
as before. Only the taking of a connection fails fast: nothing that reached the server is cut short.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from typing import Any, NamedTuple

import psycopg
from eventsourcing import postgres as eventsourcing_postgres
from eventsourcing.persistence import OperationalError
from eventsourcing.utils import Environment, EnvType
from psycopg.rows import DictRow
from psycopg_pool import ConnectionPool

# How long a failed plain connection stands for the whole process before a caller tries another:
# longer than one eventsourcing retry loop sleeps (9 × 0.2 s), so a single call re-probes no
# server that does not answer, and short enough that the background workers notice a recovery soon.
RECHECK_SECONDS = 2.5


class Server(NamedTuple):
    """Which server a datastore connects to, as one process knows it."""

    host: str
    port: str
    dbname: str
    user: str
    timeout: int

    def describe(self) -> str:
        return f"{self.host}:{self.port}/{self.dbname}"


class Reachability:
    """Whether one server answered the last plain connection tried, shared by every datastore of
    the process that connects to it (the app's, the views', the workers'), so that one success
    anywhere (the API's store gate, a readiness probe) lets all of them through again."""

    def __init__(
        self,
        server: Server,
        connect: Callable[[], None],
        *,
        recheck_seconds: float = RECHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.server = server
        self._connect = connect  # raises psycopg.Error when the server does not answer
        self._recheck_seconds = recheck_seconds
        self._clock = clock
        self._failed_at: float | None = None
        self._lock = threading.Lock()

    @property
    def unreachable(self) -> bool:
        return self._failed_at is not None

    def probe(self) -> bool:
        """One plain connection now: whether the server answered it (and what callers see next)."""
        try:
            self._connect()
        except psycopg.Error:
            with self._lock:
                self._failed_at = self._clock()
            return False
        with self._lock:
            self._failed_at = None
        return True

    def before_connection(self) -> None:
        """Raise OperationalError at once while the last plain connection failed; past
        RECHECK_SECONDS one caller probes again while the others go on failing at once."""
        with self._lock:
            if self._failed_at is None:
                return
            due = self._clock() - self._failed_at >= self._recheck_seconds
            if due:
                self._failed_at = self._clock()  # this caller's probe: the others wait no timeout
        if not (due and self.probe()):
            raise OperationalError(
                f"PostgreSQL at {self.server.describe()} did not answer a plain connection "
                "(failing at once until one succeeds)"
            )


_known: dict[Server, Reachability] = {}
_known_lock = threading.Lock()


def reachability_of(datastore: eventsourcing_postgres.PostgresDatastore) -> Reachability:
    """The process's knowledge of the datastore's server (one object per server)."""
    kwargs: Mapping[str, Any] = (
        datastore.pool.kwargs if isinstance(datastore.pool.kwargs, dict) else {}
    )
    server = Server(
        host=str(kwargs.get("host", "")),
        port=str(kwargs.get("port", "")),
        dbname=str(kwargs.get("dbname", "")),
        user=str(kwargs.get("user", "")),
        timeout=max(1, int(datastore.pool.timeout)),
    )
    with _known_lock:
        if server not in _known:
            _known[server] = Reachability(server, _plain_connection(server, kwargs))
        return _known[server]


def _plain_connection(server: Server, kwargs: Mapping[str, Any]) -> Callable[[], None]:
    params = {
        "host": server.host,
        "port": server.port,
        "dbname": server.dbname,
        "user": server.user,
        "password": kwargs.get("password", ""),
        "connect_timeout": server.timeout,
    }

    def connect() -> None:
        psycopg.connect(**params).close()

    return connect


def store_reachability(recorder: object) -> Reachability | None:
    """What the process knows of the recorder's PostgreSQL server, shared with its datastores;
    None for a store that cannot be unreachable (a SQLite file, memory)."""
    datastore = getattr(recorder, "datastore", None)
    if not isinstance(datastore, eventsourcing_postgres.PostgresDatastore):
        return None
    return reachability_of(datastore)


class FailFastDatastore(eventsourcing_postgres.PostgresDatastore):
    """eventsourcing's datastore whose connections fail at once while its server is unreachable."""

    @cached_property
    def reachability(self) -> Reachability:
        return reachability_of(self)

    @contextmanager
    def get_connection(self) -> Iterator[psycopg.Connection[DictRow]]:
        self.reachability.before_connection()
        taken = False
        try:
            with super().get_connection() as connection:
                taken = True
                yield connection
        except OperationalError:
            # No connection in the pool's whole timeout: a plain one tells an outage from a pool
            # that is only busy. An error after the connection was taken is eventsourcing's to retry.
            if not taken:
                self.reachability.probe()
            raise


def check_if_spoken(connection: psycopg.Connection[Any]) -> None:
    """The pool's check of an idle connection it hands out: a round trip only if the server has
    written to it since it was returned.

    An idle connection in a pool is sent nothing, unless the server ends it: PostgreSQL writes a
    FATAL message and closes the socket when it restarts, fails over or is told to
    (pg_terminate_backend), and the operating system marks a reset socket readable too. So a
    socket with nothing to read is taken as it is, and one with something to read gets
    psycopg_pool's own check (an empty query), which raises for a dead connection: the pool then
    drops it and hands out another. The old check (eventsourcing's POSTGRES_PRE_PING) made that
    round trip on every take, about eight per roll: a third of a roll's time on PostgreSQL
    (docs/performance.md). A link that went silent without a word is caught by neither check
    before a query: the query's own error, retried by eventsourcing, is what catches it.
    """
    if connection.closed or connection.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([connection.fileno()], [], [], 0)
    if readable:
        ConnectionPool.check_connection(connection)


class SpokenCheck:
    """The pool's check on every take (`check_if_spoken`), and when it finds a connection the
    server ended, a check of every other idle connection of the pool at once (psycopg_pool's
    `check`: the dead ones are dropped and replaced in the background).

    Why: PostgreSQL ends every connection at once when it restarts or fails over, and psycopg_pool
    backs off after each failed check (1 s, then 2 s...), so with four dead connections pooled the
    first request waited more than the pool's timeout and was answered 503 although the server was
    back (6.5 s, measured 3 December); now it is answered in 0.2-0.3 s, by a fresh connection."""

    def __init__(self, pool: ConnectionPool[Any]) -> None:
        self.pool = pool

    def __call__(self, connection: psycopg.Connection[Any]) -> None:
        try:
            check_if_spoken(connection)
        except psycopg.Error:
            self.pool.check()  # the others, not this one: the pool drops it when this raises
            raise


class Factory(eventsourcing_postgres.PostgresFactory):
    """eventsourcing's PostgreSQL factory, its datastore failing fast and checking connections
    only when the server has spoken on them."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        # eventsourcing 9.5 builds a PostgresDatastore itself; the subclass only overrides how a
        # connection is taken and adds no state of its own, so the instance can take its class.
        self.datastore.__class__ = FailFastDatastore
        # eventsourcing builds the psycopg_pool pool itself too, passing psycopg_pool's full check
        # or none (POSTGRES_PRE_PING); `check` is the pool's documented hook, which the pool keeps
        # as `_check` and calls on every take. tests/unit/test_postgres_fail_fast.py fails if a
        # new psycopg_pool stores it elsewhere.
        self.datastore.pool._check = SpokenCheck(self.datastore.pool)
