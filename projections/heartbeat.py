"""The views worker's liveness, for a container healthcheck (it has no HTTP port):
`chronicle project --heartbeat FILE` touches FILE while its views runner runs, and
`python -m projections.heartbeat FILE` exits 0 while FILE is fresh, 1 once it is stale or missing."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from threading import Event, Thread

BEAT_SECONDS = 5.0
# Six missed beats: a runner restarting after an error (half a second) or a long page of views
# work is no failure; a runner that cannot reach the database for half a minute is.
STALE_SECONDS = 30.0


class Heartbeat:
    """Touches `path` every `every` seconds while `alive()` says the runner runs."""

    def __init__(self, path: Path, alive: Callable[[], bool], every: float = BEAT_SECONDS) -> None:
        self.path, self.alive, self.every = path, alive, every
        self.stopping = Event()
        self._thread = Thread(target=self._run, name="views-heartbeat", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def beat(self) -> bool:
        """One beat if the runner is alive; whether it was."""
        if not self.alive():
            return False
        self.path.touch()
        os.utime(self.path)  # touch() keeps an existing file's time on some filesystems
        return True

    def _run(self) -> None:
        while not self.stopping.is_set():
            # Until the runner is up (it connects first), look again soon: the first beat says
            # the worker is healthy as soon as it is.
            self.stopping.wait(self.every if self.beat() else min(self.every, 0.2))

    def stop(self) -> None:
        self.stopping.set()
        self._thread.join(timeout=self.every + 1)


def fresh(path: Path, max_age: float = STALE_SECONDS, now: float | None = None) -> bool:
    try:
        beaten = path.stat().st_mtime
    except FileNotFoundError:
        return False
    return (time.time() if now is None else now) - beaten <= max_age


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m projections.heartbeat", description=__doc__)
    parser.add_argument("file", type=Path, help="the file `chronicle project --heartbeat` touches")
    parser.add_argument("--max-age", type=float, default=STALE_SECONDS, help="seconds (default 30)")
    args = parser.parse_args(argv)
    if fresh(args.file, args.max_age):
        return 0
    print(f"no heartbeat in {args.file} for {args.max_age:g} s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
