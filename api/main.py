"""The FastAPI app factory: settings in, an app whose lifespan owns the eventsourcing application."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import errors
from api.routers import (
    campaigns,
    characters,
    classd,
    fight,
    history,
    meta,
    missions,
    nimble,
    nimble_grapple,
    nimble_health,
    nwod,
    play,
    resolve,
    rolls,
    scene_play,
    stream,
)
from api.settings import Settings
from domain.application import Chronicle
from domain.secrets import Sealer
from projections.runner import Supervisor, ViewReader, open_view_store, views_env


def build_application(settings: Settings) -> Chronicle:
    return Chronicle(
        views_env(settings.eventsourcing_env()),
        sealer=Sealer(settings.key_bytes()),
        attempts=settings.command_attempts,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.chronicle = build_application(settings)
        env = settings.eventsourcing_env()
        # Open (and create) the views before any runner starts, so they never race to create them.
        app.state.views = ViewReader(open_view_store(views_env(env)))
        supervisor = Supervisor(env).start() if settings.projections == "embedded" else None
        try:
            yield
        finally:
            if supervisor is not None:
                supervisor.stop()
            app.state.views.store.datastore.close()
            app.state.chronicle.close()

    app = FastAPI(
        title="Chronicle",
        version="0.1.0",
        summary="Event-sourced campaign state for tabletop RPGs played by post, in chat and at tables.",
        lifespan=lifespan,
    )
    errors.install(app)
    # The routers' own routes, not include_router: FastAPI builds an included router's route state
    # (≈100 pydantic adapters) again for every app on its first request, while a router's routes
    # are built once, at import. So every app of the process (one per test) shares them; they keep
    # no state of an app (a request reaches its app through its scope). The one thing lost, the
    # app's `dependency_overrides`, nothing here uses. The OpenAPI schema is the same.
    for module in (
        meta,
        campaigns,
        characters,
        play,
        resolve,
        scene_play,
        fight,
        classd,
        nimble,
        nimble_grapple,
        nimble_health,
        nwod,
        missions,
        rolls,
        history,
        stream,
    ):
        app.router.routes.extend(module.router.routes)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)  # type: ignore[arg-type]
    return app


class BodyLimit:
    """Refuses bodies over the limit with 413 in the error shape, declared or streamed.

    FastAPI's own max_body_size answers a declared oversized body in plain text, not our JSON shape.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        response = errors.error_response(
            413, "body_too_large", f"the body is larger than {self.max_bytes} bytes", field="body"
        )
        await response({"type": "http"}, _no_body, send)


class _TooLarge(Exception):
    pass


async def _no_body() -> Message:
    return {"type": "http.disconnect"}
