"""The views under load: catch-up rate, commit-to-view lag and API write throughput, per backend.

Run: .venv/bin/python bench/bench_projections.py [--backend sqlite|postgres|both]
(PostgreSQL at CHRONICLE_TEST_POSTGRES_URL). Every figure is printed beside a baseline measured in
the same run on the same backend; the ratios are what to compare between runs:
- catch-up: events/s a fresh Supervisor applies over a pre-written log (from its first commit), and
  events/s of `chronicle projections rebuild`'s work, against reading and decoding the same
  notifications (pages of 500); best of --rounds turns of all three (target: 25%);
- lag: time from a command returning its position until the views have applied it, at a steady
  load, p50 and p99 (targets 20 ms and 100 ms);
- writes: page advances/s through a real server with 50 concurrent clients, against raw
  `app.save` of one small event (one thread, and 50 threads).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from uuid import UUID

import httpx
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.main import build_application
from api.settings import Settings
from domain.aggregates import Scene
from domain.application import Chronicle, CommandContext, TokenMinted
from domain.requests import (
    CampaignCreate,
    CharacterCreate,
    IssueCreate,
    RollCreate,
    SceneCreate,
    StoryCreate,
)
from domain.rulesets import get_ruleset
from projections.rebuild import rebuild
from projections.runner import Supervisor, ViewReader, open_view_store, views_env
from projections.store import ViewStore
from tests.conftest import store_settings
from tests.server import running_server

LAG_TARGETS = {"p50": 0.020, "p99": 0.100}
CATCH_UP_TARGET = 0.25  # of raw read+decode of the same log (issue #17)
PARTS = ("catch-up", "lag", "writes")


class Tick(Aggregate):
    @event("Ticked")
    def tick(self) -> None:
        pass


# ---- a campaign to write into --------------------------------------------------------------------


class Game:
    """A campaign with a GM, a hero and a game Issue, driven through the application's verbs."""

    def __init__(self, app: Chronicle) -> None:
        self.app = app
        created = app.create_campaign(
            CommandContext(None), CampaignCreate(name="Bench", ruleset="wcbh")
        )
        self.gm_token = created.result_as(TokenMinted).token
        self.gm = CommandContext(app.authenticate(self.gm_token))
        self.campaign_id: UUID = created.aggregate.id
        rules = get_ruleset("wcbh")
        sheet = rules.describe()["example_sheet"]
        hero = CharacterCreate(name="Nova", side="hero", sheet=sheet)
        self.hero = app.create_character(self.gm, self.campaign_id, hero)
        check = rules.describe()["checks"][0]
        self.check = RollCreate(
            check=check["name"], request=check["example"], character_id=self.hero.aggregate.id
        )
        self.story_id = app.start_story(
            self.gm, self.campaign_id, StoryCreate(title="Bench")
        ).aggregate.id
        self.issue_id = app.start_issue(
            self.gm, self.story_id, IssueCreate(title="Bench")
        ).aggregate.id

    def scene(self) -> UUID:
        body = SceneCreate(title="Bench")
        return self.app.open_scene(self.gm, self.issue_id, body).aggregate.id  # type: ignore[no-any-return]

    def roll(self, scene_id: UUID) -> int:
        return self.app.roll(self.gm, scene_id, self.check).position


