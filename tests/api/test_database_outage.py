"""PostgreSQL dropping its connections or going away: the pool checks connections it hands out, an
unreachable database is a 503 with Retry-After, and the service recovers without a restart.

The outage is a TCP proxy between the service and the shared server (tests/tcp_proxy.py): the
shared PostgreSQL server itself is never stopped.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool
import pytest
from eventsourcing.persistence import InfrastructureFactory, OperationalError
from eventsourcing.utils import Environment

from api.errors import STORE_RETRY_AFTER_SECONDS
from api.main import create_app
from api.settings import Settings
from domain.application import Chronicle
from domain.postgres import store_reachability
from projections.runner import open_view_store, views_env
from tests.api.support import Table, bearer
from tests.client import TestClient
from tests.conftest import POSTGRES_URL, empty_database
from tests.tcp_proxy import TcpProxy


@pytest.fixture
def database(worker_database: str) -> str:
    empty_database(worker_database)
    return worker_database


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    server = urlsplit(POSTGRES_URL)
    value = TcpProxy((server.hostname or "127.0.0.1", server.port or 5432)).open()
    yield value
    value.close()


def through(url: str, proxy: TcpProxy) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username or 'postgres'}@127.0.0.1:{proxy.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def terminate_connections(url: str) -> int:
    name = url.rpartition("/")[2]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


def test_requests_after_postgres_drops_every_connection_succeed(
    database: str, tmp_path: Path
) -> None:
    settings = Settings(data_dir=tmp_path, database_url=database, postgres_pool_size=4)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        character_id = table.character()
        table.get(f"/v1/campaigns/{table.campaign_id}/events")  # the views' pool is in use too
        assert terminate_connections(database) > 0
        # Every pooled connection is dead now; the views' reads are not retried by eventsourcing,
        # so without the check before use the first of them would fail, and without the check of
        # the pool's other connections (domain/postgres.py `SpokenCheck`) it waited out the
        # pool's timeout, one back-off per dead connection (6.5 s), and was answered 503. The
        # bound is the pool's timeout (eventsourcing's: the connect timeout), not a speed.
        within = settings.postgres_connect_timeout
        for path in (
            f"/v1/campaigns/{table.campaign_id}/events",
            f"/v1/campaigns/{table.campaign_id}/events?after=1",
            f"/v1/characters/{character_id}",
            "/health",
        ):
            started = time.monotonic()
            response = client.get(path, headers=bearer(table.gm))
            assert response.status_code == 200, f"{path}: {response.text}"
            assert time.monotonic() - started < within, f"{path} waited out the pool's back-offs"
        # A command, then the views again (their runner lost its LISTEN connection too).
        story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "After"})
        response = client.get(
            f"/v1/campaigns/{table.campaign_id}/events?min_position={story['position']}",
            headers=bearer(table.gm),
        )
        assert response.status_code == 200, response.text
        assert response.json()["items"][-1]["position"] == story["position"]


@pytest.mark.parametrize("store", ["Chronicle", "Views"])
def test_a_pooled_connection_postgres_ended_is_replaced_when_taken(
    store: str, database: str, tmp_path: Path
) -> None:
    """The check on taking a connection (domain/postgres.py `check_if_spoken`) on a real server:
    a connection PostgreSQL terminated while it sat in the pool is never handed out (without the
    check, the query below fails on it), the event store's or the views'."""
    # One connection kept in the pool: psycopg_pool waits a second between two failed checks, so
    # a pool of many dead ones takes longer than its timeout to clear (the service's requests then
    # get 503 and Retry-After, test above).
    env = Settings(data_dir=tmp_path, database_url=database).eventsourcing_env()
    env = {**views_env(env), "POSTGRES_POOL_SIZE": "1", "VIEWS_POSTGRES_POOL_SIZE": "1"}
    factory = InfrastructureFactory.construct(Environment(store, env))
    datastore = factory.datastore  # type: ignore[attr-defined]
    try:
        with datastore.get_connection() as conn:
            pid = conn.info.backend_pid  # the pooled connection
        assert terminate_connections(database) > 0
        # pg_terminate_backend only signals: the connection has ended once its backend is gone
        # (taken in the moment between, it would fail its query, eventsourcing's to retry)
        backend_gone(pid)
        with datastore.get_connection() as conn:
            assert conn.execute("SELECT 1").fetchone() is not None
            assert conn.info.backend_pid != pid
    finally:
        factory.close()


def test_an_unreachable_database_is_503_with_retry_after_and_recovers(
    database: str, proxy: TcpProxy, tmp_path: Path
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url=through(database, proxy),
        postgres_pool_size=2,
        postgres_connect_timeout=1,
    )
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        path = f"/v1/campaigns/{table.campaign_id}"
        assert client.get(path, headers=bearer(table.gm)).status_code == 200

        gate = client.app.state.store_gate  # type: ignore[attr-defined]
        proxy.close()
        # The first request finds the store unreachable: one pool timeout, one plain connection,
        # then eventsourcing's other attempts fail at once (domain/postgres.py), not ten timeouts.
        # The gate answers the next ones itself, each after one failed connection attempt.
        first_within = 4 * settings.postgres_connect_timeout
        for method, url, body in (
            ("GET", path, None),
            ("POST", f"{path}/stories", {"title": "In the dark"}),
            ("GET", "/health", None),
        ):
            started = time.monotonic()
            response = client.request(method, url, json=body, headers=bearer(table.gm))
            assert time.monotonic() - started < first_within, f"{method} {url} answered late"
            assert response.status_code == 503, response.text
            assert response.headers["Retry-After"] == str(STORE_RETRY_AFTER_SECONDS)
            assert response.json()["error"]["code"] == "store_unavailable"
            assert gate.tripped

        proxy.open()
        assert client.get(path, headers=bearer(table.gm)).status_code == 200
        assert not gate.tripped
        story = table.post(f"{path}/stories", {"title": "Back"})
        events = client.get(
            f"{path}/events?min_position={story['position']}", headers=bearer(table.gm)
        ).json()["items"]
        titles = [e["payload"].get("title") for e in events if e["type"] == "Story.Started"]
        assert titles == ["Back"]  # the refused command wrote nothing


def backend_gone(pid: int, timeout: float = 10) -> None:
    """Until the server no longer lists the backend `pid` (it has closed its connection)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        while conn.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
            assert time.monotonic() < deadline, f"backend {pid} still there after {timeout} s"
            time.sleep(0.01)


