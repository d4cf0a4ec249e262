"""API fixtures: the real app (lifespan and all) behind FastAPI's TestClient, on each backend.

One app a module, not one a test: starting and stopping an app (its store, its views runner)
cost about 25 ms of CPU, times some 1,100 tests. Tests stay apart because each makes its own
campaign (`Table`), and nothing an API test reads spans campaigns. A test that asks for
`settings` as well (to restart the service on the same store, to run the CLI on it, to change a
setting) gets its own app on those settings instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.main import create_app
from api.settings import Settings
from tests.api import audit_all
from tests.api.support import Table
from tests.client import TestClient
from tests.conftest import store_settings


def _serving(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as value:
        yield value
        if audit_all.ENABLED:
            audit_all.audit_every_campaign(value)


@pytest.fixture(scope="module")
def module_client(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with store_settings(backend, tmp_path_factory.mktemp("app")) as settings:
        yield from _serving(settings)


@pytest.fixture
def client(request: pytest.FixtureRequest, backend: str) -> Iterator[TestClient]:
    # `backend` named here so that the test is parametrized over it (tests/conftest.py).
    if "settings" in request.fixturenames:
        yield from _serving(request.getfixturevalue("settings"))
    else:
        yield request.getfixturevalue("module_client")


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client)
