"""Property-based fuzzing of the whole OpenAPI schema against the real server: an HTTP contract test
(status codes, response schemas), so on SQLite (docs/testing.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.support import openapi_document
from tests.conftest import store_settings
from tests.server import Server, running_server

schema = schemathesis.openapi.from_dict(openapi_document())
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir: Path = tmp_path_factory.mktemp(f"fuzz-{backend}")
    with store_settings(backend, data_dir) as settings, running_server(settings) as value:
        yield value


@pytest.fixture(scope="module")
def gm_token(server: Server) -> str:
    created = httpx.post(f"{server.url}/v1/campaigns", json={"name": "Fuzz", "ruleset": "wcbh"})
    return str(created.json()["gm_token"])


# Schemathesis' coverage phase already sends each operation its boundary and negative cases (about 40:
# missing and mistyped fields, wrong content types, other methods); the random cases on top are the
# costly part of the suite (about 1 s an operation at 25), so they are kept few.
@schema.parametrize()
@hypothesis_settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_gets_a_5xx_or_a_response_outside_the_schema(
    case: schemathesis.Case, server: Server, gm_token: str
) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {gm_token}"}
    case.call_and_validate(base_url=server.url, checks=CHECKS)
