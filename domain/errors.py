"""The one error hierarchy of the domain; the API maps each class to an HTTP status in one place."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A command was refused. ``code`` is stable and machine-readable; ``field`` names the input at fault."""

    code = "domain_error"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str | None = None,
        rule: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.details = details or {}
        if code is not None:
            self.code = code


class InvalidInput(DomainError):
    """The request is well-formed but its content breaks a rule of the input (HTTP 422)."""

    code = "invalid_input"


class NotFound(DomainError):
    """No such resource, or it belongs to another campaign (HTTP 404)."""

    code = "not_found"


class Forbidden(DomainError):
    """The caller's role may not do this (HTTP 403)."""

    code = "forbidden"


class Conflict(DomainError):
    """The resource's current state refuses the command (HTTP 409)."""

    code = "conflict"


class VersionConflict(Conflict):
    """``If-Match`` named a stale version; ``current_version`` says which one is current (HTTP 409)."""

    code = "version_conflict"

    def __init__(self, message: str, *, current_version: int, field: str | None = None) -> None:
        super().__init__(message, field=field, details={"current_version": current_version})
        self.current_version = current_version


class NotCaughtUp(DomainError):
    """The views have not applied the asked-for log position yet (HTTP 503 with Retry-After)."""

    code = "not_caught_up"


class Unauthenticated(DomainError):
    """No bearer token, or one that matches no member (HTTP 401)."""

    code = "unauthenticated"
