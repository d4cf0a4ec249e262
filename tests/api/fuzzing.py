"""The fuzzing machinery of test_fuzz.py (schemathesis and hypothesis), in a module of its own so
that only the xdist worker that runs a fuzz test imports schemathesis (1.2 s), not every worker's
collection."""

from __future__ import annotations

import functools
import unittest
from collections.abc import Callable

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
from tests.server import Server

# Reads (GET) get the documented examples and schemathesis' whole coverage phase: their negative
# cases are the query and path parameters (positions past 64 bits, unknown filters), where the
# bounds bugs were. Their random phase is left out: on ids and filters it only drew more of what
# the coverage phase already sends (some 40 cases a read), and it was 40% of the file's time for
# the reads (3 December: 15.5 -> 9.7 s for the 50 reads, one worker). Commands get the
# documented examples and the random phase (positive and negative cases) only: their coverage cases
# are all bodies (3,700 of the file's 6,500 requests, 1,340 for the roll request's union alone) sent
# to ids that do not exist, so they test FastAPI's validation more than ours; test_malformed.py sends
# malformed bodies to every command on real ids, and test_bounds.py the bounds.
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


def fuzz(schema: schemathesis.BaseSchema, label: str, server: Server, gm_token: str) -> None:
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
