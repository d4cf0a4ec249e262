"""The luck report's Kolmogorov–Smirnov p-value against reference values from scipy.

The references were computed once with scipy 1.17.1 (`scipy.stats.kstwo.sf(d, n)` and
`scipy.stats.kstest(values, "uniform").pvalue`, the library the report used before), one case or more
per region of (n, d) where the p-value takes a different formula.
"""

from __future__ import annotations

import itertools

import pytest

from domain.luck import RollLuck, kolmogorov_sf, ks_p_value, report

# (n, d, scipy 1.17.1 kstwo.sf(d, n)), and which formula of domain.luck the case reaches.
SCIPY_KSTWO_SF = [
    (1, 0.3, 1.0),  # d <= 1/(2n): every sample strays at least this far
    (5, 0.15, 0.9988),  # d <= 1/n: Ruben and Gambino's closed form
    (20, 0.98, 2.097152000000037e-34),  # d >= 1 - 1/n: the other closed form
    (3, 0.5, 0.3333333333333333),  # d >= 1/2: twice the one-sided tail, exactly
    (5, 0.9, 1.9999999999999978e-05),
    (140, 0.5, 6.869300438276986e-33),
    (20, 0.12, 0.9031355120796009),  # small n: Durbin's matrix
    (20, 0.3, 0.04306706665851623),
    (140, 0.07, 0.4776228287946577),
    (140, 0.168, 0.0006361623019061495),
    (50, 0.2768, 0.0007047022197834707),
    (1000, 0.0125, 0.9971528020597908),  # large n, small d: Durbin's matrix
    (200, 0.05, 0.6802625495871704),  # large n, middling d: Pelz and Good's expansion
    (500, 0.04, 0.3902508696049748),
    (10000, 0.003, 0.9999892575789189),
    (1000, 0.06, 0.001428597887952891),  # large n, far tail: twice the one-sided tail
    (2000, 0.5, 0.0),  # below the smallest double
]


@pytest.mark.parametrize(("n", "d", "expected"), SCIPY_KSTWO_SF)
def test_the_tail_of_the_statistic_matches_scipy(n: int, d: float, expected: float) -> None:
    assert kolmogorov_sf(n, d) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_the_tail_falls_as_the_distance_grows() -> None:
    tails = [kolmogorov_sf(60, d / 100) for d in range(1, 100)]
    assert all(a >= b for a, b in itertools.pairwise(tails))
    assert tails[0] == 1.0 and tails[-1] < 1e-100


def golden_sample(size: int) -> list[float]:
    return [(i * 0.618034) % 1 for i in range(1, size + 1)]


def test_an_even_sample_gets_a_high_p_value_as_scipy_gives_it() -> None:
    # scipy 1.17.1: kstest(golden_sample(30), "uniform") -> statistic 0.05085, p 0.9999889853382788
    assert ks_p_value(golden_sample(30)) == pytest.approx(0.9999889853382788, rel=1e-9)


def test_a_sample_crowded_towards_zero_gets_a_low_p_value_as_scipy_gives_it() -> None:
    # scipy 1.17.1: kstest([u**2 for u in golden_sample(30)], "uniform") -> statistic 0.25137, p 0.0371
    crowded = [u**2 for u in golden_sample(30)]
    assert ks_p_value(crowded) == pytest.approx(0.03709519783887871, rel=1e-9)


def test_the_report_calls_steadily_low_rolls_unlucky() -> None:
    # Every roll at its distribution's bottom tenth: u values 0 to 0.1.
    rolls = [RollLuck(at_least=1.0, above=0.9, hash=f"{i:013x}") for i in range(40)]
    verdict = report(rolls)
    assert verdict["p_value"] < 0.01
    assert verdict["verdict"].startswith("unluckier than fair dice")
