"""WCBH scene play (group checks, contests, chases) is the wcbh system's "play" state on the scene
(Scene.StateChanged), and the events recorded before that way existed rebuild the same state."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from domain.aggregates import Scene
from domain.aggregates.scene import WCBH
from tests.aggregates.support import new_events
from tests.aggregates.test_system_state import a_scene, rebuilt

A, B = uuid4(), uuid4()
GROUP, CONTEST, CHASE = uuid4(), uuid4(), uuid4()
R1, R2 = uuid4(), uuid4()


def old_play(scene: Scene) -> None:
    """A group check, a contest round and a chase page, as older logs recorded them."""
    scene._group_check_opened(GROUP, [str(A), str(B)], 2, "lift the truck", scene.page)
    scene._group_rolled(GROUP, A, R1, 5)
    scene._group_rolled(GROUP, B, R2, 1)
    scene._successes_handed_over(GROUP, A, B, 2)
    scene._contest_started(CONTEST, A, B, 1, "arm wrestling", scene.page)
    scene._contest_rolled(CONTEST, A, R1, 3, 0, False, None)
    scene._contest_rolled(CONTEST, B, R2, 1, 0, True, str(A))
    pairs = [{"pursuer": str(A), "target": str(B)}]
    scene._chase_started(CHASE, pairs, "far", scene.page)
    scene._chase_checked(CHASE, A, R1, 4, 0, None, scene.page, [])
    result = [{"pair": 0, "winner": str(A), "net": 3, "range": "close"}]
    scene._chase_checked(CHASE, B, R2, 1, 0, None, scene.page, result)


def new_play(scene: Scene) -> None:
    """The same play, recorded as changes of the "play" state."""

    def change(name: str, **details: Any) -> None:
        scene.change_state(WCBH, "play", name, details)

    a, b = str(A), str(B)
    change("GroupCheckOpened", group_id=str(GROUP), participants=[a, b], difficulty=2,
           purpose="lift the truck")  # fmt: skip
    change("GroupCheckRolled", group_id=str(GROUP), character_id=a, roll_id=str(R1), successes=5)
    change("GroupCheckRolled", group_id=str(GROUP), character_id=b, roll_id=str(R2), successes=1)
    change("SuccessesHandedOver", group_id=str(GROUP), giver_id=a, receiver_id=b, successes=2)
    change("ContestStarted", contest_id=str(CONTEST), first_id=a, second_id=b, rolls=1,
           purpose="arm wrestling")  # fmt: skip
    rolled = {"contest_id": str(CONTEST), "bonus": 0}
    change("ContestRolled", **rolled, character_id=a, roll_id=str(R1), successes=3,
           decided=False, winner=None)  # fmt: skip
    change("ContestRolled", **rolled, character_id=b, roll_id=str(R2), successes=1,
           decided=True, winner=a)  # fmt: skip
    pairs = [{"pursuer": a, "target": b}]
    change("ChaseStarted", chase_id=str(CHASE), pairs=pairs, distance="far")
    checked = {"chase_id": str(CHASE), "bonus": 0, "shift": None}
    change("ChaseChecked", **checked, character_id=a, roll_id=str(R1), successes=4, results=[])
    result = [{"pair": 0, "winner": a, "net": 3, "range": "close"}]
    change("ChaseChecked", **checked, character_id=b, roll_id=str(R2), successes=1, results=result)


def test_scene_play_is_recorded_as_state_changed_of_the_wcbh_play_state() -> None:
    scene = a_scene()
    scene.collect_events()
    new_play(scene)
    names = {name for name, _ in new_events(scene)}
    assert names == {"StateChanged"}
    play = scene.state(WCBH, "play")
    group = play["group_checks"][str(GROUP)]
    assert (group["rolls"][str(A)]["total"], group["rolls"][str(B)]["total"]) == (3, 3)
    contest = play["contests"][str(CONTEST)]
    assert (contest["finished"], contest["winner"]) == (True, str(A))
    chase = play["chases"][str(CHASE)]
    assert chase["pairs"][0]["range"] == "close" and chase["bonus"][str(A)] == 2


def test_scene_play_recorded_before_state_changed_rebuilds_the_same_state() -> None:
    old, new = a_scene(), a_scene()
    old_play(old)
    new_play(new)
    recorded = [type(e).__name__ for e in old.pending_events]
    assert "GroupCheckOpened" in recorded and "StateChanged" not in recorded
    replayed = rebuilt(old).state(WCBH, "play")
    assert replayed == rebuilt(new).state(WCBH, "play") == new.state(WCBH, "play")
    assert replayed["group_checks"][str(GROUP)]["handovers"][0]["successes"] == 2
    assert UUID(next(iter(new.state(WCBH, "play")["chases"]))) == CHASE
