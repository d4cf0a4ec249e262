"""How big the application is, how long the command code's functions are, how much the product
code repeats itself, and where the rules refuse: the figures of issue #14's closing note.

    .venv/bin/python tools/code_metrics.py                 # the working tree
    .venv/bin/python tools/code_metrics.py --base 89f3784  # an older commit beside it

An older commit is checked out with `git worktree add` into a temporary folder (removed after).
What is measured, for each tree:

- the application class `domain.application.Chronicle`: the project classes in its MRO and the
  public callables they define (eventsourcing's are not counted), then the components it holds
  (its game systems, their parts, the missions: every object it holds whose class has commands)
  and their public callables;
- the command code (COMMAND_CODE): function lengths in lines (median, 90th percentile, max, how
  many exceed 30 and 50) and the longest parameter list (every parameter but self and cls);
- near-duplicate pairs in the product folders (PRODUCT), as the `duplicates` command counts them
  over a copy holding only those folders;
- `raise` statements in the command code and in the pure rules (PURE_RULES).

The application is imported in a child process started in the tree measured, so that each tree
is measured with its own code (see MEASURE_APP).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The command code, before and after issue #14 moved each system's commands into its package.
COMMAND_CODE = (
    "domain/application.py",
    "domain/rolls.py",
    "domain/missions.py",
    "domain/verbs/*.py",
    "systems/*/commands/**/*.py",
)
# Pure rules: where a refusal can be tested without a store.
PURE_RULES = ("domain/rulesets/**/*.py", "systems/*/rules/**/*.py")
PRODUCT = ("domain", "api", "projections", "systems")
LONG, VERY_LONG = 30, 50

# Run in the tree measured (its folder first on sys.path, the editable install's finder of the
# current checkout removed): prints the application's figures as JSON.
MEASURE_APP = r"""
import json, sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                    and "editable" not in getattr(f, "__name__", "").lower()]
sys.path.insert(0, ".")
from domain.application import Chronicle
from domain.secrets import Sealer

PROJECT = ("domain", "systems", "api", "projections")


def ours(cls):
    return cls.__module__.split(".")[0] in PROJECT


def public(classes):
    names = set()
    for cls in classes:
        for name, value in vars(cls).items():
            if name.startswith("_"):
                continue
            if isinstance(value, (staticmethod, classmethod)) or callable(value):
                names.add((cls.__qualname__, name))
    return names


def commands(obj):
    return {n for n in dir(type(obj)) if hasattr(getattr(type(obj), n, None), "__wrapped__")}


app = Chronicle({"PERSISTENCE_MODULE": "eventsourcing.popo"}, sealer=Sealer(bytes(32)))
held = []
for value in vars(app).values():
    items = value.values() if isinstance(value, dict) else [value]
    for item in items:
        if ours(type(item)) and item is not app:
            held += [item, *getattr(item, "parts", ())]
held = [c for c in held if commands(c)]
mro = [c for c in Chronicle.__mro__ if ours(c)]
component_classes = {c for obj in held for c in type(obj).__mro__ if ours(c)}
print(json.dumps({
    "mro": len(mro),
    "public": len({name for _, name in public(mro)}),
    "commands": len(commands(app)),
    "components": len(held),
    "component_public": len(public(component_classes)),
    "component_commands": sum(len(commands(c)) for c in held),
}))
"""


# ---- the pure parts: lengths and percentiles of a source's functions ----------------------------


@dataclass(frozen=True)
class Function:
    name: str
    lines: int
    parameters: int


def functions(source: str) -> list[Function]:
    """Every function of a source (methods and nested functions too): its length from its `def`
    line to its last line, and its parameters but self and cls."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            named = [*a.posonlyargs, *a.args, *a.kwonlyargs]
            count = len(named) + (a.vararg is not None) + (a.kwarg is not None)
            if named and named[0].arg in ("self", "cls"):
                count -= 1
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append(Function(node.name, length, count))
    return found


