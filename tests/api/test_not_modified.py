"""If-None-Match on reads: a GET answering the ETag the caller holds is 304, with no body."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from httpx import Response

from api.main import create_app
from api.settings import Settings
from tests.api.support import Table, bearer, ok
from tests.client import TestClient

ORIGIN = "https://table.example.org"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # One app for the module, with CORS on: a 304 must reach a browser app with its headers.
    settings = Settings(data_dir=tmp_path_factory.mktemp("etag"), cors_origins=[ORIGIN])
    with TestClient(create_app(settings)) as value:
        yield value


@pytest.fixture(scope="module")
def table(client: TestClient) -> Table:
    return Table(client)


def read(table: Table, path: str, if_none_match: str) -> Response:
    return table.client.get(path, headers={**bearer(table.gm), "If-None-Match": if_none_match})


def assert_not_modified(response: Response, etag: str) -> None:
    assert response.status_code == 304, response.text
    assert response.content == b""
    assert response.headers["ETag"] == etag
    assert "content-type" not in response.headers


def test_a_character_read_again_with_its_etag_is_304_until_it_changes(table: Table) -> None:
    character_id = table.character(table.player)
    path = f"/v1/characters/{character_id}"
    first = table.client.get(path, headers=bearer(table.gm))
    etag = first.headers["ETag"]
    assert (ok(first)["version"], etag) == (1, '"1"')
    assert_not_modified(read(table, path, etag), etag)
    table.client.put(
        f"{path}/sheet",
        json={"sheet": table.example_sheet, "reason": "retrained"},
        headers=bearer(table.player),
    ).raise_for_status()
    changed = read(table, path, etag)
    assert ok(changed)["version"] == 2
    assert changed.headers["ETag"] == '"2"'
    assert_not_modified(read(table, path, '"2"'), '"2"')


def test_another_tag_answers_the_resource_as_without_the_header(table: Table) -> None:
    path = f"/v1/characters/{table.character()}"
    response = read(table, path, '"7"')
    assert ok(response)["id"] == path.rsplit("/", 1)[1]
    assert response.headers["ETag"] == '"1"'


def test_a_star_matches_any_tag_of_a_resource(table: Table) -> None:
    assert_not_modified(read(table, f"/v1/characters/{table.character()}", "*"), '"1"')


def test_a_list_of_tags_matches_when_one_of_them_is_the_current_one(table: Table) -> None:
    path = f"/v1/scenes/{table.scene()}"
    assert_not_modified(read(table, path, '"5", "1" ,"9"'), '"1"')
    assert read(table, path, '"5", "9"').status_code == 200
    assert_not_modified(read(table, path, '"a,b", , "1"'), '"1"')  # a comma inside a quoted tag


def test_a_weak_tag_compares_weakly(table: Table) -> None:
    path = f"/v1/characters/{table.character()}"
    assert_not_modified(read(table, path, 'W/"1"'), '"1"')
    assert_not_modified(read(table, path, '"0", W/"1"'), '"1"')
    assert read(table, path, 'W/"2"').status_code == 200


def test_a_bare_version_is_taken_as_its_tag_as_if_match_takes_it(table: Table) -> None:
    assert_not_modified(read(table, f"/v1/characters/{table.character()}", "1"), '"1"')


def test_a_malformed_if_none_match_is_422_naming_it(table: Table) -> None:
    response = read(table, f"/v1/characters/{table.character()}", '"1" "2"')
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "If-None-Match"


def test_errors_and_reads_without_an_etag_ignore_if_none_match(table: Table) -> None:
    missing = read(table, "/v1/characters/00000000-0000-4000-8000-000000000000", "*")
    assert missing.status_code == 404
    listed = read(table, f"/v1/campaigns/{table.campaign_id}/characters", "*")
    assert ok(listed)["items"] is not None
    anonymous = table.client.get(
        f"/v1/characters/{table.character()}", headers={"If-None-Match": "*"}
    )
    assert anonymous.status_code == 401


def test_a_304_reaches_a_browser_app_with_its_etag_readable(table: Table) -> None:
    response = table.client.get(
        f"/v1/characters/{table.character()}",
        headers={**bearer(table.gm), "If-None-Match": '"1"', "Origin": ORIGIN},
    )
    assert_not_modified(response, '"1"')
    assert response.headers["access-control-allow-origin"] == ORIGIN
    assert "etag" in response.headers["access-control-expose-headers"].lower()
