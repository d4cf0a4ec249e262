"""The error codes the OpenAPI document lists are the codes the source can answer: each one raised
anywhere is listed (api/error_codes.py), each listed one is raised somewhere, and the document's
`ErrorCode` enum (on every error body's `code`) is that list."""

from __future__ import annotations

from api.error_codes import CODE_FAMILIES, ERROR_CODES
from tests.api.support import openapi_document
from tests.unit.error_code_scan import raised_codes

LISTED = {code for codes in ERROR_CODES.values() for code in codes}


def test_every_code_raised_anywhere_is_listed() -> None:
    codes, _ = raised_codes()
    unlisted = {code: where for code, where in codes.items() if code not in LISTED}
    assert not unlisted, f"add these codes to api/error_codes.py: {unlisted}"


def test_every_code_family_raised_anywhere_is_listed() -> None:
    _, prefixes = raised_codes()
    assert sorted(prefixes) == sorted(CODE_FAMILIES)


def test_every_listed_code_is_raised_somewhere() -> None:
    codes, _ = raised_codes()
    assert sorted(LISTED - codes.keys()) == []


def test_no_code_is_listed_under_two_statuses() -> None:
    assert sum(len(codes) for codes in ERROR_CODES.values()) == len(LISTED)


def test_the_document_publishes_the_codes_on_every_error_body() -> None:
    schemas = openapi_document()["components"]["schemas"]
    assert sorted(schemas["ErrorCode"]["enum"]) == sorted(LISTED)
    code = schemas["ErrorDetail"]["properties"]["code"]
    assert {"$ref": "#/components/schemas/ErrorCode"} in code["anyOf"]
    patterns = [option["pattern"] for option in code["anyOf"] if "pattern" in option]
    assert patterns == [f"^{prefix}.+$" for prefix in CODE_FAMILIES]


def test_the_scan_finds_a_code_in_each_way_a_code_is_given() -> None:
    codes, prefixes = raised_codes()
    assert "api/errors.py" in codes["store_unavailable"]  # error_response(status, "code")
    assert "api/errors.py" in codes["method_not_allowed"]  # a *_CODES mapping
    assert "api/errors.py" in codes["http_error"]  # a *_CODES lookup's default
    assert "systems/wcbh/commands/fight.py" in codes["knockback_refused"]  # refused(exc, "code")
    assert (
        "systems/wcbh/rules/fight.py" in codes["page_action_refused"]
    )  # a code parameter's default
    assert "domain/errors.py" in codes["version_conflict"]  # a class's code
    assert "domain/aggregates/_checks.py" in prefixes["not_enough_"]  # "prefix_" + name
