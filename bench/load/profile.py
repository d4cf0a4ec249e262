"""Where a server's time goes under the roll load: py-spy samples every thread of the real process
(the event loop, the route threads, the views runner) while wrk runs, and the collapsed stacks are
summed up per function (the share of busy samples whose stack holds it)."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.load.servers import Process
from bench.load.workload import Load, wrk

OURS = {"api", "domain", "projections", "systems", "eventsourcing"}
FRAME = re.compile(r"^(?P<function>.+) \((?P<file>[^()]*?)(?::\d+)?\)$")


@dataclass(frozen=True)
class Samples:
    total: int  # busy samples
    inclusive: list[tuple[str, float]]  # (function, share of samples), largest first
    own: list[tuple[str, float]]  # where the samples' innermost frame was
    ours: frozenset[str]  # functions of the checkout and of eventsourcing (not stdlib, not ASGI)


@dataclass(frozen=True)
class Profile:
    samples: Samples
    load: Load


def profile(server: Process, targets: Path, connections: int, seconds: float, raw: Path) -> Profile:
    """Samples `server` (and its worker processes) for `seconds` while wrk rolls at `targets`."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise RuntimeError("py-spy is not installed (pip install -e '.[dev]')")
    command = [spy, "record", "--pid", str(server.pid), "--duration", str(max(1, round(seconds)))]
    # --nonblocking: the server is not paused for each sample, so it runs at its own pace.
    command += ["--rate", "250", "--nonblocking", "--subprocesses"]
    command += ["--format", "raw", "--output", str(raw)]
    recorder = threading.Thread(
        target=subprocess.run, args=(command,), kwargs={"capture_output": True}
    )
    recorder.start()
    load = wrk(server.url, connections, seconds, targets)
    recorder.join(timeout=seconds + 60)
    return Profile(summarize(raw.read_text()), load)


# A thread whose innermost frame is one of these is waiting, not working: left out of "busy".
WAITING = {
    "Condition.wait (threading.py)",
    "Event.wait (threading.py)",
    "Queue.get (queue.py)",
    "EpollSelector.select (selectors.py)",
    "Thread.join (threading.py)",
    "sleep (time.py)",
}


def summarize(collapsed: str) -> Samples:
    """From py-spy's raw output ("frame;frame;... count" a line): per function the share of busy
    samples whose stack holds it and whose innermost frame it is."""
    total, holding, innermost, ours = 0, Counter[str](), Counter[str](), set[str]()
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        raw = [f.strip() for f in stack.split(";") if not f.startswith("process ")]
        frames = [name(f) for f in raw]
        if not frames or frames[-1] in WAITING:
            continue
        total += int(count)
        for function in set(frames):
            holding[function] += int(count)
        innermost[frames[-1]] += int(count)
        ours.update(n for n, f in zip(frames, raw, strict=True) if is_ours(f))
    return Samples(total, _shares(holding, total), _shares(innermost, total), frozenset(ours))


def is_ours(frame: str) -> bool:
    """The checkout's own code and eventsourcing's: where a change of ours can save time. py-spy
    names a file by its path below the import root (`domain/rolls.py`, `eventsourcing/sqlite.py`,
    `threading.py`), so the first part of the path tells the package."""
    match = FRAME.match(frame)
    return match is not None and match["file"].split("/")[0] in OURS


def _shares(counts: Counter[str], total: int) -> list[tuple[str, float]]:
    return [(f, n / total) for f, n in counts.most_common()] if total else []


def name(frame: str) -> str:
    """`function (domain/rolls.py:12)` → `function (domain/rolls.py)`: a function's lines add up."""
    match = FRAME.match(frame.strip())
    if match is None:
        return frame.strip()
    return f"{match['function']} ({match['file']})"


def profile_lines(p: Profile, top: int = 30) -> list[str]:
    s = p.samples
    lines = [
        (
            f"{s.total} busy samples while wrk made {p.load.rate:,.0f} rolls/s at "
            f"{p.load.connections} connections (py-spy slows the server: read shares, not rates)"
        ),
        "",
        "| share of busy samples | function of the checkout or eventsourcing (inclusive) |",
        "|---:|---|",
    ]
    lines += [f"| {v:.1%} | `{f}` |" for f, v in [i for i in s.inclusive if i[0] in s.ours][:top]]
    lines += ["", "| share | innermost frame (own time), any code |", "|---:|---|"]
    lines += [f"| {v:.1%} | `{f}` |" for f, v in s.own[: top // 2]]
    return lines
