"""SigningKeys: the service's Ed25519 keys, one aggregate that every replica reads (docs/receipts.md).

Private keys are stored sealed with the server key (domain/secrets.py); they never leave the store."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import Conflict


@dataclass(frozen=True)
class KeyEntry:
    key_id: str
    algorithm: str
    public_key: str  # hex of the raw 32 bytes
    sealed_private_key: str
    created: str  # ISO time


class SigningKeys(Aggregate):
    """The newest key signs; older ones stay published so that what they signed still verifies."""

    @staticmethod
    def create_id() -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, "chronicle:signing-keys")

    @event("Started")
    def __init__(self) -> None:
        self.keys: list[KeyEntry] = []

    @property
    def active(self) -> KeyEntry | None:
        return self.keys[-1] if self.keys else None

    def add_key(
        self, key_id: str, algorithm: str, public_key: str, sealed_private_key: str, created: str
    ) -> None:
        """Add a key that becomes the active one (a rotation)."""
        if any(k.key_id == key_id for k in self.keys):
            raise Conflict(f"signing key {key_id} is already in the keyring", code="key_exists")
        self._key_added(key_id, algorithm, public_key, sealed_private_key, created)

    @event("KeyAdded")
    def _key_added(
        self, key_id: str, algorithm: str, public_key: str, sealed_private_key: str, created: str
    ) -> None:
        self.keys.append(KeyEntry(key_id, algorithm, public_key, sealed_private_key, created))
