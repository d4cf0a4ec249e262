"""Command routes as data: each route is one row (`Op`: its path, the verb it runs and what the
operation does); its request model is the verb's own `body` and its operation id the verb's name, so
neither can drift from the command. What rows share is said once, where they are declared."""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Concatenate, Generic, TypeVar
from uuid import UUID

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.deps import ASKS_GM, AnonymousCommandsDep, Commands, CommandsDep
from domain.application import Chronicle
from domain.commands import CommandContext, Outcome

H = TypeVar("H")
# A presenter turns a command's outcome into its answer; the request's Commands give it the
# application and the caller, which some answers need (a roll's scene, the caller's order of action).
Present = Callable[[Outcome, Commands], BaseModel]
Responses = dict[int | str, dict[str, Any]]
PATH_PARAM = re.compile(r"{(\w+)}")
_PLAIN = inspect.Parameter.POSITIONAL_OR_KEYWORD


def application(app: Chronicle) -> Chronicle:
    """The holder of the lifecycle commands: the application itself."""
    return app


@dataclass(frozen=True)
class Op:
    """One command route. Its request model is the type of the verb's `body` (none if it takes
    none); its operation id is the verb's name and its summary that name without the routes'
    `unprefixed`, unless the row names others (names the API has kept since before a rename).

    The rarer options: `params` types path parameters that are not UUIDs; `anonymous` runs it
    without a token; `optional` lets the body be left out (the verb then gets the body model's
    defaults); `fixed` are arguments passed after the path ids (one verb behind two paths);
    `status` picks the status from the outcome (`created`'s 201 or 200 is what OpenAPI shows)."""

    path: str
    verb: Callable[..., Outcome]
    doc: str | None = None
    operation_id: str | None = None
    name: str | None = None
    model: type[BaseModel] | None = None  # the routes' own unless named
    present: Present | None = None  # the routes' own unless named
    created: bool = False  # answers 201
    asks_gm: bool = False  # may answer the 202 of a roll request waiting for the GM
    responses: Responses | None = None
    method: str = "POST"
    params: Mapping[str, Any] | None = None
    anonymous: bool = False
    optional: bool = False
    fixed: tuple[Any, ...] = ()
    status: Callable[[Outcome], int] | None = None


_DEFAULTS = {f.name: f.default for f in fields(Op)}


@dataclass(frozen=True)
class CommandRoutes(Generic[H]):
    """The command routes of one holder of verbs (the application, a game system's part): each
    runs `verb(holder, ctx, *path ids, body)` through `Commands.run` and presents the outcome.

    The OpenAPI document is built from what FastAPI reads off an endpoint: its name (the summary),
    its docstring (the description) and its signature (path parameters, body, headers). So each
    endpoint is made with the name, doc and parameters the hand-written route had."""

    router: APIRouter
    holder: Callable[[Chronicle], H]
    prefix: str = ""  # before each path of the table (the router's own prefix comes first)
    model: type[BaseModel] | None = None  # the response model, unless a route names its own
    present: Present | None = None  # the presenter, unless a route names its own
    unprefixed: str = ""  # what operation ids begin with and summaries leave out (a system's name)

    def declare(self, *ops: Op, **shared: Any) -> None:
        """Register `ops`; `shared` are the Op fields every one of them has (its model and
        presenter, `created`, `asks_gm`), said once for the group instead of on each row."""
        for op in ops:
            assert all(getattr(op, k) == _DEFAULTS[k] for k in shared), (op.path, shared)
            self._add(replace(op, **shared))

    def _add(self, op: Op) -> None:
        """Make the row's endpoint and register it with its OpenAPI details."""
        presenter = op.present or self.present
        response_model = op.model or self.model
        operation_id = op.operation_id or op.verb.__name__
        assert presenter is not None and response_model is not None, operation_id
        body = typing.get_type_hints(op.verb).get("body")
        status_code = 201 if op.created else 200
        path = self.prefix + op.path
        ids = PATH_PARAM.findall(path)
        endpoint = self._endpoint(ids, op.fixed, op.verb, body, presenter, op.status or status_code)
        endpoint.__name__ = endpoint.__qualname__ = op.name or op.verb.__name__.removeprefix(
            self.unprefixed
        )
        endpoint.__doc__ = op.doc
        endpoint.__signature__ = _signature(ids, body, op.params or {}, op.anonymous, op.optional)  # type: ignore[attr-defined]  # FastAPI reads it
        endpoint.verb = op.verb  # type: ignore[attr-defined]  # tests/unit/test_roll_request_202.py
        self.router.add_api_route(
            path,
            endpoint,
            methods=[op.method],
            status_code=status_code,
            response_model=response_model,
            operation_id=operation_id,
            responses=ASKS_GM if op.asks_gm else op.responses,
        )

    def _endpoint(
        self,
        ids: list[str],
        fixed: tuple[Any, ...],
        verb: Callable[Concatenate[H, CommandContext, ...], Outcome],
        body: type[BaseModel] | None,
        present: Present,
        status_code: int | Callable[[Outcome], int],
    ) -> Callable[..., Awaitable[JSONResponse]]:
        holder = self.holder

        async def endpoint(commands: Commands, **values: Any) -> JSONResponse:
            args = [*(values[name] for name in ids), *fixed]
            if body is not None:
                args.append(values["body"] or body())  # an optional body left out: its defaults
            run = functools.partial(
                commands.run,
                # looked up on the holder per request, as `app.verb` was: a subclass's or a
                # test's replacement of the verb is the one that runs
                getattr(holder(commands.app), verb.__name__),
                *args,
                present=lambda outcome: present(outcome, commands),
                status_code=status_code,
            )
            # In a thread (eventsourcing and the drivers are synchronous), but only so many at
            # once: the others wait here, holding no thread, instead of all contending for the
            # interpreter and the store (settings.command_threads).
            return await to_thread.run_sync(run, limiter=commands.limiter)

        return endpoint


def _signature(
    ids: list[str],
    body: type[BaseModel] | None,
    params: Mapping[str, Any],
    anonymous: bool,
    optional: bool,
) -> inspect.Signature:
    """The path ids in the path's order, the command runner, then the body: FastAPI lists
    path parameters in signature order, and the runner brings the If-Match and Idempotency-Key
    headers (and, with a token, the bearer security)."""
    parameters = [inspect.Parameter(n, _PLAIN, annotation=params.get(n, UUID)) for n in ids]
    runner = AnonymousCommandsDep if anonymous else CommandsDep
    parameters.append(inspect.Parameter("commands", _PLAIN, annotation=runner))
    if body is not None and optional:  # a parameter with a default goes last
        parameters.append(inspect.Parameter("body", _PLAIN, default=None, annotation=body | None))
    elif body is not None:
        parameters.append(inspect.Parameter("body", _PLAIN, annotation=body))
    return inspect.Signature(parameters, return_annotation=JSONResponse)