def percentile(values: Sequence[int], p: float) -> int:
    """The nearest-rank percentile: the smallest value with at least p% of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Lengths:
    functions: int
    median: float
    p90: int
    longest: int
    over_long: int
    over_very_long: int
    most_parameters: int
    most_parameters_in: str


def lengths(found: Sequence[Function]) -> Lengths:
    sizes = [f.lines for f in found]
    widest = max(found, key=lambda f: f.parameters)
    return Lengths(
        functions=len(found),
        median=statistics.median(sizes),
        p90=percentile(sizes, 90),
        longest=max(sizes),
        over_long=sum(size > LONG for size in sizes),
        over_very_long=sum(size > VERY_LONG for size in sizes),
        most_parameters=widest.parameters,
        most_parameters_in=widest.name,
    )


def raises(source: str) -> int:
    return sum(isinstance(node, ast.Raise) for node in ast.walk(ast.parse(source)))


# ---- one tree ------------------------------------------------------------------------------------


def files(tree: Path, patterns: Iterable[str]) -> list[Path]:
    chosen = {p for pattern in patterns for p in tree.glob(pattern) if p.is_file()}
    return sorted(chosen)


def app_figures(tree: Path) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE_APP],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"could not import the application of {tree}:\n{done.stderr}")
    figures: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


DUPLICATES = re.compile(r"^(\d+) pairs? of places")


def duplicate_pairs(tree: Path, seconds: int = 120) -> tuple[int, str]:
    """The pairs `duplicates` counts over a copy of the product folders only; and any line of
    its that says it passed something over."""
    with tempfile.TemporaryDirectory(prefix="metrics-dups-") as copy:
        for folder in PRODUCT:
            if (tree / folder).is_dir():
                ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
                shutil.copytree(tree / folder, Path(copy) / folder, ignore=ignore)
        done = subprocess.run(
            ["duplicates", "--repo", copy, "--most", "200", "--seconds", str(seconds)],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=False,
        )
    lines = done.stdout.splitlines()
    first = lines[0] if lines else ""
    notes = "; ".join(line for line in lines if line.startswith(("incomplete:", "left out:")))
    match = DUPLICATES.match(first)
    if match is None and not first.startswith("no duplicates"):
        raise SystemExit(f"duplicates said: {first or done.stderr}")
    return (int(match.group(1)) if match else 0), notes


@dataclass(frozen=True)
class Figures:
    app: dict[str, int]
    lengths: Lengths
    command_files: int
    command_raises: int
    rule_raises: int
    duplicates: int
    duplicate_notes: str


def measure(tree: Path, with_duplicates: bool = True) -> Figures:
    commands = files(tree, COMMAND_CODE)
    rules = files(tree, PURE_RULES)
    found = [f for path in commands for f in functions(path.read_text())]
    pairs, notes = duplicate_pairs(tree) if with_duplicates else (-1, "not counted")
    return Figures(
        app=app_figures(tree),
        lengths=lengths(found),
        command_files=len(commands),
        command_raises=sum(raises(p.read_text()) for p in commands),
        rule_raises=sum(raises(p.read_text()) for p in rules),
        duplicates=pairs,
        duplicate_notes=notes,
    )


@contextmanager
def checked_out(rev: str) -> Iterator[Path]:
    """The commit `rev` in a temporary worktree, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="metrics-base-"))
    git = ["git", "-C", str(ROOT)]
    added = [*git, "worktree", "add", "--detach", str(folder), rev]
    subprocess.run(added, check=True, capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


# ---- the table -----------------------------------------------------------------------------------


def rows(f: Figures) -> list[tuple[str, str]]:
    a, n = f.app, f.lengths
    return [
        ("Chronicle: project classes in its MRO (itself too)", str(a["mro"])),
        ("Chronicle: public callables (project classes)", str(a["public"])),
        ("Chronicle: commands of its own", str(a["commands"])),
        ("components held (with commands)", str(a["components"])),
        ("components: public callables", str(a["component_public"])),
        ("components: commands", str(a["component_commands"])),
        ("command code: files", str(f.command_files)),
        ("command code: functions", str(n.functions)),
        ("function lines: median", f"{n.median:g}"),
        ("function lines: 90th percentile", str(n.p90)),
        ("function lines: max", str(n.longest)),
        (f"functions over {LONG} lines", str(n.over_long)),
        (f"functions over {VERY_LONG} lines", str(n.over_very_long)),
        ("largest parameter list (but self)", f"{n.most_parameters} ({n.most_parameters_in})"),
        ("near-duplicate pairs (product code)", str(f.duplicates)),
        ("raise statements: command code", str(f.command_raises)),
        ("raise statements: pure rules", str(f.rule_raises)),
    ]


def table(columns: dict[str, Figures]) -> str:
    """A Markdown table: a row per metric, a column per tree."""
    named = [dict(rows(figures)) for figures in columns.values()]
    metrics = list(named[0])
    grid = [["metric", *columns]] + [[m, *(column[m] for column in named)] for m in metrics]
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(grid[0]), rule, *(line(row) for row in grid[1:])])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="an older commit to measure beside the working tree")
    parser.add_argument(
        "--no-duplicates", action="store_true", help="skip the near-duplicate count (slow)"
    )
    args = parser.parse_args(argv)
    with_dups = not args.no_duplicates
    columns: dict[str, Figures] = {}
    if args.base:
        with checked_out(args.base) as base:
            columns[args.base] = measure(base, with_dups)
    columns["working tree"] = measure(ROOT, with_dups)
    print(table(columns))
    for label, figures in columns.items():
        if figures.duplicate_notes:
            print(f"{label}: duplicates: {figures.duplicate_notes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
