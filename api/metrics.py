"""Prometheus metrics (prometheus_client): requests and their latency per operation, command
outcomes, and at each scrape the log head, the views' lag, the open streams and the store's state.

Counters are per process, in prometheus_client's own registry (its process_* figures come with
them); what is read at each scrape belongs to one app and is collected from its state.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.datastructures import State
from starlette.types import Message, Receive, Scope, Send

from api import request_ids
from api.http_middleware import HttpMiddleware
from projections.lag import lag_of
from projections.webhook_metrics import WEBHOOK_DELIVERIES  # noqa: F401  (registers it)

# A _created series beside each counter doubles the scrape for a figure nobody graphs.
disable_created_metrics()

UNROUTED = "unrouted"  # a request no operation took: unknown path, or answered by a middleware
READS = frozenset({"GET", "HEAD", "OPTIONS"})
CONFLICTS = frozenset({"version_conflict", "contention"})

REQUESTS = Counter(
    "chronicle_http_requests",
    "HTTP requests answered, by operation id and status.",
    ["operation", "status"],
)
LATENCY = Histogram(
    "chronicle_http_request_duration_seconds",
    "Seconds from a request's arrival to its answer's headers (for the stream: to its opening).",
    ["operation"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
OUTCOMES = Counter(
    "chronicle_command_outcomes",
    "Commands (every operation that is not a read) by outcome: ok, refused (with its error "
    "code), conflict (a stale If-Match or too many clashes) or error (5xx).",
    ["operation", "outcome", "code"],
)


def outcome_of(status: int, code: str | None) -> tuple[str, str]:
    """(outcome, code) of a command answered with `status` and error `code`."""
    if status < 400:
        return "ok", ""
    if status >= 500:
        return "error", code or ""
    if code in CONFLICTS:
        return "conflict", code
    return "refused", code or ""


class RequestMetrics(HttpMiddleware):
    """Counts each request under its operation id, once the router has named it."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500  # what the server answers if the app fails before its headers

        async def timed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                LATENCY.labels(_operation(scope)).observe(time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, timed)
        finally:
            operation = _operation(scope)
            REQUESTS.labels(operation, str(status)).inc()
            if _is_command(scope):
                info = request_ids.CURRENT.get()
                outcome, code = outcome_of(status, info.error_code if info else None)
                OUTCOMES.labels(operation, outcome, code).inc()


def _is_command(scope: Scope) -> bool:
    """A request that ran an operation that is not a read (a wrong method's 405 ran none)."""
    method = scope["method"]
    return method not in READS and method in getattr(scope.get("route"), "methods", ())


def _operation(scope: Scope) -> str:
    # FastAPI's router puts the matched route in the scope it was given, which is this one.
    route = scope.get("route")
    return getattr(route, "operation_id", None) or UNROUTED


class AppGauges(Collector):
    """What one app's state says at each scrape; nothing of it while the store is unreachable
    (chronicle_store_up 0), so that a scrape never waits out the store's retries."""

    def __init__(self, state: State) -> None:
        self.state = state

    def collect(self) -> Iterator[Metric]:
        state = self.state
        head = getattr(state, "stream_head", None)
        yield _gauge(
            "chronicle_stream_subscribers",
            "Open streams of this process.",
            head.streams if head else 0,
        )
        up = state.store_gate.reachable()
        yield _gauge("chronicle_store_up", "1 when the event store answers, else 0.", int(up))
        if not up:
            return
        lag = lag_of(state.chronicle, state.views)
        yield _gauge("chronicle_log_head_position", "The log's last position.", lag.head)
        yield _gauge("chronicle_views_position", "The last position the views applied.", lag.views)
        yield _gauge(
            "chronicle_views_lag_events", "Positions the views have still to apply.", lag.events
        )


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def exposition(app_registry: CollectorRegistry) -> bytes:
    """The text a scrape reads: the process's counters, then the app's gauges."""
    return generate_latest(REGISTRY) + generate_latest(app_registry)


def app_registry(state: State) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(AppGauges(state))
    return registry
