"""Exact odds of this system's dice (pure code; the shared machinery is domain.dice.odds)."""

from __future__ import annotations

from functools import lru_cache

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints

from domain.dice.odds import Distribution, explosion_depth

# -- We Can Be Heroes: d6 pools, 2/4 one success, 6 two (WCBH-7), 6s explode (WCBH-13) --------

_WCBH_SUCCESSES = (0, 0, 1, 0, 1, 0)  # by face mod 6: 6 itself (0) only appears as a cut chain


@lru_cache(maxsize=512)
def wcbh_pool(dice: int, decisive_moment: bool) -> Distribution:
    """Successes of ``dice`` d6 (WCBH-7); in a Decisive Moment every 6 explodes (WCBH-13)."""
    if dice <= 0:
        return Distribution(0, (1.0,))
    if decisive_moment:
        depth = explosion_depth(dice, 1 / 6)
        # An exploded chain sums to 6k + last: k sixes (2 successes each) and the last face.
        die = icepool.d6.explode([6], depth=depth).map(
            lambda total: 2 * (total // 6) + _WCBH_SUCCESSES[total % 6]
        )
    else:
        die = icepool.d6.map(lambda face: 2 if face == 6 else _WCBH_SUCCESSES[face])
    return Distribution.of_die(dice @ die)
