"""The pure parts of tools/code_metrics.py: function lengths and parameter counts read from a
source, the nearest-rank percentile, and the raise count."""

from __future__ import annotations

import pytest

from tools.code_metrics import Function, functions, lengths, percentile, raises

SOURCE = """
class Area:
    def short(self, ctx):
        return ctx

    @staticmethod
    def wide(a, b, *rest, c, **more):
        if a:
            raise ValueError("a")
        def inner():
            raise KeyError
        return inner


def top(cls, x):
    return x
"""


def test_each_function_counts_its_lines_from_def_and_its_parameters_but_self() -> None:
    found = {f.name: f for f in functions(SOURCE)}
    assert found["short"] == Function("short", 2, 1)
    assert found["wide"] == Function("wide", 6, 5)  # a, b, *rest, c, **more
    assert found["inner"] == Function("inner", 2, 0)
    assert found["top"] == Function("top", 2, 1)  # a first parameter named cls is not counted


def test_the_percentile_is_the_nearest_rank() -> None:
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert percentile(values, 90) == 9
    assert percentile(values, 50) == 5
    assert percentile([7], 90) == 7
    assert percentile([3, 1, 2], 100) == 3


@pytest.mark.parametrize("long_one", [31, 51])
def test_lengths_sum_up_the_functions(long_one: int) -> None:
    found = [Function("a", 10, 2), Function("b", 20, 9), Function("c", long_one, 1)]
    summary = lengths(found)
    assert (summary.median, summary.longest) == (20, long_one)
    assert (summary.over_long, summary.over_very_long) == (1, int(long_one > 50))
    assert (summary.most_parameters, summary.most_parameters_in) == (9, "b")


def test_raises_are_counted_wherever_they_stand() -> None:
    assert raises(SOURCE) == 2
