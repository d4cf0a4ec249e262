"""What is read from outside the server: the log head and the views' position straight from
eventsourcing's tables (the same in both checkouts), CPU from /proc, lag and catch-up from those."""

from __future__ import annotations

import sqlite3
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import httpx
import psycopg

from bench.load.servers import (
    SQLITE_FILE,
    VIEWS_FILE,
    Process,
    Store,
    Tree,
    chronicle,
    process_tree,
)
from bench.load.workload import Target

RAW_READ = Path(__file__).with_name("raw_read.py")

# eventsourcing 9.5's table names: SQLite has fixed names (the views have a file of their own);
# PostgreSQL names them after the application ("Chronicle") and the projection ("views").
SQLITE_HEAD = "SELECT max(rowid) FROM stored_events"
SQLITE_COUNT = "SELECT count(*) FROM stored_events WHERE rowid > ? AND rowid <= ?"
SQLITE_VIEWS = "SELECT max(notification_id) FROM tracking WHERE application_name <> '__migration__'"
PG_HEAD = "SELECT max(notification_id) FROM chronicle_events"
PG_COUNT = (
    "SELECT count(*) FROM chronicle_events WHERE notification_id > %s AND notification_id <= %s"
)
PG_VIEWS = (
    "SELECT max(notification_id) FROM views_tracking WHERE application_name <> '__migration__'"
)


class Positions:
    """Reads the log head and the views' tracking position of one store (0 while a table is
    missing), over connections kept open: the lag probe asks every millisecond."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sqlite: dict[str, sqlite3.Connection] = {}
        self._pg: psycopg.Connection[tuple[int]] | None = None

    def head(self) -> int:
        return self._one(SQLITE_FILE, SQLITE_HEAD, PG_HEAD)

    def views(self) -> int:
        return self._one(VIEWS_FILE, SQLITE_VIEWS, PG_VIEWS)

    def events_between(self, after: int, upto: int) -> int:
        """Events in (after, upto]: positions have gaps on PostgreSQL."""
        return self._one(SQLITE_FILE, SQLITE_COUNT, PG_COUNT, (after, upto))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        for conn in self._sqlite.values():
            conn.close()
        if self._pg is not None:
            self._pg.close()
        self._sqlite, self._pg = {}, None

    def _one(
        self, file: str, sqlite_query: str, pg_query: str, params: tuple[int, ...] = ()
    ) -> int:
        try:
            if self.store.database_url is None:
                row = self._sqlite_conn(file).execute(sqlite_query, params).fetchone()
            else:
                row = self._pg_conn().execute(pg_query, params).fetchone()  # type: ignore[arg-type]
        except (FileNotFoundError, sqlite3.OperationalError, psycopg.errors.UndefinedTable):
            return 0  # not created yet
        return int(row[0] or 0) if row else 0

    def _sqlite_conn(self, file: str) -> sqlite3.Connection:
        if file not in self._sqlite:
            path = self.store.data_dir / file
            if not path.exists():
                raise FileNotFoundError(path)
            self._sqlite[file] = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        return self._sqlite[file]

    def _pg_conn(self) -> psycopg.Connection[tuple[int]]:
        if self._pg is None:
            self._pg = connect_patiently(self.store.database_url or "")
        return self._pg


def connect_patiently(url: str, seconds: float = 60.0) -> psycopg.Connection[tuple[int]]:
    """A connection even while PostgreSQL is full ("too many clients": on a shared machine other
    servers come and go); waits for a free slot rather than failing a ten-minute run."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return psycopg.connect(url, autocommit=True)
        except psycopg.OperationalError as exc:
            if "too many clients" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.5)  # until another session ends


def wait_for_views(positions: Positions, timeout: float = 120.0) -> int:
    """Until the views hold the head of the log as it is now; returns that head."""
    head = positions.head()
    deadline = time.monotonic() + timeout
    while positions.views() < head:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the views did not reach {head} in {timeout} s")
        time.sleep(0.05)  # polling the views' position
    return head


