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
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.support import openapi_document
from tests.conftest import store_settings
from tests.server import Server, running_server

# Reads (GET) get schemathesis' whole coverage phase: their negative cases are the query and path
# parameters (positions past 64 bits, unknown filters), where the bounds bugs were. Commands get its
# positive cases only: a negative body is refused by the request model before any command runs, so
# its ~100 cases an operation test FastAPI's validation more than ours (test_malformed.py sends
# malformed bodies to every command on real ids, and test_bounds.py the bounds). The random phase
# still sends both positive and negative cases to every operation.
# /ready answers 503 by design while the views lag behind the fuzzer's own writes.
reads = (
    schemathesis.openapi.from_dict(openapi_document())
    .include(method="GET")
    .exclude(operation_id="ready")
)
commands = schemathesis.openapi.from_dict(openapi_document()).exclude(method="GET")
commands.config.phases.coverage.generation.modes = [GenerationMode.POSITIVE]
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


# The random cases are the costly part of the suite (about 1 s an operation at 25), so they are kept
# few (5 an operation: 10 took a quarter longer over the whole file); the coverage phase above
# already sends each operation its boundary cases, and every run draws new random ones.
FUZZ = hypothesis_settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))


@reads.parametrize()
@FUZZ
def test_no_read_gets_a_5xx_or_a_response_outside_the_schema(
    case: schemathesis.Case, server: Server, gm_token: str
) -> None:
    _call_as_gm(case, server, gm_token)


@commands.parametrize()
@FUZZ
def test_no_command_gets_a_5xx_or_a_response_outside_the_schema(
    case: schemathesis.Case, server: Server, gm_token: str
) -> None:
    _call_as_gm(case, server, gm_token)


def _call_as_gm(case: schemathesis.Case, server: Server, gm_token: str) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {gm_token}"}
    case.call_and_validate(base_url=server.url, checks=CHECKS)
