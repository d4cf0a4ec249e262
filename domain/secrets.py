"""Bearer tokens (random, stored only as hashes) and sealing of secrets kept at rest (AES-GCM)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from uuid import UUID

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

TOKEN_PREFIX = "chr"


@dataclass(frozen=True)
class TokenParts:
    campaign_id: UUID
    member_id: UUID


def mint_token(campaign_id: UUID, member_id: UUID) -> str:
    """A bearer token scoped to one member of one campaign; the ids let us find the hash to check."""
    return f"{TOKEN_PREFIX}_{campaign_id.hex}_{member_id.hex}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_token(token: str) -> TokenParts | None:
    parts = token.split("_", 3)
    if len(parts) != 4 or parts[0] != TOKEN_PREFIX:
        return None
    try:
        return TokenParts(UUID(hex=parts[1]), UUID(hex=parts[2]))
    except ValueError:
        return None


def token_matches(token: str, token_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), token_hash)


FINGERPRINT_LABEL = b"chronicle:server-key-fingerprint"


class WrongKey(Exception):
    """The server key is not the one the store's secrets were sealed with: refuse to start."""


class Sealer:
    """Encrypts short secrets with the server key so that the event store never holds them in clear."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the secret key must be 32 bytes")
        self._key = key
        self._aead = AESGCM(key)
        # An HMAC of a fixed label: it identifies the key without revealing anything about it.
        self.fingerprint = hmac.new(key, FINGERPRINT_LABEL, hashlib.sha256).hexdigest()

    def derive(self, context: str) -> Sealer:
        """A sealer whose key also depends on `context`: what it seals cannot be unsealed by whoever
        holds only the server key and the store, unless they also know `context` (an Idempotency-Key,
        which is never stored)."""
        return Sealer(hmac.new(self._key, context.encode(), hashlib.sha256).digest())

    def seal(self, plaintext: str) -> str:
        nonce = secrets.token_bytes(12)
        return base64.b64encode(
            nonce + self._aead.encrypt(nonce, plaintext.encode(), None)
        ).decode()

    def unseal(self, sealed: str) -> str:
        raw = base64.b64decode(sealed)
        return self._aead.decrypt(raw[:12], raw[12:], None).decode()
