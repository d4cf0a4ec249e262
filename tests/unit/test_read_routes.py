"""ReadRoutes make the endpoints a hand-written read would be: the OpenAPI document sees the same
name, description and parameters (in the same order), with the ETag's 304 on a read of one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query

from api.paging import Page
from api.read_routes import PageQuery, ReadRoutes
from api.schemas import StoryPublic, story_public
from domain.aggregates import Story


class ThingPage(Page):
    items: list[StoryPublic]


def _operation(router: APIRouter, path: str) -> dict[str, Any]:
    app = FastAPI()
    app.include_router(router)
    operation: dict[str, Any] = app.openapi()["paths"][path]["get"]
    return operation


def test_a_list_takes_the_path_id_the_paging_then_its_own_filters_then_the_wait() -> None:
    router = APIRouter()

    @ReadRoutes(router).page("/v1/things/{thing_id}/items", model=ThingPage, operation_id="list_x")
    def list_items(
        query: PageQuery,
        colour: Annotated[str | None, Query(description="Only this colour")] = None,
    ) -> ThingPage:
        """The thing's items."""
        raise AssertionError("not called: only the document is built")

    operation = _operation(router, "/v1/things/{thing_id}/items")
    names = [p["name"] for p in operation["parameters"]]
    assert names == ["thing_id", "after", "limit", "colour", "min_position"]
    assert operation["operationId"] == "list_x"
    assert operation["summary"] == "List Items"
    assert operation["description"] == "The thing's items."


def test_a_read_of_one_is_named_by_its_operation_and_answers_304() -> None:
    router = APIRouter()
    ReadRoutes(router).one(
        "/v1/tales/{tale_id}", Story, story_public, model=StoryPublic, operation_id="get_tale"
    )

    operation = _operation(router, "/v1/tales/{tale_id}")
    assert [p["name"] for p in operation["parameters"]] == ["tale_id", "min_position"]
    assert operation["summary"] == "Get Tale"
    assert "304" in operation["responses"]
