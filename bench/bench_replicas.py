"""How far one PostgreSQL database goes: rolls/s with 1, 2 and 3 `chronicle serve` processes on it.

Run: .venv/bin/python bench/bench_replicas.py [--campaigns 40] [--connections 48] [--seconds 10]
     [--rounds 3]
(PostgreSQL at CHRONICLE_TEST_POSTGRES_URL; wrk from Debian.) Three replicas (views external) and
one `chronicle project` worker start on a fresh database; each round runs wrk against the first
1, 2 or 3 replicas at once, the same total connections split between them, every request a trait
check in the next of the seeded campaigns' open scenes. The ratios to one replica, measured in the
same run, are what to compare between runs (the machine is shared: absolute figures are noisy;
each figure is the median of the interleaved rounds).
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.settings import Settings
from tests.api.support import Table
from tests.api.test_rolls import Dice
from tests.conftest import temporary_database
from tests.server import Server, running_server, running_worker

WRK_SCRIPT = """
local targets = %s
local next_one = 0
local threads = 0
-- Each wrk thread starts at its own place in the round, so they do not all roll in one scene.
function setup(thread) thread:set("offset", threads * 7); threads = threads + 1 end
function init(args) next_one = (offset or 0) %% #targets end
function request()
  next_one = next_one %% #targets + 1
  local t = targets[next_one]
  return wrk.format("POST", t.path, {["Content-Type"] = "application/json",
                                     ["Authorization"] = "Bearer " .. t.token}, t.body)
end
"""


def seed(url: str, campaigns: int) -> list[dict[str, str]]:
    """Campaigns with a hero and an open scene; one roll target per campaign."""

    def one(_: int) -> dict[str, str]:
        with httpx.Client(base_url=url, timeout=60) as client:
            dice = Dice(Table(client))  # type: ignore[arg-type]
            body = {"check": dice.check, "request": dice.example, "character_id": dice.hero}
            return {
                "path": f"/v1/scenes/{dice.scene}/rolls",
                "body": json.dumps(body),
                "token": dice.table.gm,
            }

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(campaigns)))


def wrk(url: str, script: Path, connections: int, seconds: int) -> subprocess.Popen[str]:
    threads = max(1, min(2, connections))
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    return subprocess.Popen([*argv, "-s", str(script), url], stdout=subprocess.PIPE, text=True)


def parse(output: str) -> tuple[float, float, float, int]:
    """Requests/s, p50 and p99 in ms, and the non-2xx count of one wrk report."""

    def ms(label: str) -> float:
        match = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)\b", output)
        assert match is not None, output
        return float(match.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[match.group(2)]

    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    assert rate is not None, output
    return float(rate.group(1)), ms("50"), ms("99"), int(errors.group(1)) if errors else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, default=40)
    parser.add_argument("--connections", type=int, default=48)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="each layout this often, interleaved")
    args = parser.parse_args()
    key = secrets.token_hex(32)
    # The database outlives the processes on it (it is dropped last).
    with temporary_database() as url, ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory()))

        def settings(name: str) -> Settings:
            (work / name).mkdir()
            return Settings(
                data_dir=work / name,
                database_url=url,
                secret_key=key,
                projections="external",
                postgres_connect_timeout=15,
                # 4 + 4 for the log, per process: three replicas and the worker stay well inside
                # PostgreSQL's default 100 connections (the table lock serialises writes anyway).
                postgres_pool_size=4,
            )

        servers = [stack.enter_context(running_server(settings(f"r{i}"))) for i in range(3)]
        stack.enter_context(running_worker(settings("worker")))
        targets = seed(servers[0].url, args.campaigns)
        script = work / "rolls.lua"
        script.write_text(WRK_SCRIPT % lua_table(targets))
        print(
            f"{'replicas':>8} {'rolls/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} {'non-2xx':>7}"
        )
        rates: dict[int, list[tuple[float, float, float, int]]] = {1: [], 2: [], 3: []}
        for _ in range(args.rounds):  # interleaved, so that a noisy minute hits every layout
            for replicas, rounds in rates.items():
                rounds.append(round_of(servers[:replicas], script, args))
        first = statistics.median(r[0] for r in rates[1])
        for replicas, rounds in rates.items():
            rate = statistics.median(r[0] for r in rounds)
            p50 = statistics.median(r[1] for r in rounds)
            p99 = statistics.median(r[2] for r in rounds)
            errors = sum(r[3] for r in rounds)
            print(f"{replicas:8} {rate:8.0f} {rate / first:6.2f} {p50:7.0f} {p99:7.0f} {errors:7}")


def round_of(
    servers: list[Server], script: Path, args: argparse.Namespace
) -> tuple[float, float, float, int]:
    """One wrk run against each of `servers` at once: total rolls/s, worst p50 and p99, non-2xx."""
    each = args.connections // len(servers)
    runs = [wrk(s.url, script, each, args.seconds) for s in servers]
    reports = [parse(run.communicate()[0]) for run in runs]
    return (
        sum(r[0] for r in reports),
        max(r[1] for r in reports),
        max(r[2] for r in reports),
        sum(r[3] for r in reports),
    )


def lua_table(targets: list[dict[str, str]]) -> str:
    """The targets as a Lua table (JSON strings of ASCII are Lua string literals too)."""
    rows = ("{" + ", ".join(f"{k}={json.dumps(v)}" for k, v in t.items()) + "}" for t in targets)
    return "{" + ",\n".join(rows) + "}"


if __name__ == "__main__":
    main()
