"""The FastAPI app factory: settings in, an app whose lifespan owns the eventsourcing application."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import CapacityLimiter, to_thread
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import systems
from api import errors, metrics, openapi
from api.conditional import NotModified
from api.http_middleware import HttpMiddleware
from api.request_ids import RequestIds
from api.routers import (
    api_docs,
    campaigns,
    characters,
    history,
    members,
    meta,
    missions,
    ops,
    play,
    proof,
    rolls,
    signing,
    stream,
    visibility,
    web,
    webhooks,
)
from api.settings import KEY_FILENAME, Settings
from api.store_gate import StoreGate, StoreGateMiddleware
from api.visibility import Withholding
from domain.application import Chronicle
from domain.postgres import store_reachability
from domain.secrets import Sealer, WrongKey
from projections.runner import Supervisor, ViewReader, open_view_store, views_env
from projections.webhooks import Outbox, start_dispatcher


def build_application(settings: Settings) -> Chronicle:
    return Chronicle(
        views_env(settings.eventsourcing_env()),
        sealer=Sealer(settings.key_bytes()),
        attempts=settings.command_attempts,
    )


def _claim_key(chronicle: Chronicle, settings: Settings) -> None:
    """Refuse to start with another key than the store's secrets were sealed with."""
    try:
        chronicle.claim_server_key()
    except WrongKey as exc:
        chronicle.close()
        raise WrongKey(
            f"{exc}. The key came from {settings.key_source()}: start with the original key in "
            "CHRONICLE_SECRET_KEY (64 hex digits) or in the key file "
            f"{settings.data_dir / KEY_FILENAME}."
        ) from None


def prepare_store(settings: Settings) -> None:
    """What the first start of a store makes (its tables, the server key's claim, the first
    signing key, the views' tables), made once before several server processes start."""
    chronicle = build_application(settings)
    try:
        _claim_key(chronicle, settings)
        chronicle.signing.ensure_key()
    finally:
        chronicle.close()
    open_view_store(views_env(settings.eventsourcing_env())).datastore.close()  # type: ignore[attr-defined]


