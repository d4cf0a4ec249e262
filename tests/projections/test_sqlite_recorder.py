"""The SQLite recorder: its group commit (concurrent saves share one transaction, each behind its own
savepoint, every caller answered once its events are committed) and its subscription."""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from api.settings import Settings
from domain.sqlite_recorder import Recorder


class Counter(Aggregate):
    @event("Counted")
    def count(self) -> None:
        pass


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Application[UUID]]:
    application: Application[UUID] = Application(
        env=Settings(data_dir=tmp_path).eventsourcing_env()
    )
    yield application
    application.close()


def recorder_of(app: Application[UUID]) -> Recorder:
    recorder = app.recorder
    assert isinstance(recorder, Recorder)
    return recorder


@contextmanager
def counted_transactions(recorder: Recorder) -> Iterator[list[bool]]:
    """Every write transaction the recorder opens, noted (the store itself is real)."""
    opened: list[bool] = []
    original = recorder.datastore.transaction

    @contextmanager
    def transaction(*, commit: bool) -> Iterator[Any]:
        if commit:
            opened.append(commit)
        with original(commit=commit) as cursor:
            yield cursor

    recorder.datastore.transaction = transaction  # type: ignore[method-assign]
    try:
        yield opened
    finally:
        recorder.datastore.transaction = original  # type: ignore[method-assign]


def saved_while_the_turn_is_held(
    app: Application[UUID], saves: list[Callable[[], Any]]
) -> list[Any]:
    """Runs the saves in threads while the group commit's turn is taken, so that they all queue;
    then lets them go. Each save's result or exception, in order."""
    group = recorder_of(app)._group_commit
    results: list[Any] = [None] * len(saves)

    def run(n: int) -> None:
        try:
            results[n] = saves[n]()
        except Exception as exc:  # noqa: BLE001 - the test reads what each caller got
            results[n] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(saves))]
    with group.turn:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while len(group.waiting) < len(saves):  # every save queued behind the held turn
            assert time.monotonic() < deadline, "the saves did not queue"
            time.sleep(0.001)
    for thread in threads:
        thread.join(timeout=10)
    return results


def test_saves_that_queue_together_are_committed_in_one_transaction(app: Application[UUID]) -> None:
    counters = [Counter() for _ in range(6)]
    with counted_transactions(recorder_of(app)) as opened:
        results = saved_while_the_turn_is_held(
            app, [functools.partial(app.save, c) for c in counters]
        )
    assert len(opened) == 1
    positions = sorted(r.notification.id for result in results for r in result)
    assert positions == list(range(positions[0], positions[0] + 6))
    for counter in counters:
        assert app.repository.get(counter.id).version == 1


def test_a_clash_in_a_group_undoes_only_its_own_events(app: Application[UUID]) -> None:
    counter = Counter()
    app.save(counter)
    stale: Counter = app.repository.get(counter.id)
    fresh: Counter = app.repository.get(counter.id)
    fresh.count()
    app.save(fresh)  # version 2 is taken: the stale copy's count clashes
    stale.count()
    other = Counter()
    results = saved_while_the_turn_is_held(app, [lambda: app.save(stale), lambda: app.save(other)])
    assert isinstance(results[0], IntegrityError)
    assert app.repository.get(other.id).version == 1
    assert app.repository.get(counter.id).version == 2
    stored = app.recorder.select_notifications(start=1, limit=10)
    assert [n.originator_id for n in stored] == [counter.id, counter.id, other.id]


def test_every_concurrent_save_is_stored_once_with_its_own_position(app: Application[UUID]) -> None:
    counters = [Counter() for _ in range(40)]
    recorded: dict[Any, int] = {}

    def save(counter: Counter) -> None:
        (recording,) = app.save(counter)
        recorded[counter.id] = recording.notification.id

    threads = [threading.Thread(target=save, args=(c,)) for c in counters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    stored = app.recorder.select_notifications(start=1, limit=100)
    assert {n.id: n.originator_id for n in stored} == {p: i for i, p in recorded.items()}
    assert len(stored) == 40


def test_a_subscriber_sees_a_write_of_another_process(
    app: Application[UUID], tmp_path: Path
) -> None:
    app.save(Counter())
    subscription = recorder_of(app).subscribe(gt=1)
    # Another process's writer: a plain connection to the file, which wakes no one here.
    stored = app.recorder.select_notifications(start=1, limit=1)[0]
    other = sqlite3.connect(str(tmp_path / "chronicle.sqlite3"))
    with other:
        other.execute(
            "INSERT INTO stored_events VALUES (?,?,?,?)",
            (uuid4().hex, 1, stored.topic, stored.state),
        )
    other.close()
    seen: list[Any] = []
    reader = threading.Thread(target=lambda: seen.append(next(iter(subscription))), daemon=True)
    reader.start()
    reader.join(timeout=10)
    subscription.stop()
    assert [notification.id for notification in seen] == [2]
