"""The order of action enforced (issue #15: computed but never enforced; delays only in the
library): WCBH-22..24 through the application, in memory."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

import pytest

from domain.errors import Conflict, Forbidden
from domain.requests import ActFirst, CombatantsJoin
from systems.wcbh.requests import (
    DelayCreate,
    FightAttackCreate,
    MomentCreate,
    MoveCreate,
    OrderOverrideCreate,
    TurnPassCreate,
)
from tests.app.table import Table


def sheet(t: Table, perception: int, agility: int) -> dict[str, Any]:
    """Health 10 (Stamina, Strength, Will 10), so that the pokes below (Intelligence 1: at most 2
    successes) never defeat anyone: the tests are about the order, whatever the dice."""
    value = copy.deepcopy(t.rules.example_sheet())
    value["abilities"].update(
        Perception=perception, Agility=agility, Intelligence=1, Stamina=10, Strength=10, Will=10
    )
    return value


def fight() -> tuple[Table, UUID, UUID, UUID, UUID]:
    """Quick (Edge 12) acts first, then Nova (hero, Edge 9), then Dr. Null (villain, Edge 9)."""
    t = Table("wcbh", {"trait_limit": 12})  # Resolve 2 x (12 - 10) = 4 each (WCBH-17)
    quick = t.character("Quick", "opponent", sheet(t, 6, 6))
    nova = t.character("Nova", "hero", sheet(t, 4, 5), owner=t.player)
    null = t.character("Dr. Null", "villain", sheet(t, 5, 4))
    scene = t.scene()
    t.gm_runs("join_fight", scene, CombatantsJoin(character_ids=[null, nova, quick]))
    return t, scene, quick, nova, null


def zap(attacker: UUID, target: UUID, trait: str = "Intelligence") -> FightAttackCreate:
    return FightAttackCreate(attacker_id=attacker, target_id=target, trait=trait)


def refused(t: Table, actor: Any, verb: str, *args: Any) -> Conflict:
    before = t.position()
    with pytest.raises(Conflict) as caught:
        t.run(actor, verb, *args)
    assert t.position() == before  # a refusal writes nothing
    return caught.value


def test_acting_out_of_the_order_is_refused_until_the_turn_comes_wcbh_22_23() -> None:
    t, scene, quick, nova, null = fight()
    early = refused(t, t.player, "attack", scene, zap(nova, null))
    assert (early.code, early.rule, early.details) == (
        "not_your_turn",
        "WCBH-22",
        {"now": [str(quick)]},
    )
    assert refused(t, t.player, "move", scene, MoveCreate(character_id=nova)).rule == "WCBH-22"
    t.gm_runs("attack", scene, zap(quick, null))  # Quick's turn (its one action: done)
    assert refused(t, t.gm, "attack", scene, zap(null, nova)).rule == "WCBH-22"  # Nova wins the tie
    t.run(t.player, "attack", scene, zap(nova, quick))
    t.run(t.player, "move", scene, MoveCreate(character_id=nova))  # its move after its action
    t.gm_runs("attack", scene, zap(null, nova))
    t.gm_runs("advance_page", scene)  # a new page: the order starts again
    assert refused(t, t.gm, "attack", scene, zap(null, nova)).rule == "WCBH-22"


def test_a_delayed_action_waits_for_its_moment_then_goes_first_wcbh_23() -> None:
    t, scene, quick, nova, null = fight()
    t.gm_runs("pass_turn", scene, TurnPassCreate(character_id=quick))
    t.run(t.player, "delay", scene, DelayCreate(character_id=nova, moment="when Null draws"))
    again = refused(t, t.player, "delay", scene, DelayCreate(character_id=nova, moment="later"))
    assert again.rule == "WCBH-23"
    assert refused(t, t.player, "attack", scene, zap(nova, null)).rule == "WCBH-22"  # waits
    no_one = refused(t, t.gm, "moment_came", scene, MomentCreate(moment="at dawn"))
    assert (no_one.field, no_one.rule) == ("moment", "WCBH-23")
    with pytest.raises(Forbidden):
        t.run(t.player, "moment_came", scene, MomentCreate(moment="when Null draws"))
    t.gm_runs("moment_came", scene, MomentCreate(moment="When Null draws "))
    assert refused(t, t.gm, "attack", scene, zap(null, nova)).rule == "WCBH-23"  # Nova first
    t.run(t.player, "attack", scene, zap(nova, null))
    t.gm_runs("attack", scene, zap(null, quick))


def test_the_gms_override_lets_a_character_act_out_of_order_and_is_recorded_wcbh_22() -> None:
    t, scene, _, nova, null = fight()
    override = OrderOverrideCreate(character_id=null, reason="the trap springs first")
    with pytest.raises(Forbidden):
        t.run(t.player, "override_order", scene, override)
    t.gm_runs("override_order", scene, override)
    t.gm_runs("attack", scene, zap(null, nova))
    logged = [
        e["payload"]["details"]
        for e in t.export()
        if e.get("type") == "Scene.StateChanged" and "out of the order" in str(e["payload"])
    ]
    assert [d["character_id"] for d in logged] == [str(null)]
    assert logged[0]["state"]["gm_override"] == "the trap springs first"


def test_acting_first_for_resolve_moves_the_character_to_the_front_wcbh_24() -> None:
    t, scene, quick, nova, null = fight()
    t.run(t.player, "act_first", scene, ActFirst(character_id=nova))
    assert refused(t, t.gm, "attack", scene, zap(quick, null)).rule == "WCBH-22"
    t.run(t.player, "attack", scene, zap(nova, quick))


def test_a_character_outside_the_fight_is_refused_while_a_fight_runs_wcbh_22() -> None:
    t, scene, _, nova, _ = fight()
    stranger = t.character("Stranger", "villain")
    outside = refused(t, t.gm, "attack", scene, zap(stranger, nova))
    assert (outside.code, outside.rule) == ("not_in_the_fight", "WCBH-22")


def test_two_of_one_side_with_equal_edge_may_knock_each_other_out_wcbh_23() -> None:
    t = Table("wcbh", {"trait_limit": 10})
    frail = copy.deepcopy(t.rules.example_sheet())
    frail["abilities"].update(
        Agility=1, Strength=1, Stamina=1, Will=1, Perception=4, Intelligence=5
    )
    for n in range(10):  # fair dice: until Bolt's one bolt defeats frail Nova (Health 1)
        nova = t.character(f"Nova {n}", "hero", frail, owner=t.player)  # Edge 4 + 5 = 9
        bolt = t.character(f"Bolt {n}", "hero", sheet(t, 4, 5), owner=t.other_player)  # Edge 9
        scene = t.scene()
        t.gm_runs("join_fight", scene, CombatantsJoin(character_ids=[nova, bolt]))
        hit = t.record(t.run(t.other_player, "attack", scene, zap(bolt, nova, "Lightning Bolt")))
        if hit["result"]["defeated"]:
            break
    else:
        raise AssertionError("ten bolts and no defeat")
    t.run(t.player, "attack", scene, zap(nova, bolt))  # simultaneous: she still strikes back
    again = refused(t, t.player, "attack", scene, zap(nova, bolt))
    assert again.rule in ("WCBH-31", "WCBH-25")  # but only the one action she had
