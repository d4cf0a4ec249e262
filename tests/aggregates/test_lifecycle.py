"""Aggregates: given events → command → new events, for every lifecycle invariant."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import pytest

from domain.aggregates import Campaign, Character, Issue, Mission, Scene, Story
from domain.errors import Conflict, InvalidInput, NotFound
from tests.aggregates.support import HISTORY, given, new_events


def a_campaign() -> Campaign:
    return given(
        Campaign.create(uuid4(), "Night City", "wcbh", {"trait_limit": 10}, uuid4(), "Ann", "h0")
    )


def test_a_campaign_is_created_with_its_gm_as_the_first_member() -> None:
    campaign = Campaign.create(uuid4(), " Night City ", "wcbh", {}, uuid4(), "Ann", "h0")
    [(name, payload)] = new_events(campaign)
    assert name == "Created"
    assert payload["name"] == "Night City"
    assert [m.role for m in campaign.members.values()] == ["gm"]


def test_a_campaign_with_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(InvalidInput) as error:
        Campaign.create(uuid4(), "X", "dnd5e", {}, uuid4(), "Ann", "h0")
    assert error.value.field == "ruleset"


def test_a_campaign_needs_a_name() -> None:
    with pytest.raises(InvalidInput) as error:
        Campaign.create(uuid4(), "   ", "wcbh", {}, uuid4(), "Ann", "h0")
    assert error.value.field == "name"


def test_a_player_joins_with_a_role_and_a_token_hash() -> None:
    campaign = a_campaign()
    member_id = uuid4()
    campaign.join(member_id, "Bo", "player", "h1")
    assert new_events(campaign) == [
        (
            "MemberJoined",
            {
                "member_id": member_id,
                "name": "Bo",
                "role": "player",
                "token_hash": "h1",
                "token_expires_at": None,
            },
        )
    ]
    assert campaign.members[member_id].role == "player"


def a_campaign_with(member_id: UUID) -> Campaign:
    campaign = a_campaign()
    campaign.join(member_id, "Bo", "player", "h1")
    return given(campaign)


def test_a_rotated_token_replaces_the_hash_and_may_expire() -> None:
    member_id = uuid4()
    campaign = a_campaign_with(member_id)
    campaign.rotate_token(member_id, "h2", "2027-01-01T00:00:00+00:00")
    assert new_events(campaign) == [
        (
            "TokenRotated",
            {
                "member_id": member_id,
                "token_hash": "h2",
                "token_expires_at": "2027-01-01T00:00:00+00:00",
            },
        )
    ]
    assert campaign.members[member_id].token_hash == "h2"


def test_a_revoked_token_leaves_no_hash_and_is_revoked_once() -> None:
    member_id = uuid4()
    campaign = a_campaign_with(member_id)
    campaign.revoke_token(member_id)
    assert new_events(campaign) == [("TokenRevoked", {"member_id": member_id})]
    assert campaign.members[member_id].token_hash is None
    with pytest.raises(Conflict):
        campaign.revoke_token(member_id)


def test_the_gm_keeps_its_token_and_its_seat() -> None:
    campaign = a_campaign()
    gm = campaign.gm.id
    for refused in (campaign.revoke_token, campaign.remove_member):
        with pytest.raises(Conflict) as error:
            refused(gm)
        assert error.value.field == "member_id"
    with pytest.raises(InvalidInput) as invalid:
        campaign.rotate_token(gm, "h9", "2027-01-01T00:00:00+00:00")
    assert invalid.value.field == "expires_in"
    assert new_events(campaign) == []


def test_a_removed_member_is_gone() -> None:
    member_id = uuid4()
    campaign = a_campaign_with(member_id)
    campaign.remove_member(member_id)
    assert new_events(campaign) == [("MemberRemoved", {"member_id": member_id})]
    assert member_id not in campaign.members
    with pytest.raises(NotFound):
        campaign.remove_member(member_id)


def test_the_campaign_knows_its_open_scenes() -> None:
    campaign = a_campaign()
    one, two = uuid4(), uuid4()
    campaign.note_scene_opened(one)
    campaign.note_scene_opened(two)
    campaign.note_scene_closed(one)
    campaign.note_scene_closed(uuid4())  # a scene from before the list existed: nothing to note
    assert [name for name, _ in new_events(campaign)] == [
        "SceneOpened",
        "SceneOpened",
        "SceneClosed",
    ]
    assert campaign.open_scene_ids == [two]


def an_old_campaign() -> Campaign:
    """A campaign as logs from before it kept its open scenes hold it: its Created event has no
    `open_scenes_known` (and a scene opened back then left no SceneOpened on it)."""
    created = Campaign.create(uuid4(), "Night City", "wcbh", {}, uuid4(), "Ann", "h0")
    [event] = created.collect_events()
    del event.__dict__["open_scenes_known"]  # what the old Created event recorded
    HISTORY[created.id] = [event]
    return _replayed([event])


def _replayed(events: list[Any]) -> Campaign:
    campaign: Any = None
    for event in events:
        campaign = event.mutate(campaign)
    assert isinstance(campaign, Campaign)
    return campaign


def test_a_new_campaign_knows_all_its_open_scenes_from_the_start() -> None:
    campaign = a_campaign()
    assert campaign.open_scenes_known
    with pytest.raises(Conflict):
        campaign.note_open_scenes([uuid4()])
    assert new_events(campaign) == []


def test_a_campaign_from_an_old_log_does_not_claim_to_know_its_open_scenes() -> None:
    campaign = an_old_campaign()
    assert (campaign.open_scenes_known, campaign.open_scene_ids) == (False, [])


def test_an_old_campaign_notes_the_open_scenes_its_game_issues_hold_once() -> None:
    campaign = an_old_campaign()
    old, later = uuid4(), uuid4()
    campaign.note_scene_opened(later)  # a scene opened since the campaign kept the list
    campaign.note_open_scenes([later, old])  # what its game Issues hold
    rebuilt = given(campaign)
    assert [type(e).__name__ for e in HISTORY[campaign.id][1:]] == [
        "SceneOpened",
        "OpenScenesFound",
    ]
    assert (rebuilt.open_scenes_known, rebuilt.open_scene_ids) == (True, [later, old])
    rebuilt.note_scene_closed(old)  # the old scene now closes on the campaign too
    assert [name for name, _ in new_events(rebuilt)] == ["SceneClosed"]
    assert rebuilt.open_scene_ids == [later]
    with pytest.raises(Conflict):
        rebuilt.note_open_scenes([])


@pytest.mark.parametrize("role", ["gm", "admin", ""])
def test_only_players_and_observers_join(role: str) -> None:
    campaign = a_campaign()
    with pytest.raises(InvalidInput) as error:
        campaign.join(uuid4(), "Bo", role, "h1")
    assert error.value.field == "role"
    assert new_events(campaign) == []


def test_a_member_cannot_join_twice() -> None:
    campaign = a_campaign()
    member_id = uuid4()
    campaign.join(member_id, "Bo", "player", "h1")
    campaign = given(campaign)
    with pytest.raises(Conflict):
        campaign.join(member_id, "Bo", "player", "h1")


def a_story() -> Story:
    return given(Story.start(uuid4(), "The Heist"))


def test_a_game_issue_begins_in_a_running_story() -> None:
    story = a_story()
    issue_id = uuid4()
    story.begin_issue(issue_id)
    assert new_events(story) == [("GameIssueBegan", {"issue_id": issue_id})]
    assert story.running_issue_id == issue_id


def test_only_one_game_issue_runs_per_story() -> None:
    story = a_story()
    story.begin_issue(uuid4())
    story = given(story)
    with pytest.raises(Conflict) as error:
        story.begin_issue(uuid4())
    assert error.value.code == "issue_running"
    assert new_events(story) == []


def test_a_new_game_issue_may_begin_once_the_last_one_finished() -> None:
    story = a_story()
    first, second = uuid4(), uuid4()
    story.begin_issue(first)
    story.finish_issue(first)
    story = given(story)
    story.begin_issue(second)
    assert [name for name, _ in new_events(story)] == ["GameIssueBegan"]
    assert story.issue_ids == [first, second]


def test_a_story_with_a_running_game_issue_cannot_complete() -> None:
    story = a_story()
    story.begin_issue(uuid4())
    story = given(story)
    with pytest.raises(Conflict):
        story.complete()


def test_a_completed_story_starts_no_game_issue() -> None:
    story = a_story()
    story.complete()
    story = given(story)
    assert story.status == "completed"
    with pytest.raises(Conflict) as error:
        story.begin_issue(uuid4())
    assert error.value.code == "story_completed"


def an_issue() -> Issue:
    return given(Issue.start(uuid4(), uuid4(), "Issue #1", 1))


def test_a_scene_opens_in_a_running_game_issue() -> None:
    issue = an_issue()
    scene_id = uuid4()
    issue.add_scene(scene_id)
    assert new_events(issue) == [("SceneAdded", {"scene_id": scene_id})]
    assert issue.open_scene_ids == [scene_id]


def test_a_scene_does_not_open_in_an_ended_game_issue() -> None:
    issue = an_issue()
    issue.end()
    issue = given(issue)
    with pytest.raises(Conflict) as error:
        issue.add_scene(uuid4())
    assert error.value.code == "issue_ended"
    assert new_events(issue) == []


def test_a_game_issue_ends_once() -> None:
    issue = an_issue()
    issue.end()
    issue = given(issue)
    with pytest.raises(Conflict):
        issue.end()


def a_scene() -> Scene:
    return given(Scene.open(uuid4(), uuid4(), uuid4(), "The vault", "c0" * 32, "sealed-0"))


def test_advancing_a_page_counts_up_from_one() -> None:
    scene = a_scene()
    assert scene.page == 1
    scene.advance_page()
    scene.advance_page()
    assert new_events(scene) == [("PageAdvanced", {"page": 2}), ("PageAdvanced", {"page": 3})]


def test_a_closed_scene_advances_no_page_and_closes_once() -> None:
    scene = a_scene()
    scene.close("ab" * 32)
    scene = given(scene)
    with pytest.raises(Conflict):
        scene.advance_page()
    with pytest.raises(Conflict):
        scene.close("ab" * 32)
    assert new_events(scene) == []


def test_rolls_in_a_scene_take_consecutive_nonces() -> None:
    scene = a_scene()
    first, second = uuid4(), uuid4()
    assert scene.take_nonce(first)[0] == 0
    assert scene.take_nonce(second)[0] == 1
    assert new_events(scene) == [
        ("RollMade", {"roll_id": first, "epoch": 0, "nonce": 0}),
        ("RollMade", {"roll_id": second, "epoch": 0, "nonce": 1}),
    ]


def test_a_closed_scene_takes_no_roll() -> None:
    scene = a_scene()
    scene.close("ab" * 32)
    scene = given(scene)
    with pytest.raises(Conflict) as error:
        scene.take_nonce(uuid4())
    assert error.value.code == "scene_closed"


def test_closing_reveals_the_seed_and_forgets_the_sealed_copy() -> None:
    scene = a_scene()
    scene.close("ab" * 32)
    [(name, payload)] = new_events(scene)
    assert (name, payload) == ("Closed", {"revealed_seed": "ab" * 32})
    assert (scene.epoch.revealed_seed, scene.epoch.sealed_seed) == ("ab" * 32, None)


def test_rotating_reveals_the_old_seed_and_restarts_nonces_under_the_new_one() -> None:
    scene = a_scene()
    scene.take_nonce(uuid4())
    scene.rotate_seed("ab" * 32, "c1" * 32, "sealed-1")
    scene = given(scene)
    assert [e.revealed_seed for e in scene.epochs] == ["ab" * 32, None]
    nonce, epoch = scene.take_nonce(uuid4())
    assert (nonce, epoch.number, epoch.commitment) == (0, 1, "c1" * 32)


@pytest.mark.parametrize("side", ["hero", "villain", "opponent", "minion", "other"])
def test_a_character_has_one_of_the_five_sides(side: str) -> None:
    character = Character.create(uuid4(), "Nova", side, None, {"x": 1})
    [(name, payload)] = new_events(character)
    assert (name, payload["side"]) == ("Created", side)


def test_a_character_with_an_unknown_side_is_refused() -> None:
    with pytest.raises(InvalidInput) as error:
        Character.create(uuid4(), "Nova", "sidekick", None, {})
    assert error.value.field == "side"


def test_spending_a_resource_is_recorded_and_never_goes_below_zero() -> None:
    character = given(Character.create(uuid4(), "Nova", "hero", None, {}, {"resolve": 2}))
    character.spend({"resolve": 2}, reason="reroll")
    assert new_events(character) == [
        ("ResourceSpent", {"resource": "resolve", "amount": 2, "reason": "reroll"})
    ]
    with pytest.raises(Conflict) as error:
        character.spend({"resolve": 1}, reason="again")
    assert error.value.details == {"resource": "resolve", "have": 0, "needed": 1}
    assert new_events(character) == []


def test_a_sheet_change_is_an_event_with_its_reason_and_the_levels_kept() -> None:
    character = given(Character.create(uuid4(), "Nova", "hero", None, {"a": 1}, {"health": 9}))
    character.change_sheet({"a": 2}, " trained ", {"health": 5})
    assert new_events(character) == [
        (
            "SheetChanged",
            {"sheet": {"a": 2}, "reason": "trained", "resources": {"health": 5}, "change_id": None},
        )
    ]
    assert (character.sheet, character.resources) == ({"a": 2}, {"health": 5})


def test_a_sheet_change_needs_a_reason() -> None:
    character = given(Character.create(uuid4(), "Nova", "hero", None, {"a": 1}))
    with pytest.raises(InvalidInput) as error:
        character.change_sheet({"a": 2}, "  ", {})
    assert error.value.field == "reason"


def test_a_proposal_waits_replaces_the_pending_one_and_is_decided_once() -> None:
    player = uuid4()
    character = given(Character.create(uuid4(), "Nova", "hero", player, {"a": 1}))
    first, second = uuid4(), uuid4()
    character.propose_sheet(first, {"a": 2}, "more a", player)
    character.propose_sheet(second, {"a": 3}, "even more", player)
    assert [p["replaces"] for _, p in new_events(character)] == [None, first]
    assert character.sheet == {"a": 1}
    assert character.sheet_changes[str(first)]["status"] == "replaced"
    with pytest.raises(Conflict):
        character.change_sheet({"a": 2}, "more a", {}, first)
    character.change_sheet({"a": 3}, "even more", {}, second)
    assert character.sheet_changes[str(second)]["status"] == "approved"
    with pytest.raises(Conflict):
        character.decline_sheet_change(second, "too late")
    with pytest.raises(NotFound):
        character.decline_sheet_change(uuid4(), None)


def a_mission() -> Mission:
    return given(Mission.create(uuid4(), "Break in", None, None))


def test_a_mission_ends_with_an_outcome_cd_21() -> None:
    mission = a_mission()
    mission.end("lost_to_rivals")
    assert new_events(mission) == [("Ended", {"outcome": "lost_to_rivals"})]
    assert mission.status == "ended"


def test_a_mission_has_one_attempt_cd_21() -> None:
    mission = a_mission()
    mission.end("aborted")
    mission = given(mission)
    with pytest.raises(Conflict) as error:
        mission.end("completed")
    assert error.value.rule == "CD-21"
    assert new_events(mission) == []


def test_a_mission_outcome_must_be_known() -> None:
    with pytest.raises(InvalidInput) as error:
        a_mission().end("won")
    assert error.value.field == "outcome"
