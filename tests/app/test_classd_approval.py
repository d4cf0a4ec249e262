"""A Class D player's advantages wait for the GM under gm_approval (CD-5): the approved attack
runs with the request model its roll request holds, and a request recorded before the commands
took their request models whole (its arguments stored one by one) is approved the same."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.aggregates import Roll, RollRequest, Scene
from domain.commands import ApprovalNeeded, CommandContext, Outcome
from domain.requests import RollRequestApproval
from systems.classd.requests import ClassDAttackCreate
from tests.app.table import Table

VILLAIN = {"might": 2, "speed": 2, "spirit": 1, "health": 30, "will": 0, "rank": "henchman"}


def a_fight() -> tuple[Table, UUID, UUID, UUID]:
    t = Table("classd", {"player_modifiers": "gm_approval"})
    scene = t.scene()
    hero = t.character("Nova", "hero", owner=t.player)
    villain = t.character("Goon", "villain", VILLAIN)
    return t, scene, hero, villain


def approved(t: Table, asked: Outcome) -> Roll:
    request = asked.aggregate
    assert isinstance(request, RollRequest) and request.verb == "classd_attack"
    done = t.gm_runs("approve_roll_request", request.id, RollRequestApproval())
    assert isinstance(done.aggregate, RollRequest)
    roll = next(a for a in done.saved if isinstance(a, Roll))
    assert isinstance(next(a for a in done.saved if isinstance(a, Scene)), Scene)
    return roll


def test_an_attack_with_advantage_waits_for_the_gm_and_runs_once_approved_cd_5() -> None:
    t, scene, hero, villain = a_fight()
    body = ClassDAttackCreate(
        attacker_id=hero, target_id=villain, attack_type="melee", advantage=1, client_seed="s"
    )
    asked = t.run(t.player, "classd_attack", scene, body)
    assert isinstance(asked.aggregate, RollRequest)
    assert asked.aggregate.arguments["body"]["advantage"] == 1
    roll = approved(t, asked)
    assert roll.record["request"]["advantage"] == 1
    assert roll.record["check"] == "hero_attack"


def test_a_request_recorded_with_its_arguments_one_by_one_is_approved_the_same_cd_5() -> None:
    t, scene, hero, villain = a_fight()
    # The arguments as the command recorded them while it took each field as a parameter.
    flat: dict[str, Any] = {
        "scene_id": str(scene),
        "attacker_id": str(hero),
        "target_id": str(villain),
        "attack_type": "melee",
        "advantage": 1,
        "client_seed": "s",
    }
    pending = ApprovalNeeded(scene, hero, {"advantage": 1}, ("advantage", "disadvantage"), "")
    asked = t.app._ask_gm(CommandContext(t.player), "classd_attack", flat, pending, "")
    roll = approved(t, asked)
    assert roll.record["request"]["advantage"] == 1
    assert roll.record["request"]["attack_type"] == "melee"
