"""History from the views: the campaign's log page by page, replays of a scene, a game Issue and a
story, and `chronicle replay` in the terminal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.main import create_app
from api.settings import Settings
from tests.cli import chronicle
from tests.client import TestClient
from tests.projections.support import Played, caught_up, event_store_positions, play

STEP_LINE = re.compile(r"^ +#(\d+) +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  (.*)$")


@pytest.fixture
def played(settings: Settings) -> Iterator[Played]:
    with TestClient(create_app(settings)) as client:
        done = play(client)
        caught_up(client, done.last)
        yield done


def steps(played: Played, kind: str, resource_id: str) -> list[dict[str, Any]]:
    replay = played.table.get(f"/v1/{kind}/{resource_id}/replay")
    assert replay["id"] == resource_id
    positions = [s["position"] for s in replay["steps"]]
    assert positions == sorted(positions) and positions, "steps in log order"
    return replay["steps"]  # type: ignore[no-any-return]


def texts(found: list[dict[str, Any]]) -> str:
    return "\n".join(s["text"] for s in found)


def test_the_campaign_log_pages_through_every_entry_once_in_order(
    played: Played, settings: Settings
) -> None:
    path = f"/v1/campaigns/{played.table.campaign_id}/events"
    seen: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = played.table.get(f"{path}?after={after}&limit=7")
        assert len(page["items"]) <= 7
        seen += page["items"]
        after = page["next_after"]
        if after is not None:
            assert after == page["items"][-1]["position"]
    positions = [e["position"] for e in seen]
    assert positions == sorted(set(positions))
    assert (
        positions == event_store_positions(settings.eventsourcing_env())[played.table.campaign_id]
    )
    assert seen == played.table.get(f"{path}?limit=1000")["items"]
    assert played.table.get(f"{path}?after={positions[-1]}")["items"] == []
    assert {"Scene.PageAdvanced", "Roll.Made", "Mission.Ended", "Issue.Ended"} <= {
        e["type"] for e in seen
    } or seen


def test_a_scene_replay_tells_its_pages_rolls_seeds_and_close(played: Played) -> None:
    found = steps(played, "scenes", played.scene)
    told = texts(found)
    assert found[0]["text"].startswith("Scene “The vault” opened")
    assert "Page 2 of “The vault”" in told and "Page 3 of “The vault”" in told
    assert told.count(" rolled ") == len(played.rolls)
    assert "rotated the dice seed" in told
    assert found[-1]["text"] == "Scene “The vault” closed; its dice seed is revealed"
    (advance,) = [s for s in found if s["position"] == played.page_advance]
    assert advance["type"] == "Scene.PageAdvanced"
    assert advance["changes"]["page"] == [1, 2]
    assert all(s["position"] > found[0]["position"] for s in found[1:])


def test_a_game_issue_replay_holds_its_scenes_and_missions_and_its_end(played: Played) -> None:
    found = steps(played, "issues", played.issue)
    told = texts(found)
    assert found[0]["text"] == "Game Issue #1 “Issue #1” started"
    # Ending the game Issue closes its open scene in the same save, after the Issue's own event.
    assert texts(found[-2:]) == (
        "Game Issue #1 “Issue #1” ended\nScene “The vault” closed; its dice seed is revealed"
    )
    assert "Scene “The vault” opened" in told and "Page 2 of “The vault”" in told
    assert told.count("The vault” opened") == 2  # the second scene too
    assert "Mission “Hold the door” begins" in told  # the second scene's mission
    assert "Mission “Break in” begins" not in told  # a campaign's mission belongs to no game Issue
    ended = [s for s in found if s["type"] == "Issue.Ended"]
    assert ended[0]["changes"]["status"] == ["running", "ended"]


def test_a_story_replay_holds_its_game_issues_and_its_completion(played: Played) -> None:
    found = steps(played, "stories", played.story)
    told = texts(found)
    assert found[0]["text"] == "Story “The Heist” started"
    assert found[-1]["text"] == "Story “The Heist” completed"
    assert "Game Issue #1 “Issue #1” started" in told and " rolled " in told
    assert "Mission “Hold the door” begins" in told  # a scene's mission belongs to its story


def test_chronicle_replay_prints_the_scene_from_the_views(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        played = play(client)
        caught_up(client, played.last)
        replay = played.table.get(f"/v1/scenes/{played.scene}/replay")["steps"]
    expected = [(s["position"], s["text"]) for s in replay]
    ran = chronicle("replay", played.scene, "--data-dir", tmp_path)
    assert ran.returncode == 0, ran.stderr
    printed = ran.stdout.splitlines()
    assert printed[0] == "Scene “The vault” (closed, page 3)"
    lines = [STEP_LINE.match(line) for line in printed[1:]]
    assert [(int(m[1]), m[2]) for m in lines if m] == expected and all(lines)
