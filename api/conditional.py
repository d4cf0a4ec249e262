"""Conditional reads: a GET whose answer carries an ETag the caller already holds answers 304.

One middleware for every read, so no route has to know about `If-None-Match`: it looks at the answer
the route gave (its status and ETag), not at the route. RFC 9110, 13.1.2 and 15.4.5.
"""

from __future__ import annotations

import re

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import errors

# One element of the list: `"3"`, `W/"3"`, or a bare `3` (If-Match accepts that too, so a client
# that sends one back unquoted is not refused here). Empty elements (`a, , b`) are allowed by the
# list syntax of RFC 9110, 5.6.1.
ELEMENT = re.compile(r'\s*(?:(W/)?"([\x21\x23-\x7e\x80-\xff]*)"|([\x21\x23-\x2b\x2d-\x7e]+))?\s*')
# What a 304 keeps of the 200 it stands for (RFC 9110, 15.4.5); the body and its Content-* go.
KEPT_ON_304 = ("cache-control", "content-location", "date", "etag", "expires", "vary")


class MalformedIfNoneMatch(ValueError):
    pass


def opaque_tags(value: str) -> set[str] | None:
    """The tags of an If-None-Match value without their weakness, or None for `*` (any tag).

    Weak comparison (RFC 9110, 8.8.3.2) is all a GET needs: `W/"3"` and `"3"` are the same tag.
    """
    if value.strip() == "*":
        return None
    tags: set[str] = set()
    for element in _split(value):
        match = ELEMENT.fullmatch(element)
        if match is None:
            raise MalformedIfNoneMatch(element)
        quoted, bare = match.group(2), match.group(3)
        if quoted is not None:
            tags.add(quoted)
        elif bare is not None:
            tags.add(bare)
    return tags


def _split(value: str) -> list[str]:
    """The elements of a list, cut at the commas outside quotes (a quoted tag may hold one)."""
    elements: list[str] = []
    current: list[str] = []
    quoted = False
    for char in value:
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            elements.append("".join(current))
            current = []
        else:
            current.append(char)
    elements.append("".join(current))
    return elements


def matches(if_none_match: str, etag: str) -> bool:
    """Whether the answer's ETag is one the caller holds (may raise MalformedIfNoneMatch)."""
    held = opaque_tags(if_none_match)
    if held is None:
        return True
    tag = opaque_tags(etag)
    return tag is not None and bool(tag & held)


class NotModified:
    """Turns a GET's 200 into a 304 (no body, the ETag kept) when If-None-Match names its ETag.

    Only a 200 that carries an ETag is compared: an error keeps its status (RFC 9110, 13.2.1: a
    precondition is ignored where the answer without it would not be a success), and a read without
    an ETag (the lists, the export) has nothing to compare, so it answers as if the header were absent.
    A malformed If-None-Match is a 422 naming it, on those reads that would compare it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if_none_match = Headers(scope=scope).get("if-none-match")
        if if_none_match is None:
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, _Conditional(if_none_match, receive, send).send)


class _Conditional:
    """The `send` of one conditional GET: passes the answer on, or swaps it for a 304 or a 422."""

    def __init__(self, if_none_match: str, receive: Receive, send: Send) -> None:
        self.if_none_match = if_none_match
        self.receive = receive
        self.downstream = send
        self.swallowing = False  # the route's body, once its answer was replaced

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            await self._start(message)
        elif message["type"] == "http.response.body" and self.swallowing:
            pass
        else:
            await self.downstream(message)

    async def _start(self, message: Message) -> None:
        etag = Headers(raw=message["headers"]).get("etag")
        if message["status"] != 200 or etag is None:
            await self.downstream(message)
            return
        try:
            held = matches(self.if_none_match, etag)
        except MalformedIfNoneMatch as exc:
            self.swallowing = True
            await _refusal(str(exc))({"type": "http"}, self.receive, self.downstream)
            return
        if not held:
            await self.downstream(message)
            return
        self.swallowing = True
        kept = [(k, v) for k, v in message["headers"] if k.decode("latin-1").lower() in KEPT_ON_304]
        await self.downstream({"type": "http.response.start", "status": 304, "headers": kept})
        await self.downstream({"type": "http.response.body", "body": b""})


def _refusal(element: str) -> JSONResponse:
    return errors.error_response(
        422,
        "invalid_input",
        'If-None-Match must be "*" or a list of entity tags such as "3", W/"3"; '
        f"{element.strip()!r} is not one",
        field="If-None-Match",
    )
