"""The luck report: are my dice cursed? Rolls against their exact distributions.

Each roll's result becomes a randomised probability-integral-transform value
u = P(X < x) + V·P(X = x), which is uniform on [0, 1] when the dice are fair. V comes from the roll's
own hash (not from a random source), so the report is reproducible. A Kolmogorov–Smirnov test of the
u values against the uniform distribution gives the p-value.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RollLuck:
    at_least: float  # P(X >= x)
    above: float  # P(X > x)
    hash: str

    @property
    def u(self) -> float:
        v = int(self.hash[:13], 16) / 16**13
        below = max(0.0, 1.0 - self.at_least)
        equal = max(0.0, self.at_least - self.above)
        return min(1.0, below + v * equal)


def report(rolls: Iterable[RollLuck]) -> dict[str, Any]:
    values = [r.u for r in rolls]
    if not values:
        return {"rolls": 0, "mean_percentile": None, "p_value": None, "verdict": "no rolls yet"}
    p_value = ks_p_value(values)
    mean = 100 * sum(values) / len(values)
    if len(values) < 10:
        verdict = "too few rolls to say"
    elif p_value < 0.01:
        verdict = "luckier than fair dice" if mean > 50 else "unluckier than fair dice"
        verdict += " would usually be (p < 0.01)"
    else:
        verdict = "consistent with fair dice"
    return {
        "rolls": len(values),
        "mean_percentile": round(mean, 2),
        "p_value": p_value,
        "verdict": verdict,
    }


# --- The Kolmogorov–Smirnov p-value, in pure Python ---------------------------------------------
# What scipy.stats.kstest(values, "uniform") reports by default: its method "auto" always picks the
# exact distribution of the two-sided statistic D_n (scipy.stats.kstwo), which scipy evaluates as
# Simard & L'Ecuyer (2011, J. Stat. Softw. 39(11)) advise: a different formula per region of (n, d).
# The same regions are used here, so the p-values agree with scipy's to about 1e-10
# (tests/unit/test_luck.py holds scipy 1.17's values).

_SMALL_N = 140  # up to here the exact matrix method is cheap enough for any d that needs it


def ks_p_value(values: Sequence[float]) -> float:
    """P(D_n >= d) for the sample's two-sided statistic d against the uniform distribution on [0, 1]."""
    n = len(values)
    ordered = sorted(values)
    above = max((i + 1) / n - u for i, u in enumerate(ordered))
    below = max(u - i / n for i, u in enumerate(ordered))
    return kolmogorov_sf(n, max(above, below))


def kolmogorov_sf(n: int, d: float) -> float:
    """P(D_n >= d) of the two-sided Kolmogorov–Smirnov statistic of n uniform draws."""
    t = n * d
    if d >= 1.0:
        return 0.0
    if t <= 0.5:
        return 1.0
    if t <= 1.0:
        # Ruben & Gambino: below 1/n only the sample's exact ordering keeps D_n under d.
        return _clip(1.0 - math.exp(_log_factorial_over_power(n) + n * math.log(2 * t - 1)))
    if t >= n - 1:
        return _clip(2 * (1.0 - d) ** n)
    # 2 P(D+ >= d) counts the samples that stray both ways twice: beyond d = 1/2 none can, and in
    # the far tails the regions below hand to it they are too rare to matter.
    spread = t * d
    if d >= 0.5:
        return _clip(2 * _smirnov_sf(n, d))
    if n <= _SMALL_N:
        return _clip(2 * _smirnov_sf(n, d)) if spread > 4.0 else _clip(1.0 - _durbin_cdf(n, d))
    if spread >= 370.0:
        return 0.0
    if spread >= 2.2:
        return _clip(2 * _smirnov_sf(n, d))
    if n <= 100_000 and n * d**1.5 <= 1.4:
        return _clip(1.0 - _durbin_cdf(n, d))
    return _clip(1.0 - _pelz_good_cdf(n, d))


def _clip(p: float) -> float:
    return min(1.0, max(0.0, p))


def _log_factorial_over_power(n: int) -> float:
    """log(n! / n**n)."""
    return math.lgamma(n + 1) - n * math.log(n)


def _smirnov_sf(n: int, d: float) -> float:
    """P(D+_n >= d), the one-sided statistic, by Birnbaum & Tingey's finite sum (all terms >= 0)."""
    terms = []
    log_binomial = 0.0  # log C(n, j), carried from one j to the next
    for j in range(math.floor(n * (1 - d)) + 1):
        if j:
            log_binomial += math.log((n - j + 1) / j)
        rest = 1.0 - d - j / n
        if rest > 0.0:
            terms.append(
                math.exp(log_binomial + (n - j) * math.log(rest) + (j - 1) * math.log(d + j / n))
            )
    return d * math.fsum(terms)


