"""CHRONICLE_MAX_BODY_BYTES holds for chunked bodies too (no Content-Length): 413, nothing written."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from api.main import create_app
from api.settings import Settings
from tests.api.support import Table, bearer
from tests.client import TestClient
from tests.server import loopback_client, serving_here

LIMIT = 2048


def chunks(total: int, size: int = 500) -> Iterator[bytes]:
    """A JSON body of about `total` bytes (a short title, padded with blanks), sent in pieces:
    httpx sends it chunked."""
    yield b'{"title": "Chunked"'
    for _ in range(total // size):
        yield b" " * size
    yield b"}"


def test_a_chunked_body_over_the_limit_is_413_and_writes_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path, max_body_bytes=LIMIT))) as client:
        table = Table(client)
        before = table.position()
        response = client.post(
            f"/v1/campaigns/{table.campaign_id}/stories",
            content=chunks(4 * LIMIT),
            headers={**bearer(table.gm), "Content-Type": "application/json"},
        )
        assert "content-length" not in {k.lower() for k in response.request.headers}
        assert response.status_code == 413, response.text
        assert response.json()["error"]["code"] == "body_too_large"
        assert response.json()["error"]["field"] == "body"
        assert table.position() == before


def test_a_chunked_body_within_the_limit_is_read_whole(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path, max_body_bytes=LIMIT))) as client:
        table = Table(client)
        response = client.post(
            f"/v1/campaigns/{table.campaign_id}/stories",
            content=chunks(LIMIT // 2),
            headers={**bearer(table.gm), "Content-Type": "application/json"},
        )
        assert response.status_code == 201, response.text
        assert response.json()["title"] == "Chunked"


def test_a_real_server_refuses_a_chunked_upload_over_the_default_limit(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    with serving_here(settings) as server, loopback_client(base_url=server.url) as http:
        created = http.post("/v1/campaigns", json={"name": "N", "ruleset": "wcbh"}).json()
        response = http.post(
            f"/v1/campaigns/{created['id']}/stories",
            content=chunks(settings.max_body_bytes + 10_000, size=10_000),
            headers={**bearer(created["gm_token"]), "Content-Type": "application/json"},
        )
        assert response.request.headers.get("transfer-encoding") == "chunked"
        assert response.status_code == 413, response.text
        assert response.json()["error"]["code"] == "body_too_large"
        stories = http.post(
            f"/v1/campaigns/{created['id']}/stories",
            json={"title": "Still fine"},
            headers=bearer(created["gm_token"]),
        )
        assert stories.status_code == 201
