"""The one place that turns domain errors and request errors into HTTP responses of one JSON shape."""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from api import request_ids
from domain.errors import (
    Conflict,
    DomainError,
    Forbidden,
    InvalidInput,
    NotCaughtUp,
    NotFound,
    Unauthenticated,
    VersionConflict,
)

log = logging.getLogger("chronicle.api")

STATUS = {
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    InvalidInput: 422,
    NotCaughtUp: 503,
}

# An unreachable store (PostgreSQL down, its connections cut, no pooled connection in time; SQLite
# locked past its timeout) is worth retrying: the pool reconnects by itself once it is back.
STORE_RETRY_AFTER_SECONDS = 5
# The detail of the 400 FastAPI raises when its JSON parser fails other than by a syntax error.
FASTAPI_BODY_UNREADABLE = "There was an error parsing the body"
# The codes of the statuses Starlette raises itself (unknown paths, methods, bodies too large).
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. not_found, version_conflict.")
    message: str = Field(description="What is wrong, for people.")
    field: str | None = Field(default=None, description="The offending input, where there is one.")
    rule: str | None = Field(default=None, description="The game rule id that refused it, if any.")
    current_version: int | None = Field(
        default=None, description="On version conflicts: the resource's current version."
    )
    details: dict[str, Any] = Field(default_factory=dict)
    request_id: str | None = Field(
        default=None,
        description="The request's id (its X-Request-Id header): quote it to find the request's "
        "log lines.",
    )


class ErrorResponse(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse, "description": text}
    for code, text in {
        400: "Malformed request (bad JSON or header)",
        401: "No or unknown bearer token",
        403: "The token's role may not do this",
        404: "No such resource in the token's campaign",
        409: "The current state refuses it (with the current version on version conflicts)",
        413: "Body too large",
        422: "Invalid input; `field` names it",
        503: "The views have not reached `min_position` yet, or the database is unreachable: "
        "retry after Retry-After seconds",
    }.items()
}


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    field: str | None = None,
    rule: str | None = None,
    current_version: int | None = None,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = ErrorResponse(
        error=ErrorDetail(
            code=code,
            message=message,
            field=field,
            rule=rule,
            current_version=current_version,
            details=details or {},
            request_id=request_ids.current_id(),
        )
    )
    request_ids.note_error(code)
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _status_of(exc: DomainError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 409


def _field_of(loc: tuple[Any, ...]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or None


def store_unavailable() -> JSONResponse:
    return error_response(
        503,
        "store_unavailable",
        "the database is unreachable or busy: retry later (a command cut off at its commit "
        "may have been written: retry it with the same Idempotency-Key)",
        headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)},
    )


def internal_error() -> JSONResponse:
    return error_response(500, "internal_error", "an unexpected error happened; it was logged")


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    def _domain(_: Request, exc: DomainError) -> JSONResponse:
        current = exc.current_version if isinstance(exc, VersionConflict) else None
        headers = {"ETag": f'"{current}"'} if current is not None else None
        if isinstance(exc, NotCaughtUp):
            headers = {"Retry-After": "1"}
        return error_response(
            _status_of(exc),
            exc.code,
            exc.message,
            field=exc.field,
            rule=exc.rule,
            current_version=current,
            details=exc.details,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "field": _field_of(tuple(e.get("loc", ()))),
                "message": e.get("msg", ""),
                "type": e.get("type"),
            }
            for e in exc.errors()
        ]
        first = errors[0] if errors else {"field": None, "message": "invalid request"}
        if any(e["type"] == "json_invalid" for e in errors):
            return error_response(
                400,
                "malformed_json",
                f"the body is not valid JSON: {first['message']}",
                field="body",
            )
        message = f"{first['field'] or 'request'}: {first['message']}"
        return error_response(
            422, "validation_error", message, field=first["field"], details={"errors": errors}
        )

    @app.exception_handler(StarletteHTTPException)
    def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == FASTAPI_BODY_UNREADABLE:
            # FastAPI says only this when its JSON parser gives up (a body nested too deeply)
            return error_response(
                400,
                "malformed_json",
                "the body is not valid JSON: nested too deeply to read",
                field="body",
            )
        code = HTTP_CODES.get(exc.status_code, "http_error")
        headers = dict(exc.headers) if exc.headers else None
        return error_response(exc.status_code, code, str(exc.detail), headers=headers)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.warning("the store is unreachable: %s", exc)
        return store_unavailable()

    # An unexpected error is answered by the request ids' middleware (api/request_ids.py), which
    # still knows the request's id.
