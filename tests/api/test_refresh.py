"""Refresh at a new game Issue (WCBH-17), the GM's Adversity pool (WCBH-21), Resolve awards (WCBH-18)."""

from __future__ import annotations

from tests.api.support import Table, bearer
from tests.api.test_rolls import Dice


def resolve_of(table: Table, character_id: str) -> int:
    return int(table.get(f"/v1/characters/{character_id}")["resources"]["resolve"]["current"])


def test_a_new_game_issue_restores_starting_resolve_wcbh_17(table: Table) -> None:
    """WCBH-2, WCBH-17: the starting Resolve refreshes at the start of every game Issue."""
    dice = Dice(table)  # a hero and a scene in a running game Issue
    start = resolve_of(table, dice.hero)
    roll = dice.roll(table.player)
    table.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        {"follow_up": "resolve_dice", "request": {"resolve": 2}},
        table.player,
    )
    assert resolve_of(table, dice.hero) == start - 2
    issue_id = table.get(f"/v1/scenes/{dice.scene}")["issue_id"]
    story_id = table.get(f"/v1/issues/{issue_id}")["story_id"]
    table.post(f"/v1/issues/{issue_id}/end", status=200)
    second = table.post(f"/v1/stories/{story_id}/issues", {"title": "Issue #2"})
    assert resolve_of(table, dice.hero) == start
    replay = table.get(f"/v1/issues/{second['id']}/replay?min_position={second['position']}")
    assert any(f"resolve {start} restored" in step["text"] for step in replay["steps"])


def test_adversity_starts_each_game_issue_at_the_number_of_heroes_wcbh_21(table: Table) -> None:
    table.character(table.player, "Nova")
    table.character(table.other_player, "Bolt")
    body = {"name": "Dr. Null", "side": "villain", "sheet": table.example_sheet}
    table.post(f"/v1/campaigns/{table.campaign_id}/characters", body)
    issue = table.post(f"/v1/stories/{table.story()}/issues", {"title": "Issue #1"})
    assert issue["pools"] == {"adversity": 2}


def test_the_gm_spends_and_gains_adversity_but_never_below_zero_wcbh_21(table: Table) -> None:
    table.character(table.player)
    issue_id = table.issue()
    spent = table.post(
        f"/v1/issues/{issue_id}/pools",
        {"pool": "adversity", "change": -1, "reason": "a trap springs"},
        status=200,
    )
    assert spent["pools"] == {"adversity": 0}
    before = table.position()
    refused = table.client.post(
        f"/v1/issues/{issue_id}/pools",
        json={"pool": "adversity", "change": -1, "reason": "again"},
        headers=bearer(table.gm),
    )
    assert refused.status_code == 409 and refused.json()["error"]["rule"] == "WCBH-21"
    assert table.position() == before
    gained = table.post(
        f"/v1/issues/{issue_id}/pools",
        {"pool": "adversity", "change": 1, "reason": "Nova broke her vow"},
        status=200,
    )
    assert gained["pools"] == {"adversity": 1}
    player = table.client.post(
        f"/v1/issues/{issue_id}/pools",
        json={"pool": "adversity", "change": -1, "reason": "mine"},
        headers=bearer(table.player),
    )
    assert player.status_code == 403


def test_the_gm_awards_resolve_with_a_reason_wcbh_18(table: Table) -> None:
    hero = table.character(table.player)
    start = resolve_of(table, hero)
    awarded = table.post(
        f"/v1/characters/{hero}/resources",
        {"resource": "resolve", "change": 1, "reason": "defeated by Dr. Null"},
        status=200,
    )
    assert awarded["resources"]["resolve"]["current"] == start + 1
    too_much = table.client.post(
        f"/v1/characters/{hero}/resources",
        json={"resource": "resolve", "change": -(start + 2), "reason": "oops"},
        headers=bearer(table.gm),
    )
    assert too_much.status_code == 409
    unknown = table.client.post(
        f"/v1/characters/{hero}/resources",
        json={"resource": "mana", "change": 1, "reason": "?"},
        headers=bearer(table.gm),
    )
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "resource"
    by_player = table.client.post(
        f"/v1/characters/{hero}/resources",
        json={"resource": "resolve", "change": 1, "reason": "I deserve it"},
        headers=bearer(table.player),
    )
    assert by_player.status_code == 403


def test_a_ruleset_without_pools_has_none_to_change(client) -> None:  # type: ignore[no-untyped-def]
    table = Table(client, "nimble")
    issue = table.post(f"/v1/stories/{table.story()}/issues", {"title": "Session 1"})
    assert issue["pools"] == {}
    response = table.client.post(
        f"/v1/issues/{issue['id']}/pools",
        json={"pool": "adversity", "change": 1, "reason": "?"},
        headers=bearer(table.gm),
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "pool"
