"""The app factory: every app of a process serves the same routes, built once (docs/testing.md)."""

from __future__ import annotations

import pytest
from fastapi.routing import APIRoute

from api.main import create_app
from tests.client import TestClient


def test_two_apps_share_the_route_objects_built_at_import() -> None:
    # FastAPI builds an included router's route state again for every app; the suite builds
    # an app per test, so the routes must be the ones the routers built once.
    first, second = create_app(), create_app()
    first_routes = [route for route in first.routes if isinstance(route, APIRoute)]
    second_routes = [route for route in second.routes if isinstance(route, APIRoute)]
    assert len(first_routes) > 100
    assert all(a is b for a, b in zip(first_routes, second_routes, strict=True))
    assert first.openapi() == second.openapi()


@pytest.mark.store  # what it tests is which store the service runs on
def test_health_names_the_backend_it_runs_on(client: TestClient, backend: str) -> None:
    # PostgreSQL answered "sqlite" once its recorder moved out of eventsourcing.postgres
    assert client.get("/health").json()["backend"] == backend
