"""Exact odds of this system's dice (pure code; the shared machinery is domain.dice.odds)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import icepool  # type: ignore[import-untyped]  # icepool ships no type hints
import numpy as np

from domain.dice.odds import Distribution, explosion_depth

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
