"""The views worker's heartbeat: it beats only while its runner runs, and goes stale without beats."""

from __future__ import annotations

import os
from pathlib import Path

from projections.heartbeat import STALE_SECONDS, Heartbeat, fresh, main


def test_a_worker_whose_runner_is_down_does_not_beat(tmp_path: Path) -> None:
    path = tmp_path / "heartbeat"
    assert not Heartbeat(path, alive=lambda: False).beat()
    assert not path.exists()
    assert Heartbeat(path, alive=lambda: True).beat()
    assert fresh(path)


def test_a_heartbeat_is_stale_once_no_beat_came_for_the_allowed_age(tmp_path: Path) -> None:
    path = tmp_path / "heartbeat"
    path.touch()
    beaten = path.stat().st_mtime
    assert fresh(path, now=beaten + STALE_SECONDS)
    assert not fresh(path, now=beaten + STALE_SECONDS + 1)
    assert not fresh(tmp_path / "never-written")


def test_the_healthcheck_exits_0_on_a_fresh_heartbeat_and_1_on_a_stale_one(tmp_path: Path) -> None:
    path = tmp_path / "heartbeat"
    path.touch()
    assert main([str(path)]) == 0
    os.utime(path, (0, 0))  # last beaten in 1970
    assert main([str(path)]) == 1
    assert main([str(tmp_path / "missing")]) == 1
