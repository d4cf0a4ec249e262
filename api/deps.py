"""Dependencies of the routes: the application, the caller, and the command runner with its headers."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Annotated, Any

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from starlette.types import Scope

from api.schemas import REQUEST_SIGNING, RollRequestPublic, roll_request_public
from domain.aggregates import RollRequest
from domain.application import (
    Actor,
    Chronicle,
    CommandContext,
    IdempotencyRequest,
    Outcome,
)
from domain.errors import InvalidInput, NotCaughtUp
from domain.service import token_parts
from projections.runner import ViewReader

IF_MATCH = re.compile(r'^\s*(?:W/)?"?(\d{1,12})"?\s*$')
# Log positions are 64-bit signed integers in both stores: a larger one would overflow the driver
# (a 500 on SQLite) instead of being refused as input.
MAX_POSITION = 2**63 - 1
MAX_IDEMPOTENCY_KEY = 200
# Without a token, an Idempotency-Key is the only secret between a caller and its stored response
# (which holds a GM token): it must carry at least 128 random bits, a UUID or 32+ base64url
# characters (hex is base64url too). docs/decisions.md, "Idempotency-Key".
# What the JSON parser says of a body nested deeper than Python's recursion limit lets it read.
TOO_DEEP = {"type": "json_invalid", "loc": ("body",), "msg": "nested too deeply to read"}
# A random (version 4) UUID, or 32 to 200 base64url characters (hex is a subset). Another UUID
# (time-based, name-based) also reads as base64url: it is refused by its shape first.
UUID_SHAPE = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)
RANDOM_UUID = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"
)
BASE64URL_KEY = re.compile(r"^[A-Za-z0-9_-]{32,200}$")
# Estimated bits a random key shows at least (docs/decisions.md, "Anonymous Idempotency-Keys"):
# a random UUID or 32 random hex digits shows 116 on average, the fewest in a million was 87.
ANONYMOUS_KEY_MIN_BITS = 72


# The 202 of every route whose verb rolls with modifiers a player declares: under the campaign's
# `player_modifiers: gm_approval` the command records a roll request instead (`Commands.run`).
# tests/unit/test_roll_request_202.py finds those verbs and checks that each route declares it.
ASKS_GM: dict[int | str, dict[str, Any]] = {
    202: {
        "model": RollRequestPublic,
        "description": "A player's situational modifiers wait for the GM (player_modifiers: "
        "gm_approval): a roll request, no dice rolled yet",
    }
}

# The 304 of every read that answers an ETag (api/conditional.py answers it, for all of them).
# tests/unit/test_not_modified_304.py finds the reads through `respond` and checks each declares it.
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {
        "description": "If-None-Match names the current ETag (weakly compared) or is `*`: "
        "nothing changed since that read; no body",
        "headers": {
            "ETag": {
                "description": 'The current version, e.g. "3", the same tag the caller holds',
                "schema": {"type": "string"},
            }
        },
    }
}

# Dependencies that do no I/O are `async def`: FastAPI runs sync ones in its thread pool, and each hop
# costs more than the dependency itself.


async def get_app(request: Request) -> Chronicle:
    app: Chronicle = request.app.state.chronicle
    REQUEST_SIGNING.set(app.signing)  # receipts of the rolls this request presents
    return app


AppDep = Annotated[Chronicle, Depends(get_app)]


def _caught_up(views: ViewReader, app: Chronicle, min_position: int) -> None:
    if min_position > views.position():
        head = app.recorder.max_notification_id() or 0
        if min_position > head:
            raise InvalidInput(
                f"min_position {min_position} is beyond the end of the log ({head})",
                field="min_position",
            )
    if not views.wait(min_position):
        raise NotCaughtUp(
            f"the views have not reached position {min_position} yet (they are at {views.position()})",
            field="min_position",
        )


def position_query(description: str) -> Any:
    """A query parameter holding a log position: 0 to MAX_POSITION, else 422 naming it."""
    return Query(ge=0, le=MAX_POSITION, description=description)


async def get_views(
    request: Request,
    min_position: Annotated[
        int | None,
        position_query("Wait (up to 2 s) until the views have applied this log position"),
    ] = None,
) -> ViewReader:
    views: ViewReader = request.app.state.views
    if min_position is not None:
        app = request.app.state.chronicle
        limiter = getattr(request.app.state, "wait_limiter", None)  # as `command_limiter`
        await to_thread.run_sync(_caught_up, views, app, min_position, limiter=limiter)
    return views


ViewsDep = Annotated[ViewReader, Depends(get_views)]


_bearer_scheme = HTTPBearer(
    auto_error=False,
    description="The token from POST /v1/campaigns (GM) or POST /v1/campaigns/{id}/members.",
)


async def bearer(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer_scheme)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


# The actor a middleware has already authenticated for this request (the visibility filter of
# reads does), kept in the ASGI scope's state so that the route does not authenticate again.
_AUTHENTICATED = "authenticated_actor"


def remember_actor(scope: Scope, token: str, actor: Actor) -> None:
    scope.setdefault("state", {})[_AUTHENTICATED] = (token, actor)


def remembered_actor(scope: Scope, token: str | None) -> Actor | None:
    known = scope.get("state", {}).get(_AUTHENTICATED)
    return known[1] if known is not None and known[0] == token else None  # type: ignore[no-any-return]


def get_actor(
    request: Request, app: AppDep, token: Annotated[str | None, Depends(bearer)]
) -> Actor:
    return remembered_actor(request.scope, token) or app.authenticate(token)


ActorDep = Annotated[Actor, Depends(get_actor)]


async def _authenticated_wait(actor: ActorDep, views: ViewsDep) -> None:
    """Authenticate first (401 before any wait), then honour min_position."""


# Every query accepts min_position: resources answer from the event store, history from the views.
WAIT = [Depends(_authenticated_wait)]


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def respond(model: BaseModel, status_code: int = 200) -> JSONResponse:
    body = model.model_dump(mode="json")
    return JSONResponse(body, status_code=status_code, headers=etag(body["version"]))


def _expected_version(value: str | None) -> int | None:
    if value is None or value.strip() == "*":
        return None
    match = IF_MATCH.match(value)
    if match is None:
        raise InvalidInput('If-Match must be a version, e.g. "3"', field="If-Match")
    return int(match.group(1))


async def _request_hash(request: Request) -> str:
    raw = await request.body()
    try:
        canonical = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode()
    except ValueError:
        canonical = raw
    except RecursionError:
        # Routes without a body never parse it themselves: without this a deep one was a 500.
        raise RequestValidationError([TOO_DEEP]) from None
    head = f"{request.method} {request.url.path}\n".encode()
    return hashlib.sha256(head + canonical).hexdigest()


@dataclass
class Commands:
    """Runs one command verb with the request's If-Match and Idempotency-Key and renders the answer."""

    app: Chronicle
    actor: Actor | None  # the caller: `run` sets it from `token` if the request had no actor yet
    expected_version: int | None
    idempotency_key: str | None
    request_hash: str
    limiter: CapacityLimiter | None = None  # how many commands run at once (the app's)
    # A member's token not yet checked against its campaign: `run` does that first, in the
    # command's own thread (one hop to a thread per command, not one for the token and one more).
    token: str | None = None

    def run(
        self,
        verb: Callable[..., Outcome],
        *args: Any,
        present: Callable[[Outcome], BaseModel],
        status_code: int | Callable[[Outcome], int] = 200,
        **kwargs: Any,
    ) -> JSONResponse:
        def status_of(outcome: Outcome) -> int:
            return status_code(outcome) if callable(status_code) else status_code

        def render(outcome: Outcome) -> tuple[int, dict[str, Any]]:
            # Any command that rolls may instead record a roll request for the GM: 202 with it.
            pending = outcome.aggregate
            if isinstance(pending, RollRequest) and pending.status == "pending":
                return 202, roll_request_public(pending).model_dump(mode="json")
            body = present(outcome).model_dump(mode="json")
            # Every command's answer, whatever its presenter shows: no roll goes without receipt.
            signing = REQUEST_SIGNING.get()
            body["receipts"] = [signing.receipt(r.record) for r in outcome.rolls]  # type: ignore[attr-defined]
            return status_of(outcome), body

        if self.token is not None:
            self.actor, self.token = self.app.authenticate(self.token), None
        idempotency = None
        if self.idempotency_key is not None:
            idempotency = IdempotencyRequest(
                self._scope(), self.idempotency_key, self.request_hash, render
            )
        ctx = CommandContext(self.actor, self.expected_version, idempotency)
        outcome = verb(ctx, *args, **kwargs)
        if outcome.replayed is not None:
            body = outcome.replayed.body
            return JSONResponse(
                body,
                status_code=outcome.replayed.status_code,
                headers={**etag(body["version"]), "Idempotent-Replayed": "true"},
            )
        status, body = render(outcome)
        body["position"] = outcome.position
        return JSONResponse(body, status_code=status, headers=etag(body["version"]))

    def _scope(self) -> str:
        """A member's keys are its own. An anonymous key is bound to its request too, so another
        body under a used key is simply a new request: no answer tells a used key from an unused
        one, and only who sends the very key and body again gets the stored response."""
        if self.actor is not None:
            return self.actor.member_id.hex
        assert self.idempotency_key is not None
        if not looks_random(self.idempotency_key):
            raise InvalidInput(
                "without a token, Idempotency-Key must carry at least 128 random bits: a random "
                "(version 4) UUID, or 32 to 200 base64url characters (A-Z a-z 0-9 - _) from a "
                "secure random source; this one is not of that shape or visibly not random",
                field="Idempotency-Key",
                code="idempotency_key_weak",
            )
        return f"anonymous:{self.request_hash}"


