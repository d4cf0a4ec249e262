"""IdempotencyRecord: the first response to a POST with an Idempotency-Key, saved with its command."""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


class IdempotencyRecord(Aggregate):
    @staticmethod
    def create_id(scope: str, key: str) -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, f"chronicle:idempotency:{scope}:{key}")

    @event("Recorded")
    def __init__(
        self, scope: str, key: str, request_hash: str, status_code: int, body: dict[str, Any]
    ) -> None:
        self.scope = scope
        self.key = key
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
