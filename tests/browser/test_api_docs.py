"""Swagger UI and ReDoc render with the network cut off: their scripts and styles come from the
server itself (the fastapi-offline package), never from a CDN.

What is tested here is the pages and their assets, not the document (tests/unit/test_openapi_*
check that, whole): both UIs are handed a few operations of the server's own document, with every
schema they refer to, instead of its 150-odd operations (0.6 MB), which took ReDoc up to 70 s to
lay out on a busy 2-core machine."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.server import Server, loopback_client

NewPage = Callable[..., Page]  # the new_page fixture (tests/browser/conftest.py)

# The operations the UIs are shown: the proof pages' and visibility's (a PUT, a POST with a body,
# an HTML GET).
SHOWN_TAGS = {"proof pages", "visibility"}


@pytest.fixture(scope="module")
def small_document(server: Server) -> dict[str, Any]:
    """The server's OpenAPI document cut to the operations of SHOWN_TAGS and the schemas they
    reach through $ref."""
    with loopback_client(timeout=60) as http:
        document = http.get(server.url + "/openapi.json").raise_for_status().json()
    paths = {
        path: kept
        for path, methods in document["paths"].items()
        if (kept := {m: op for m, op in methods.items() if SHOWN_TAGS & set(op.get("tags", []))})
    }
    schemas = document["components"]["schemas"]
    reached: set[str] = set()
    todo = [paths]
    while todo:
        for name in _refs(todo.pop()) - reached:
            reached.add(name)
            todo.append(schemas[name])
    components = {**document["components"], "schemas": {n: schemas[n] for n in sorted(reached)}}
    return {**document, "paths": paths, "components": components}


def _refs(node: Any) -> set[str]:
    """The component schemas a part of the document names."""
    text = json.dumps(node)
    prefix = '"#/components/schemas/'
    return {part.split('"', 1)[0] for part in text.split(prefix)[1:]}


def operations(document: dict[str, Any]) -> int:
    return sum(len(methods) for methods in document["paths"].values())


@dataclass
class Offline:
    """What a page asked for while every request not to the server was aborted."""

    served: list[tuple[str, str]] = field(default_factory=list)  # (resource type, url)
    refused: list[tuple[str, str]] = field(default_factory=list)


def offline(page: Page, server: Server, document: dict[str, Any]) -> Offline:
    """The page with every request not to the server refused, and `document` as its OpenAPI."""
    seen = Offline()

    def only_the_server(route: Route) -> None:
        asked = (route.request.resource_type, route.request.url)
        if asked[1] == server.url + "/openapi.json":
            seen.served.append(asked)
            route.fulfill(json=document)
        elif asked[1] == server.url or asked[1].startswith(server.url + "/"):
            seen.served.append(asked)
            route.continue_()
        else:
            seen.refused.append(asked)
            route.abort()

    page.route("**/*", only_the_server)
    return seen


def test_swagger_ui_renders_the_operations_offline(
    server: Server, new_page: NewPage, small_document: dict[str, Any]
) -> None:
    page = new_page()
    seen = offline(page, server, small_document)
    page.goto(server.url + "/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Chronicle")
    proof_pages = page.locator(".opblock", has_text="/v1/campaigns/{campaign_id}/proof-pages")
    expect(proof_pages).to_have_count(1)
    # every operation of the document it was given, not a few
    expect(page.locator(".opblock")).to_have_count(operations(small_document))
    proof_pages.locator(".opblock-summary").click()  # opens, with its request body's example
    expect(proof_pages.locator(".opblock-body")).to_contain_text('"public"')
    assert seen.refused == []
    kinds = {kind for kind, _ in seen.served}
    assert {"script", "stylesheet"} <= kinds, seen.served


def test_redoc_renders_the_operations_offline(
    server: Server, new_page: NewPage, small_document: dict[str, Any]
) -> None:
    page = new_page()
    seen = offline(page, server, small_document)
    page.goto(server.url + "/redoc")
    expect(page.locator("h1")).to_contain_text("Chronicle")
    expect(page.get_by_text("/v1/campaigns/{campaign_id}/proof-pages").first).to_be_attached()
    for operation in ("set_proof_pages", "reveal_roll", "set_character_visibility"):
        expect(page.locator(f"[id$='/{operation}']").first).to_be_attached()
    assert ("script", f"{server.url}/docs/assets/redoc.standalone.js") in seen.served
    # ReDoc's sidebar shows Redocly's logo from its CDN, always; offline the image fails and
    # ReDoc hides it. Nothing else may leave the server: no script, style, font or data.
    assert [kind for kind, _ in seen.refused] in ([], ["image"]), seen.refused
