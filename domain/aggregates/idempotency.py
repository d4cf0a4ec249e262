"""IdempotencyRecord: the first response to a POST with an Idempotency-Key, saved with its command.

The key itself is never stored: the record's id and `key_hash` are derived from it, and the response
is sealed with a key derived from it, so the store alone cannot replay anyone's response."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass
class IdempotencyRecord(Aggregate, created_event_name="Recorded"):
    @staticmethod
    def create_id(scope: str, key_hash: str) -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, f"chronicle:idempotency:{scope}:{key_hash}")

    scope: str
    request_hash: str
    status_code: int
    body: dict[str, Any]
    key_hash: str
    position: int | None = field(default=None, init=False)  # noted once the save commits

    def note_position(self, position: int) -> None:
        """The log position is known only after the command's save commits."""
        self._position_noted(position)

    @event("PositionNoted")
    def _position_noted(self, position: int) -> None:
        self.position = position
