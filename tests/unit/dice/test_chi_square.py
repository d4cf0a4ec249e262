"""The fairness tests' chi-square p-value against reference values from scipy.

The references were computed once with scipy 1.17.1 (`scipy.stats.chi2.sf(x, df)` and
`scipy.stats.chisquare(observed).pvalue`, the library the fairness tests used before).
"""

from __future__ import annotations

import pytest

from tests.unit.dice.chi_square import chi_square_sf, p_value_of_equal_counts

# (degrees of freedom, x, scipy 1.17.1 chi2.sf(x, df)): odd and even degrees, both tails.
SCIPY_CHI2_SF = [
    (1, 0.5, 0.47950012218695337),
    (1, 3.84, 0.05004352124870519),
    (2, 4.0, 0.1353352832366127),
    (3, 7.81, 0.05010605635000589),
    (5, 1.2, 0.9448773650021219),
    (11, 30.0, 0.0015845952573066058),
    (19, 10.0, 0.9529457975866219),
    (35, 35.0, 0.46820272447140193),
    (35, 80.0, 2.2347308682752927e-05),
    (4, 0.0, 1.0),
]


@pytest.mark.parametrize(("df", "x", "expected"), SCIPY_CHI2_SF)
def test_the_chi_square_tail_matches_scipy(df: int, x: float, expected: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("observed", "expected"),
    [
        # scipy 1.17.1: chisquare([18, 22, 20, 25, 15, 20]) -> statistic 2.9, p 0.7153995143435803
        ([18, 22, 20, 25, 15, 20], 0.7153995143435803),
        # scipy 1.17.1: chisquare([10, 30, 20, 20]) -> statistic 10.0, p 0.01856613546304325
        ([10, 30, 20, 20], 0.01856613546304325),
    ],
)
def test_counts_against_equal_shares_match_scipy(observed: list[int], expected: float) -> None:
    assert p_value_of_equal_counts(observed) == pytest.approx(expected, rel=1e-12)
