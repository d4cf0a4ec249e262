"""A campaign from before it kept its open scenes (Campaign.SceneOpened) still holds players'
sheet changes back while a scene opened back then is open: its game Issues know that scene, and
the campaign notes what they hold the first time a player's change asks (setting
player_sheet_changes = outside_scenes)."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Campaign
from domain.errors import Conflict
from domain.requests import SheetReplace
from tests.app.table import Table


@pytest.fixture
def old_style_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Campaigns are created as old logs hold them: their Created event has no
    `open_scenes_known`."""
    create = Campaign.create

    def old_create(cls: type[Campaign], *args: Any, **kwargs: Any) -> Campaign:
        campaign = create(*args, **kwargs)
        [event] = campaign.pending_events
        del event.__dict__["open_scenes_known"]  # stored without it, so read back as unknown
        campaign.open_scenes_known = False  # and the cached copy says the same
        return campaign

    monkeypatch.setattr(Campaign, "create", classmethod(old_create))


def scene_opened_before_the_list(t: Table, monkeypatch: pytest.MonkeyPatch) -> UUID:
    """A scene opened by the code of back then: the game Issue notes it, the campaign does not."""
    with monkeypatch.context() as m:
        m.setattr(Campaign, "note_scene_opened", lambda self, scene_id: None)
        return t.scene()


def change(t: Table, hero: UUID) -> Any:
    sheet = copy.deepcopy(t.rules.example_sheet())
    sheet["abilities"]["Strength"] += 1
    return t.run(t.player, "change_sheet", hero, SheetReplace(sheet=sheet, reason="trained"))


def campaign_events(t: Table) -> list[str]:
    return [type(e).__name__ for e in t.app.events.get(t.campaign_id)]


def test_a_scene_opened_before_the_campaign_kept_the_list_blocks_a_players_sheet_change(
    old_style_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Table("wcbh")
    hero = t.character("Nova", owner=t.player)
    scene = scene_opened_before_the_list(t, monkeypatch)
    assert t.app.repository.get(t.campaign_id).open_scene_ids == []  # what the old log shows
    before = t.position()
    with pytest.raises(Conflict) as refused:
        change(t, hero)
    assert refused.value.code == "scene_open"
    assert refused.value.details["open_scene_ids"] == [str(scene)]
    assert t.position() == before  # a refusal writes nothing, the noted scenes included
    t.gm_runs("close_scene", scene)
    change(t, hero)
    assert campaign_events(t)[-1] == "OpenScenesFound"
    campaign: Any = t.app.repository.get(t.campaign_id)
    assert (campaign.open_scenes_known, campaign.open_scene_ids) == (True, [])


def test_once_noted_the_campaign_keeps_its_open_scenes_itself(
    old_style_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Table("wcbh")
    hero = t.character("Nova", owner=t.player)
    change(t, hero)  # no scene open: noted as such
    scene = t.scene()  # opened now: the campaign notes it itself
    with pytest.raises(Conflict) as refused:
        change(t, hero)
    assert refused.value.details["open_scene_ids"] == [str(scene)]
    t.gm_runs("close_scene", scene)
    change(t, hero)
    assert campaign_events(t).count("OpenScenesFound") == 1


def test_a_new_campaign_never_looks_for_open_scenes_in_its_game_issues() -> None:
    t = Table("wcbh")
    hero = t.character("Nova", owner=t.player)
    change(t, hero)
    assert "OpenScenesFound" not in campaign_events(t)
