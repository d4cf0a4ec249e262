"""A game system's state on a scene is kept one way (Scene.StateChanged, Ruleset.scene_states),
and the events recorded before that way existed still rebuild the same state."""

from __future__ import annotations

from uuid import uuid4

from eventsourcing.domain import Aggregate

from domain.aggregates import Scene
from domain.aggregates.scene import NWOD
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
