"""Read routes as data: a read of one aggregate by its id, and a list, each declared once instead of
a decorated function per route repeating the same parameters and the same body.

As with api/command_routes.py, the OpenAPI document is built from what FastAPI reads off an
endpoint (its name, docstring and signature), so each endpoint is made with the name, doc and
parameters the hand-written route had."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.command_routes import PATH_PARAM
from api.deps import NOT_MODIFIED, WAIT, ActorDep, AppDep, ViewsDep, respond
from api.paging import After, Limit, Listing, P, Page, page_of
from domain.application import Actor, Chronicle
from projections.runner import ViewReader

A = TypeVar("A", bound=Aggregate)
F = TypeVar("F", bound=Callable[..., Page])
C = TypeVar("C", bound=Callable[..., Any])
_PLAIN = inspect.Parameter.POSITIONAL_OR_KEYWORD


@dataclass(frozen=True)
class PageQuery:
    """What every list is asked: by whom, of what (the path's id), and which page."""

    app: Chronicle
    actor: Actor
    views: ViewReader
    path_id: UUID
    after: int
    limit: int

    def get(self, kind: type[A]) -> A:
        """The aggregate the path names, as the caller may read it (else 403/404)."""
        return self.app.get(self.actor, kind, self.path_id)

    def page(self, listing: Listing[P], campaign_id: UUID, where: dict[str, list[str | None]]) -> P:
        return page_of(self.views, listing, campaign_id, self.after, self.limit, where)


def _path_id(path: str) -> str:
    (name,) = PATH_PARAM.findall(path)  # reads here name exactly one resource
    return name


def _plain(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, _PLAIN, annotation=annotation, default=default)


@dataclass(frozen=True)
class ReadRoutes:
    """The read routes of one router."""

    router: APIRouter

    def get(
        self, path: str, *, operation_id: str, model: Any = None, etag: bool = False, **options: Any
    ) -> Callable[[C], C]:
        """A read written as a plain function: every read authenticates first and honours
        `min_position` (api.deps.WAIT). With `etag` it answers one (the function renders through
        `api.deps.respond`), so If-None-Match may make it a 304, which its OpenAPI says.
        `options` go to FastAPI as they are."""
        if model is not None:
            options["response_model"] = model
        if etag:
            assert "responses" not in options, operation_id
            options["responses"] = NOT_MODIFIED
        return self.router.get(path, dependencies=WAIT, operation_id=operation_id, **options)

    def one(
        self,
        path: str,
        kind: type[A],
        present: Callable[..., BaseModel],
        *,
        model: type[BaseModel],
        operation_id: str,
        doc: str | None = None,
        reads_more: bool = False,
    ) -> None:
        """GET the aggregate the path's first id names, presented, with its ETag (304 when
        unchanged). The path's further ids name a part of it (a scene's contest...): they go to
        the presenter by name. `reads_more`: the presenter reads more than the aggregate, so it
        is called with the application and the caller too (`present(aggregate, app, actor)`)."""
        id_name, *part_names = PATH_PARAM.findall(path)

        def endpoint(app: Chronicle, actor: Actor, **ids: UUID) -> JSONResponse:
            aggregate = app.get(actor, kind, ids.pop(id_name))
            shown = (
                present(aggregate, app, actor, **ids) if reads_more else present(aggregate, **ids)
            )
            return respond(shown)

        ids = [_plain(name, UUID) for name in (id_name, *part_names)]
        parameters = [*ids, _plain("app", AppDep), _plain("actor", ActorDep)]
        endpoint.__name__ = endpoint.__qualname__ = operation_id
        endpoint.__doc__ = doc
        endpoint.__signature__ = inspect.Signature(parameters, return_annotation=JSONResponse)  # type: ignore[attr-defined]
        self.router.add_api_route(
            path,
            endpoint,
            methods=["GET"],
            dependencies=WAIT,
            response_model=model,
            operation_id=operation_id,
            responses=NOT_MODIFIED,
        )

    def page(self, path: str, *, model: type[Page], operation_id: str) -> Callable[[F], F]:
        """Register the decorated function as a list. Its endpoint takes the path's id, the caller,
        the views, `after` and `limit`, then the function's own filters (its parameters after the
        first), and calls it with a `PageQuery` and those filters."""
        id_name = _path_id(path)

        def register(listed: F) -> F:
            filters = list(inspect.signature(listed, eval_str=True).parameters.values())[1:]

            def endpoint(
                app: Chronicle, actor: Actor, views: ViewReader, after: int, limit: int, **rest: Any
            ) -> Page:
                query = PageQuery(app, actor, views, rest.pop(id_name), after, limit)
                return listed(query, **rest)

            common = [
                _plain(id_name, UUID),
                _plain("app", AppDep),
                _plain("actor", ActorDep),
                _plain("views", ViewsDep),
                _plain("after", After, 0),
                _plain("limit", Limit, 100),
            ]
            endpoint.__name__ = endpoint.__qualname__ = listed.__name__
            endpoint.__doc__ = listed.__doc__
            endpoint.__signature__ = inspect.Signature(common + filters, return_annotation=model)  # type: ignore[attr-defined]
            self.router.add_api_route(
                path, endpoint, methods=["GET"], response_model=model, operation_id=operation_id
            )
            return listed

        return register
