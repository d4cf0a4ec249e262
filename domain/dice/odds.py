"""Exact odds of the rulesets' checks: score distributions, cached by their (hashable) parameters.

Pure code. Sums and keep-highest come from icepool's exact (integer-weighted) dice; exploding dice are
cut at a depth chosen so the mass beyond it is below ``TRUNCATION`` (the cut-off chains count as
stopping there). Nimble's Primary die under advantage is counted here by order statistics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints
import numpy as np

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


# -- Nimble: Initiative (NB-1) and attack dice with a Primary die (NB-9, NB-11) ---------------


@lru_cache(maxsize=64)
def kept_die(sides: int, edge: int) -> Distribution:
    """One die of ``sides`` kept from 1 + |edge| rolled: the highest under advantage (edge > 0),
    the lowest under disadvantage (NB-11)."""
    pool = icepool.Die(range(1, sides + 1)).pool(1 + abs(edge))
    kept = pool.highest(1) if edge >= 0 else pool.lowest(1)
    return Distribution.of_die(kept.sum())


def initiative_actions(natural: int, total: int) -> int:
    """NB-1: a natural 20 or a total of 20+ gives 3 actions, two digits 2, one digit 1."""
    if natural == 20 or total >= 20:
        return 3
    return 2 if total >= 10 else 1


@lru_cache(maxsize=256)
def nimble_initiative(bonus: int, edge: int) -> Distribution:
    """Starting actions (1 to 3) of a d20 + bonus Initiative roll (NB-1, NB-2)."""
    weights: dict[int, float] = {}
    d20 = kept_die(20, edge)
    for natural in range(1, 21):
        actions = initiative_actions(natural, natural + bonus)
        weights[actions] = weights.get(actions, 0.0) + d20.p(natural)
    return Distribution.of(weights)


MISS, HIT, CRIT = 0, 1, 2


@lru_cache(maxsize=1024)
def _uniform_sum(sides: int, dice: int) -> np.ndarray:
    """P(sum = k) at index k = 0 .. sides x dice of ``dice`` dice uniform on 1..sides."""
    if dice == 0:
        return np.ones(1)
    one = np.full(sides + 1, 1.0 / sides)
    one[0] = 0.0
    out = np.convolve(_uniform_sum(sides, dice - 1), one)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=256)
def primary_joint(sides: int, count: int, edge: int) -> dict[tuple[int, int], float]:
    """P(kept sum, MISS/HIT/CRIT) of ``count`` dice of ``sides`` rolled with ``edge`` steps of
    advantage (> 0) or disadvantage (< 0): |edge| extra dice, the lowest (or highest) dropped, ties
    dropping the leftmost; the Primary die is the leftmost kept die (NB-9, NB-11)."""
    joint = _drop_lowest_joint(sides, count, abs(edge))
    if edge >= 0:
        return {(total, kind): float(joint[kind][total]) for kind, total in _nonzero(joint)}
    # Reading face f as sides + 1 - f turns "drop the highest" into "drop the lowest", keeps the
    # dice's positions (so ties still drop the leftmost), and swaps the faces 1 and max.
    swap = {MISS: CRIT, CRIT: MISS, HIT: HIT}
    return {
        (count * (sides + 1) - total, swap[kind]): float(joint[kind][total])
        for kind, total in _nonzero(joint)
    }


def _nonzero(joint: np.ndarray) -> list[tuple[int, int]]:
    return [(int(kind), int(total)) for kind, total in zip(*np.nonzero(joint), strict=True)]


def _drop_lowest_joint(sides: int, count: int, drop: int) -> np.ndarray:
    """Order statistics by the lowest kept value t: `below` dice under t and `dropped_t` dice
    showing t are dropped; the kept dice are the other t's and `above` dice uniform on
    t+1..sides. Given the multiset every order is equally likely, so the Primary die (leftmost
    kept) shows t when the first dropped_t + 1 dice of value >= t in roll order are t's, else it
    is a uniform pick of the above dice. Returns P[kind, kept sum]."""
    rolled = count + drop
    joint = np.zeros((3, count * sides + 1))
    for t in range(1, sides + 1):
        span = sides - t
        kind_t = MISS if t == 1 else CRIT if t == sides else HIT
        for below in range(drop + 1):
            dropped_t = drop - below
            rest = rolled - below
            for at_t in range(dropped_t + 1, rest + 1):
                above = rest - at_t
                if above and not span:
                    continue
                config = (
                    math.comb(rolled, below)
                    * math.comb(rest, at_t)
                    * ((t - 1) / sides) ** below
                    * (1 / sides) ** at_t
                    * (span / sides) ** above
                )
                if not config:
                    continue
                base = (at_t - dropped_t) * t + above * t
                p_t = math.comb(at_t, dropped_t + 1) / math.comb(rest, dropped_t + 1)
                spread = _uniform_sum(span, above) if span else np.ones(1)
                window = slice(base, base + len(spread))
                joint[kind_t, window] += config * p_t * spread
                if not above:
                    continue
                # The Primary die is one of the above dice, showing the maximum 1 time in span.
                crit = np.zeros(len(spread))
                crit[span:] = _uniform_sum(span, above - 1) / span
                joint[CRIT, window] += config * (1 - p_t) * crit
                joint[HIT, window] += config * (1 - p_t) * (spread - crit)
    return joint


@lru_cache(maxsize=256)
def _explosion(sides: int) -> Distribution:
    """NB-9: a crit rolls the Primary die again and adds it, again on every maximum."""
    depth = explosion_depth(1, 1 / sides)
    return Distribution.of_die(icepool.Die(range(1, sides + 1)).explode(depth=depth))


@lru_cache(maxsize=256)
def _dice_sum(terms: tuple[tuple[int, int], ...]) -> Distribution:
    """Sum of dice terms (count, sides)."""
    total = np.ones(1)
    for count, sides in terms:
        total = np.convolve(total, _uniform_sum(sides, count))
    return Distribution.of({int(k): float(total[k]) for k in np.nonzero(total)[0]})


def _convolve(a: Distribution, b: Distribution) -> dict[int, float]:
    out = np.convolve(np.asarray(a.probs), np.asarray(b.probs))
    return {a.low + b.low + int(i): float(out[i]) for i in np.nonzero(out)[0]}


@dataclass(frozen=True)
class AttackOdds:
    damage: Distribution  # 0 on a miss; never below 0
    hit: float  # P(not a miss)
    critical: float


@lru_cache(maxsize=512)
def nimble_attack(
    terms: tuple[tuple[int, int], ...], modifier: int, edge: int, primary: bool
) -> AttackOdds:
    """Damage of an attack: dice terms (count, sides) in written order plus ``modifier``; ``edge``
    steps of advantage (> 0) or disadvantage (< 0) act on the first term; with ``primary`` its
    leftmost kept die misses on 1 and crits (exploding) on its maximum (NB-9, NB-11)."""
    if not terms:
        return AttackOdds(Distribution.of({max(0, modifier): 1.0}), 1.0, 0.0)
    (count, sides), rest = terms[0], _dice_sum(terms[1:])
    joint = primary_joint(sides, count, edge)
    weights: dict[int, float] = {}
    by_kind: dict[int, dict[int, float]] = {MISS: {}, HIT: {}, CRIT: {}}
    for (total, kind), p in joint.items():
        kind = kind if primary else HIT
        by_kind[kind][total] = by_kind[kind].get(total, 0.0) + p
    miss = math.fsum(by_kind[MISS].values())
    critical = math.fsum(by_kind[CRIT].values())
    for kind in (HIT, CRIT):
        if not by_kind[kind]:
            continue
        mass = math.fsum(by_kind[kind].values())
        first = Distribution.of(by_kind[kind])
        if kind == CRIT:
            first = Distribution.of(_convolve(first, _explosion(sides)))
        for total, p in _convolve(first, rest).items():
            damage = max(0, total + modifier)
            weights[damage] = weights.get(damage, 0.0) + mass * p
    if miss:
        weights[0] = weights.get(0, 0.0) + miss
    return AttackOdds(Distribution.of(weights), 1.0 - miss, critical)


__all__ = [
    "TRUNCATION",
    "AttackOdds",
    "Distribution",
    "classd_critical",
    "classd_kept",
    "classd_succeeds",
    "classd_success",
    "classd_total",
    "explosion_depth",
    "initiative_actions",
    "kept_die",
    "nimble_attack",
    "nimble_initiative",
    "nwod_chance",
    "nwod_pool",
    "primary_joint",
    "wcbh_pool",
]
