"""The operator's view: readiness (`/ready`) and Prometheus metrics (`/metrics`)."""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from api import metrics
from api.deps import AppDep
from api.errors import ERROR_RESPONSES, error_response, store_unavailable
from api.routing import OneHopRoute
from api.schemas import Ready
from domain.errors import Forbidden
from projections.lag import lag_of

router = APIRouter(route_class=OneHopRoute, tags=["meta"], responses=ERROR_RESPONSES)

READY_RETRY_AFTER_SECONDS = 2


@router.get("/ready", response_model=Ready, operation_id="ready")
def ready(request: Request, app: AppDep) -> Ready | JSONResponse:
    """Ready to serve: the store answers and the views are within `ready_max_lag` positions of
    the log (503 with Retry-After otherwise, `not_ready` with the lag in `details`). `/health` is
    the liveness check."""
    state = request.app.state
    if not state.store_gate.reachable():
        return store_unavailable()
    lag = lag_of(app, state.views)
    figures = {"head": lag.head, "views_position": lag.views, "lag": lag.events}
    bound = state.settings.ready_max_lag
    if not lag.within(bound):
        return error_response(
            503,
            "not_ready",
            f"the views are {lag.events} positions behind the log (at most {bound} allowed)",
            details={**figures, "max_lag": bound},
            headers={"Retry-After": str(READY_RETRY_AFTER_SECONDS)},
        )
    return Ready(status="ready", max_lag=bound, **figures)


@router.get("/metrics", include_in_schema=False)
def read_metrics(request: Request) -> Response:
    """Prometheus' text format; for the loopback, or anyone with the metrics token."""
    _may_read_metrics(request)
    body = metrics.exposition(request.app.state.metrics)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def _may_read_metrics(request: Request) -> None:
    host = request.client.host if request.client else ""
    if _loopback(host):
        return
    token = request.app.state.settings.metrics_token
    sent = request.headers.get("authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return
    raise Forbidden(
        "/metrics answers the loopback interface, or a bearer token equal to "
        "CHRONICLE_METRICS_TOKEN",
        code="metrics_forbidden",
        field="Authorization",
    )


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
