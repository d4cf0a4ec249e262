"""Nimble's encounter is a system state of the scene (area ``encounter``, Scene.StateChanged), and
the encounter events recorded before that (Scene.NimbleEncounterChanged) rebuild the same state,
in the aggregate and in the scene's view."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from eventsourcing.domain import Aggregate

from domain.aggregates import Scene
from domain.aggregates.scene import NIMBLE
from projections.translation import Translation
from projections.views import scene as scene_view
from systems.nimble.commands.encounter import change, state_of
from tests.aggregates.support import new_events

HERO, GOBLIN = str(uuid4()), str(uuid4())
STARTED = {
    "round": 0,
    "order": [HERO, GOBLIN],
    "round_order": [HERO, GOBLIN],
    "kinds": {HERO: "hero", GOBLIN: "monster"},
    "actions": {HERO: 3},
    "initiative": {HERO: {"roll_id": None, "actions": 3, "surprise": None}},
    "party": "three_actions",
    "monsters_first": False,
}
ACTED = {
    "character_id": HERO,
    "action": "move",
    "cost": 1,
    "free": False,
    "key": None,
    "per": None,
    "round": 0,
    "details": {"squares": 6},
}


def a_scene() -> Scene:
    return Scene.open(uuid4(), uuid4(), uuid4(), "Ruins", "c0", "s0")


def rebuilt(events: list[Any]) -> Scene:
    copy: Aggregate | None = None
    for e in events:
        copy = e.mutate(copy)
    assert isinstance(copy, Scene)
    return copy


def test_an_encounter_change_is_one_state_changed_event_of_the_nimble_area_nb_1() -> None:
    scene = a_scene()
    scene.collect_events()
    change(scene, "started", STARTED)
    [(name, payload)] = new_events(scene)
    assert name == "StateChanged"
    assert (payload["ruleset"], payload["area"], payload["change"]) == (
        NIMBLE,
        "encounter",
        "started",
    )
    assert state_of(scene)["status"] == "running" and state_of(scene)["actions"][HERO] == 3


def test_an_encounter_recorded_before_state_changed_rebuilds_the_same_state_nb_1() -> None:
    old, new = a_scene(), a_scene()
    for name, details in (("started", STARTED), ("acted", ACTED)):
        old._nimble_encounter_changed(name, details, old.page)  # what older logs hold
        change(new, name, details)
    old_events, new_events_ = old.collect_events(), new.collect_events()
    assert [type(e).__name__ for e in old_events][1:] == ["NimbleEncounterChanged"] * 2
    assert state_of(rebuilt(old_events)) == state_of(rebuilt(new_events_)) == state_of(new)
    assert state_of(new)["actions"][HERO] == 2


class _Views:
    """The scene's view and one character's, as the views projection reads them."""

    def __init__(self, scene: Scene) -> None:
        self.docs = {
            "scene": {
                "id": str(scene.id),
                "campaign_id": str(scene.campaign_id),
                "story_id": str(uuid4()),
                "issue_id": str(scene.issue_id),
                "title": "Ruins",
            },
            "character": {"id": HERO, "campaign_id": str(scene.campaign_id), "name": "Nova"},
        }

    def doc(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        return self.docs[kind]


def _view_of(events: list[Any], scene: Scene) -> tuple[dict[str, Any], list[str]]:
    views, texts = _Views(scene), []
    for position, event in enumerate(events, start=1):
        t = Translation(views, event, position)  # type: ignore[arg-type]
        scene_view(t)
        views.docs["scene"] = t.changes.docs[-1].doc
        texts.append(t.changes.steps[-1]["text"])
    return views.docs["scene"], texts


def test_the_scene_view_tells_old_and_new_encounter_events_the_same_nb_1() -> None:
    old, new = a_scene(), a_scene()
    for name, details in (("started", STARTED), ("acted", ACTED)):
        old._nimble_encounter_changed(name, details, old.page)
        change(new, name, details)
    old_doc, old_texts = _view_of(old.collect_events()[1:], old)  # after the scene's opening
    new_doc, new_texts = _view_of(new.collect_events()[1:], new)
    assert old_doc["nimble"] == new_doc["nimble"] == state_of(new)
    assert old_texts == new_texts
    assert new_texts[-1] == "Nova: move (1 action(s))"
