"""IdempotencyRecord: the first response to a POST with an Idempotency-Key, saved with its command.

The key itself is never stored: the record's id and `key_hash` are derived from it, and the response
is sealed with a key derived from it, so the store alone cannot replay anyone's response."""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class IdempotencyRecord(Aggregate):
    @staticmethod
    def create_id(scope: str, key_hash: str) -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, f"chronicle:idempotency:{scope}:{key_hash}")

    @event("Recorded")
    def __init__(
        self,
        scope: str,
        request_hash: str,
        status_code: int,
        body: dict[str, Any],
        key_hash: str,
    ) -> None:
        self.scope = scope
        self.key_hash = key_hash
        self.request_hash = request_hash
        self.status_code = status_code
        self.body = body
        self.position: int | None = None

    def note_position(self, position: int) -> None:
        """The log position is known only after the command's save commits."""
        self._position_noted(position)

    @event("PositionNoted")
    def _position_noted(self, position: int) -> None:
        self.position = position
