"""Small input checks shared by the aggregates (the API validates first; aggregates never trust it)."""

from __future__ import annotations

from domain.errors import Conflict, InvalidInput

MAX_TITLE = 200


def clean_title(value: str, field: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(f"{field} must not be empty", field=field)
    if len(text) > MAX_TITLE:
        raise InvalidInput(f"{field} is longer than {MAX_TITLE} characters", field=field)
    return text


def not_enough(
    owner: str, kind: str, name: str, have: int, needed: int, rule: str | None = None
) -> Conflict:
    """The one refusal of anything that would go below zero (resources, the GM's pools)."""
    return Conflict(
        f"{owner} has {have} {name}, not the {needed} this needs",
        code="not_enough_" + name,
        rule=rule,
        details={kind: name, "have": have, "needed": needed},
    )


def check_change(
    levels: dict[str, int],
    name: str,
    change: int,
    *,
    owner: str,
    kind: str,
    rule: str | None = None,
) -> None:
    """A named level changed by a non-zero amount, never below zero (awards, pools)."""
    if name not in levels:
        raise InvalidInput(
            f"{owner} has no {kind} {name!r}; it has: {', '.join(levels) or 'none'}", field=kind
        )
    if change == 0:
        raise InvalidInput("change must not be 0", field="change")
    if levels[name] + change < 0:
        raise not_enough(owner, kind, name, levels[name], -change, rule)
