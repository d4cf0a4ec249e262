"""The background loop under the views runner and the webhook dispatcher (projections/runner.py
`Loop`): a failing step or pause is logged and the loop goes on; `wake` ends a pause at once, and
stopping ends it too. No store: the steps are the test's own."""

from __future__ import annotations

import threading
from typing import ClassVar

import pytest

from projections.runner import Loop

LONG = 60.0  # a pause no test waits out: only a wake or a stop ends it in time


class Counting(Loop):
    """Steps counted; the first `failing_steps` steps and `failing_pauses` pauses raise."""

    thread_name = "test-loop"
    failure = "the test loop failed"
    pause_after_error: ClassVar[float] = 0.0

    def __init__(self, *, failing_steps: int = 0, failing_pauses: int = 0) -> None:
        super().__init__()
        self.steps = 0
        self.failing_steps, self.failing_pauses = failing_steps, failing_pauses
        self.stepped = threading.Condition()

    def step(self) -> bool:
        with self.stepped:
            self.steps += 1
            self.stepped.notify_all()
        if self.failing_steps:
            self.failing_steps -= 1
            raise RuntimeError("a step failed")
        return False

    def pause(self) -> float:
        if self.failing_pauses:
            self.failing_pauses -= 1
            raise RuntimeError("a pause failed")
        return LONG

    def wait_for_steps(self, count: int) -> bool:
        with self.stepped:
            return self.stepped.wait_for(lambda: self.steps >= count, timeout=10)

    def stop(self) -> None:
        self._halt()
        self._join()


def stepped_again_when_woken(loop: Counting) -> bool:
    """Whether the loop, once it has stepped and paused, steps again when woken (then stopped)."""
    try:
        assert loop.wait_for_steps(1)
        loop.wake()
        return loop.wait_for_steps(2)
    finally:
        loop.stop()


def test_a_wake_ends_the_pause_and_runs_a_step_at_once() -> None:
    assert stepped_again_when_woken(Counting().start())


def test_a_step_that_raises_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert stepped_again_when_woken(Counting(failing_steps=1).start())
    assert "the test loop failed" in caplog.text


def test_a_pause_that_raises_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the dispatcher's pause asks the store when the next retry is due: a store error there must
    # not end the deliveries' thread
    loop = Counting(failing_pauses=2).start()
    try:
        assert loop.wait_for_steps(3)  # two failed pauses, each followed by a step at once
    finally:
        loop.stop()
    failed = [r for r in caplog.records if r.exc_info and "a pause" in str(r.exc_info[1])]
    assert len(failed) == 2


def test_stopping_ends_a_pause_without_waiting_it_out() -> None:
    loop = Counting().start()
    assert loop.wait_for_steps(1)
    loop.stop()
    assert loop._thread is not None and not loop._thread.is_alive()
