"""The suite's own scheduling (tests/conftest.py): the longest scopes go to the workers first."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST_FIRST, longest_first, scope_of


def test_named_scopes_come_first_in_order_then_the_larger_and_tests_keep_their_order() -> None:
    small = ["tests/unit/test_a.py::one"]
    large = ["tests/unit/test_b.py::one", "tests/unit/test_b.py::two"]
    fuzz = ["tests/api/test_fuzz.py::x[sqlite]", "tests/api/test_fuzz.py::y[sqlite]"]
    bench = ["tests/e2e/test_bench_load.py::z"]
    assert LONGEST_FIRST.index(scope_of(fuzz[0])) < LONGEST_FIRST.index(scope_of(bench[0]))
    ordered = longest_first([*small, *bench, *large, *fuzz])
    assert ordered == [*fuzz, *bench, *large, *small]


def test_every_scope_named_longest_first_still_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    assert [name for name in LONGEST_FIRST if not (root / name).exists()] == []


def test_the_browser_tests_are_one_scope_and_any_other_test_its_file_s() -> None:
    assert scope_of("tests/browser/test_a.py::t") == scope_of("tests/browser/test_b.py::u")
    assert scope_of("tests/api/test_a.py::t[sqlite]") == "tests/api/test_a.py"
