"""ServerKey: the fingerprint of the key the store's secrets are sealed with, one per store."""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


class ServerKey(Aggregate):
    """Recorded by the first server that starts on a store; every later start (any replica)
    compares its own key's fingerprint with it before it unseals anything."""

    @staticmethod
    def create_id() -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, "chronicle:server-key")

    @event("Claimed")
    def __init__(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint
