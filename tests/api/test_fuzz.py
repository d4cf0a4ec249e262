"""Property-based fuzzing of the whole OpenAPI schema against the real server: an HTTP contract test
(status codes, response schemas), so on SQLite (docs/testing.md). What each operation is sent, and
why, is in tests/api/fuzzing.py, imported when a test here runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import store_settings
from tests.server import Server, loopback_client, serving_here

# /ready answers 503 by design while the views lag behind the fuzzer's own writes.
READY = "GET /ready"

# The tests are parametrized over the operations' labels alone, read from the committed OpenAPI
# snapshot (which tests/unit/test_openapi_snapshot.py holds to the app's document, and
# test_every_operation_is_fuzzed below to the operations fuzzed). schemathesis' own
# `schema.parametrize()` builds every operation's coverage cases at collection, in every xdist
# worker (10 s of each worker's start); here each test builds its own operation's when it runs.
SNAPSHOT = Path(__file__).parent.parent / "unit" / "openapi.json"
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPERATIONS = [
    f"{method.upper()} {path}"
    for path, item in json.loads(SNAPSHOT.read_text())["paths"].items()
    for method in item
    if method in HTTP_METHODS
]
READS = [label for label in OPERATIONS if label.startswith("GET ") and label != READY]
COMMANDS = [label for label in OPERATIONS if not label.startswith("GET ")]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir: Path = tmp_path_factory.mktemp(f"fuzz-{backend}")
    with store_settings(backend, data_dir) as settings, serving_here(settings) as value:
        yield value


@pytest.fixture(scope="module")
def gm_token(server: Server) -> str:
    with loopback_client() as http:
        created = http.post(f"{server.url}/v1/campaigns", json={"name": "Fuzz", "ruleset": "wcbh"})
    return str(created.json()["gm_token"])


def test_every_operation_is_fuzzed() -> None:
    from tests.api.fuzzing import reads

    labels = {result.ok().label for result in reads().get_all_operations()}
    assert labels == {*READS, *COMMANDS, READY}


@pytest.mark.parametrize("label", READS)
def test_no_read_gets_a_5xx_or_a_response_outside_the_schema(
    label: str, server: Server, gm_token: str
) -> None:
    from tests.api.fuzzing import fuzz, reads

    fuzz(reads(), label, server, gm_token)


@pytest.mark.parametrize("label", COMMANDS)
def test_no_command_gets_a_5xx_or_a_response_outside_the_schema(
    label: str, server: Server, gm_token: str
) -> None:
    from tests.api.fuzzing import commands, fuzz

    fuzz(commands(), label, server, gm_token)