# Threads that wait for the views at once (anyio's default size: they sleep, they do not contend).
WAITING_THREADS = 40


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.command_limiter = CapacityLimiter(settings.command_threads)
        # Every other hop to a thread (sync dependencies and routes) takes one of these. With
        # anyio's 40, as many threads contended for the interpreter at 50 connections, and the
        # event loop waited its turn among them (docs/performance.md, "Thread hops").
        to_thread.current_default_thread_limiter().total_tokens = settings.request_threads
        # Waiting for the views (min_position) sleeps in a thread for up to 2 s: those threads
        # hold no interpreter, and must not take the few that answer everything else.
        app.state.wait_limiter = CapacityLimiter(WAITING_THREADS)
        app.state.chronicle = build_application(settings)
        app.state.store_gate.reachability = store_reachability(app.state.chronicle.recorder)
        _claim_key(app.state.chronicle, settings)
        app.state.chronicle.signing.ensure_key()  # the first start makes the first key
        env = settings.eventsourcing_env()
        # Open (and create) the views before any runner starts, so they never race to create them.
        app.state.views = ViewReader(open_view_store(views_env(env)))
        app.state.outbox = Outbox(app.state.views.store, views_env(env))  # the delivery logs
        supervisor, dispatcher = None, None
        if settings.projections == "embedded":
            supervisor = Supervisor(env).start()
            dispatcher = start_dispatcher(
                env, settings.key_bytes(), settings.webhook_policy(), supervisor
            )
        app.state.dispatcher = dispatcher
        try:
            yield
        finally:
            if dispatcher is not None:
                dispatcher.stop()
            if supervisor is not None:
                supervisor.stop()
            app.state.outbox.close()
            app.state.views.store.datastore.close()
            app.state.chronicle.close()

    app = FastAPI(
        title="Chronicle",
        version="0.1.0",
        summary="Event-sourced campaign state for tabletop RPGs played by post, in chat and at tables.",
        lifespan=lifespan,
        # FastAPI's own /docs and /redoc load their scripts from a CDN: api_docs serves them offline
        docs_url=None,
        redoc_url=None,
    )
    errors.install(app)
    openapi.install(app)
    # The routers' own routes, not include_router: FastAPI builds an included router's route state
    # (≈100 pydantic adapters) again for every app on its first request, while a router's routes
    # are built once, at import. So every app of the process (one per test) shares them; they keep
    # no state of an app (a request reaches its app through its scope). The one thing lost, the
    # app's `dependency_overrides`, nothing here uses. The OpenAPI schema is the same.
    routers = [
        *(r.router for r in (meta, ops, campaigns, members, characters, play)),
        *(router for routes in systems.parts("routes") for router in routes.ROUTERS),
        *(
            r.router
            for r in (missions, rolls, visibility, history, signing, stream, proof, webhooks)
        ),
        *(r.router for r in (api_docs, web)),
    ]
    for router in routers:
        app.router.routes.extend(router.routes)
    # Innermost: what a player may not see is gone before anything else reads the answer.
    app.add_middleware(Withholding)  # type: ignore[arg-type]
    # So that the CORS headers reach a 304 too (a browser app reads its ETag).
    app.add_middleware(NotModified)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)  # type: ignore[arg-type]
    app.state.store_gate = StoreGate()  # it watches the store the lifespan opens
    app.add_middleware(StoreGateMiddleware, gate=app.state.store_gate)  # type: ignore[arg-type]
    if settings.cors_origins:
        # Added last, so outermost: a 413 or a 503 the middlewares above answer carries the CORS
        # headers too, and a browser app can read its error instead of seeing a network failure.
        app.add_middleware(
            CORSMiddleware,  # type: ignore[arg-type]
            allow_origins=settings.cors_origins,
            allow_methods=CORS_METHODS,
            allow_headers=CORS_REQUEST_HEADERS,
            expose_headers=CORS_EXPOSED_HEADERS,
            max_age=600,
        )
    # Outermost: every answer is counted and carries its request id, a middleware's answer too.
    app.state.metrics = metrics.app_registry(app.state)
    app.add_middleware(metrics.RequestMetrics)  # type: ignore[arg-type]
    app.add_middleware(RequestIds)  # type: ignore[arg-type]
    return app


# What a browser front end may send and read across origins (docs/front-ends.md, "CORS"). Tokens
# travel in Authorization, never in cookies: no credentials mode.
CORS_METHODS = ["GET", "POST", "PUT", "DELETE"]
CORS_REQUEST_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Last-Event-ID",
    "X-Request-Id",
]
CORS_EXPOSED_HEADERS = ["ETag", "Retry-After", "Location", "Idempotent-Replayed", "X-Request-Id"]


class BodyLimit(HttpMiddleware):
    """Refuses bodies over the limit with 413 in the error shape, declared or streamed.

    FastAPI's own max_body_size answers a declared oversized body in plain text, not our JSON shape.
    A body without Content-Length (chunked) is read here, up to the limit, before the app sees it:
    an error raised from inside the app's `receive` would reach FastAPI's body parsing, which
    turns it into a 400.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        body = await self._read(receive)
        if body is None:
            await self._refuse(send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> list[Message] | None:
        """The request's body messages, or None once they pass the limit."""
        messages: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages  # the client went away: the app sees that as it would have
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                return None
            if not message.get("more_body", False):
                return messages

    async def _refuse(self, send: Send) -> None:
        response = errors.error_response(
            413, "body_too_large", f"the body is larger than {self.max_bytes} bytes", field="body"
        )
        await response({"type": "http"}, _no_body, send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that hands out the body already read, then waits on the client (disconnects)."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


async def _no_body() -> Message:
    return {"type": "http.disconnect"}
