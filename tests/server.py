"""A real `chronicle serve` (uvicorn) in a subprocess, for tests that need real HTTP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx

from api.settings import Settings

READY = re.compile(r"Uvicorn running on (http://[\d.]+:\d+)")


@dataclass
class Server:
    url: str
    log: list[str] = field(default_factory=list)  # everything the server wrote to stderr
    pid: int = 0


def _wait_answering(url: str, process: subprocess.Popen[str], timeout: float = 90) -> None:
    """Until /health answers: with --workers, uvicorn says it listens before its workers do."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(f"{url}/health", timeout=5)
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
    return env


@contextmanager
def running_server(settings: Settings, *extra: str) -> Iterator[Server]:
    """Start the server on a free port (`extra`: more flags of `chronicle serve`); yield its base
    URL once uvicorn says it is listening."""
    env = cli_env(settings)
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", "0", *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:  # blocks until uvicorn logs; ends if the process dies
            seen.append(line)
            match = READY.search(line)
            if match:
                break
        else:
            raise RuntimeError("chronicle serve did not start:\n" + "".join(seen))
        server = Server(match.group(1), seen, process.pid)
        # Keep draining stderr so that a chatty server never blocks on a full pipe.
        drain = threading.Thread(target=lambda: seen.extend(process.stderr), daemon=True)  # type: ignore[arg-type]
        drain.start()
        _wait_answering(server.url, process)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
