"""What a player or an observer may not see, on every read: the routes that show rolls and logs
withhold by meaning (api/routers); this middleware is the net under every JSON read, so that a
read path added later cannot show a hidden character (docs/front-ends.md, "Visibility")."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from anyio import to_thread
from eventsourcing.persistence import InterfaceError, OperationalError
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import errors
from api.deps import remember_actor
from api.schemas import RollPublic
from domain.aggregates import Campaign
from domain.application import Actor, Chronicle
from domain.errors import DomainError
from domain.export import ids_in
from domain.visibility import Visibility


def seen_by(app: Chronicle, actor: Actor) -> Visibility:
    """The reader's visibility now; take it after reading the views (domain.visibility)."""
    return Visibility.of(app.get(actor, Campaign, actor.campaign_id), actor)


def scrub(value: Any, hidden: frozenset[str]) -> Any:
    """A JSON value without the hidden characters: list items naming one go, keys naming one go,
    a field holding one becomes null. Texts are left: the routes that write texts filter them."""
    if isinstance(value, dict):
        return {
            k: None if _names(v, hidden) else scrub(v, hidden)
            for k, v in value.items()
            if k not in hidden
        }
    if isinstance(value, list):
        return [scrub(v, hidden) for v in value if not _names(v, hidden)]
    return value


def _names(value: Any, hidden: frozenset[str]) -> bool:
    """Is the value a hidden id, or an object one of whose own fields is one (its whole item)?"""
    if isinstance(value, str):
        return value in hidden
    if isinstance(value, dict):
        return any(isinstance(v, str) and v in hidden for v in value.values())
    return False


class Withholding:
    """For a GET by a player or an observer of a campaign that hides characters: a path or query
    naming one answers as if it did not exist (404, or 422 naming the parameter), and a JSON
    answer loses every mention of one (`scrub`). Nothing is buffered for anyone else."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reads = scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
        try:
            hidden = await self._hidden(scope) if reads else frozenset()
        except (OperationalError, InterfaceError):
            # Outside the app's exception handlers: the store's outage is answered here as
            # there, a 503 (not a 500).
            await errors.store_unavailable()(scope, receive, send)
            return
        if not hidden:
            await self.app(scope, receive, send)
            return
        refusal = _refusal(scope, hidden)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, _Scrubbing(hidden, send).send)

    async def _hidden(self, scope: Scope) -> frozenset[str]:
        state = getattr(scope.get("app"), "state", None)
        app: Chronicle | None = getattr(state, "chronicle", None)
        header = Headers(scope=scope).get("authorization", "")
        scheme, _, token = header.partition(" ")
        if app is None or scheme.lower() != "bearer" or not token.strip():
            return frozenset()
        try:
            actor = await to_thread.run_sync(app.authenticate, token.strip())
            remember_actor(scope, token.strip(), actor)
            if actor.is_gm:  # sees everything: no second read of the campaign
                return frozenset()
            seen = await to_thread.run_sync(seen_by, app, actor)
        except DomainError:  # a bad token: the route answers the error itself
            return frozenset()
        return seen.hidden


def _refusal(scope: Scope, hidden: frozenset[str]) -> Any:
    if ids_in(scope["path"]) & hidden:
        return errors.error_response(404, "not_found", f"{scope['path']} not found")
    for name, value in parse_qsl(scope.get("query_string", b"").decode("latin-1")):
        if ids_in(value) & hidden:
            return errors.error_response(
                422, "invalid_input", f"{name} names nothing of this campaign", field=name
            )
    return None


class _Scrubbing:
    """The `send` of one read: a JSON answer is gathered, scrubbed and sent with its new length."""

    def __init__(self, hidden: frozenset[str], send: Send) -> None:
        self.hidden = hidden
        self.downstream = send
        self.start: Message | None = None
        self.body = b""

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kind = Headers(raw=message["headers"]).get("content-type", "")
            if kind.startswith("application/json"):
                self.start = message
                return
        if self.start is None or message["type"] != "http.response.body":
            await self.downstream(message)
            return
        self.body += message.get("body", b"")
        if message.get("more_body", False):
            return
        body = self.body
        if body:
            kept = scrub(json.loads(body), self.hidden)
            body = json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode()
        headers = [(k, v) for k, v in self.start["headers"] if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await self.downstream({**self.start, "headers": headers})
        await self.downstream({"type": "http.response.body", "body": body})


def withheld_roll(roll: RollPublic) -> RollPublic:
    """A roll as a player or an observer sees it while the GM withholds it: its place in the
    chain, its hashes, its commitment and its receipt; no contents."""
    return roll.model_copy(
        update={
            "withheld": True,
            "character_id": None,
            "check": None,
            "follow_up": None,
            "follow_up_of": None,
            "request": None,
            "faces": None,
            "result": None,
            "odds": None,
            "modifiers": [],
            "set_by_gm": [],
            "proof": roll.proof.model_copy(update={"client_seed": None}),
        }
    )


def roll_seen(roll: RollPublic, record: dict[str, Any], seen: Visibility) -> RollPublic:
    return withheld_roll(roll) if seen.withholds(record) else roll
