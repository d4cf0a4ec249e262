"""A rich campaign played through the API, and helpers to compare views built in different ways."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.aggregates import Campaign, IdempotencyRecord, ServerKey, SigningKeys
from domain.application import Chronicle, CommandContext, TokenMinted
from domain.requests import CampaignCreate, IssueCreate, SceneCreate, StoryCreate
from projections.runner import ViewReader, open_view_store, views_env
from projections.store import ViewStore
from tests.api.support import Table, bearer, ok
from tests.api.test_rolls import Dice
from tests.client import TestClient

Dump = dict[str, list[tuple[Any, ...]]]


@dataclass
class Played:
    """What `play` wrote: the ids a test asks about and the position of every command."""

    table: Table
    hero: str
    villain: str
    story: str
    issue: str
    scene: str
    second_scene: str
    mission: str
    rolls: list[str] = field(default_factory=list)
    page_advance: int = 0
    last: int = 0


def _post(
    table: Table, path: str, body: Any = None, status: int = 200, token: str | None = None
) -> Any:
    return table.post(path, body, token, status)


def play(client: TestClient) -> Played:
    """Members, characters (with sheet changes), a story, a game Issue, scenes with pages, rolls and
    a follow-up, a seed rotation, a closed scene, an ended game Issue, missions, a completed story."""
    table = Table(client)
    dice = Dice(table)  # a hero owned by the player, a story, a game Issue and an open scene
    scene = dice.scene
    issue = table.get(f"/v1/scenes/{scene}")["issue_id"]
    story = table.get(f"/v1/issues/{issue}")["story_id"]
    villain = table.character(name="Vex")
    changed = copy.deepcopy(table.example_sheet)
    changed["abilities"]["Strength"] += 1
    # Mid-scene: the GM changes the sheet (a player may not while a scene is open).
    table.client.put(
        f"/v1/characters/{dice.hero}/sheet",
        json={"sheet": changed, "reason": "a training montage"},
        headers=bearer(table.gm),
    ).raise_for_status()
    page = _post(table, f"/v1/scenes/{scene}/pages")
    rolls = [dice.roll(table.player)["id"], dice.roll()["id"]]
    follow = _post(
        table,
        f"/v1/rolls/{rolls[0]}/follow-ups",
        {"follow_up": "resolve_dice", "request": {"resolve": 1}},
        201,
        table.player,
    )
    rolls.append(follow["id"])
    reroll = _post(
        table,
        f"/v1/rolls/{rolls[1]}/follow-ups",
        {"follow_up": "resolve_reroll"},
        201,
        table.player,
    )
    rolls.append(reroll["id"])
    _post(table, f"/v1/scenes/{scene}/seed/rotate")
    rolls.append(dice.roll(table.player)["id"])
    _post(table, f"/v1/scenes/{scene}/pages")
    dice.close()
    second_scene = table.scene(issue)  # left open: ending the game Issue closes it
    mission = table.mission()
    scene_mission = table.post(
        f"/v1/campaigns/{table.campaign_id}/missions",
        {"title": "Hold the door", "scene_id": second_scene},
    )["id"]
    _post(table, f"/v1/missions/{mission}/end", {"outcome": "completed"})
    _post(table, f"/v1/missions/{scene_mission}/end", {"outcome": "failed"})
    _post(table, f"/v1/issues/{issue}/end")
    changed["abilities"]["Will"] += 1
    _post_put = table.client.put(
        f"/v1/characters/{dice.hero}/sheet",
        json={"sheet": changed, "reason": "experience"},
        headers=bearer(table.gm),
    )
    ok(_post_put)
    _post(table, f"/v1/stories/{story}/complete")
    return Played(
        table=table,
        hero=dice.hero,
        villain=villain,
        story=story,
        issue=issue,
        scene=scene,
        second_scene=second_scene,
        mission=mission,
        rolls=rolls,
        page_advance=int(page["position"]),
        last=table.position(),
    )


def views_of(client: TestClient) -> ViewReader:
    return client.app.state.views  # type: ignore[attr-defined,no-any-return]


def caught_up(client: TestClient, position: int, timeout: float = 20.0) -> Dump:
    views = views_of(client)
    assert views.wait(position, timeout), f"the views stopped at {views.position()}, not {position}"
    return views.store.dump()


def dump_of(env: Mapping[str, str]) -> Dump:
    store = open_view_store(views_env(env))
    try:
        return store.dump()
    finally:
        store.datastore.close()  # type: ignore[attr-defined]


def assert_same_views(left: Dump, right: Dump) -> None:
    assert left.keys() == right.keys()
    for table in left:
        assert len(left[table]) == len(right[table]), table
        assert left[table] == right[table], table


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def event_store_positions(env: Mapping[str, str]) -> dict[str, list[int]]:
    """The positions of each campaign's events, read from the event store itself (not the views):
    an aggregate belongs to the campaign its first event names; idempotency records to none."""
    app = Chronicle(views_env(env))
    owner: dict[UUID, str] = {}
    positions: dict[str, list[int]] = {}
    try:
        start = 1
        while True:
            page = app.recorder.select_notifications(start=start, limit=500)
            for notification in page:
                event = app.mapper.to_domain_event(notification)
                if isinstance(
                    event, (IdempotencyRecord.Event, SigningKeys.Event, ServerKey.Event)
                ):  # no campaign
                    continue
                if event.originator_id not in owner:
                    owner[event.originator_id] = _campaign_of(event)
                campaign = owner[event.originator_id]
                positions.setdefault(campaign, []).append(notification.id)
            if len(page) < 500:
                return positions
            start = page[-1].id + 1
    finally:
        app.close()


def _campaign_of(event: Any) -> str:
    if isinstance(event, Campaign.Event):
        return str(event.originator_id)
    if hasattr(event, "campaign_id"):
        return str(event.campaign_id)
    return str(event.record["campaign_id"])  # a roll


def view_log_positions(store: ViewStore) -> dict[str, list[int]]:
    positions: dict[str, list[int]] = {}
    for position, campaign, _entry in store.dump()["view_log"]:
        positions.setdefault(campaign, []).append(position)
    return positions


def write_log(app: Chronicle, commands: int, pages_per_scene: int = 20) -> int:
    """A campaign with `commands` more commands (mostly page advances over short scene streams);
    returns the last position. Written through the application: no view runner is needed."""
    gm = CommandContext(None)
    created = app.create_campaign(gm, CampaignCreate(name="Busy", ruleset="wcbh"))
    gm = CommandContext(app.authenticate(created.result_as(TokenMinted).token))
    campaign_id = created.aggregate.id
    story_id = app.start_story(gm, campaign_id, StoryCreate(title="Long")).aggregate.id
    issue_id = app.start_issue(gm, story_id, IssueCreate(title="Many scenes")).aggregate.id
    position = 0
    scene_id = app.open_scene(gm, issue_id, SceneCreate(title="Scene 0")).aggregate.id
    for n in range(1, commands):
        if n % pages_per_scene == 0:
            title = f"Scene {n // pages_per_scene}"
            outcome = app.open_scene(gm, issue_id, SceneCreate(title=title))
            scene_id = outcome.aggregate.id
        else:
            outcome = app.advance_page(gm, scene_id)
        position = outcome.position
    return position
