"""Small input checks shared by the aggregates (the API validates first; aggregates never trust it)."""

from __future__ import annotations

from domain.errors import InvalidInput

MAX_TITLE = 200


def clean_title(value: str, field: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(f"{field} must not be empty", field=field)
    if len(text) > MAX_TITLE:
        raise InvalidInput(f"{field} is longer than {MAX_TITLE} characters", field=field)
    return text
