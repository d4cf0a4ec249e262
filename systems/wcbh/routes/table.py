"""The WCBH routes as tables: a command route is one row (its path, its command and what the
operation does), a read one decorator; what every row would repeat is said once, here."""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import APIRouter
from pydantic import BaseModel

from api.command_routes import CommandRoutes, Present
from api.deps import ASKS_GM, NOT_MODIFIED, WAIT
from domain.commands import Outcome

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Op:
    """One command route. Its request model is the command's own (the type of its `body`), so
    the two cannot drift apart; its operation id and summary are the command's name unless the
    row names others (names the API has kept since before the command was renamed)."""

    path: str
    verb: Callable[..., Outcome]
    doc: str
    operation_id: str | None = None
    name: str | None = None


def declare(
    routes: CommandRoutes[Any],
    *ops: Op,
    model: type[BaseModel],
    present: Present,
    created: bool = False,
    asks_gm: bool = False,
) -> None:
    """Register `ops`, which answer alike: with `model` through `present`, 201 when each
    `created` something, and the 202 of a roll request when each `asks_gm`."""
    for op in ops:
        routes.post(
            op.path,
            op.verb,
            typing.get_type_hints(op.verb)["body"],
            operation_id=op.operation_id or op.verb.__name__,
            name=op.name,
            doc=op.doc,
            status_code=201 if created else 200,
            responses=ASKS_GM if asks_gm else None,
            model=model,
            present=present,
        )


def read(
    router: APIRouter,
    path: str,
    model: type[BaseModel],
    operation_id: str | None = None,
    *,
    etag: bool = True,
) -> Callable[[F], F]:
    """A read that waits for the caller's `min_position`; its operation id is the function's
    name unless named. With `etag` it answers one (the endpoint renders through
    `api.deps.respond`), so If-None-Match may make it a 304, which its OpenAPI says."""

    def register(endpoint: F) -> F:
        router.add_api_route(
            path,
            endpoint,
            methods=["GET"],
            dependencies=WAIT,
            response_model=model,
            operation_id=operation_id or endpoint.__name__,
            responses=NOT_MODIFIED if etag else None,
        )
        return endpoint

    return register
