"""Swagger UI and ReDoc render with the network cut off: their scripts and styles come from the
server itself (the fastapi-offline package), never from a CDN."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page, Route, expect

from tests.server import Server

NewPage = Callable[..., Page]  # the new_page fixture (tests/browser/conftest.py)

# Both render our whole schema (150-odd operations, 0.6 MB) before they show anything: on a busy
# 2-core machine ReDoc took up to 40 s.
RENDERS_MS = 120_000


@dataclass
class Offline:
    """What a page asked for while every request not to the server was aborted."""

    served: list[tuple[str, str]] = field(default_factory=list)  # (resource type, url)
    refused: list[tuple[str, str]] = field(default_factory=list)


def offline(page: Page, server: Server) -> Offline:
    seen = Offline()

    def only_the_server(route: Route) -> None:
        asked = (route.request.resource_type, route.request.url)
        if asked[1] == server.url or asked[1].startswith(server.url + "/"):
            seen.served.append(asked)
            route.continue_()
        else:
            seen.refused.append(asked)
            route.abort()

    page.route("**/*", only_the_server)
    return seen


def test_swagger_ui_renders_the_operations_offline(server: Server, new_page: NewPage) -> None:
    page = new_page()
    seen = offline(page, server)
    page.goto(server.url + "/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text(
        "Chronicle", timeout=RENDERS_MS
    )
    proof_pages = page.locator(".opblock", has_text="/v1/campaigns/{campaign_id}/proof-pages")
    expect(proof_pages).to_have_count(1)
    assert page.locator(".opblock").count() > 100  # every operation, not a few
    assert seen.refused == []
    kinds = {kind for kind, _ in seen.served}
    assert {"script", "stylesheet"} <= kinds, seen.served


def test_redoc_renders_the_operations_offline(server: Server, new_page: NewPage) -> None:
    page = new_page()
    seen = offline(page, server)
    page.goto(server.url + "/redoc")
    expect(page.locator("h1")).to_contain_text("Chronicle", timeout=RENDERS_MS)
    expect(page.get_by_text("/v1/campaigns/{campaign_id}/proof-pages").first).to_be_attached()
    assert ("script", f"{server.url}/docs/assets/redoc.standalone.js") in seen.served
    # ReDoc's sidebar shows Redocly's logo from its CDN, always; offline the image fails and
    # ReDoc hides it. Nothing else may leave the server: no script, style, font or data.
    assert [kind for kind, _ in seen.refused] in ([], ["image"]), seen.refused
