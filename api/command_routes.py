"""Command routes as data: a path, the verb it runs, the request and response models and how to
present the outcome, one call each, instead of a decorated function per route saying it again."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Concatenate, Generic, TypeVar
from uuid import UUID

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.deps import AnonymousCommandsDep, Commands, CommandsDep
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

    def post(
        self,
        path: str,
        verb: Callable[Concatenate[H, CommandContext, ...], Outcome],
        body: type[BaseModel] | None = None,
        *,
        operation_id: str,
        name: str | None = None,
        doc: str | None = None,
        status_code: int = 200,
        responses: Responses | None = None,
        model: type[BaseModel] | None = None,
        present: Present | None = None,
        params: Mapping[str, Any] | None = None,
        method: str = "POST",
        anonymous: bool = False,
        optional: bool = False,
        fixed: tuple[Any, ...] = (),
        status: Callable[[Outcome], int] | None = None,
    ) -> None:
        """Register one command route. `name` (the summary) defaults to the verb's; `params`
        types path parameters that are not UUIDs; `anonymous` runs it without a token; `optional`
        lets the body be left out (the verb then gets the body model's defaults); `fixed` are
        arguments the route passes after the path ids (one verb behind two paths); `status` picks
        the status from the outcome (`status_code` is then what OpenAPI shows)."""
        presenter = present or self.present
        response_model = model or self.model
        assert presenter is not None and response_model is not None, operation_id
        path = self.prefix + path
        ids = PATH_PARAM.findall(path)
        endpoint = self._endpoint(ids, fixed, verb, body, presenter, status or status_code)
        signature = _signature(ids, body, params or {}, anonymous, optional)
        endpoint.__name__ = endpoint.__qualname__ = name or verb.__name__
        endpoint.__doc__ = doc
        endpoint.__signature__ = signature  # type: ignore[attr-defined]  # FastAPI reads it
        endpoint.verb = verb  # type: ignore[attr-defined]  # tests/unit/test_roll_request_202.py
        self.router.add_api_route(
            path,
            endpoint,
            methods=[method],
            status_code=status_code,
            response_model=response_model,
            operation_id=operation_id,
            responses=responses,
        )

    def _endpoint(
        self,
        ids: list[str],
        fixed: tuple[Any, ...],
        verb: Callable[Concatenate[H, CommandContext, ...], Outcome],
        body: type[BaseModel] | None,
        present: Present,
        status_code: int | Callable[[Outcome], int],
    ) -> Callable[..., JSONResponse]:
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
