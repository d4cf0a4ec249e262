"""A real `chronicle serve` (uvicorn) in a subprocess, for tests that need real HTTP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from api.settings import Settings

READY = re.compile(r"Uvicorn running on (http://[\d.]+:\d+)")


@dataclass
class Server:
    url: str
    log: list[str] = field(default_factory=list)  # everything the server wrote to stderr


def cli_env(settings: Settings) -> dict[str, str]:
    """The environment a `chronicle` subprocess reads the test's store settings from."""
    env = {**os.environ, "CHRONICLE_DATA_DIR": str(settings.data_dir)}
    env.pop("CHRONICLE_DATABASE_URL", None)
    if settings.database_url:
        env["CHRONICLE_DATABASE_URL"] = settings.database_url
    env["CHRONICLE_PROJECTIONS"] = settings.projections
    return env


@contextmanager
def running_server(settings: Settings) -> Iterator[Server]:
    """Start the server on a free port; yield its base URL once uvicorn says it is listening."""
    env = cli_env(settings)
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
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
        server = Server(match.group(1), seen)
        # Keep draining stderr so that a chatty server never blocks on a full pipe.
        drain = threading.Thread(target=lambda: seen.extend(process.stderr), daemon=True)  # type: ignore[arg-type]
        drain.start()
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
