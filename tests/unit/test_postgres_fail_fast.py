"""The PostgreSQL store fails at once while its server is known unreachable (domain/postgres.py):
the knowledge itself on a fake clock, and the datastore on a pool that gives no connection. No
server is reached."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
import pytest
from eventsourcing.persistence import InfrastructureFactory, InterfaceError, OperationalError
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.utils import Environment, retry

from api.settings import Settings
from domain.postgres import (
    RECHECK_SECONDS,
    FailFastDatastore,
    Reachability,
    Server,
    SpokenCheck,
    check_if_spoken,
    reachability_of,
    store_reachability,
)
from projections.runner import views_env

SERVER = Server("db.invalid", "5432", "chronicle", "chronicle", 1)


class Connections:
    """A plain connection that fails or succeeds as the test says, counted."""

    def __init__(self, *, answers: bool) -> None:
        self.answers = answers
        self.tried = 0

    def __call__(self) -> None:
        self.tried += 1
        if not self.answers:
            raise psycopg.OperationalError("connection refused")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def knowledge(connections: Connections, clock: Clock | None = None) -> Reachability:
    return Reachability(SERVER, connections, clock=clock or Clock())


def test_a_server_never_probed_lets_every_caller_through_without_a_connection() -> None:
    connections = Connections(answers=False)
    knowledge(connections).before_connection()
    assert connections.tried == 0


def test_after_a_failed_plain_connection_callers_fail_at_once_without_connecting() -> None:
    connections = Connections(answers=False)
    reachability = knowledge(connections)
    assert not reachability.probe()
    for _ in range(9):  # what is left of eventsourcing's ten attempts
        with pytest.raises(OperationalError, match="db.invalid:5432/chronicle"):
            reachability.before_connection()
    assert connections.tried == 1


def test_past_the_recheck_time_one_caller_probes_again_and_a_success_lets_all_through() -> None:
    connections, clock = Connections(answers=False), Clock()
    reachability = knowledge(connections, clock)
    reachability.probe()
    clock.now += RECHECK_SECONDS
    connections.answers = True
    reachability.before_connection()
    reachability.before_connection()
    assert connections.tried == 2
    assert not reachability.unreachable


def test_a_probe_that_fails_again_past_the_recheck_time_fails_the_caller() -> None:
    connections, clock = Connections(answers=False), Clock()
    reachability = knowledge(connections, clock)
    reachability.probe()
    clock.now += RECHECK_SECONDS
    with pytest.raises(OperationalError):
        reachability.before_connection()
    with pytest.raises(OperationalError):
        reachability.before_connection()  # the new failure stands again for RECHECK_SECONDS
    assert connections.tried == 2


def test_a_plain_connection_that_succeeds_elsewhere_ends_the_fast_failures() -> None:
    connections = Connections(answers=False)
    reachability = knowledge(connections)
    reachability.probe()
    connections.answers = True
    assert reachability.probe()  # the API's store gate, a readiness check
    reachability.before_connection()


# ---- the datastore ------------------------------------------------------------------------------


class Pool:
    """In place of the datastore's pool: no connection within its timeout (a PostgreSQL outage),
    or one fake connection."""

    def __init__(self, connection: object | None = None) -> None:
        self.connection_given = connection
        self.asked = 0

    def open(self, wait: bool = False, timeout: float = 30.0) -> None:
        pass

    @contextmanager
    def connection(self) -> Iterator[Any]:
        self.asked += 1
        if self.connection_given is None:
            raise psycopg_pool.PoolTimeout("couldn't get a connection after 1.00 sec")
        yield self.connection_given

    def close(self) -> None:
        pass


def datastore(pool: Pool, connections: Connections) -> FailFastDatastore:
    store = FailFastDatastore("chronicle", "db.invalid", 5432, "chronicle", "", connect_timeout=1)
    store.pool = pool  # type: ignore[assignment]
    store.reachability = knowledge(connections)
    return store


def test_an_outage_costs_a_recorder_call_one_pool_timeout_not_ten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("eventsourcing.utils.sleep", lambda seconds: None)
    pool, connections = Pool(), Connections(answers=False)
    store = datastore(pool, connections)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as eventsourcing's
    def select_events() -> None:  # recorders decorate each call (eventsourcing/postgres.py)
        with store.get_connection():
            pass

    with pytest.raises(OperationalError):
        select_events()
    assert (pool.asked, connections.tried) == (1, 1)


def test_a_busy_pool_on_a_server_that_answers_is_waited_for_again() -> None:
    pool, connections = Pool(), Connections(answers=True)
    store = datastore(pool, connections)
    for _ in range(2):
        with pytest.raises(OperationalError), store.get_connection():
            pass
    assert (pool.asked, connections.tried) == (2, 2)


def test_an_error_after_the_connection_was_taken_is_left_to_eventsourcing() -> None:
    pool, connections = Pool(connection=object()), Connections(answers=False)
    store = datastore(pool, connections)
    with pytest.raises(OperationalError), store.get_connection():
        raise OperationalError("the server closed the connection unexpectedly")
    with store.get_connection():
        pass
    assert (pool.asked, connections.tried) == (2, 0)


# ---- built from the settings --------------------------------------------------------------------


def test_the_postgres_settings_build_fail_fast_datastores_sharing_one_server() -> None:
    env = views_env(
        Settings(database_url="postgresql://ann@db.invalid:6543/camp").eventsourcing_env()
    )
    app = InfrastructureFactory.construct(Environment("Chronicle", env))
    views = InfrastructureFactory.construct(Environment("Views", env))
    try:
        stores = [app.datastore, views.datastore]  # type: ignore[attr-defined]
        assert all(isinstance(s, FailFastDatastore) for s in stores)
        assert all(isinstance(s, PostgresDatastore) for s in stores)  # domain/claims.py's check
        assert reachability_of(stores[0]) is reachability_of(stores[1])
        assert reachability_of(stores[0]).server == Server("db.invalid", "6543", "camp", "ann", 3)
        # the pool calls our check on every take (psycopg_pool keeps its `check` as `_check`)
        checks = [s.pool._check for s in stores]
        assert all(isinstance(c, SpokenCheck) for c in checks)
        assert [c.pool for c in checks] == [s.pool for s in stores]
    finally:
        app.close()
        views.close()


def test_a_store_that_cannot_be_unreachable_has_no_probe() -> None:
    assert store_reachability(object()) is None


# ---- the check of a connection taken from the pool ----------------------------------------------


class IdleConnection:
    """What check_if_spoken reads of a pooled connection: its state, its socket, and the empty
    query psycopg_pool's own check sends (counted; it fails if the server has gone)."""

    def __init__(self, server_gone: bool = False) -> None:
        self.ours, self.server = socket.socketpair()
        self.closed = self.broken = False
        self.autocommit = True
        self.server_gone = server_gone
        self.queries = 0

    def fileno(self) -> int:
        return self.ours.fileno()

    def execute(self, query: str) -> None:
        self.queries += 1
        if self.server_gone:
            raise psycopg.OperationalError("terminating connection due to administrator command")


def test_an_idle_connection_the_server_said_nothing_on_is_taken_without_a_round_trip() -> None:
    connection = IdleConnection()
    check_if_spoken(connection)  # type: ignore[arg-type]
    assert connection.queries == 0


def test_a_connection_the_server_ended_is_checked_and_refused() -> None:
    connection = IdleConnection(server_gone=True)
    connection.server.sendall(b"E")  # PostgreSQL's FATAL message before it closes the socket
    connection.server.close()
    with pytest.raises(psycopg.OperationalError):
        check_if_spoken(connection)  # type: ignore[arg-type]
    assert connection.queries == 1


def test_a_connection_the_server_wrote_to_but_still_answers_passes_its_check() -> None:
    connection = IdleConnection()
    connection.server.sendall(b"N")  # a notice: something to read, the server still there
    check_if_spoken(connection)  # type: ignore[arg-type]
    assert connection.queries == 1


def test_a_connection_psycopg_knows_is_closed_is_refused_without_a_query() -> None:
    connection = IdleConnection()
    connection.broken = True
    with pytest.raises(psycopg.OperationalError):
        check_if_spoken(connection)  # type: ignore[arg-type]
    assert connection.queries == 0
