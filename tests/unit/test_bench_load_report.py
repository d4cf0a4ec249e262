"""The pure parts of the load benchmark (bench/bench_load.py): reading wrk's and py-spy's output,
the targets file, and the report's ratios and verdicts; and the harness's reading of a process's
state."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from bench.bench_load import options
from bench.load.profile import name, summarize
from bench.load.report import Measured, render, verdicts
from bench.load.servers import Store, stopped
from bench.load.workload import Load, Target, parse_wrk, write_targets

WRK_OUTPUT = """Running 2s test @ http://127.0.0.1:8000
  1 threads and 10 connections
BENCH {"requests": 1200, "duration_us": 2000000, "status": 3, "connect": 0, "read": 1, "write": 0, \
"timeout": 0, "mean_us": 8000.0, "p50_us": 7000, "p90_us": 9000, "p99_us": 21000, "max_us": 40000}
"""


def load(connections: int, rate: float, p99: float = 0.05, mean: float = 0.02) -> Load:
    return Load(connections, 10.0, int(rate * 10), 0, mean, mean, p99)


def test_wrk_results_count_bad_answers_and_socket_errors_out_of_the_rate() -> None:
    found = parse_wrk(WRK_OUTPUT, 10)
    assert (found.requests, found.errors, found.seconds) == (1200, 4, 2.0)
    assert found.rate == 598.0
    assert (found.p50, found.p99, found.mean) == (0.007, 0.021, 0.008)


def test_a_wrk_run_without_the_result_line_is_an_error_showing_its_output() -> None:
    with pytest.raises(RuntimeError, match="Connection refused"):
        parse_wrk("unable to connect to 127.0.0.1:1 Connection refused", 1)


def test_the_targets_file_has_one_tab_separated_campaign_a_line(tmp_path: Path) -> None:
    targets = [Target("tok1", "s1", {"check": "trait"}), Target("tok2", "s2", {"a": [1, 2]})]
    text = write_targets(targets, tmp_path / "t.tsv").read_text()
    assert text.splitlines() == [
        '/v1/scenes/s1/rolls\ttok1\t{"check":"trait"}',
        '/v1/scenes/s2/rolls\ttok2\t{"a":[1,2]}',
    ]


def test_py_spy_busy_stacks_add_up_per_function_inclusive_and_innermost() -> None:
    collapsed = (
        "run (threading.py:10);roll (domain/rolls.py:5);save (eventsourcing/application.py:70) 6\n"
        "run (threading.py:10);roll (domain/rolls.py:9);deepcopy (copy.py:128) 3\n"
        'process 7:"python -m api.cli serve";run (threading.py:10);health (api/meta.py:3) 1\n'
        "run (threading.py:10);Condition.wait (threading.py:355) 50\n"
    )
    found = summarize(collapsed)
    shares = dict(found.inclusive)
    assert found.total == 10  # the waiting thread is left out
    assert not [f for f in shares if f.startswith("process")]
    assert shares["run (threading.py)"] == 1.0
    assert shares["roll (domain/rolls.py)"] == 0.9  # two lines of roll add up
    assert dict(found.own) == {
        "save (eventsourcing/application.py)": 0.6,
        "deepcopy (copy.py)": 0.3,
        "health (api/meta.py)": 0.1,
    }
    assert name("<module> (api/cli.py:1)") == "<module> (api/cli.py)"


def test_the_profile_names_the_checkouts_and_eventsourcings_functions_as_ours() -> None:
    collapsed = (
        "run (threading.py:1);app (starlette/routing.py:2);"
        "roll (domain/rolls.py:5);save (eventsourcing/application.py:70) 1\n"
    )
    assert summarize(collapsed).ours == {
        "roll (domain/rolls.py)",
        "save (eventsourcing/application.py)",
    }


def measured(tree: str, rolls: dict[int, Load], health: float, idle: float) -> Measured:
    return Measured(tree, "sqlite", rolls=rolls, health=load(50, health), idle=idle)


def test_the_targets_are_judged_on_ratios_of_the_same_run() -> None:
    results = {
        ("baseline", "sqlite"): measured("baseline", {1: load(1, 200), 50: load(50, 150)}, 1000, 3),
        ("current", "sqlite"): measured("current", {1: load(1, 500), 50: load(50, 800)}, 5000, 0.5),
    }
    judged = {v.target: (v.measured, v.met) for v in verdicts(results, "sqlite")}
    assert judged["rolls/s at 50 ≥ 5× baseline"] == ("5.33×", True)
    assert judged["rolls/s at 50 ≥ at 1"] == ("800 vs 500", True)
    assert judged["p99 at 50 ≤ 3× mean"] == ("2.50× mean", True)
    assert judged["idle server ≤ 1% of a core"] == ("0.5%", True)
    assert judged["`/health` ≥ 4× baseline"] == ("5.00×", True)


def test_a_collapse_under_load_and_a_long_tail_are_missed_targets() -> None:
    slow = {1: load(1, 300), 50: load(50, 100, p99=0.5, mean=0.1)}
    results = {("current", "sqlite"): measured("current", slow, 1000, 3)}
    judged = {v.target: v.met for v in verdicts(results, "sqlite")}
    assert judged == {
        "rolls/s at 50 ≥ at 1": False,
        "p99 at 50 ≤ 3× mean": False,
        "idle server ≤ 1% of a core": False,
    }


def test_the_report_puts_both_checkouts_side_by_side_with_the_ratio() -> None:
    results = {
        ("baseline", "sqlite"): measured("baseline", {50: load(50, 150)}, 1000, 3),
        ("current", "sqlite"): measured("current", {50: load(50, 300)}, 1000, 3),
    }
    text = render(results, ["sqlite"], ["baseline", "current"])
    row = next(line for line in text.splitlines() if line.startswith("| sqlite | 50 |"))
    assert row == "| sqlite | 50 | 150 | 20 | 50 | 0 | 300 | 20 | 50 | 0 | 2.00× | 1.00× |"
    assert "| sqlite | idle server, % of a core | 3.0 | 3.0 | 1.00× |" in text


def test_a_process_that_ended_unreaped_counts_as_stopped() -> None:
    # A zombie never reaches the "T" state SIGSTOP gives a live process; waiting for it failed.
    child = subprocess.Popen(["true"])
    try:
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, left unreaped
        stopped(child.pid, timeout=0.5)
    finally:
        child.wait()


def test_serve_env_reaches_the_current_trees_server_only_and_paused_sessions_last(
    tmp_path: Path,
) -> None:
    """`--serve-env NAME=VALUE` is set for this tree's server (its pool size, say) after the
    harness's own variables; a store without it is the baseline's. Either keeps its PostgreSQL
    sessions while frozen (no idle-in-transaction timeout)."""
    opts = options(["--serve-env", "CHRONICLE_POSTGRES_POOL_SIZE=4", "--serve-env", "A=b=c"])
    assert opts.serve_env == [("CHRONICLE_POSTGRES_POOL_SIZE", "4"), ("A", "b=c")]
    plain = Store("postgres", tmp_path, "postgresql://db/x")
    current = replace(plain, extra=tuple(opts.serve_env)).env()
    assert (current["CHRONICLE_POSTGRES_POOL_SIZE"], current["A"]) == ("4", "b=c")
    assert "CHRONICLE_POSTGRES_POOL_SIZE" not in plain.env()
    assert plain.env()["POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT"] == "0"
    with pytest.raises(SystemExit):
        options(["--serve-env", "no-equals-sign"])
