"""The browser harness itself: Chromium starts and shows a page the real server serves."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.server import Server


def test_chromium_opens_the_servers_api_docs(server: Server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    answer = page.goto(server.url + "/openapi.json")
    assert answer is not None and answer.ok
    expect(page.locator("body")).to_contain_text('"openapi"')
