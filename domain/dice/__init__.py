"""Fair dice: faces derived from (scene seed, client seed, nonce, counter); pure, no I/O.

`source` turns the seeds into uniform die faces (HMAC-SHA256 + rejection sampling), `roller` keeps every
face of a roll (kept, dropped, rerolled, exploded), docs/fair-dice.md specifies both byte by byte.
"""

from __future__ import annotations

from domain.dice.roller import (
    MAX_DICE,
    MAX_EXPLOSION_DEPTH,
    MAX_SIDES,
    DiceLimitError,
    Face,
    Roller,
)
from domain.dice.source import FairSource, commitment, derive_block, new_client_seed, new_seed

__all__ = [
    "MAX_DICE",
    "MAX_EXPLOSION_DEPTH",
    "MAX_SIDES",
    "DiceLimitError",
    "Face",
    "FairSource",
    "Roller",
    "commitment",
    "derive_block",
    "new_client_seed",
    "new_seed",
]
