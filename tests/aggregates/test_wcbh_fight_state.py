"""The WCBH fight's page state on a scene is a system state (Scene.state("wcbh", "fight"), changed
by Scene.StateChanged), and the events recorded before (Scene.PageStateSet, AttackFollowedUp) still
rebuild the same state: this page's states, the next page's, and what followed attack rolls."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from eventsourcing.domain import Aggregate

from domain.aggregates import Scene
from systems.wcbh.rules.fight_state import FOLLOWED_UP, PAGE_STATE
from tests.aggregates.support import new_events

NOVA, BOLT, ROLL = uuid4(), uuid4(), uuid4()
MOVED = {"declared": 1, "used": 0, "moved": True, "attacked": []}
LOST = {"declared": 1, "used": 0, "lost_turn": True, "lost_rule": "WCBH-45"}
THROWN = {"target_id": str(BOLT), "distance": 4, "loses_turn_on_page": 2}


def a_scene() -> Scene:
    return Scene.open(uuid4(), uuid4(), uuid4(), "Rooftop", "c0", "s0")


def rebuilt(scene: Scene) -> Scene:
    copy: Aggregate | None = None
    for e in scene.collect_events():
        copy = e.mutate(copy)
    assert isinstance(copy, Scene)
    return copy


def _page(character: Any, page: int, state: dict[str, Any], what: str) -> dict[str, Any]:
    return {"character_id": str(character), "page": page, "state": state, "what": what}


def played_now(scene: Scene) -> None:
    """Nova moves on page 1 and Bolt is knocked back (its page 2 lost); the page turns."""
    scene.change_state("wcbh", "fight", PAGE_STATE, _page(NOVA, 1, MOVED, "moves"))
    scene.change_state("wcbh", "fight", PAGE_STATE, _page(BOLT, 2, LOST, "loses its next turn"))
    followed = {"roll_id": str(ROLL), "kind": "knockback", "character_id": str(NOVA)}
    scene.change_state("wcbh", "fight", FOLLOWED_UP, {**followed, "details": THROWN})


def played_before(scene: Scene) -> None:
    """The same, as older logs hold it."""
    scene._page_state_set(NOVA, 1, MOVED, "moves")
    scene._page_state_set(BOLT, 2, LOST, "loses its next turn")
    scene._attack_followed_up(ROLL, "knockback", NOVA, THROWN, scene.page)


def test_a_change_of_a_characters_page_is_one_state_changed_event() -> None:
    scene = a_scene()
    scene.collect_events()
    played_now(scene)
    names = [name for name, _ in new_events(scene)]
    assert names == ["StateChanged"] * 3
    fight = scene.state("wcbh", "fight")
    assert fight["page"] == {str(NOVA): MOVED} and fight["next_page"] == {str(BOLT): LOST}
    assert fight["follow_ups"][str(ROLL)] == {
        "kind": "knockback",
        "character_id": str(NOVA),
        "page": 1,
        **THROWN,
    }


def test_a_fight_recorded_before_state_changed_rebuilds_the_same_state_page_by_page() -> None:
    old, new = a_scene(), a_scene()
    played_before(old)
    played_now(new)
    assert old.state("wcbh", "fight") == new.state("wcbh", "fight")
    for scene in (old, new):
        scene.advance_page()  # WCBH-25: page 2 starts with what was set for it (Bolt's lost turn)
    assert [type(e).__name__ for e in old.pending_events][1:3] == ["PageStateSet", "PageStateSet"]
    again_old, again_new = rebuilt(old), rebuilt(new)
    assert again_old.state("wcbh", "fight") == again_new.state("wcbh", "fight")
    turned = again_new.state("wcbh", "fight")
    assert turned["page"] == {str(BOLT): LOST} and turned["next_page"] == {}
    assert str(ROLL) in turned["follow_ups"]  # follow-ups outlast their page
