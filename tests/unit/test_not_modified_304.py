"""Every read that answers an ETag declares the 304 of If-None-Match in OpenAPI, and no other does.

A route answers an ETag exactly when it renders through `api.deps.respond` (commands answer theirs
through `Commands.run`, and only GETs may answer 304), and api/conditional.py turns any such 200
into a 304. So each GET whose endpoint calls `respond` must declare api.deps.NOT_MODIFIED.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

from fastapi.routing import APIRoute

from api.deps import NOT_MODIFIED
from api.main import create_app


def _reads() -> list[APIRoute]:
    return [
        r for r in create_app().routes if isinstance(r, APIRoute) and "GET" in (r.methods or ())
    ]


def _answers_an_etag(route: APIRoute) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(route.endpoint)))
    return any(
        isinstance(node, ast.Call) and getattr(node.func, "id", None) == "respond"
        for node in ast.walk(tree)
    )


def _declares(route: APIRoute) -> bool:
    return route.responses.get(304) == NOT_MODIFIED[304]


def test_the_search_finds_the_reads_known_to_answer_an_etag() -> None:
    # Guards the search: one that found nothing would pass the tests below vacuously.
    found = {route.operation_id for route in _reads() if _answers_an_etag(route)}
    assert {"get_character", "get_scene", "get_roll", "nwod_fight"} <= found
    assert not {"list_characters", "list_rolls", "verify_roll"} & found


def test_every_read_that_answers_an_etag_declares_the_304() -> None:
    missing = [r.path for r in _reads() if _answers_an_etag(r) and not _declares(r)]
    assert not missing, (
        "These reads answer an ETag, so If-None-Match may make them 304, and their OpenAPI does "
        "not say so; add `responses=NOT_MODIFIED` (api/deps.py) to each:\n  " + "\n  ".join(missing)
    )


def test_no_route_declares_a_304_it_cannot_answer() -> None:
    routes = [r for r in create_app().routes if isinstance(r, APIRoute)]
    extra = [
        r.path
        for r in routes
        if _declares(r) and not ("GET" in (r.methods or ()) and _answers_an_etag(r))
    ]
    assert not extra, "These routes declare a 304 and answer no ETag on a GET:\n  " + "\n  ".join(
        extra
    )
