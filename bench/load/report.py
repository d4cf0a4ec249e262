"""The report: what each checkout measured on each backend, side by side, with the ratios
current/baseline and the targets of issue #17 judged on them. Markdown, to paste into the docs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bench.load.probes import CatchUp, Lag
from bench.load.workload import Load


@dataclass
class Measured:
    """Everything measured for one checkout on one backend."""

    tree: str
    backend: str
    rolls: dict[int, Load] = field(default_factory=dict)  # by connections
    health: Load | None = None
    idle: float | None = None  # % of one core
    lag: Lag | None = None
    catch_up: CatchUp | None = None


Results = dict[tuple[str, str], Measured]  # by (tree, backend)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}" if seconds >= 0.01 else f"{seconds * 1000:.1f}"


def ratio(current: float | None, baseline: float | None) -> str:
    if current is None or not baseline:
        return "–"
    return f"{current / baseline:.2f}×"


def rolls_table(results: Results, backends: list[str], trees: list[str]) -> list[str]:
    head = "| backend | connections |"
    for tree in trees:
        head += f" {tree} rolls/s | p50 ms | p99 ms | errors |"
    compare = len(trees) == 2
    if compare:
        head += " rolls/s ratio | p99 ratio |"
    lines = [head, _rule(head)]
    for backend in backends:
        levels = sorted({c for t in trees for c in results[(t, backend)].rolls})
        for connections in levels:
            loads = [results[(t, backend)].rolls.get(connections) for t in trees]
            row = f"| {backend} | {connections} |"
            for load in loads:
                row += _load_cells(load)
            if compare:
                base, cur = loads
                row += f" {ratio(cur.rate if cur else None, base.rate if base else None)} |"
                row += f" {ratio(cur.p99 if cur else None, base.p99 if base else None)} |"
            lines.append(row)
    return lines


def _rule(head: str) -> str:
    return "|" + "---|" * (head.count("|") - 1)


def _load_cells(load: Load | None) -> str:
    if load is None:
        return " – | – | – | – |"
    return f" {load.rate:,.0f} | {ms(load.p50)} | {ms(load.p99)} | {load.errors} |"


# ---- the other figures ---------------------------------------------------------------------------

Figure = Callable[[Measured], float | None]

FIGURES: list[tuple[str, Figure, str]] = [
    ("`/health` requests/s", lambda m: m.health.rate if m.health else None, "{:,.0f}"),
    ("idle server, % of a core", lambda m: m.idle, "{:.1f}"),
    ("commit-to-view lag p50 ms", lambda m: m.lag.p50 * 1000 if m.lag else None, "{:.1f}"),
    ("commit-to-view lag p99 ms", lambda m: m.lag.p99 * 1000 if m.lag else None, "{:.1f}"),
    ("catch-up events/s", lambda m: m.catch_up.rate if m.catch_up else None, "{:,.0f}"),
    ("raw read+decode events/s", lambda m: m.catch_up.raw if m.catch_up else None, "{:,.0f}"),
    ("catch-up / raw, %", lambda m: 100 * m.catch_up.ratio if m.catch_up else None, "{:.1f}"),
]


def figures_table(results: Results, backends: list[str], trees: list[str]) -> list[str]:
    head = "| backend | figure |" + "".join(f" {t} |" for t in trees)
    head += " ratio |" if len(trees) == 2 else ""
    lines = [head, _rule(head)]
    for backend in backends:
        for name, figure, fmt in FIGURES:
            values = [figure(results[(t, backend)]) for t in trees]
            row = f"| {backend} | {name} |"
            row += "".join(f" {'–' if v is None else fmt.format(v)} |" for v in values)
            row += f" {ratio(values[1], values[0])} |" if len(trees) == 2 else ""
            lines.append(row)
    return lines


# ---- the targets of issue #17 --------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    target: str
    measured: str
    met: bool


def verdicts(results: Results, backend: str) -> list[Verdict]:
    """Issue #17's targets on one backend, each from figures of this run."""
    cur = results.get(("current", backend))
    base = results.get(("baseline", backend))
    if cur is None:
        return []
    found = []
    top, low = max(cur.rolls, default=None), min(cur.rolls, default=None)
    if top is not None and low is not None:
        at_top, at_low = cur.rolls[top], cur.rolls[low]
        if base is not None and top in base.rolls:
            times = at_top.rate / base.rolls[top].rate
            found.append(Verdict(f"rolls/s at {top} ≥ 5× baseline", f"{times:.2f}×", times >= 5))
        found.append(
            Verdict(
                f"rolls/s at {top} ≥ at {low}",
                f"{at_top.rate:,.0f} vs {at_low.rate:,.0f}",
                at_top.rate >= at_low.rate,
            )
        )
        spread = at_top.p99 / at_top.mean
        found.append(Verdict(f"p99 at {top} ≤ 3× mean", f"{spread:.2f}× mean", spread <= 3))
    if cur.catch_up is not None:
        share = cur.catch_up.ratio
        found.append(Verdict("catch-up ≥ 25% of raw read+decode", f"{share:.1%}", share >= 0.25))
    if cur.idle is not None:
        found.append(Verdict("idle server ≤ 1% of a core", f"{cur.idle:.1f}%", cur.idle <= 1))
    if cur.health is not None and base is not None and base.health is not None:
        times = cur.health.rate / base.health.rate
        found.append(Verdict("`/health` ≥ 4× baseline", f"{times:.2f}×", times >= 4))
    return found


def verdicts_table(results: Results, backends: list[str]) -> list[str]:
    lines = ["| backend | target (issue #17) | measured | |", "|---|---|---|---|"]
    for backend in backends:
        for v in verdicts(results, backend):
            lines.append(
                f"| {backend} | {v.target} | {v.measured} | {'met' if v.met else 'MISSED'} |"
            )
    return lines


def render(results: Results, backends: list[str], trees: list[str]) -> str:
    parts = [
        rolls_table(results, backends, trees),
        figures_table(results, backends, trees),
        verdicts_table(results, backends),
    ]
    return "\n\n".join("\n".join(lines) for lines in parts)
