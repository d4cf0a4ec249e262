"""Fixtures for the browser tests: a real `chronicle serve`, Debian's Chromium driven headless by
Playwright, and a screenshot of every page of a test that failed.

Playwright cannot download its own browsers here, so it is pointed at the system's Chromium
(`executable_path`). Where Chromium is missing the tests fail, saying how to install it: a browser
test that quietly does not run would look like one that passed.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from api.settings import Settings
from tests.browser.table import Campaign
from tests.server import Server, loopback_client, serving_here

# Where the screenshots of failed tests go (ignored by git); CI keeps the folder as an artifact.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


# Debian's builds of Chromium, best first. The headless shell (package chromium-headless-shell, built
# from the same source as chromium, and what Playwright itself drives for headless runs) renders with
# the same Blink and V8 without the desktop browser's profile and UI machinery: the browser tests took
# 56 s of Chromium CPU and 45 s of wall in the full browser, 20 s and 29 s in the shell (3 December).
CHROMIUMS = ("chromium-headless-shell", "chromium", "chromium-browser")


def chromium_path() -> str:
    """The Chromium to drive: $CHRONICLE_CHROMIUM, else the first of `CHROMIUMS` on PATH."""
    named = os.environ.get("CHRONICLE_CHROMIUM")
    if named:
        return named
    for name in CHROMIUMS:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "the browser tests need Chromium: install Debian's package (apt-get install "
        "chromium-headless-shell, or chromium) "
        "or set CHRONICLE_CHROMIUM to a Chromium binary",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server on an SQLite file of its own, shared by every browser test of the process
    (each makes a campaign of its own): starting one and building its OpenAPI document costs
    seconds, more than most tests."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("browser-server"))
    with serving_here(settings) as running:
        # Its first /openapi.json takes the server seconds to build (the table and the docs read
        # it): asked for now, it is built while Chromium starts.
        warm = threading.Thread(target=_openapi, args=(running.url,), daemon=True)
        warm.start()
        yield running


def _openapi(url: str) -> None:
    with loopback_client(timeout=120) as http:
        http.get(url + "/openapi.json")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def contexts(browser: Browser, request: pytest.FixtureRequest) -> Iterator[list[BrowserContext]]:
    """The test's browser contexts (one per member); each page open in them is photographed if the
    test fails, into test-artifacts/screenshots/."""
    opened: list[BrowserContext] = []
    yield opened
    if request.node.stash.get(FAILED, False):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        stem = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        for c, context in enumerate(opened):
            for p, page in enumerate(context.pages):
                shot = SCREENSHOTS / f"{stem}-{c}-{p}.png"
                page.screenshot(path=str(shot), full_page=True)
                print(f"screenshot: {shot}")
    for context in opened:
        context.close()


@pytest.fixture
def new_page(browser: Browser, contexts: list[BrowserContext]):  # type: ignore[no-untyped-def]
    """`new_page(**context_options)`: a page in a fresh browser context (a member of its own)."""

    def open_page(**options: object) -> Page:
        context = browser.new_context(**options)  # type: ignore[arg-type]
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    return open_page


@pytest.fixture
def campaign(server: Server) -> Campaign:
    """A WCBH campaign of its own for the test (tests/browser/table.py)."""
    return Campaign.start(server.url)
