"""The fair source: HMAC-SHA256 blocks of (seed, client seed, nonce, counter), rejection-sampled faces."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct

DOMAIN = b"chronicle-dice-v1"
SEED_BYTES = 32
MAX_CLIENT_SEED_BYTES = 256
SPACE = 1 << 32
_WORDS = struct.Struct(">8I")  # a 32-byte block as eight big-endian uint32 candidates, in order


def new_seed() -> bytes:
    """A scene's secret seed: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """The client seed the server makes for a roller who gave none (the record says so): 16 bytes
    from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(16)


def commitment(seed: bytes) -> str:
    """What the world sees before the reveal: SHA-256 of the seed, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def message_prefix(client_seed: str, nonce: int) -> bytes:
    """DOMAIN ‖ len(client) u32 ‖ client ‖ nonce u64: the part of every block's message fixed per roll."""
    client = client_seed.encode("utf-8")
    return DOMAIN + len(client).to_bytes(4, "big") + client + nonce.to_bytes(8, "big")


def derive_block(seed: bytes, client_seed: str, nonce: int, counter: int) -> bytes:
    """HMAC-SHA256(key=seed, msg=DOMAIN ‖ len(client) u32 ‖ client ‖ nonce u64 ‖ counter u64)."""
    return _block(seed, message_prefix(client_seed, nonce), counter)


def _block(seed: bytes, prefix: bytes, counter: int) -> bytes:
    return hmac.digest(seed, prefix + counter.to_bytes(8, "big"), "sha256")


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
        self.counter = 0  # the next block to derive
        self._prefix = message_prefix(client_seed, nonce)
        self._words: tuple[int, ...] = ()
        self._offset = 0

    def _word(self) -> int:
        if self._offset == len(self._words):
            # The prefix is built once per roll: this is the hot path.
            self._words = _WORDS.unpack(_block(self.seed, self._prefix, self.counter))
            self.counter += 1
            self._offset = 0
        word = self._words[self._offset]
        self._offset += 1
        return word

    def die(self, sides: int) -> int:
        """A face 1..sides; words at or above the largest multiple of `sides` are rejected (no bias)."""
        if not 1 <= sides <= SPACE:
            # Above 2**32 no word is below the limit (it would be 0) and the loop would never end.
            raise ValueError(f"a die has 1 to {SPACE} sides")
        limit = SPACE - SPACE % sides
        while True:
            word = self._word()
            if word < limit:
                return word % sides + 1
