"""A real `chronicle serve` (uvicorn) or `chronicle project` worker in a subprocess, for tests that
need real HTTP or several processes on one store."""

from __future__ import annotations

import os
import re
import signal
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn

from api.cli import uvicorn_options
from api.main import create_app
from api.settings import Settings

READY = re.compile(r"Uvicorn running on (http://[\d.]+:\d+)")
WORKER_READY = re.compile(r"chronicle project: keeping the views up to date")

# httpx builds a TLS context for each client (its CA bundle read and parsed: 25 ms of CPU), though
# the servers here speak plain HTTP on loopback; some 270 clients a suite share this one instead.
_TLS = ssl.create_default_context()


def loopback_client(**options: Any) -> httpx.Client:
    """An httpx client for the test servers: `httpx.Client(**options)` without a TLS context of its own."""
    return httpx.Client(verify=_TLS, **options)


@dataclass
class Server:
    url: str
    log: list[str] = field(default_factory=list)  # everything the server wrote to stderr
    pid: int = 0


def _wait_answering(url: str, process: subprocess.Popen[str], timeout: float = 90) -> None:
    """Until /health answers: with --workers, uvicorn says it listens before its workers do."""
    deadline = time.monotonic() + timeout
    # One client (one connection pool) for every try, 50 ms apart.
    with loopback_client(timeout=5) as client:
        while True:
            try:
                client.get(f"{url}/health")
                return
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("chronicle serve did not answer /health") from None
                time.sleep(0.05)


def cli_env(settings: Settings) -> dict[str, str]:
    """The environment a `chronicle` subprocess reads the test's store settings from."""
    env = {**os.environ, "CHRONICLE_DATA_DIR": str(settings.data_dir)}
    env.pop("CHRONICLE_DATABASE_URL", None)
    if settings.database_url:
        env["CHRONICLE_DATABASE_URL"] = settings.database_url
    env["CHRONICLE_PROJECTIONS"] = settings.projections
    # Whatever else the test set (a key shared by replicas, pool sizes, timeouts) holds there too.
    for name in sorted(settings.model_fields_set - {"data_dir", "database_url", "projections"}):
        value = getattr(settings, name)
        env[f"CHRONICLE_{name.upper()}"] = (
            ",".join(value) if isinstance(value, list) else str(value)
        )
    return env


@contextmanager
def running_server(settings: Settings, *extra: str) -> Iterator[Server]:
    """Start the server on a free port (`extra`: more flags of `chronicle serve`); yield its base
    URL once it answers."""
    argv = ["serve", "--host", "127.0.0.1", "--port", "0", *extra]
    with _running(argv, settings, READY) as (match, log, process):
        _wait_answering(match.group(1), process)
        yield Server(match.group(1), log, process.pid)


class _Announcing(uvicorn.Server):
    """uvicorn's server, telling a waiting thread when its start-up is over (ready or failed)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets: Any = None) -> None:
        try:
            await super().startup(sockets)
        finally:
            self.ready.set()


@contextmanager
def serving_here(settings: Settings) -> Iterator[Server]:
    """The app under uvicorn, configured as `chronicle serve` configures it, on a thread of this
    process: a real server on a real socket for the tests that are not about the process (its
    start, its output, its exit). A new interpreter costs seconds of CPU importing the app and
    building its routes, which this process has done already."""
    options = uvicorn_options(settings, "warning") | {"host": "127.0.0.1", "port": 0}
    # The test process's logging is pytest's: uvicorn's logs go to it, not configured anew.
    options["log_config"] = None
    server = _Announcing(uvicorn.Config(create_app(settings), **options))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    server.ready.wait(90)
    try:
        if not server.started:
            raise RuntimeError("the app did not start under uvicorn (its log says why)")
        port = server.servers[0].sockets[0].getsockname()[1]
        yield Server(f"http://127.0.0.1:{port}", pid=os.getpid())
    finally:
        server.should_exit = True  # what uvicorn's SIGTERM handler sets
        thread.join()


@contextmanager
def running_worker(settings: Settings, *extra: str) -> Iterator[list[str]]:
    """Start a `chronicle project` views worker; yield its output once it says it is running."""
    # It says so on stdout: read with its stderr.
    with _running(["project", *extra], settings, WORKER_READY, stdout=True) as (_, log, _):
        yield log


@contextmanager
def all_running(*starts: AbstractContextManager[Any]) -> Iterator[list[Any]]:
    """Several `running_server`s / `running_worker`s started at once and stopped at once: each
    start is seconds of imports in its own process, which need not wait for the others'."""
    with ThreadPoolExecutor(len(starts)) as pool:
        entering = [pool.submit(start.__enter__) for start in starts]
        wait(entering)
        started = [s for s, f in zip(starts, entering, strict=True) if f.exception() is None]
        try:
            yield [future.result() for future in entering]  # raises the first failed start's
        finally:  # the started ones are stopped whatever happened
            for stopping in [pool.submit(start.__exit__, None, None, None) for start in started]:
                stopping.result()


@contextmanager
def _running(
    argv: list[str], settings: Settings, ready: re.Pattern[str], *, stdout: bool = False
) -> Iterator[tuple[re.Match[str], list[str], subprocess.Popen[str]]]:
    env = cli_env(settings)
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", *argv],
        env=env,
        stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
        stderr=subprocess.STDOUT if stdout else subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: what it starts can be killed with it
    )
    output = process.stdout if stdout else process.stderr
    try:
        assert output is not None
        seen: list[str] = []
        for line in output:  # blocks until it logs; ends if the process dies
            seen.append(line)
            match = ready.search(line)
            if match:
                break
        else:
            raise RuntimeError(f"chronicle {argv[0]} did not start:\n" + "".join(seen))
        # Keep draining stderr so that a chatty process never blocks on a full pipe.
        drain = threading.Thread(target=lambda: seen.extend(output), daemon=True)  # type: ignore[arg-type]
        drain.start()
        yield match, seen, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            # a server that does not stop when asked: it, and what it started (`--workers`' own
            # processes, their views process), are killed, so that nothing outlives the test
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
