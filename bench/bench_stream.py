"""Stream lag: time from a command's response to its entry arriving at each of 50 stream subscribers,
against one subscriber as the baseline, same run and backend, real server.

Run: .venv/bin/python bench/bench_stream.py [--subscribers 50] [--rate 25] [--seconds 6]
(PostgreSQL at CHRONICLE_TEST_POSTGRES_URL too). The writer advances a scene's page at a steady rate.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import store_settings
from tests.server import running_server


class Scene:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        created = client.post("/v1/campaigns", json={"name": "Bench", "ruleset": "wcbh"}).json()
        self.campaign_id, token = created["id"], created["gm_token"]
        self.headers = {"Authorization": f"Bearer {token}"}
        story = self._post(f"/v1/campaigns/{self.campaign_id}/stories", {"title": "S"})
        issue = self._post(f"/v1/stories/{story['id']}/issues", {"title": "I"})
        self.id = self._post(f"/v1/issues/{issue['id']}/scenes", {"title": "Sc"})["id"]

    def _post(self, path: str, body: object = None) -> dict[str, object]:
        response = self.client.post(path, json=body, headers=self.headers)
        response.raise_for_status()
        return response.json()  # type: ignore[no-any-return]

    def advance(self) -> int:
        return int(self._post(f"/v1/scenes/{self.id}/pages")["position"])  # type: ignore[call-overload]


def write(scene: Scene, rate: float, seconds: float, answered: dict[int, float]) -> None:
    """Commands at a steady rate; records when each answer (with its log position) came back."""
    started = time.perf_counter()
    for i in range(int(rate * seconds)):
        delay = started + i / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        position = scene.advance()
        answered[position] = time.perf_counter()


async def subscribe(
    client: httpx.AsyncClient,
    scene: Scene,
    after: int,
    arrived: dict[int, float],
    ready: asyncio.Semaphore,
    done: asyncio.Event,
) -> None:
    url = f"/v1/campaigns/{scene.campaign_id}/stream"
    async with client.stream(
        "GET", url, params={"after": after}, headers=scene.headers
    ) as response:
        response.raise_for_status()
        ready.release()
        async for line in response.aiter_lines():
            if line.startswith("id: "):
                arrived[int(line[4:])] = time.perf_counter()
            if done.is_set():
                return


async def measure(url: str, subscribers: int, rate: float, seconds: float) -> list[float]:
    """Lags in seconds, one per (entry, subscriber)."""
    limits = httpx.Limits(max_connections=subscribers + 1)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        with httpx.Client(base_url=url, timeout=30) as sync_client:
            scene = Scene(sync_client)
            after = scene.advance()
            answered: dict[int, float] = {}
            arrived: list[dict[int, float]] = [{} for _ in range(subscribers)]
            ready, done = asyncio.Semaphore(0), asyncio.Event()
            tasks = [
                asyncio.create_task(subscribe(client, scene, after, seen, ready, done))
                for seen in arrived
            ]
            for _ in tasks:
                await asyncio.wait_for(ready.acquire(), 30)
            writer = threading.Thread(target=write, args=(scene, rate, seconds, answered))
            writer.start()
            await asyncio.to_thread(writer.join)
            last = max(answered)
            deadline = time.perf_counter() + 10
            while any(last not in seen for seen in arrived) and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
            done.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    missing = sum(p not in seen for seen in arrived for p in answered)
    if missing:
        raise RuntimeError(f"{missing} entries never reached their subscriber")
    return [seen[p] - t for seen in arrived for p, t in answered.items()]


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--subscribers", type=int, default=50)
    parser.add_argument("--rate", type=float, default=25.0, help="commands per second")
    parser.add_argument("--seconds", type=float, default=6.0, help="per measurement")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    args = parser.parse_args()
    print(f"writer: {args.rate:g} commands/s for {args.seconds:g} s; lag = command answer → entry")
    print(
        f"{'backend':10} {'subscribers':>11} {'samples':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    )
    for backend in args.backends:
        with (
            tempfile.TemporaryDirectory() as data_dir,
            store_settings(backend, Path(data_dir)) as settings,
            running_server(settings) as server,
        ):
            for subscribers in (1, args.subscribers):
                lags = asyncio.run(measure(server.url, subscribers, args.rate, args.seconds))
                print(
                    f"{backend:10} {subscribers:11} {len(lags):8} {quantile(lags, 0.5) * 1e3:8.1f} "
                    f"{quantile(lags, 0.99) * 1e3:8.1f} {max(lags) * 1e3:8.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
