"""The web table's files as `chronicle serve` serves them: the page at `/`, its modules under `/web/`,
all from the package's own files, none in the OpenAPI document (they are files, not operations)."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import api.web
from tests.client import TestClient

WEB = Path(api.web.__file__).parent / "static"
ROOT = Path(__file__).resolve().parents[2]
IMPORT = re.compile(r'^import .* from "\./([\w.]+)";$', re.MULTILINE)
REFERENCE = re.compile(r'(?:src|href)="(/[^"]*)"')


def test_the_table_is_served_at_the_root_with_a_policy_that_allows_only_its_own_origin(
    client: TestClient,
) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    assert 'id="join-form"' in page.text


def test_every_file_the_page_and_its_modules_name_is_served(client: TestClient) -> None:
    page = client.get("/").text
    wanted = set(REFERENCE.findall(page)) | {
        f"/web/{name}" for js in WEB.glob("*.js") for name in IMPORT.findall(js.read_text())
    }
    assert "/web/app.js" in wanted and "/web/api.js" in wanted
    for path in sorted(wanted):
        answer = client.get(path)
        assert answer.status_code == 200, path
        if path.endswith(".js"):
            assert "javascript" in answer.headers["content-type"], path


def test_a_file_outside_the_tables_folder_is_not_served(client: TestClient) -> None:
    assert client.get("/web/%2e%2e/__init__.py").status_code == 404
    assert client.get("/web/../main.py").status_code == 404
    assert client.get("/web/missing.js").status_code == 404


def test_the_table_adds_no_operation_to_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/" not in paths
    assert not [path for path in paths if path.startswith("/web")]


def test_every_file_of_the_table_ships_as_package_data() -> None:
    """A non-editable install serves the table only if setuptools copies its files."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["api.web"]
    files = [f"static/{p.name}" for p in WEB.iterdir() if p.is_file()]
    assert "static/index.html" in files
    assert [name for name in files if not any(fnmatch(name, p) for p in patterns)] == []
