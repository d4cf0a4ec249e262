"""The workload: WCBH campaigns seeded through the API, and `wrk` driving trait checks at them."""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

LUA = Path(__file__).with_name("rolls.lua")


@dataclass(frozen=True)
class Target:
    """One seeded campaign: the GM's token, the hero, its open scene and the roll to send there."""

    token: str
    scene_id: str
    body: dict[str, Any]

    @property
    def path(self) -> str:
        return f"/v1/scenes/{self.scene_id}/rolls"


class Seeder:
    """Creates campaigns the way a front end does: campaign, hero, story, game Issue, scene."""

    def __init__(self, url: str) -> None:
        self.url = url
        described = _ok(httpx.get(f"{url}/v1/rulesets/wcbh", timeout=30))
        self.sheet = described["example_sheet"]
        trait = next(c for c in described["checks"] if c["name"] == "trait")
        self.check = {"check": "trait", "request": trait["example"]}

    def campaign(self, n: int) -> Target:
        with httpx.Client(base_url=self.url, timeout=60) as client:
            created = _ok(
                client.post("/v1/campaigns", json={"name": f"Bench {n}", "ruleset": "wcbh"})
            )
            campaign, token = created["id"], created["gm_token"]
            client.headers["Authorization"] = f"Bearer {token}"
            hero = {"name": f"Nova {n}", "side": "hero", "sheet": self.sheet}
            hero_id = _ok(client.post(f"/v1/campaigns/{campaign}/characters", json=hero))["id"]
            story = _ok(client.post(f"/v1/campaigns/{campaign}/stories", json={"title": "Bench"}))
            issue = _ok(client.post(f"/v1/stories/{story['id']}/issues", json={"title": "Bench"}))
            scene = _ok(client.post(f"/v1/issues/{issue['id']}/scenes", json={"title": "Bench"}))
        return Target(token, scene["id"], {**self.check, "character_id": hero_id})


def seed(url: str, campaigns: int, threads: int = 4) -> list[Target]:
    seeder = Seeder(url)
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(seeder.campaign, range(campaigns)))


def _ok(response: httpx.Response) -> Any:
    if response.status_code not in (200, 201):
        raise RuntimeError(
            f"{response.request.method} {response.request.url.path}: "
            f"{response.status_code} {response.text[:500]}"
        )
    return response.json()


def write_targets(targets: list[Target], path: Path) -> Path:
    """The file rolls.lua reads: path, token and JSON body, tab-separated, one campaign a line."""
    lines = (f"{t.path}\t{t.token}\t{json.dumps(t.body, separators=(',', ':'))}" for t in targets)
    path.write_text("\n".join(lines) + "\n")
    return path


# ---- wrk -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """What one wrk run measured; latencies in seconds."""

    connections: int
    seconds: float
    requests: int
    errors: int  # non-2xx answers, socket errors and timeouts
    mean: float
    p50: float
    p99: float

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return max(0, self.requests - self.errors) / self.seconds


def wrk(url: str, connections: int, seconds: float, targets: Path | None = None) -> Load:
    """`wrk` with one thread (the server needs the other core more) at `connections` connections:
    rolls at the campaigns in `targets`, or a plain GET of `url`, for `seconds` (rounded to whole
    seconds, as wrk takes them). Timeouts are generous so that a
    slow server's tail is measured, not cut off."""
    binary = shutil.which("wrk")
    if binary is None:
        raise RuntimeError("wrk is not installed (Debian: apt-get install wrk)")
    whole = max(1, round(seconds))  # wrk takes whole seconds
    command = [binary, "-t1", f"-c{connections}", f"-d{whole}s", "--timeout", "30s"]
    command += ["-s", str(LUA), url]
    if targets is not None:
        command += ["--", str(targets)]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=seconds + 120
    )
    return parse_wrk(done.stdout + done.stderr, connections)


def parse_wrk(output: str, connections: int) -> Load:
    line = next((ln for ln in output.splitlines() if ln.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no result:\n{output}")
    r = json.loads(line[len("BENCH ") :])
    errors = r["status"] + r["connect"] + r["read"] + r["write"] + r["timeout"]
    return Load(
        connections=connections,
        seconds=r["duration_us"] / 1e6,
        requests=r["requests"],
        errors=errors,
        mean=r["mean_us"] / 1e6,
        p50=r["p50_us"] / 1e6,
        p99=r["p99_us"] / 1e6,
    )
