"""What a log entry shows to a reader outside the store: a member's front end (the events API,
the stream) or a webhook's receiver. The one place that decides it."""

from __future__ import annotations

from typing import Any, Literal

# Who reads: a member by role, or a webhook's receiver (no member; a forum or a chat channel that
# anyone may read, so it is shown no more than a player would be).
Reader = Literal["gm", "player", "observer", "receiver"]


def shown(entry: dict[str, Any], reader: Reader) -> dict[str, Any] | None:
    """The entry as `reader` may see it (its data and its readable `text`), or None to withhold
    it. Every member and receiver sees every entry today; secrets never reach the log entries
    (domain/export.py SECRET_FIELDS). A rule that hides what the GM keeps secret goes here."""
    return entry
