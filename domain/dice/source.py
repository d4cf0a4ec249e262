"""The fair source: HMAC-SHA256 blocks of (seed, client seed, nonce, counter), rejection-sampled faces."""

from __future__ import annotations

import hashlib
import hmac
import secrets

DOMAIN = b"chronicle-dice-v1"
SEED_BYTES = 32
MAX_CLIENT_SEED_BYTES = 256
WORD = 4  # bytes per candidate: big-endian unsigned 32-bit
SPACE = 1 << 32


def new_seed() -> bytes:
    """A scene's secret seed: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What the world sees before the reveal: SHA-256 of the seed, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def derive_block(seed: bytes, client_seed: str, nonce: int, counter: int) -> bytes:
    """HMAC-SHA256(key=seed, msg=DOMAIN ‖ len(client) u32 ‖ client ‖ nonce u64 ‖ counter u64)."""
    client = client_seed.encode("utf-8")
    message = (
        DOMAIN
        + len(client).to_bytes(4, "big")
        + client
        + nonce.to_bytes(8, "big")
        + counter.to_bytes(8, "big")
    )
    return hmac.new(seed, message, hashlib.sha256).digest()


class FairSource:
    """Uniform die faces for one roll (one nonce), drawn in order from consecutive HMAC blocks."""

    def __init__(self, seed: bytes, client_seed: str, nonce: int) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes")
        if len(client_seed.encode("utf-8")) > MAX_CLIENT_SEED_BYTES:
            raise ValueError(f"a client seed is at most {MAX_CLIENT_SEED_BYTES} bytes of UTF-8")
        if not 0 <= nonce < 1 << 64:
            raise ValueError("a nonce is an unsigned 64-bit integer")
        self.seed = seed
        self.client_seed = client_seed
        self.nonce = nonce
        self.counter = 0
        self._block = b""
        self._offset = 0

    def _word(self) -> int:
        if self._offset == len(self._block):
            self._block = derive_block(self.seed, self.client_seed, self.nonce, self.counter)
            self.counter += 1
            self._offset = 0
        word = int.from_bytes(self._block[self._offset : self._offset + WORD], "big")
        self._offset += WORD
        return word

    def die(self, sides: int) -> int:
        """A face 1..sides; words at or above the largest multiple of `sides` are rejected (no bias)."""
        if sides < 1:
            raise ValueError("a die has at least one side")
        limit = SPACE - SPACE % sides
        while True:
            word = self._word()
            if word < limit:
                return word % sides + 1