def _durbin_cdf(n: int, d: float) -> float:
    """P(D_n < d) exactly, by Durbin's matrix as Marsaglia, Tsang & Wang (2003) compute it:
    n!/n**n times the middle entry of H**n, with H of size 2k - 1 for d = (k - h)/n."""
    k = math.ceil(n * d)
    h = k - n * d
    size = 2 * k - 1
    first_column = []
    factorial = 1.0
    for j in range(1, size + 1):
        factorial *= j
        first_column.append((1.0 - h**j) / factorial)
    corner = 2 * h**size - max(0.0, 2 * h - 1) ** size
    first_column[-1] = (1.0 - corner) / factorial
    matrix = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(1, min(i + 2, size)):
            matrix[i][j] = 1.0 / math.factorial(i - j + 1)
        matrix[i][0] = first_column[i]
    matrix[-1] = first_column[::-1]
    power, exponent = _matrix_power(matrix, n, k - 1)
    middle = power[k - 1][k - 1]
    if middle <= 0.0:
        return 0.0
    return math.exp(math.log(middle) + exponent * math.log(2) + _log_factorial_over_power(n))


_RESCALE = 2**128  # keeps the powers' entries inside a float's range


def _matrix_power(matrix: list[list[float]], n: int, watched: int) -> tuple[list[list[float]], int]:
    """matrix**n as (M, e) with matrix**n = M * 2**e, by repeated squaring."""
    size = len(matrix)
    result = [[float(i == j) for j in range(size)] for i in range(size)]
    result_exponent = square_exponent = 0
    square = matrix
    while n:
        if n % 2:
            result = _matmul(result, square)
            result_exponent += square_exponent
        n //= 2
        if n:
            square = _matmul(square, square)
            square_exponent *= 2
            if square[watched][watched] > _RESCALE:
                square = [[x / _RESCALE for x in row] for row in square]
                square_exponent += 128
    return result, result_exponent


def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    columns = list(zip(*b, strict=True))
    return [[sum(map(operator.mul, row, col)) for col in columns] for row in a]


def _pelz_good_cdf(n: int, d: float) -> float:
    """P(D_n < d) by Pelz & Good's (1976) expansion in 1/sqrt(n), for large n and middling d."""
    z = math.sqrt(n) * d
    z2 = z * z
    log_q = -(math.pi**2) / (8 * z2)
    if log_q < -708:  # the sums underflow: the probability is 0 to double precision
        return 0.0
    pi2, pi4, pi6 = math.pi**2, math.pi**4, math.pi**6
    terms = math.ceil(16 * z / math.pi)
    sums = [0.0, 0.0, 0.0, 0.0]
    for k in range(1, terms + 1):
        m2 = (2 * k - 1) ** 2
        weight = math.exp(log_q * m2)
        sums[0] += weight
        sums[1] += weight * (pi2 / 4 * m2 - z2)
        sums[2] += weight * (
            6 * z**6
            + 2 * z**4
            + pi2 / 4 * (2 * z**4 - 5 * z2) * m2
            + pi4 / 16 * (1 - 2 * z2) * m2**2
        )
        sums[3] += weight * (
            -30 * z**6
            - 90 * z**8
            + pi2 / 4 * (135 * z**4 - 96 * z**6) * m2
            + pi4 / 16 * (212 * z**4 - 60 * z2) * m2**2
            + pi6 / 64 * (5 - 30 * z2) * m2**3
        )
    root = math.sqrt(2 * math.pi)
    parts = [root * s / den for s, den in zip(sums, (z, 6 * z**4, 72 * z**7, 6480 * z**10))]
    log_r = -pi2 / (2 * z2)
    k2_sum = math.fsum(k * k * math.exp(log_r * k * k) for k in range(1, terms + 1))
    k3_sum = math.fsum(
        (3 * z2 - pi2 * k * k) * k * k * math.exp(log_r * k * k) for k in range(1, terms + 1)
    )
    parts[2] -= pi2 * root / (36 * z**3) * k2_sum
    parts[3] += pi2 * root / (216 * z**6) * k3_sum
    return math.fsum(part / n ** (i / 2) for i, part in enumerate(parts))
