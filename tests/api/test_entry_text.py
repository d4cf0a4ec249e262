"""The events API and the stream carry each entry's readable text beside its data: the replay's
step texts, read from the views on each backend."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api.support import Table, bearer

pytestmark = pytest.mark.store  # the texts are joined to the entries by the views' store


def streamed(table: Table, count: int) -> list[dict[str, Any]]:
    path = f"/v1/campaigns/{table.campaign_id}/stream?limit={count}"
    with table.client.stream("GET", path, headers=bearer(table.player)) as response:
        assert response.status_code == 200
        lines = [line for line in response.iter_lines() if line.startswith("data: ")]
    return [json.loads(line.removeprefix("data: ")) for line in lines]


def test_each_entry_has_the_text_its_replay_step_tells_and_bookkeeping_has_none(
    table: Table,
) -> None:
    issue = table.seated().post(f"/v1/stories/{table.story()}/issues", {"title": "Issue #1"})
    page = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?min_position={issue['position']}&limit=1000",
        table.player,
    )
    texts = {e["type"]: e["text"] for e in page["items"]}
    joined = [e["text"] for e in page["items"] if e["type"] == "Campaign.MemberJoined"]
    assert joined == ["Bo joined as player", "Cy joined as player", "Di joined as observer"]
    assert texts["Story.Started"] == "Story “The Heist” started"
    assert texts["Issue.Started"] == "Game Issue #1 “Issue #1” started"
    assert texts["Story.GameIssueBegan"] is None  # the game Issue's own entry tells it
    replay = table.get(f"/v1/issues/{issue['id']}/replay", table.player)["steps"]
    told = {e["position"]: e["text"] for e in page["items"]}
    assert all(told[step["position"]] == step["text"] for step in replay)


def test_the_stream_sends_the_same_entries_with_their_text(table: Table) -> None:
    story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "The Heist"})
    page = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?min_position={story['position']}&limit=1000"
    )
    sent = streamed(table, len(page["items"]))
    assert sent == page["items"]
    assert sent[-1]["text"] == "Story “The Heist” started"
