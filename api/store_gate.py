"""A fast 503 while PostgreSQL is unreachable.

Once a request has found the store unreachable, every later request first tries one plain
connection: while that fails it is answered 503 with Retry-After at once, and the first that
succeeds lets requests through again (and every datastore of the process with them: the probe is
the store's own, domain/postgres.py). An outage so never fills the thread pool with requests that
are waiting to fail.
"""

from __future__ import annotations

import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from api import errors
from domain.postgres import Reachability


class StoreGate:
    """The API's view of the store's reachability, which the store keeps itself (domain/postgres.py:
    a pool that gives no connection and a plain connection that fails mark its server unreachable,
    for every datastore of the process). None: a store that cannot be unreachable (a SQLite file),
    or none opened yet."""

    def __init__(self, reachability: Reachability | None = None) -> None:
        self.reachability = reachability

    @property
    def tripped(self) -> bool:
        return self.reachability is not None and self.reachability.unreachable

    def reachable(self) -> bool:
        """Whether the store answers a plain connection now (readiness, metrics); the answer is
        what every datastore of the process goes by next."""
        return self.reachability is None or self.reachability.probe()

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
