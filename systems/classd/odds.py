"""Exact odds of this system's dice (pure code; the shared machinery is domain.dice.odds)."""

from __future__ import annotations

import math
from functools import lru_cache

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints

from domain.dice.odds import Distribution

# -- Class D: 2d6 + stat, extra dice for advantage / disadvantage (CD-2, CD-3, CD-5) -----------


@lru_cache(maxsize=64)
def classd_kept(edge: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """The two kept d6 as (low, high) with their probability; ``edge`` > 0 is net advantage
    (keep the best two of 2 + edge), < 0 net disadvantage (keep the worst two) (CD-5)."""
    pool = icepool.d6.pool(2 + abs(edge))
    kept = pool.highest(2) if edge >= 0 else pool.lowest(2)
    die = kept.expand()
    denominator = die.denominator()
    return tuple(((int(pair[0]), int(pair[1])), q / denominator) for pair, q in sorted(die.items()))


def classd_critical(low: int, high: int) -> str | None:
    """CD-3: natural double 6 is a critical success, double 1 a critical failure."""
    if low == high == 6:
        return "success"
    if low == high == 1:
        return "failure"
    return None


def classd_succeeds(natural: tuple[int, int], total: int, difficulty: int) -> bool:
    """CD-2/CD-3: total >= difficulty succeeds; a critical decides by itself (see the rulings)."""
    critical = classd_critical(*natural)
    if critical is not None:
        return critical == "success"
    return total >= difficulty


@lru_cache(maxsize=1024)
def classd_success(edge: int, stat: int, difficulty: int) -> float:
    return math.fsum(
        p for pair, p in classd_kept(edge) if classd_succeeds(pair, sum(pair) + stat, difficulty)
    )


@lru_cache(maxsize=64)
def classd_total(edge: int) -> Distribution:
    """The natural total of the two kept dice (add the stat to get the check's total)."""
    weights: dict[int, float] = {}
    for pair, p in classd_kept(edge):
        weights[sum(pair)] = weights.get(sum(pair), 0.0) + p
    return Distribution.of(weights)
