"""An independent verifier written from docs/fair-dice.md alone (hashlib and hmac, nothing from domain.dice).

If it and the service ever disagree, either the service or the document is wrong.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterator
from dataclasses import dataclass

TAG = b"chronicle-dice-v1"
EXPLOSION_CAP = 100


def hmac_block(seed: bytes, client_seed: str, nonce: int, counter: int) -> bytes:
    client = client_seed.encode("utf-8")
    message = (
        TAG
        + len(client).to_bytes(4, "big")
        + client
        + nonce.to_bytes(8, "big")
        + counter.to_bytes(8, "big")
    )
    return hmac.new(seed, message, hashlib.sha256).digest()


def word_stream(seed: bytes, client_seed: str, nonce: int) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac_block(seed, client_seed, nonce, counter)
        for start in range(0, 32, 4):
            yield int.from_bytes(block[start : start + 4], "big")
        counter += 1


def next_face(words: Iterator[int], sides: int) -> int:
    limit = (2**32 // sides) * sides  # the largest multiple of `sides` not above 2**32
    for word in words:
        if word < limit:
            return word % sides + 1
    raise AssertionError("the word stream is endless")


def recompute_faces(seed: bytes, client_seed: str, nonce: int, sides: list[int]) -> list[int]:
    """Every face of a roll from the sides of its recorded dice, in draw (index) order."""
    words = word_stream(seed, client_seed, nonce)
    return [next_face(words, n) for n in sides]


@dataclass(frozen=True)
class Drawn:
    face: int
    exploded_from: int | None


def exploding_pool(
    seed: bytes,
    client_seed: str,
    nonce: int,
    sides: int,
    count: int,
    explodes: Callable[[int], bool],
) -> tuple[list[Drawn], bool]:
    """`count` dice, then each base die's explosion chain in turn; returns the dice and whether a
    chain hit the cap."""
    words = word_stream(seed, client_seed, nonce)
    dice = [Drawn(next_face(words, sides), None) for _ in range(count)]
    capped = False
    for base in range(count):
        current, length = base, 0
        while explodes(dice[current].face):
            if length == EXPLOSION_CAP:
                capped = True
                break
            dice.append(Drawn(next_face(words, sides), current))
            current, length = len(dice) - 1, length + 1
    return dice, capped
