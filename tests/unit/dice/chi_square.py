"""Pearson's chi-square goodness-of-fit test against equal expected counts, in pure Python.

The survival function of the chi-square distribution with k degrees of freedom is the regularised
upper incomplete gamma function Q(k/2, x/2); for whole k it has a finite closed form, so no
numerical library is needed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def p_value_of_equal_counts(observed: Sequence[int]) -> float:
    """P(a chi-square statistic at least this large | every category is equally likely)."""
    expected = sum(observed) / len(observed)
    statistic = sum((count - expected) ** 2 / expected for count in observed)
    return chi_square_sf(statistic, len(observed) - 1)


def chi_square_sf(x: float, degrees_of_freedom: int) -> float:
    """P(X >= x) for X chi-square distributed with whole degrees of freedom (at least 1)."""
    if x <= 0.0:
        return 1.0
    half = x / 2
    if degrees_of_freedom % 2 == 0:
        # Q(m, y) = e^-y (1 + y + y^2/2! + ... + y^(m-1)/(m-1)!)
        term, total = 1.0, 1.0
        for i in range(1, degrees_of_freedom // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    # Q(m + 1/2, y) = erfc(sqrt y) + e^-y (y^(1/2)/Γ(3/2) + y^(3/2)/Γ(5/2) + ... + y^(m-1/2)/Γ(m+1/2))
    term = math.sqrt(half) / math.gamma(1.5)
    total = 0.0
    for i in range(1, degrees_of_freedom // 2 + 1):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, math.erfc(math.sqrt(half)) + math.exp(-half) * total)
