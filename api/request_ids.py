"""A request id for every request: taken from `X-Request-Id` or made, answered in the same header,
put on every log line written while the request runs and in every error body."""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar
from dataclasses import dataclass

from starlette.datastructures import MutableHeaders
from starlette.types import Message, Receive, Scope, Send

from api.http_middleware import HttpMiddleware

log = logging.getLogger("chronicle.api")

HEADER = "X-Request-Id"
# What an incoming id may be: a proxy's or a client's own id is kept when it is a plain token, so
# that one id follows a request across services; anything else (too long, spaces, quotes) could
# forge log fields or headers, and a new id is made instead.
ACCEPTED = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")


@dataclass
class RequestInfo:
    """What the layers below learn about the request they answer. Mutable and shared: a sync
    handler runs in a copy of the context, and what it notes here must reach the middlewares."""

    id: str
    error_code: str | None = None


CURRENT: ContextVar[RequestInfo | None] = ContextVar("chronicle_request", default=None)


def current_id() -> str | None:
    info = CURRENT.get()
    return info.id if info is not None else None


def note_error(code: str) -> None:
    """The error code the request is answered with (for the command-outcome metrics)."""
    info = CURRENT.get()
    if info is not None:
        info.error_code = code


def incoming_or_new(value: str | None) -> str:
    if value is not None and ACCEPTED.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIds(HttpMiddleware):
    """Outermost middleware: every answer, even one a middleware gives, carries the id."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        sent = dict(scope["headers"]).get(HEADER.lower().encode())
        info = RequestInfo(incoming_or_new(sent.decode("latin-1") if sent else None))
        token = CURRENT.set(info)
        started = False

        async def answer(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                MutableHeaders(scope=message)[HEADER] = info.id
            await send(message)

        try:
            await self.app(scope, receive, answer)
        except Exception:
            # Answered here, not by Starlette's outermost handler: there the request's id is
            # gone, from the 500's body and header and from the line that logs the error.
            if started:
                raise
            from api.errors import internal_error  # here: api.errors imports this module

            log.exception("unexpected error")
            await internal_error()(scope, receive, answer)
        finally:
            CURRENT.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on each record (None outside a request), for the formatters."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_id()
        return True
