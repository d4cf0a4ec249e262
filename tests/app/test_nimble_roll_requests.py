"""A Nimble roll request recorded before the commands took their request models whole (its
arguments then stored one by one) is approved the same way: the GM's modifiers go in, the command
runs with its request model revived from the fields (NB-11, NB-26)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.commands import ApprovalNeeded, CommandContext
from domain.requests import RollRequestApproval
from systems.nimble.requests import NimbleCoverCreate, NimbleStartCreate
from systems.nimble.rules.examples import OTHER_SIDES
from tests.app.table import Table


def test_a_hide_asked_before_request_models_were_whole_is_approved_as_recorded_nb_26() -> None:
    t = Table("nimble", {"player_modifiers": "gm_approval"})
    scene = t.scene()
    hero = t.character("Nova", owner=t.player)
    t.run(t.player, "nimble_take_cover", hero, NimbleCoverCreate(scene_id=scene, level="partial"))
    # What the player's POST .../hide with advantage 1 recorded before: the fields one by one.
    old: dict[str, Any] = {
        "character_id": str(hero),
        "scene_id": str(scene),
        "advantage": 1,
        "disadvantage": 0,
        "client_seed": "old-one",
    }
    asked = ApprovalNeeded(scene, hero, {"advantage": 1}, ("advantage", "disadvantage"), "")
    request = t.app._ask_gm(CommandContext(t.player), "nimble_hide", old, asked, "").aggregate
    approved = t.gm_runs(
        "approve_roll_request", request.id, RollRequestApproval(modifiers={"advantage": 2})
    )
    roll_id = UUID(str(approved.aggregate.result_id))  # type: ignore[attr-defined]
    record = t.app.repository.get(roll_id).record
    assert record["check"] == "skill" and record["character_id"] == str(hero)
    assert record["request"]["advantage"] == 2  # the GM's, put into the revived request model
    assert record["client_seed"] == "old-one" and record["rolled_by"] == str(t.player.member_id)


def test_an_attack_asked_before_sheet_tiers_is_approved_and_pays_the_sheet_s_tier_nb_12() -> None:
    """An attack request stored before tiers (its old default `spell_tier: 0`, no `extra_mana`)
    still revives; run now, it pays what the sheet says (a weapon: nothing)."""
    t = Table("nimble", {"player_modifiers": "gm_approval"})
    scene = t.scene()
    hero = t.character("Nova", owner=t.player)
    rats = t.character("Rats", "opponent", OTHER_SIDES["minion"])
    t.gm_runs("nimble_start", scene, NimbleStartCreate(order=[hero, rats], party="three_actions"))
    old: dict[str, Any] = {
        "attacker_id": str(hero),
        "target_id": str(rats),
        "attack": "Greataxe",
        "advantage": 1,
        "disadvantage": 0,
        "spell_tier": 0,
        "opportunity": False,
        "defend": False,
        "interpose_by": None,
        "hold": False,
        "purpose": "",
        "client_seed": "old-one",
    }
    asked = ApprovalNeeded(scene, hero, {"advantage": 1}, ("advantage", "disadvantage"), "")
    ctx = CommandContext(t.player)
    arguments = {"scene_id": str(scene), "body": old}
    request = t.app._ask_gm(ctx, "nimble_attack", arguments, asked, "body").aggregate
    approved = t.gm_runs("approve_roll_request", request.id, RollRequestApproval(modifiers={}))
    roll_id = UUID(str(approved.aggregate.result_id))  # type: ignore[attr-defined]
    assert t.app.repository.get(roll_id).record["request"]["attack"] == "Greataxe"
    assert t.app.repository.get(hero).resources["mana"] == 0