def prewrite(app: Chronicle, events: int) -> int:
    """About `events` events: scenes with a few rolls each (commands) and many page advances
    (saved fifty at a time, which is what makes writing the log quick). Returns the head."""
    game = Game(app)
    per_scene = 250
    for _ in range(max(1, events // per_scene)):
        scene_id = game.scene()
        for _ in range(5):
            game.roll(scene_id)
        scene: Scene = app.repository.get(scene_id)
        for n in range(per_scene - 20):
            scene.advance_page()
            if n % 50 == 49:
                app.save(scene)
        app.save(scene)
    return app.recorder.max_notification_id() or 0


# ---- 1. catch-up -----------------------------------------------------------------------------------


def read_rate(app: Chronicle, head: int) -> float:
    started = time.perf_counter()
    start, decoded = 1, 0
    while True:
        page = app.recorder.select_notifications(start=start, limit=500)
        for notification in page:
            app.mapper.to_domain_event(notification)
        decoded += len(page)
        if len(page) < 500:
            break
        start = page[-1].id + 1
    assert decoded and page[-1].id == head
    return decoded / (time.perf_counter() - started)


def catch_up(settings: Settings, events: int, rounds: int) -> dict[str, float]:
    """Rates over the same log, best of `rounds` each, measured in turns (the machine is shared:
    a burst of load then hurts each about as much): raw read+decode, a rebuild (pages of 500
    events, each its own transaction) and a fresh runner's catch-up (from its first commit, so
    the start of the process is left out)."""
    env = settings.eventsourcing_env()
    app = build_application(settings)
    head = prewrite(app, events)
    count = len_log(app)
    raw, rebuilt, runner = [], [], []
    try:
        for _ in range(rounds):
            raw.append(read_rate(app, head))
            started = time.perf_counter()
            rebuild(env)
            rebuilt.append(count / (time.perf_counter() - started))
            runner.append(runner_rate(env, head, count))
    finally:
        app.close()
    return {"events": count, "raw": max(raw), "rebuild": max(rebuilt), "applied": max(runner)}


def runner_rate(env: dict[str, str], head: int, count: int) -> float:
    """Events/s a fresh Supervisor applies to emptied views, from its first commit to the head
    (the process start left out): the catch-up of a new projection worker."""
    live = open_view_store(views_env(env))
    live.clear()
    reader = ViewReader(live)
    supervisor = Supervisor(env).start()
    try:
        while reader.position() == 0:
            time.sleep(0.001)
        started, first = time.perf_counter(), reader.position()
        if not reader.wait(head, timeout=600):
            raise RuntimeError("the views did not catch up")
        elapsed = time.perf_counter() - started
    finally:
        supervisor.stop()
        live.datastore.close()  # type: ignore[attr-defined]
    return count * (head - first) / head / elapsed


def len_log(app: Chronicle) -> int:
    return len(app.recorder.select_notifications(start=1, limit=1_000_000))


# ---- 2. commit-to-view lag -----------------------------------------------------------------------


class LagProbe:
    """Polls the views' tracking in its own thread; the lag of a position is the time from the
    command returning it until `has_tracking_id` says the views hold it."""

    def __init__(self, store: ViewStore) -> None:
        self.store = store
        self.pending: deque[tuple[int, float]] = deque()
        self.lags: list[float] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, name="lag-probe")

    def committed(self, position: int) -> None:
        self.pending.append((position, time.perf_counter()))

    def run(self) -> None:
        while not (self.done.is_set() and not self.pending):
            if not self.pending:
                time.sleep(0.0002)
                continue
            position, committed_at = self.pending[0]
            if self.store.has_tracking_id(ViewStore.application_name, position):
                self.lags.append(time.perf_counter() - committed_at)
                self.pending.popleft()
            else:
                time.sleep(0.0002)


def lag(settings: Settings, rate: float, seconds: float) -> dict[str, float]:
    env = settings.eventsourcing_env()
    app = build_application(settings)
    game = Game(app)
    store = open_view_store(views_env(env))
    supervisor = Supervisor(env).start()
    probe = LagProbe(store)
    try:
        if not ViewReader(store).wait(app.recorder.max_notification_id(), timeout=30):
            raise RuntimeError("the views did not catch up before the load")
        probe.thread.start()
        commands = int(rate * seconds)
        started = time.perf_counter()
        scene_id = game.scene()
        for n in range(commands):
            time.sleep(max(0.0, started + n / rate - time.perf_counter()))
            if n % 25 == 24:
                scene_id = game.scene()  # short scene streams, as at a real table
                probe.committed(app.recorder.max_notification_id() or 0)
            elif n % 5 == 0:
                probe.committed(game.roll(scene_id))
            else:
                probe.committed(game.app.advance_page(game.gm, scene_id).position)
        achieved = commands / (time.perf_counter() - started)
        probe.done.set()
        probe.thread.join(timeout=60)
    finally:
        probe.done.set()
        supervisor.stop()
        store.datastore.close()  # type: ignore[attr-defined]
        app.close()
    ordered = sorted(probe.lags)
    return {
        "rate": achieved,
        "p50": statistics.median(ordered),
        "p99": ordered[int(len(ordered) * 0.99) - 1],
        "max": ordered[-1],
        "restarts": supervisor.restarts,
    }


# ---- 3. write throughput through the API ---------------------------------------------------------


def threaded(clients: int, work: Callable[[int], int]) -> float:
    """Operations per second of `clients` threads each running `work(i)` (which returns its count)."""
    with ThreadPoolExecutor(clients) as pool:
        started = time.perf_counter()
        done = sum(pool.map(work, range(clients)))
        return done / (time.perf_counter() - started)


def api_writes(settings: Settings, clients: int, per_client: int) -> dict[str, float]:
    app = build_application(settings)
    try:
        game = Game(app)
        scenes = [game.scene() for _ in range(clients)]
        started = time.perf_counter()
        for _ in range(per_client * clients // 10):
            app.save(Tick())
        raw_one = per_client * clients // 10 / (time.perf_counter() - started)

        def raw_save(_: int) -> int:
            for _ in range(per_client):
                app.save(Tick())
            return per_client

        raw_many = threaded(clients, raw_save)
        token = game.gm_token
    finally:
        app.close()
    with running_server(settings) as server:
        errors: list[str] = []

        def advance_pages(i: int) -> int:
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=server.url, headers=headers, timeout=60) as client:
                for _ in range(per_client):
                    response = client.post(f"/v1/scenes/{scenes[i]}/pages")
                    if response.status_code != 200:
                        errors.append(response.text)
            return per_client

        api = threaded(clients, advance_pages)
    if errors:
        raise RuntimeError(f"{len(errors)} failed commands, e.g. {errors[0]}")
    return {"api": api, "raw_one": raw_one, "raw_many": raw_many}


# ---- running it ----------------------------------------------------------------------------------


@contextmanager
def fresh(backend: str) -> Iterator[Settings]:
    with tempfile.TemporaryDirectory() as data_dir, store_settings(backend, Path(data_dir)) as s:
        yield s


def report(backend: str, args: argparse.Namespace) -> None:
    parts = args.only or PARTS
    if "catch-up" in parts:
        report_catch_up(backend, args)
    if "lag" in parts:
        report_lag(backend, args)
    if "writes" in parts:
        report_writes(backend, args)


def report_catch_up(backend: str, args: argparse.Namespace) -> None:
    with fresh(backend) as settings:
        c = catch_up(settings, args.events, args.rounds)
    for name, label in (("applied", "runner "), ("rebuild", "rebuild")):
        ratio = c[name] / c["raw"]
        verdict = "ok" if ratio >= CATCH_UP_TARGET else "MISSED"
        print(
            f"{backend:9} catch-up  {c['events']:6.0f} events: {label} {c[name]:8.0f} ev/s, "
            f"read+decode {c['raw']:8.0f} ev/s, ratio {ratio:.3f} "
            f"(target {CATCH_UP_TARGET}: {verdict})",
            flush=True,
        )


def report_lag(backend: str, args: argparse.Namespace) -> None:
    with fresh(backend) as settings:
        lagged = lag(settings, args.rate, args.seconds)
    verdict = " ".join(
        f"{k} {'ok' if lagged[k] <= v else 'MISSED'}" for k, v in LAG_TARGETS.items()
    )
    print(
        f"{backend:9} lag       at {lagged['rate']:5.1f} commands/s: p50 {lagged['p50'] * 1000:6.1f} ms, "
        f"p99 {lagged['p99'] * 1000:6.1f} ms, max {lagged['max'] * 1000:6.1f} ms ({verdict}; "
        f"restarts {lagged['restarts']:.0f})",
        flush=True,
    )


def report_writes(backend: str, args: argparse.Namespace) -> None:
    with fresh(backend) as settings:
        w = api_writes(settings, args.clients, args.per_client)
    print(
        f"{backend:9} writes    API {args.clients} clients {w['api']:7.0f} /s, raw save 1 thread "
        f"{w['raw_one']:7.0f} /s (ratio {w['api'] / w['raw_one']:.3f}), raw save {args.clients} "
        f"threads {w['raw_many']:7.0f} /s (ratio {w['api'] / w['raw_many']:.3f})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--events", type=int, default=5000, help="log length for the catch-up")
    parser.add_argument("--rounds", type=int, default=3, help="catch-up turns (best of each)")
    parser.add_argument("--rate", type=float, default=100.0, help="commands/s for the lag")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--per-client", type=int, default=20)
    parser.add_argument("--only", choices=PARTS, action="append", help="run only this part")
    args = parser.parse_args()
    for backend in ("sqlite", "postgres") if args.backend == "both" else (args.backend,):
        report(backend, args)


if __name__ == "__main__":
    main()
