"""Exact odds of this system's dice (pure code; the shared machinery is domain.dice.odds)."""

from __future__ import annotations

from functools import lru_cache

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints

from domain.dice.odds import Distribution, explosion_depth

# -- nWoD micro: d10 pools, 8+ succeeds, 10s explode (NW-4), chance roll (NW-5) ----------------


def _tens_and_last(total: int) -> int:
    # An exploded chain sums to 10k + last: k tens (a success each) and the last face.
    return total // 10 + (1 if total % 10 >= 8 else 0)


@lru_cache(maxsize=512)
def nwod_pool(dice: int) -> Distribution:
    """Successes of ``dice`` d10 (NW-4): 8, 9, 10 succeed and every 10 rolls again."""
    depth = explosion_depth(dice, 1 / 10)
    die = icepool.d10.explode([10], depth=depth).map(_tens_and_last)
    return Distribution.of_die(dice @ die)


@lru_cache(maxsize=1)
def nwod_chance() -> Distribution:
    """A chance roll (NW-5): one d10 succeeding only on a 10, which still rolls again (NW-4)."""
    depth = explosion_depth(1, 1 / 10)
    die = icepool.d10.explode([10], depth=depth).map(
        lambda total: 0 if total < 10 else _tens_and_last(total)
    )
    return Distribution.of_die(die)
