"""Running the views: a supervised runner that follows the log a page at a time, and a reader that
waits for positions."""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from threading import Event, Thread
from typing import ClassVar, Self

from eventsourcing.persistence import InfrastructureFactory, Notification, Tracking
from eventsourcing.utils import Environment, get_topic

from domain.application import Chronicle
from domain.sqlite_recorder import Recorder as SQLiteRecorder
from domain.subscriptions import PAGE_SIZE, Pages
from projections.store import ViewStore, view_store_class
from projections.views import Page, Views

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


def open_view_store(env: Mapping[str, str], *, beside_live: bool = False) -> ViewStore:
    """The live views (what the API reads), or the tables a rebuild writes beside them."""
    factory = InfrastructureFactory.construct(Environment(Views.name, dict(env)))
    store_class = view_store_class(env["PERSISTENCE_MODULE"], beside_live=beside_live)
    try:
        return factory.tracking_recorder(store_class)  # type: ignore[return-value]
    except BaseException:
        factory.close()  # its pool is open already (see `Service.__init__`)
        raise


def decoded(app: Chronicle, notifications: Sequence[Notification], name: str) -> Page:
    """Notifications as the events they record, each with its tracking under `name`."""
    return [(app.mapper.to_domain_event(n), Tracking(name, n.id)) for n in notifications]


class Loop(ABC):
    """A daemon thread that runs `step` until stopped. A step that raises is logged and the loop
    goes on: a database blip must end neither the views nor the webhook deliveries."""

    thread_name: ClassVar[str]
    failure: ClassVar[str]  # the log line of a step that raised
    logger: ClassVar[logging.Logger] = log
    pause_after_error: ClassVar[float] = 1.0  # when `pause` itself failed

    def __init__(self) -> None:
        self.stopping = Event()
        self._woken = Event()  # cuts a pause short: there is work, or the loop is stopping
        self._thread: Thread | None = None

    def start(self) -> Self:
        self._thread = Thread(target=self.run, name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                busy = self.step()
            except Exception:
                self.logger.exception(self.failure)
                busy = False
            if not busy and not self.stopping.is_set():
                self._woken.wait(self._pause_or_fallback())
                self._woken.clear()

    def _pause_or_fallback(self) -> float:
        # A pause may ask the store (the dispatcher's next retry): raising here would end the loop.
        try:
            return self.pause()
        except Exception:
            self.logger.exception(self.failure)
            return self.pause_after_error

    def wake(self) -> None:
        """End the current pause now (a step runs at once), e.g. because new work arrived."""
        self._woken.set()

    def _halt(self) -> None:
        """Ask the loop to stop, ending its pause."""
        self.stopping.set()
        self._woken.set()

    @abstractmethod
    def step(self) -> bool:
        """One round of work; True if there may be more to do at once."""

    @abstractmethod
    def pause(self) -> float:
        """The seconds to wait after a step that left nothing to do at once."""

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=30)


class Supervisor(Loop):
    """Keeps the views following the log, a page of events per transaction (what the
    subscription has pulled, up to `page_size`): any error (a dead LISTEN connection included)
    restarts it, and it resumes from the tracking position, so nothing is applied twice or skipped."""

    thread_name = "views-supervisor"
    failure = "the views runner stopped; restarting it"

    def __init__(
        self, env: Mapping[str, str], *, restart_delay: float = 0.5, page_size: int = PAGE_SIZE
    ) -> None:
        super().__init__()
        self.env = views_env(env)
        self.restart_delay = restart_delay
        self.page_size = page_size
        self.restarts = 0
        self._subscription: Pages | None = None
        # Called after each page of views commits: what reads the views in this process (the
        # webhook dispatcher) looks at once instead of polling for it.
        self._after_page: list[Callable[[], None]] = []

    def after_each_page(self, callback: Callable[[], None]) -> None:
        self._after_page.append(callback)

    def step(self) -> bool:
        self._follow()
        return False  # it returns only when stopped, or raises: either way a restart is next

    def pause(self) -> float:
        self.restarts += 1
        return self.restart_delay

    def _follow(self) -> None:
        """Apply the log to the views until stopped; returns when stopped, raises on errors."""
        with ExitStack() as opened:  # closed whatever happens, a failed start included
            app = Chronicle(self.env)
            opened.callback(app.close)
            store = open_view_store(self.env)
            opened.callback(store.datastore.close)  # type: ignore[attr-defined]
            opened.callback(self._forget_subscription)
            views = Views(store)
            after = store.max_tracking_id(app.name)
            with app.recorder.subscribe(gt=after) as subscription:
                assert isinstance(subscription, Pages), "the recorders subscribe a page at a time"
                self._subscription = subscription
                while not self.stopping.is_set():  # stop() may have come before the line above
                    try:
                        notifications = subscription.next_page(self.page_size)
                    except StopIteration:
                        return
                    views.process_page(decoded(app, notifications, app.name))
                    for callback in self._after_page:
                        callback()

    def _forget_subscription(self) -> None:
        self._subscription = None

    def alive(self) -> bool:
        """Whether a runner is following the log now (subscribed, not stopped, not between
        restarts)."""
        return self._subscription is not None and not self.stopping.is_set()

    def stop(self) -> None:
        self._halt()
        subscription = self._subscription
        if subscription is not None:
            subscription.stop()
        self._join()


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
