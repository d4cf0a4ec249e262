"""The life of a campaign through the API, including a restart on the same store (on each backend)."""

from __future__ import annotations

import pytest

from api.main import create_app
from api.settings import Settings
from domain.rulesets import get_ruleset
from tests.api.support import Table, bearer, ok
from tests.client import TestClient


def test_a_campaign_is_played_through_stories_game_issues_and_scenes(table: Table) -> None:
    """WCBH-1: pages make scenes, scenes game Issues, game Issues a story."""
    story_id = table.story()
    issue = table.post(f"/v1/stories/{story_id}/issues", {"title": "Issue #1"})
    assert (issue["number"], issue["status"]) == (1, "running")
    scene = table.post(f"/v1/issues/{issue['id']}/scenes", {"title": "Rooftops"})
    assert (scene["page"], scene["status"]) == (1, "open")
    paged = table.post(f"/v1/scenes/{scene['id']}/pages", status=200)
    assert paged["page"] == 2 and paged["version"] == scene["version"] + 1
    assert paged["position"] > scene["position"]
    closed = table.post(f"/v1/scenes/{scene['id']}/close", status=200)
    assert closed["status"] == "closed"
    assert table.get(f"/v1/issues/{issue['id']}")["open_scene_ids"] == []
    ended = table.post(f"/v1/issues/{issue['id']}/end", status=200)
    assert ended["status"] == "ended"
    second = table.post(f"/v1/stories/{story_id}/issues", {"title": "Issue #2"})
    assert second["number"] == 2
    story = table.get(f"/v1/stories/{story_id}")
    assert story["running_issue_id"] == second["id"]
    assert story["issue_ids"] == [issue["id"], second["id"]]


def test_ending_a_game_issue_closes_its_open_scenes(table: Table) -> None:
    issue_id = table.issue()
    scenes = [table.scene(issue_id), table.scene(issue_id)]
    table.post(f"/v1/issues/{issue_id}/end", status=200)
    assert [table.get(f"/v1/scenes/{s}")["status"] for s in scenes] == ["closed", "closed"]


def test_a_second_running_game_issue_in_a_story_is_a_conflict(table: Table) -> None:
    story_id = table.story()
    running = table.issue(story_id)
    response = table.client.post(
        f"/v1/stories/{story_id}/issues", json={"title": "Too soon"}, headers=bearer(table.gm)
    )
    assert response.status_code == 409
    assert response.json()["error"]["details"]["running_issue_id"] == running


def test_a_scene_in_an_ended_game_issue_is_refused_and_nothing_is_written(table: Table) -> None:
    issue_id = table.issue()
    table.post(f"/v1/issues/{issue_id}/end", status=200)
    before = table.position()
    response = table.client.post(
        f"/v1/issues/{issue_id}/scenes", json={"title": "Late"}, headers=bearer(table.gm)
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "issue_ended"
    assert table.position() == before


def test_a_character_answers_with_its_sheet_derived_stats_and_resources(table: Table) -> None:
    character_id = table.character()
    response = table.client.get(f"/v1/characters/{character_id}", headers=bearer(table.gm))
    character = ok(response)
    assert response.headers["ETag"] == f'"{character["version"]}"'
    rules = get_ruleset(table.ruleset)
    normalised = rules.parse_sheet(table.example_sheet, rules.parse_settings({}), side="hero")
    assert character["sheet"] == normalised.model_dump(
        mode="json"
    )  # stored with defaults filled in
    described = table.get(f"/v1/rulesets/{table.ruleset}")
    assert character["derived"] == described["example_derived"]
    levels = {name: spec.pop("current") for name, spec in character["resources"].items()}
    assert character["resources"] == described["example_resources"]
    assert levels == {name: spec["start"] for name, spec in described["example_resources"].items()}


def test_a_sheet_change_is_validated_and_versioned(table: Table) -> None:
    character_id = table.character(table.player)
    replaced = table.client.put(
        f"/v1/characters/{character_id}/sheet",
        json={"sheet": table.example_sheet, "reason": "retrained"},
        headers=bearer(table.player),
    )
    assert ok(replaced)["version"] == 2
    bad = table.client.put(
        f"/v1/characters/{character_id}/sheet",
        json={"sheet": {}, "reason": "typo"},
        headers=bearer(table.player),
    )
    assert bad.status_code == 422
    assert bad.json()["error"]["field"].startswith("sheet")
    assert table.get(f"/v1/characters/{character_id}")["version"] == 2


def test_a_mission_is_created_linked_and_ended_once(table: Table) -> None:
    scene_id = table.scene()
    mission = table.post(
        f"/v1/campaigns/{table.campaign_id}/missions", {"title": "Break in", "scene_id": scene_id}
    )
    assert (mission["scene_id"], mission["status"]) == (scene_id, "active")
    ended = table.post(f"/v1/missions/{mission['id']}/end", {"outcome": "completed"}, status=200)
    assert (ended["status"], ended["outcome"]) == ("ended", "completed")
    again = table.client.post(
        f"/v1/missions/{mission['id']}/end", json={"outcome": "failed"}, headers=bearer(table.gm)
    )
    assert again.status_code == 409
    assert again.json()["error"]["rule"] == "CD-21"


@pytest.mark.store
def test_a_restarted_service_on_the_same_store_finds_everything_again(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        character_id = table.character(table.player)
        scene_id = table.scene()
        mission_id = table.mission()
        before = {
            path: table.get(path)
            for path in (
                f"/v1/campaigns/{table.campaign_id}",
                f"/v1/characters/{character_id}",
                f"/v1/scenes/{scene_id}",
                f"/v1/missions/{mission_id}",
            )
        }
    with TestClient(create_app(settings)) as client:
        for path, body in before.items():
            assert ok(client.get(path, headers=bearer(table.gm))) == body
        # the tokens still work after the restart (only their hashes were stored)
        assert (
            client.get(f"/v1/characters/{character_id}", headers=bearer(table.player)).status_code
            == 200
        )
