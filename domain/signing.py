"""The service's signatures: the keyring in the event store, roll receipts, chain heads, export trailers.

Every replica reads the same SigningKeys aggregate, so all sign with the same active key; a rotation
by `chronicle keys rotate` reaches them within `KEY_REFRESH` (each process reads the keyring for its
signatures at most that often)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Repository
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain import receipts
from domain.aggregates import Roll, RollChain, SigningKeys
from domain.audit import GENESIS_HASH
from domain.secrets import Sealer

SAVE_ATTEMPTS = 5  # racing replicas: each round lets one writer through
MEMO_SIZE = 1024  # receipts remembered: a request's own rolls, many times over
# How long a process signs with the active key it last read before it reads the keyring again.
# Reading it for every request was a store read per roll, a tenth of a roll's time on PostgreSQL
# (docs/performance.md); a key rotated elsewhere signs here within this, and the old one stays
# published, so what it signed meanwhile verifies (docs/receipts.md).
KEY_REFRESH = timedelta(seconds=1)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Signing:
    """Held by the application (`app.signing`); needs the server key to unseal the private keys."""

    def __init__(
        self,
        repository: Repository,
        save: Callable[..., Any],
        sealer: Sealer,
        clock: Callable[[], datetime],
    ) -> None:
        self._repository = repository
        self._save = save
        self._sealer = sealer
        self._clock = clock
        self._unsealed: dict[str, receipts.SigningKey] = {}
        self._active: tuple[datetime, receipts.SigningKey] | None = None  # read at, key
        self._rotations = 0  # a key read before a rotation here is not kept after it
        # Receipts already signed, by key and statement: a command's answer shows its roll's
        # receipt twice (the roll's own and the command's list), and Ed25519 is deterministic.
        self._receipts: dict[tuple[int, str, int, str, str], dict[str, Any]] = {}

    # ---- the keyring ---------------------------------------------------------------------------

    def keyring(self, *, to_change: bool = False) -> SigningKeys | None:
        """The keyring as stored now; only one `to_change` is a copy of the cached one (every
        receipt reads it, and copying it cost more than reading it)."""
        try:
            keyring: Any = self._repository.get(
                SigningKeys.create_id(), deepcopy_from_cache=to_change
            )
        except AggregateNotFoundError:
            return None
        assert isinstance(keyring, SigningKeys)
        return keyring

    def ensure_key(self) -> str:
        """On first start: a keyring with one key. Replicas racing to make it agree on the winner's."""
        for _ in range(SAVE_ATTEMPTS):
            keyring = self.keyring(to_change=True)
            if keyring is not None and keyring.active is not None:
                return keyring.active.key_id
            try:
                return self._add_key(keyring or SigningKeys())
            except IntegrityError:
                continue
        raise RuntimeError("could not create the signing keyring")

    def rotate(self) -> str:
        """A new active key; the old ones stay published (`chronicle keys rotate`)."""
        for _ in range(SAVE_ATTEMPTS):
            try:
                return self._add_key(self.keyring(to_change=True) or SigningKeys())
            except IntegrityError:
                continue
        raise RuntimeError("could not rotate the signing key: too many concurrent writers")

    def _add_key(self, keyring: SigningKeys) -> str:
        key = receipts.SigningKey.generate()
        keyring.add_key(
            key.key_id,
            receipts.ALGORITHM,
            key.public_key.hex(),
            self._sealer.seal(key.seed.hex()),
            _now(),
        )
        self._save(keyring)
        self._rotations += 1
        self._active = None  # this process signs with the new key at once
        return key.key_id

    def published(self) -> list[dict[str, Any]]:
        keyring = self.keyring()
        entries = keyring.keys if keyring is not None else []
        active = keyring.active if keyring is not None else None
        return [
            {
                "key_id": k.key_id,
                "algorithm": k.algorithm,
                "public_key": k.public_key,
                "active": k is active,
                "created": k.created,
            }
            for k in entries
        ]

    def active_key(self) -> receipts.SigningKey:
        """The key that signs: as read from the keyring less than `KEY_REFRESH` ago."""
        now = self._clock()
        if self._active is not None and timedelta(0) <= now - self._active[0] < KEY_REFRESH:
            return self._active[1]
        rotations = self._rotations
        key = self._read_active_key()
        if rotations == self._rotations:  # no rotation here while it read: keep it
            self._active = (now, key)
        return key

    def _read_active_key(self) -> receipts.SigningKey:
        keyring = self.keyring()
        entry = keyring.active if keyring is not None else None
        if entry is None:
            raise RuntimeError("the signing keyring is empty: the service was not started")
        key = self._unsealed.get(entry.key_id)
        if key is None:
            key = receipts.SigningKey.from_seed(
                bytes.fromhex(self._sealer.unseal(entry.sealed_private_key))
            )
            self._unsealed[entry.key_id] = key
        return key

    # ---- what it signs -------------------------------------------------------------------------

    def receipt(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The receipt of a roll record: it commits to the chain up to and including the roll."""
        key = self.active_key()
        fields = (
            str(record["campaign_id"]),
            int(record["sequence"]),
            str(record["roll_id"]),
            str(record["hash"]),
        )
        memo = (id(key), *fields)
        signed = self._receipts.get(memo)
        if signed is None:
            if len(self._receipts) >= MEMO_SIZE:
                self._receipts.clear()
            signed = self._receipts[memo] = receipts.sign_receipt(key, *fields)
        return dict(signed)

    def receipt_of(self, roll_id: UUID | str, made: Iterable[Aggregate] = ()) -> dict[str, Any]:
        """The receipt of a roll a response names only by id (a helper's roll, a rest); `made`:
        what the command saves (Outcome.saved), where a roll it made is found before its save."""
        roll_uuid = UUID(str(roll_id))
        roll = next((a for a in made if a.id == roll_uuid), None) or self._repository.get(roll_uuid)
        assert isinstance(roll, Roll)
        return self.receipt(roll.record)

    def head(self, campaign_id: UUID, position: int) -> dict[str, Any]:
        """The campaign's chain as it is now; `position` was read first, so every roll written at
        or before it is inside the head."""
        try:
            chain: Any = self._repository.get(RollChain.create_id(campaign_id))
            length, hash = chain.length, chain.head
        except AggregateNotFoundError:
            length, hash = 0, GENESIS_HASH
        return receipts.sign_head(
            self.active_key(), str(campaign_id), length, hash, position, _now()
        )

    def export_trailer(
        self, campaign_id: UUID, entries: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        return receipts.sign_trailer(
            self.active_key(), str(campaign_id), entries, self.published(), _now()
        )