# ---- CPU -----------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and all its descendants (workers included), every thread, from the
    scheduler's nanosecond counters (the tick counters of /proc/PID/stat are 10 ms coarse)."""
    total = 0
    for process in process_tree(pid):
        for task in (Path("/proc") / str(process) / "task").glob("*/schedstat"):
            try:
                total += int(task.read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue  # the thread ended meanwhile
    return total / 1e9


def idle_cpu(pid: int, seconds: float) -> float:
    """Per cent of one core the process tree used over `seconds` with nothing asked of it."""
    before = cpu_seconds(pid)
    time.sleep(seconds)  # the measurement window itself, not synchronisation
    return 100 * (cpu_seconds(pid) - before) / seconds


# ---- commit-to-view lag --------------------------------------------------------------------------


@dataclass
class LagProbe:
    """Polls the views' position in its own thread; a command's lag is the time from its answer
    (with its log position) until the views hold that position."""

    positions: Positions
    pending: list[tuple[int, float]] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def answered(self, position: int) -> None:
        with self.lock:
            self.pending.append((position, time.perf_counter()))

    def run(self, poll: float = 0.001) -> None:
        with self.positions:  # its connections belong to this thread
            while not (self.done.is_set() and not self.pending):
                seen, now = self.positions.views(), time.perf_counter()
                with self.lock:
                    self.lags += [now - at for position, at in self.pending if position <= seen]
                    self.pending = [(p, at) for p, at in self.pending if p > seen]
                time.sleep(poll)  # the probe's sampling interval


def steady_rolls(
    url: str, targets: list[Target], rate: float, seconds: float, answered: Callable[[int], None]
) -> None:
    """One client sending rolls at `rate` per second, round-robin over the campaigns."""
    with httpx.Client(base_url=url, timeout=60) as client:
        started = time.perf_counter()
        for n in range(int(rate * seconds)):
            time.sleep(max(0.0, started + n / rate - time.perf_counter()))  # the schedule
            target = targets[n % len(targets)]
            headers = {"Authorization": f"Bearer {target.token}"}
            response = client.post(target.path, json=target.body, headers=headers)
            if response.status_code != 201:
                raise RuntimeError(f"roll failed: {response.status_code} {response.text[:300]}")
            answered(int(response.json()["position"]))


@dataclass(frozen=True)
class Lag:
    samples: int
    p50: float
    p99: float


def lag(server: Process, store: Store, targets: list[Target], rate: float, seconds: float) -> Lag:
    probe = LagProbe(Positions(store))
    thread = threading.Thread(target=probe.run, name="lag-probe", daemon=True)
    thread.start()
    try:
        steady_rolls(server.url, targets, rate, seconds, probe.answered)
    finally:
        probe.done.set()
        thread.join(timeout=60)
    if probe.pending or not probe.lags:
        raise RuntimeError(f"{len(probe.pending)} positions never reached the views")
    return Lag(len(probe.lags), quantile(probe.lags, 0.50), quantile(probe.lags, 0.99))


def quantile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


# ---- catch-up ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CatchUp:
    events: int  # events the worker applied while it was timed
    rate: float  # of the views worker, events/s
    raw: float  # reading and decoding the same log, events/s

    @property
    def ratio(self) -> float:
        return self.rate / self.raw


def catch_up(tree: Tree, store: Store, seconds: float = 20.0, timeout: float = 300.0) -> CatchUp:
    """A `chronicle project` worker of `tree` builds the views of `store` (which has none) from
    zero. Its rate is timed from its first tracking write (start-up left out) until it reaches the
    head, or for `seconds` at most (a slow worker on a long log: the rate so far)."""
    with Positions(store) as positions:
        head = positions.head()
        with chronicle(tree, store, "project") as worker:
            first, first_at = _first_progress(positions, worker, timeout)
            while (reached := positions.views()) < head:
                if time.perf_counter() - first_at > seconds:
                    break
                _check_alive(worker, first_at + timeout)
                time.sleep(0.002)  # the sampling interval
            elapsed = time.perf_counter() - first_at
        # A log so short that the first write seen is the head gives no interval to time: 0 events.
        events = positions.events_between(first, reached)
    return CatchUp(events, events / elapsed if events else 0.0, raw_read(tree, store))


def _first_progress(positions: Positions, worker: Process, timeout: float) -> tuple[int, float]:
    deadline = time.perf_counter() + timeout
    while (seen := positions.views()) == 0:
        _check_alive(worker, deadline)
        time.sleep(0.002)
    return seen, time.perf_counter()


def _check_alive(worker: Process, deadline: float) -> None:
    if worker.popen.poll() is not None:
        raise RuntimeError(f"chronicle project exited:\n{worker.tail()}")
    if time.perf_counter() > deadline:
        raise RuntimeError(f"chronicle project did not catch up in time:\n{worker.tail()}")


def raw_read(tree: Tree, store: Store) -> float:
    """Events/s of reading the whole log in pages of 500 and decoding each event, in `tree`'s own
    code (its aggregates and transcoder), best of three."""
    done = subprocess.run(
        [str(tree.python), str(RAW_READ)],
        cwd=tree.root,
        env=store.env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"raw read failed:\n{done.stderr[-3000:]}")
    return float(done.stdout.split()[-1])
