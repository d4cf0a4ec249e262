"""The luck report: are my dice cursed? Rolls against their exact distributions.

Each roll's result becomes a randomised probability-integral-transform value
u = P(X < x) + V·P(X = x), which is uniform on [0, 1] when the dice are fair. V comes from the roll's
own hash (not from a random source), so the report is reproducible. A Kolmogorov–Smirnov test of the
u values against the uniform distribution gives the p-value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scipy.stats import kstest


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
    p_value = float(kstest(values, "uniform").pvalue)
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
