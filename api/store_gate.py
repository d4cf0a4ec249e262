"""A fast 503 while PostgreSQL is unreachable.

Once a request has found the store unreachable, every later request first tries one plain
connection: while that fails it is answered 503 with Retry-After at once, and the first that
succeeds lets requests through again (and every datastore of the process with them: the probe is
the store's own, domain/postgres.py). An outage so never fills the thread pool with requests that
are waiting to fail.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from api import errors

Probe = Callable[[], bool]  # whether the store answers one plain connection now


class StoreGate:
    def __init__(self, probe: Probe | None = None) -> None:
        # None: a store that cannot be unreachable (a SQLite file), or none opened yet.
        self.probe = probe
        self.tripped = False

    def trip(self) -> None:
        """The store was found unreachable: check it before the next request."""
        self.tripped = self.probe is not None

    def reachable(self) -> bool:
        """Whether the store answers a plain connection now (readiness, metrics): a probe that
        fails trips the gate, so it never waits out eventsourcing's retries."""
        if self.probe is None:
            return True
        answered = self.probe()
        self.tripped = not answered
        return answered

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
