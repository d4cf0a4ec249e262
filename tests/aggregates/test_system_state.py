"""A game system's state on a scene is kept one way (Scene.StateChanged, Ruleset.scene_states),
and the events recorded before that way existed still rebuild the same state."""

from __future__ import annotations

from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from domain.aggregates import Scene
from domain.aggregates.scene import CLASSD, NWOD
from tests.aggregates.support import new_events


def a_scene() -> Scene:
    return Scene.open(uuid4(), uuid4(), uuid4(), "Docks", "c0", "s0")


def rebuilt(scene: Scene) -> Scene:
    """The scene as a repository rebuilds it from its recorded events."""
    events = scene.collect_events()
    copy: Aggregate | None = None
    for e in events:
        copy = e.mutate(copy)
    assert isinstance(copy, Scene)
    return copy


def test_a_change_of_a_systems_state_is_one_state_changed_event_that_rebuilds_the_state() -> None:
    scene = a_scene()
    scene.collect_events()
    scene.change_state(
        NWOD,
        "fight",
        "initiative",
        {"character_id": "a", "roll": 7, "bonus": 2, "modifier": 0, "total": 9},
    )
    [(name, payload)] = new_events(scene)
    assert name == "StateChanged"
    assert (payload["ruleset"], payload["area"], payload["change"]) == (NWOD, "fight", "initiative")
    assert scene.state(NWOD, "fight")["initiative"]["a"]["total"] == 9


def test_a_firefight_recorded_before_state_changed_rebuilds_the_same_state() -> None:
    details = {"character_id": "a", "roll": 7, "bonus": 2, "modifier": 0, "total": 9}
    old, new = a_scene(), a_scene()
    old._nwod_fight_changed("initiative", details, old.page)  # what older logs hold
    new.change_state(NWOD, "fight", "initiative", details)
    assert [type(e).__name__ for e in old.pending_events][-1] == "NwodFightChanged"
    fights = [s.state(NWOD, "fight") for s in (rebuilt(old), rebuilt(new), new)]
    assert fights[0] == fights[1] == fights[2]


def test_a_class_d_round_recorded_before_state_changed_rebuilds_the_same_state() -> None:
    hero, villain = str(uuid4()), str(uuid4())
    old, new = a_scene(), a_scene()
    # What older logs hold: one event type per change of the round, with its own field names.
    old._classd_acted(UUID(hero), "attack:melee", False)
    old._classd_reacted(UUID(villain), "melee", True)
    old._classd_engaged(UUID(hero), UUID(villain), "heroes")
    old._classd_turn_ended(old.page)
    old._classd_stop_attempted(UUID(hero), UUID(villain), False)
    old._classd_shield_changed(UUID(villain), None, "the mayor")
    new.change_state(CLASSD, "round", "acted", {"character_id": hero, "action": "attack:melee"})
    new.change_state(
        CLASSD, "round", "reacted", {"character_id": villain, "attack_type": "melee", "spent": True}
    )
    new.change_state(
        CLASSD, "round", "engaged", {"character_id": hero, "target_id": villain, "side": "heroes"}
    )
    new.change_state(CLASSD, "round", "turn_ended", {"round": new.page})
    new.change_state(
        CLASSD,
        "round",
        "stop_attempted",
        {"character_id": hero, "villain_id": villain, "stopped": False},
    )
    new.change_state(
        CLASSD,
        "round",
        "shield_changed",
        {"character_id": villain, "hostage_id": None, "hostage": "the mayor"},
    )
    assert {type(e).__name__ for e in new.pending_events[1:]} == {"StateChanged"}
    round_ = rebuilt(new).state(CLASSD, "round")
    assert rebuilt(old).state(CLASSD, "round") == round_ == new.state(CLASSD, "round")
    assert round_["turn"] == "villains" and round_["reactions"] == {villain: ["melee"]}
    assert round_["stops"][hero] == {"villain_id": villain, "stopped": False}
    assert round_["shields"][villain]["hostage"] == "the mayor"
