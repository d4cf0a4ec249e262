"""A fast 503 while PostgreSQL is unreachable.

Once a request has found the store unreachable, every later request first tries one plain
connection: while that fails it is answered 503 with Retry-After at once, and the first that
succeeds lets requests through again. Without the gate each request waits out eventsourcing's
retries (10 attempts, each up to the pool's connect timeout, 30 s at the defaults) before its 503,
and an outage fills the thread pool with requests that are waiting to fail.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio.to_thread
import psycopg
from starlette.types import ASGIApp, Receive, Scope, Send

from api import errors

Probe = Callable[[], None]  # raises psycopg.Error while the store is unreachable


def postgres_probe(database_url: str, timeout_seconds: int) -> Probe:
    def probe() -> None:
        psycopg.connect(database_url, connect_timeout=timeout_seconds).close()

    return probe


class StoreGate:
    def __init__(self, probe: Probe | None) -> None:
        self.probe = probe  # None: a store that cannot be unreachable (a SQLite file)
        self.tripped = False

    def trip(self) -> None:
        """The store was found unreachable: check it before the next request."""
        self.tripped = self.probe is not None

    def reachable(self) -> bool:
        """Whether the store answers a plain connection now (readiness, metrics): a probe that
        fails trips the gate, so it never waits out eventsourcing's retries."""
        if self.probe is None:
            return True
        try:
            self.probe()
        except psycopg.Error:
            self.tripped = True
            return False
        self.tripped = False
        return True

    def passes(self) -> bool:
        return not self.tripped or self.reachable()


class StoreGateMiddleware:
    def __init__(self, app: ASGIApp, gate: StoreGate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = (
            scope["type"] == "http"
            and self.gate.tripped
            and not await anyio.to_thread.run_sync(self.gate.passes)
        )
        if refused:
            await errors.store_unavailable()(scope, receive, send)
            return
        await self.app(scope, receive, send)
