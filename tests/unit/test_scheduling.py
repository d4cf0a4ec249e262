"""The suite's own scheduling (tests/conftest.py): the longest scopes go to the workers first."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST_FIRST, longest_first


def file_of(nodeid: str) -> str:
    return nodeid.split("::")[0]


def test_named_scopes_come_first_in_their_order_then_the_larger_and_tests_keep_their_order() -> (
    None
):
    small = ["tests/unit/test_a.py::one"]
    large = ["tests/unit/test_b.py::one", "tests/unit/test_b.py::two"]
    fuzz = ["tests/api/test_fuzz.py::x[sqlite]", "tests/api/test_fuzz.py::y[sqlite]"]
    bench = ["tests/e2e/test_bench_load.py::z"]
    assert LONGEST_FIRST.index(file_of(fuzz[0])) < LONGEST_FIRST.index(file_of(bench[0]))
    ordered = longest_first([*small, *bench, *large, *fuzz], file_of)
    assert ordered == [*fuzz, *bench, *large, *small]


def test_every_scope_named_longest_first_still_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    assert [name for name in LONGEST_FIRST if not (root / name).exists()] == []
