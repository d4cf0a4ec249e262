"""Checkouts to measure (this tree, the baseline commit in a cached worktree), their stores, and their
real `chronicle serve` / `chronicle project` processes."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
BASELINE_COMMIT = "3d1068e"
# Outside the repository and kept between runs: a second run reuses the checkout and its venv.
CACHE = Path(tempfile.gettempdir()) / "chronicle-bench"
POSTGRES_URL = os.environ.get(
    "CHRONICLE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
SQLITE_FILE, VIEWS_FILE = "chronicle.sqlite3", "views.sqlite3"


@dataclass(frozen=True)
class Tree:
    """A checkout of Chronicle and the Python that runs it."""

    name: str
    root: Path
    python: Path


def current_tree() -> Tree:
    return Tree("current", ROOT, Path(sys.executable))


def baseline_tree(commit: str = BASELINE_COMMIT, cache: Path = CACHE) -> Tree:
    """The baseline commit checked out (detached) into a worktree under `cache` with its own venv;
    made once, then reused (a marker file says the install finished)."""
    path = cache / f"baseline-{commit}"
    tree = Tree("baseline", path, path / ".venv" / "bin" / "python")
    if (path / ".bench-ready").exists():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    git = ["git", "-C", str(ROOT)]
    subprocess.run([*git, "worktree", "prune"], check=True)
    if not path.exists():
        subprocess.run([*git, "worktree", "add", "--detach", str(path), commit], check=True)
    print(f"installing the baseline {commit} into {path}/.venv (once; later runs reuse it)")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(path / ".venv")], check=True)
    subprocess.run([str(tree.python), "-m", "pip", "install", "-q", "-e", str(path)], check=True)
    (path / ".bench-ready").write_text(commit + "\n")
    return tree


# ---- stores --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Store:
    """Where one server keeps its log and views: a data directory, and a database on PostgreSQL."""

    backend: str
    data_dir: Path
    database_url: str | None = None
    extra: tuple[tuple[str, str], ...] = ()  # set for this store's server only (`--serve-env`)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
        env["CHRONICLE_DATA_DIR"] = str(self.data_dir)
        if self.database_url:
            env["CHRONICLE_DATABASE_URL"] = self.database_url
        # A frozen server (`paused`) may be inside a transaction: PostgreSQL would end its
        # session after eventsourcing's 5 s, and the server would come back to dead connections.
        env["POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT"] = "0"
        env.update(self.extra)
        return env


@contextmanager
def fresh_store(backend: str) -> Iterator[Store]:
    """An empty store: a temporary directory, and on PostgreSQL a new database dropped after."""
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as data_dir:
        if backend == "sqlite":
            yield Store(backend, Path(data_dir))
            return
        with new_database() as url:
            yield Store(backend, Path(data_dir), url)


@contextmanager
def new_database(template: str | None = None) -> Iterator[str]:
    """A new PostgreSQL database (a copy of `template`, which must have no sessions, if given)."""
    name = f"chronicle_bench_{uuid.uuid4().hex[:12]}"
    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(create)
    try:
        yield f"{POSTGRES_URL.rpartition('/')[0]}/{name}"
    finally:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(drop)


@contextmanager
def log_without_views(store: Store) -> Iterator[Store]:
    """A copy of `store`'s log with no views yet, for a views worker to catch up from zero. The
    server must have stopped (SQLite: its file is complete; PostgreSQL: no session on it)."""
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-copy-") as data_dir:
        copy = Path(data_dir)
        for item in store.data_dir.iterdir():
            if not item.name.startswith(VIEWS_FILE) and item.is_file():
                shutil.copy2(item, copy / item.name)
        if store.database_url is None:
            yield Store(store.backend, copy)
            return
        with new_database(template=store.database_url.rpartition("/")[2]) as url:
            drop_view_tables(url)
            yield Store(store.backend, copy, url)


def drop_view_tables(url: str) -> None:
    """The views are the tables named view*; the log and its snapshots are named after the app."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'view%'"
        ).fetchall()
        for (table,) in tables:
            conn.execute(sql.SQL("DROP TABLE {} CASCADE").format(sql.Identifier(table)))


# ---- processes -----------------------------------------------------------------------------------


@dataclass
class Process:
    """A running `chronicle` subcommand; its output goes to a file, shown if it fails to start."""

    popen: subprocess.Popen[bytes]
    output: Path
    url: str = ""

    @property
    def pid(self) -> int:
        return self.popen.pid

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.output.read_text(errors="replace").splitlines()[-lines:])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def chronicle(tree: Tree, store: Store, *args: str) -> Iterator[Process]:
    """`chronicle <args>` of `tree` on `store`, stopped (SIGTERM, then SIGKILL) on exit."""
    with tempfile.NamedTemporaryFile(prefix="chronicle-bench-", suffix=".log") as output:
        popen = subprocess.Popen(
            [str(tree.python), "-m", "api.cli", *args],
            cwd=tree.root,  # `-m api.cli` imports this tree's code
            env=store.env(),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        process = Process(popen, Path(output.name))
        try:
            yield process
        finally:
            stop(popen)


def stop(popen: subprocess.Popen[bytes]) -> None:
    if popen.poll() is None:
        popen.send_signal(signal.SIGTERM)
        try:
            popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()


@contextmanager
def serving(tree: Tree, store: Store, *extra: str) -> Iterator[Process]:
    """A real `chronicle serve` (views embedded, default logging: as shipped) answering /health."""
    port = free_port()
    with chronicle(tree, store, "serve", "--host", "127.0.0.1", "--port", str(port), *extra) as p:
        p.url = f"http://127.0.0.1:{port}"
        wait_healthy(p)
        yield p


def process_tree(root: int) -> list[int]:
    """`root` and all its descendants (a server's worker processes), from /proc."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile
    tree, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        tree.append(pid)
        frontier.extend(child for child, up in parent.items() if up == pid)
    return tree


@contextmanager
def paused(processes: list[Process]) -> Iterator[None]:
    """Freezes (SIGSTOP) the other servers while one is measured, so that an idle server's timers
    take no CPU from it; they go on (SIGCONT) afterwards."""
    frozen = [pid for p in processes for pid in process_tree(p.pid)]
    for pid in frozen:
        os.kill(pid, signal.SIGSTOP)
    try:
        for pid in frozen:
            stopped(pid)
        yield
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)


# The states of /proc/PID/stat in which a process runs no more: stopped, traced, or ended and not
# yet reaped by its parent (a server's worker that exited: SIGSTOP never turns it into "T", which
# is how pausing a `--workers 4` tree failed).
NOT_RUNNING = ("T", "t", "Z", "X")


def stopped(pid: int, timeout: float = 5.0) -> None:
    """Until the kernel has stopped `pid` (a signal is delivered when the process next runs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            return  # it has ended
        if state in NOT_RUNNING:
            return
        time.sleep(0.001)  # polling the process state
    raise RuntimeError(f"process {pid} did not stop")


def wait_healthy(process: Process, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(
        timeout=2
    ) as client:  # one for every try (a client per try costs a TLS context)
        while time.monotonic() < deadline:
            if process.popen.poll() is not None:
                raise RuntimeError(f"chronicle serve exited:\n{process.tail()}")
            try:
                if client.get(f"{process.url}/health").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
    raise RuntimeError(f"chronicle serve did not answer /health in {timeout} s:\n{process.tail()}")