def looks_random(key: str) -> bool:
    """Whether an anonymous key may stand for its caller: whoever repeats it with the same body
    gets the GM's token, so a constant, a pattern or a counter must not pass. The server cannot
    prove randomness; it refuses what a person or a counter makes: too few distinct characters,
    a repeating block, or steady steps between neighbours (abcd…, 1234…)."""
    if UUID_SHAPE.match(key):
        if not RANDOM_UUID.match(key):
            return False
        text = key.replace("-", "").lower()
    elif BASE64URL_KEY.match(key):
        text = key
    else:
        return False
    steps = [ord(b) - ord(a) for a, b in pairwise(text)]
    return (
        not any(text[p:] == text[:-p] for p in range(1, len(text) // 2 + 1))
        and _bits(list(text)) >= ANONYMOUS_KEY_MIN_BITS
        and _bits(steps) >= ANONYMOUS_KEY_MIN_BITS
    )


def _bits(symbols: list[Any]) -> float:
    """The symbols' count times the Shannon entropy of their frequencies (order 0)."""
    counts = Counter(symbols)
    n = len(symbols)
    return -sum(c * math.log2(c / n) for c in counts.values())


def _idempotency_key(value: str | None) -> str | None:
    if value is None:
        return None
    if not 1 <= len(value) <= MAX_IDEMPOTENCY_KEY or not value.isprintable():
        raise InvalidInput(
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} printable characters",
            field="Idempotency-Key",
        )
    return value


async def _commands(
    request: Request,
    app: AppDep,
    if_match: Annotated[
        str | None,
        Header(description='Expected version, e.g. "3": a stale one gets 409 and writes nothing.'),
    ] = None,
    idempotency_key: Annotated[
        str | None,
        Header(description="Retry-safe key: the same key and body return the first response."),
    ] = None,
) -> Commands:
    return Commands(
        app,
        None,
        _expected_version(if_match),
        _idempotency_key(idempotency_key),
        await _request_hash(request),
        getattr(request.app.state, "command_limiter", None),
    )


async def _caller(request: Request, token: Annotated[str | None, Depends(bearer)]) -> Actor | str:
    """Who sends a member's command: the actor a middleware already authenticated, else the
    token, refused at once if it is missing or malformed (before the headers and the body)."""
    actor = remembered_actor(request.scope, token)
    if actor is not None:
        return actor
    token_parts(token)
    assert token is not None  # token_parts refused a missing one
    return token


async def _member_commands(
    caller: Annotated[Actor | str, Depends(_caller)],  # before `commands`: 401 first
    commands: Annotated[Commands, Depends(_commands)],
) -> Commands:
    """The member's commands. A well-formed token is checked against its campaign when the
    command runs (`Commands.token`), in the command's own thread and its limiter: so a body the
    route refuses (422) is answered before a token that names no member (401), and such tokens
    wait their turn with the commands."""
    if isinstance(caller, Actor):
        commands.actor = caller
    else:
        commands.token = caller
    return commands


AnonymousCommandsDep = Annotated[Commands, Depends(_commands)]
CommandsDep = Annotated[Commands, Depends(_member_commands)]
