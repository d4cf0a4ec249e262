"""Property-based fuzzing of the whole OpenAPI schema against the real server: an HTTP contract test
(status codes, response schemas), so on SQLite (docs/testing.md)."""

from __future__ import annotations

import functools
import json
import unittest
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup, as_reported_failure
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.hypothesis.builder import (
    InvalidHeadersExampleMark,
    MissingPathParameters,
    UnserializablePayloadMark,
)
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.transport.requests import ManagedCookiesSession

from tests.api.support import openapi_document
from tests.conftest import store_settings
from tests.server import Server, serving_here

# Reads (GET) get the documented examples and schemathesis' whole coverage phase: their negative
# cases are the query and path parameters (positions past 64 bits, unknown filters), where the
# bounds bugs were. Their random phase is left out: on ids and filters it only drew more of what
# the coverage phase already sends (some 40 cases a read), and it was 40% of the file's time for
# the reads (3 December: 15.5 -> 9.7 s for the 50 reads, one worker). Commands get the
# documented examples and the random phase (positive and negative cases) only: their coverage cases
# are all bodies (3,700 of the file's 6,500 requests, 1,340 for the roll request's union alone) sent
# to ids that do not exist, so they test FastAPI's validation more than ours; test_malformed.py sends
# malformed bodies to every command on real ids, and test_bounds.py the bounds.
# /ready answers 503 by design while the views lag behind the fuzzer's own writes.
READY = "GET /ready"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# The random cases are the costly part of the suite (about 1 s an operation at 25), so they are kept
# few (5 an operation: 10 took a quarter longer over the whole file); the coverage phase above
# already sends each operation its boundary cases, and every run draws new random ones.
FUZZ = hypothesis_settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))

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


@functools.cache
def reads() -> schemathesis.BaseSchema:
    schema = schemathesis.openapi.from_dict(openapi_document())
    schema.config.phases.fuzzing.enabled = False
    return schema


@functools.cache
def commands() -> schemathesis.BaseSchema:
    schema = schemathesis.openapi.from_dict(openapi_document())
    schema.config.phases.coverage.enabled = False
    return schema


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir: Path = tmp_path_factory.mktemp(f"fuzz-{backend}")
    with store_settings(backend, data_dir) as settings, serving_here(settings) as value:
        yield value


@pytest.fixture(scope="module")
def gm_token(server: Server) -> str:
    created = httpx.post(f"{server.url}/v1/campaigns", json={"name": "Fuzz", "ruleset": "wcbh"})
    return str(created.json()["gm_token"])


def test_every_operation_is_fuzzed() -> None:
    labels = {result.ok().label for result in reads().get_all_operations()}
    assert labels == {*READS, *COMMANDS, READY}


@pytest.mark.parametrize("label", READS)
def test_no_read_gets_a_5xx_or_a_response_outside_the_schema(
    label: str, server: Server, gm_token: str
) -> None:
    _fuzz(reads(), label, server, gm_token)


@pytest.mark.parametrize("label", COMMANDS)
def test_no_command_gets_a_5xx_or_a_response_outside_the_schema(
    label: str, server: Server, gm_token: str
) -> None:
    _fuzz(commands(), label, server, gm_token)


def _fuzz(schema: schemathesis.BaseSchema, label: str, server: Server, gm_token: str) -> None:
    """Run the operation's examples, coverage and random phases, as `schema.parametrize()` would."""
    __tracebackhide__ = True
    method, path = label.split(" ", 1)
    operation = schema[path][method]

    # One keep-alive connection for all of the operation's cases (schemathesis opens one a case
    # otherwise); the session drops any cookie between cases, as schemathesis' own would.
    session = ManagedCookiesSession()
    session.trust_env = False  # a loopback server: no proxy or netrc look-up (1 ms a request)

    @FUZZ
    def call(case: schemathesis.Case) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {gm_token}"}
        case.call_and_validate(base_url=server.url, session=session, checks=CHECKS)

    test: Callable[[], None] = build_operation_test(
        config=schema.config,
        operation=operation,
        test_func=call,
        given_kwargs={},
        feedback=FeedbackSources(constants_value_source=make_constants_value_source(schema)),
    )
    try:
        with session:
            test()
    except FailureGroup as exc:
        raise as_reported_failure(exc) from None
    except unittest.SkipTest as exc:  # no case could be generated: schemathesis' plugin fails too
        pytest.fail(f"{label}: no case generated ({exc})")
    # What the plugin reports after the run: cases schemathesis had to leave out.
    for mark in (MissingPathParameters, InvalidHeadersExampleMark, UnserializablePayloadMark):
        assert mark.get(test) is None, f"{label}: {mark.get(test)}"
