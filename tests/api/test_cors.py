"""CORS: a browser app served from an allowed origin may call every route; other origins may not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from api.main import create_app
from api.settings import Settings
from tests.api.support import bearer, openapi_document
from tests.client import TestClient
from tests.unit.test_openapi_snapshot import operations

TABLE = "https://table.example.org"
BOT = "http://localhost:5173"
NOBODY = "00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("cors"), cors_origins=[TABLE, BOT], max_body_bytes=2048
    )
    with TestClient(create_app(settings)) as value:
        yield value


def preflight(client: TestClient, path: str, origin: str, method: str = "POST") -> object:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key",
        },
    )


def test_a_preflight_from_an_allowed_origin_is_answered_with_what_it_may_send(
    client: TestClient,
) -> None:
    response = preflight(client, f"/v1/scenes/{NOBODY}/rolls", TABLE)
    assert response.status_code == 200  # type: ignore[attr-defined]
    headers = response.headers  # type: ignore[attr-defined]
    assert headers["access-control-allow-origin"] == TABLE
    allowed = {h.strip().lower() for h in headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert "POST" in headers["access-control-allow-methods"]


def test_every_route_of_the_api_answers_a_preflight(client: TestClient) -> None:
    refused = []
    for key in operations(openapi_document()):
        method, path = key.split(" ", 1)
        path = path.replace("{", "").replace("}", "")  # any text stands for an id here
        response = preflight(client, path, BOT, method)
        if response.status_code != 200:  # type: ignore[attr-defined]
            refused.append(f"{key}: {response.status_code}")  # type: ignore[attr-defined]
    assert not refused


def test_a_preflight_from_another_origin_gets_no_allow_origin(client: TestClient) -> None:
    response = preflight(client, "/v1/campaigns", "https://evil.example.com")
    assert "access-control-allow-origin" not in response.headers  # type: ignore[attr-defined]


def test_an_allowed_origin_may_read_the_etag_of_an_answer(client: TestClient) -> None:
    created = client.post(
        "/v1/campaigns", json={"name": "Far", "ruleset": "wcbh"}, headers={"Origin": TABLE}
    )
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == TABLE
    exposed = {
        h.strip().lower() for h in created.headers["access-control-expose-headers"].split(",")
    }
    assert {"etag", "retry-after", "location", "idempotent-replayed"} <= exposed
    response = client.get(
        f"/v1/campaigns/{created.json()['id']}",
        headers={"Origin": TABLE, **bearer(created.json()["gm_token"])},
    )
    assert response.headers["access-control-allow-origin"] == TABLE
    assert response.headers["etag"]


def test_error_answers_carry_the_cors_headers_too(client: TestClient) -> None:
    """A browser app reads an error only if it carries them; the body limit answers before the
    app, so this shows the CORS middleware is the outermost."""
    unauthenticated = client.get(f"/v1/campaigns/{NOBODY}", headers={"Origin": TABLE})
    too_large = client.post(
        "/v1/campaigns",
        content=b"x" * 4096,
        headers={"Origin": TABLE, "Content-Type": "application/json"},
    )
    assert (unauthenticated.status_code, too_large.status_code) == (401, 413)
    for response in (unauthenticated, too_large):
        assert response.headers["access-control-allow-origin"] == TABLE


def test_without_origins_configured_no_origin_is_allowed(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("no-cors")))
    with TestClient(app) as plain:
        response = preflight(plain, "/v1/campaigns", TABLE)
        assert "access-control-allow-origin" not in response.headers  # type: ignore[attr-defined]
        created = plain.post(
            "/v1/campaigns", json={"name": "A", "ruleset": "wcbh"}, headers={"Origin": TABLE}
        )
        assert "access-control-allow-origin" not in created.headers


def test_the_origins_come_comma_separated_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHRONICLE_CORS_ORIGINS", f" {TABLE}, {BOT} ,")
    assert Settings().cors_origins == [TABLE, BOT]
    monkeypatch.delenv("CHRONICLE_CORS_ORIGINS")
    assert Settings().cors_origins == []


@pytest.mark.parametrize(
    "origin",
    ["*", "table.example.org", "https://table.example.org/", "ftp://x.org", "https://x.org:99999"],
)
def test_an_origin_that_a_browser_never_sends_is_refused_at_start(origin: str) -> None:
    with pytest.raises(ValidationError, match="cors_origins"):
        Settings(cors_origins=origin)  # type: ignore[arg-type]
