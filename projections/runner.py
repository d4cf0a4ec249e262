"""Running the views: a supervised ProjectionRunner, a reader that waits for positions, and rebuilds."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from pathlib import Path
from threading import Event, Thread

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.projection import ProjectionRunner
from eventsourcing.utils import Environment, get_topic

from domain.application import Chronicle
from domain.sqlite_recorder import Recorder as SQLiteRecorder
from projections.store import ViewStore, view_store_class
from projections.views import Views

log = logging.getLogger("chronicle.projections")

VIEWS_SQLITE_FILENAME = "views.sqlite3"
WAIT_SECONDS = 2.0


def views_env(app_env: Mapping[str, str]) -> dict[str, str]:
    """The application's environment plus what the views need (their own SQLite file)."""
    env = dict(app_env)
    if env["PERSISTENCE_MODULE"].endswith("sqlite"):
        env["APPLICATION_RECORDER_TOPIC"] = get_topic(SQLiteRecorder)  # subscribable
        app_file = env["SQLITE_DBNAME"]
        # eventsourcing's SQLite table names are fixed: the views need a file of their own.
        env["VIEWS_SQLITE_DBNAME"] = str(Path(app_file).with_name(VIEWS_SQLITE_FILENAME))
        env["VIEWS_SQLITE_LOCK_TIMEOUT"] = "10"
    else:
        env["VIEWS_POSTGRES_POOL_SIZE"] = "2"
        env["VIEWS_POSTGRES_MAX_OVERFLOW"] = "4"
    return env


def open_view_store(env: Mapping[str, str]) -> ViewStore:
    factory = InfrastructureFactory.construct(Environment(Views.name, dict(env)))
    return factory.tracking_recorder(view_store_class(env["PERSISTENCE_MODULE"]))  # type: ignore[return-value]


class Supervisor:
    """Keeps one ProjectionRunner alive: any error (a dead LISTEN connection included) restarts it,
    and the new runner resumes from the tracking position, so nothing is applied twice or skipped."""

    def __init__(self, env: Mapping[str, str], *, restart_delay: float = 0.5) -> None:
        self.env = views_env(env)
        self.restart_delay = restart_delay
        self.stopping = Event()
        self.restarts = 0
        self.runner: ProjectionRunner[Chronicle, ViewStore] | None = None
        self._thread: Thread | None = None

    def start(self) -> Supervisor:
        self._thread = Thread(target=self.run, name="views-supervisor", daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                with ProjectionRunner(
                    application_class=Chronicle,
                    projection_class=Views,
                    view_class=view_store_class(self.env["PERSISTENCE_MODULE"]),
                    env=self.env,
                ) as runner:
                    self.runner = runner
                    while not self.stopping.is_set():
                        runner.run_forever(timeout=0.5)
                        if runner.is_interrupted.is_set():
                            break
            except Exception:
                log.exception("the views runner stopped; restarting it")
            finally:
                self.runner = None
            if not self.stopping.is_set():
                self.restarts += 1
                self.stopping.wait(self.restart_delay)

    def alive(self) -> bool:
        """Whether a runner is following the log now (not stopped, not between restarts)."""
        runner = self.runner
        return runner is not None and not runner.is_interrupted.is_set()

    def stop(self) -> None:
        self.stopping.set()
        runner = self.runner
        if runner is not None:
            runner.stop()
        if self._thread is not None:
            self._thread.join(timeout=30)


class ViewReader:
    """The API's side of the views: queries, and waiting until a log position has been applied."""

    def __init__(self, store: ViewStore) -> None:
        self.store = store

    def position(self) -> int:
        return self.store.max_tracking_id(ViewStore.application_name) or 0

    def wait(self, position: int | None, timeout: float = WAIT_SECONDS) -> bool:
        """True once the views have applied `position` (or anything after it); False on timeout."""
        if position is None or position <= 0:
            return True
        deadline = time.monotonic() + timeout
        delay = 0.001
        while not self.store.has_tracking_id(ViewStore.application_name, position):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(
                min(delay, remaining)
            )  # polls the tracking row: views may live in another process
            delay = min(delay * 2, 0.01)
        return True


def rebuild(env: Mapping[str, str], *, timeout: float = 3600.0) -> int:
    """Forget every view and replay the whole log into them; returns the position reached."""
    store = open_view_store(views_env(env))
    store.clear()
    app = Chronicle(views_env(env))
    head = app.recorder.max_notification_id() or 0
    app.close()
    supervisor = Supervisor(env).start()
    try:
        if not ViewReader(store).wait(head, timeout=timeout):
            raise TimeoutError(f"the views did not reach position {head} in {timeout} s")
    finally:
        supervisor.stop()
    return head
