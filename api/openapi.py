"""What the OpenAPI document tells beyond what FastAPI reads off the routes: the roll bodies typed
per check, an example for every request body, every error code, the response headers, and where
a ruleset's open fields (sheets, settings) have their schema. Installed on the app in one call."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI, Response

import systems
from api import examples
from api.check_schemas import REF, type_check_bodies, type_requests
from api.error_codes import CODE_FAMILIES, ERROR_CODES

Document = dict[str, Any]
HTTP_METHODS = ("get", "put", "post", "delete", "patch")
RULESET_SCHEMAS = "GET /v1/rulesets/{ruleset_id} (`get_ruleset`)"
# Fields whose shape is the campaign's ruleset's: their schema is published per ruleset.
OPEN_FIELDS = {
    ("CampaignCreate", "settings"): "settings_schema",
    ("CharacterCreate", "sheet"): "sheet_schema",
    ("SheetReplace", "sheet"): "sheet_schema",
}
ETAG = {
    "description": 'The resource\'s version, e.g. "4": send it as If-Match to change it safely, '
    "or as If-None-Match to read it again only if it changed",
    "schema": {"type": "string"},
}
REPLAYED = {
    "description": "`true` when this is the stored answer to a repeated Idempotency-Key: the "
    "command was not run again",
    "schema": {"type": "string", "enum": ["true"]},
}
RETRY_AFTER = {"description": "Seconds to wait before retrying", "schema": {"type": "integer"}}
CONFLICT_ETAG = {
    "description": 'On a version conflict: the current version, e.g. "5"',
    "schema": {"type": "string"},
}


def text_body(media_type: str, description: str) -> dict[str, Any]:
    """A route's keywords for a 200 that is text, not JSON. The response class stays the plain
    `Response`: HTMLResponse or PlainTextResponse would document the JSON errors in the text's
    media type as well."""
    content = {media_type: {"schema": {"type": "string"}}}
    return {
        "response_class": Response,
        "responses": {200: {"content": content, "description": description}},
    }


def install(app: FastAPI) -> None:
    """Make `app.openapi()` answer the enriched document (built once, as FastAPI's is)."""
    plain: Callable[[], Document] = app.openapi

    def openapi() -> Document:
        if app.openapi_schema is None:
            enrich(plain())  # FastAPI keeps the document it built in app.openapi_schema
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def enrich(doc: Document) -> None:
    schemas = doc["components"]["schemas"]
    typed = {
        k: v for m in systems.parts("openapi") for k, v in getattr(m, "TYPED_REQUESTS", {}).items()
    }
    type_requests(schemas, typed, type_check_bodies(schemas))
    _point_open_fields(schemas)
    _document_error_codes(schemas)
    known = request_examples()
    for operation in operations(doc):
        _attach_example(operation, known)
        _declare_headers(operation)


def operations(doc: Document) -> Iterator[Document]:
    for item in doc["paths"].values():
        yield from (item[method] for method in HTTP_METHODS if method in item)


def request_examples() -> dict[str, dict[str, Any]]:
    """Every request body's example by operationId: the shared ones and each system's own."""
    found = dict(examples.EXAMPLES)
    for module in systems.parts("openapi"):
        clash = found.keys() & module.EXAMPLES.keys()
        assert not clash, f"two examples for {sorted(clash)}"
        found.update(module.EXAMPLES)
    return found


def _attach_example(operation: Document, known: dict[str, dict[str, Any]]) -> None:
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None and operation["operationId"] in known:
        body["example"] = known[operation["operationId"]]


def _point_open_fields(schemas: Document) -> None:
    for (model, field), published in OPEN_FIELDS.items():
        prop = schemas[model]["properties"][field]
        prop["description"] = (
            "Its shape is the campaign's ruleset's: the JSON Schema is `"
            f"{published}` of {RULESET_SCHEMAS}; refusals name the field inside it."
        )


def _document_error_codes(schemas: Document) -> None:
    listed = "; ".join(f"{status}: {', '.join(codes)}" for status, codes in ERROR_CODES.items())
    families = "; ".join(
        f"`{prefix}<name>` ({status}, <name>: {what})"
        for prefix, (status, what) in CODE_FAMILIES.items()
    )
    schemas["ErrorCode"] = {
        "title": "ErrorCode",
        "type": "string",
        "enum": sorted(code for codes in ERROR_CODES.values() for code in codes),
        "description": f"Every code the API answers, by HTTP status. {listed}. Also {families}.",
    }
    code = schemas["ErrorDetail"]["properties"]["code"]
    patterns = [
        {"type": "string", "pattern": f"^{prefix}.+$", "description": what}
        for prefix, (_, what) in CODE_FAMILIES.items()
    ]
    schemas["ErrorDetail"]["properties"]["code"] = {
        "title": code["title"],
        "description": code["description"],
        "anyOf": [{"$ref": REF + "ErrorCode"}, *patterns],
    }


def _declare_headers(operation: Document) -> None:
    """ETag on what answers a version, Idempotent-Replayed on commands, Retry-After on 503."""
    headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
    responses = operation["responses"]
    is_command = "idempotency-key" in headers
    answers_version = "304" in responses
    for status, response in responses.items():
        declared = response.setdefault("headers", {})
        if status.startswith("2") and (is_command or answers_version):
            declared["ETag"] = ETAG
        if status.startswith("2") and is_command:
            declared["Idempotent-Replayed"] = REPLAYED
        if status == "409" and "if-match" in headers:
            declared["ETag"] = CONFLICT_ETAG
        if status == "503":
            declared["Retry-After"] = RETRY_AFTER
        if not declared:
            del response["headers"]
