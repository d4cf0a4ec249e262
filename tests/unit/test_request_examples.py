"""Every request body of the OpenAPI document has an example, and every example is a body the
operation accepts: it validates against the body's model (what the route parses) and against the
body's schema in the document (what a generated client or a form builder reads)."""

from __future__ import annotations

import functools
from typing import Any

import jsonschema_rs
import pytest
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from api.main import create_app
from api.openapi import request_examples
from tests.api.support import openapi_document

# Read when a test runs, not at collection: building the document takes a second of every xdist
# worker's start, and only the worker running this module needs it.
document = functools.cache(openapi_document)


def _bodies() -> dict[str, Any]:
    """Each operation's body annotation (the request model, or it or None) by operationId."""
    return {
        str(route.operation_id): route.body_field.field_info.annotation
        for route in create_app().router.routes
        if isinstance(route, APIRoute) and route.body_field is not None
    }


BODIES = _bodies()


def _schema_of(operation_id: str) -> tuple[dict[str, Any], Any]:
    for item in document()["paths"].values():
        for operation in item.values():
            if operation.get("operationId") == operation_id:
                media = operation["requestBody"]["content"]["application/json"]
                return media["schema"], media.get("example")
    raise AssertionError(f"no operation {operation_id}")


def _validator(schema: dict[str, Any]) -> Any:
    # The document's components travel with the schema, so its $refs resolve.
    return jsonschema_rs.validator_for({**schema, "components": document()["components"]})


def test_every_request_body_has_an_example() -> None:
    missing = sorted(op for op in BODIES if _schema_of(op)[1] is None)
    assert not missing, (
        f"{len(missing)} request bodies have no example: add one to api/examples.py (shared "
        f"operations) or systems/<name>/openapi.py: {missing}"
    )


def test_every_example_belongs_to_an_operation_with_a_body() -> None:
    assert sorted(request_examples().keys() - BODIES.keys()) == []


@pytest.mark.parametrize("operation_id", sorted(BODIES))
def test_the_example_is_a_body_the_operation_accepts(operation_id: str) -> None:
    schema, example = _schema_of(operation_id)
    assert example is not None, f"{operation_id} has no example"
    TypeAdapter(BODIES[operation_id]).validate_python(example)
    errors = [error.message for error in _validator(schema).iter_errors(example)]
    assert errors == [], f"{operation_id}'s example breaks its schema: {errors}"


def test_a_body_the_model_refuses_is_refused_by_the_schema_too() -> None:
    # The typed roll body is checked by the document's schema as the check checks it.
    schema, example = _schema_of("roll")
    wrong = {**example, "request": {**example["request"], "no_such_field": 1}}
    assert not _validator(schema).is_valid(wrong)
    assert _validator(schema).is_valid(example)
