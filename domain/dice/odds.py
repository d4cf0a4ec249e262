"""Exact odds, the shared machinery: score distributions and how deep exploding dice are cut.

Pure code. Sums and keep-highest come from icepool's exact (integer-weighted) dice; exploding dice are
cut at a depth chosen so the mass beyond it is below ``TRUNCATION`` (the cut-off chains count as
stopping there). Each game system's own odds are in systems/<name>/odds.py (Nimble's Primary die
under advantage is counted there by order statistics).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints

TRUNCATION = 1e-13
"""Upper bound on the probability mass lost by cutting explosion chains (the contract asks 1e-12)."""


@dataclass(frozen=True)
class Distribution:
    """P(score = k) for k = low, low + 1, ...; ``at_least`` and ``at_most`` are exact sums."""

    low: int
    probs: tuple[float, ...]

    @classmethod
    def of(cls, weights: Mapping[int, float]) -> Distribution:
        """From score -> probability (or weight: normalised here); missing scores have 0."""
        kept = {k: float(w) for k, w in weights.items() if w}
        total = math.fsum(kept.values())
        low, high = min(kept), max(kept)
        return cls(low, tuple(kept.get(k, 0.0) / total for k in range(low, high + 1)))

    @classmethod
    def of_die(cls, die: icepool.Die[int]) -> Distribution:
        denominator = die.denominator()
        return cls.of({int(k): q / denominator for k, q in die.items()})

    @property
    def high(self) -> int:
        return self.low + len(self.probs) - 1

    def p(self, score: int) -> float:
        index = score - self.low
        return self.probs[index] if 0 <= index < len(self.probs) else 0.0

    def at_least(self, score: int) -> float:
        if score <= self.low:
            return 1.0
        return math.fsum(self.probs[score - self.low :])

    def at_most(self, score: int) -> float:
        return 1.0 - self.at_least(score + 1)

    def mean(self) -> float:
        return math.fsum((self.low + i) * p for i, p in enumerate(self.probs))


def explosion_depth(dice: int, chance: float, truncation: float = TRUNCATION) -> int:
    """The fewest extra dice per chain such that ``dice`` chains all stop with mass lost below
    ``truncation``: dice x chance^(depth + 1) < truncation."""
    if dice <= 0 or chance <= 0:
        return 0
    depth = 0
    while dice * chance ** (depth + 1) >= truncation:
        depth += 1
    return depth