def open_pools() -> list[psycopg_pool.ConnectionPool]:
    return [
        o for o in gc.get_objects() if isinstance(o, psycopg_pool.ConnectionPool) and not o.closed
    ]


def test_a_store_that_fails_while_opening_closes_its_pool(
    database: str, proxy: TcpProxy, tmp_path: Path
) -> None:
    """An application or a views store made while the server does not answer fails once its
    pool's timeout is over, and the pool it opened is closed: left open, its workers go on
    connecting in the background and hold what they get. The views runner restarts every half
    second through an outage, and PostgreSQL refusing connections (`too many clients already`)
    is such an outage too: each start that left its pool open took more, which is how the
    3 December load benchmark kept PostgreSQL at its limit.

    The garbage collector is off: it would close an unreachable open pool sooner or later."""
    env = Settings(
        data_dir=tmp_path, database_url=through(database, proxy), postgres_connect_timeout=1
    ).eventsourcing_env()
    with Chronicle(env) as app:  # the tables are made: what fails below is taking a connection
        reachability = store_reachability(app.recorder)
    assert reachability is not None
    gc.collect()
    gc.disable()
    try:
        before = len(open_pools())
        for store in (lambda: Chronicle(env), lambda: open_view_store(views_env(env))):
            proxy.close()
            with pytest.raises(OperationalError):
                store()
            assert len(open_pools()) == before
            proxy.open()
            # The failure marked the server unreachable, so the next store would fail at once
            # without opening a pool: a plain connection that succeeds clears the mark.
            assert reachability.probe()
    finally:
        gc.enable()
