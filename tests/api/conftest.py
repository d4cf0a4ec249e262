"""API fixtures: the real app (lifespan and all) behind FastAPI's TestClient, on each backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.main import create_app
from api.settings import Settings
from tests.api import audit_all
from tests.api.support import Table
from tests.client import TestClient


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as value:
        yield value
        if audit_all.ENABLED:
            audit_all.audit_every_campaign(value)


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client)
