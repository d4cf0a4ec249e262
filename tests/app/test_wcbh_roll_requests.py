"""Roll requests of WCBH scene play recorded before its commands took their request models whole
(arguments stored one by one, helpers as [character_id, trait] pairs) are still approved by the GM,
and rolled as the player asked (in memory, no HTTP)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.aggregates import Roll
from domain.commands import ApprovalNeeded, CommandContext
from domain.requests import RollRequestApproval
from systems.wcbh.commands.scene_play import Assisted, PlayStateChanged
from systems.wcbh.requests import ContestCreate
from tests.app.table import Table


def an_old_request(table: Table, verb: str, arguments: dict[str, Any], hero: UUID) -> UUID:
    """A roll request as the command runner recorded it before (`_ask_gm` with flat arguments)."""
    scene = UUID(str(arguments["scene_id"]))
    pending = ApprovalNeeded(scene, hero, {"modifier": 1}, ("modifier", "difficulty"), "request")
    asked = table.app._ask_gm(CommandContext(table.player), verb, arguments, pending, pending.path)
    return asked.aggregate.id  # type: ignore[no-any-return]


def test_an_old_assisted_roll_request_with_helper_pairs_is_approved_and_rolled_wcbh_10() -> None:
    table = Table("wcbh", {"player_modifiers": "gm_approval"})
    hero = table.character("Nova", owner=table.player)
    helper = table.character("Bolt", owner=table.player)
    scene = table.scene()
    arguments = {
        "scene_id": str(scene),
        "character_id": str(hero),
        "request": {"trait": "Agility", "modifier": 1},
        "helpers": [[str(helper), "Strength"]],
        "client_seed": "old",
    }
    request_id = an_old_request(table, "assisted_roll", arguments, hero)
    approved = table.gm_runs("approve_roll_request", request_id, RollRequestApproval())
    saved = {type(a).__name__: a for a in approved.saved}
    rolls = [a for a in approved.saved if isinstance(a, Roll)]
    assert {r.record["character_id"] for r in rolls} == {str(hero), str(helper)}
    helped = next(r for r in rolls if r.record["character_id"] == str(hero))
    assert helped.record["client_seed"] == "old"
    assert helped.record["request"]["modifier"] >= 1  # the player's own, plus any help
    assert saved["RollRequest"].status == "approved"
    assert [h.character_id for h in approved.result_as(Assisted).helpers] == [helper]


def test_an_old_contest_roll_request_is_approved_into_the_contest_wcbh_12() -> None:
    table = Table("wcbh", {"player_modifiers": "gm_approval"})
    hero = table.character("Nova", owner=table.player)
    villain = table.character("Dr. Null", "villain")
    scene = table.scene()
    body = ContestCreate(first_id=hero, second_id=villain, rolls=3, purpose="arm wrestling")
    contest = table.gm_runs("start_contest", scene, body).result_as(PlayStateChanged).state_id
    arguments = {
        "scene_id": str(scene),
        "contest_id": str(contest),
        "character_id": str(hero),
        "request": {"trait": "Strength", "modifier": 1},
        "client_seed": None,
    }
    request_id = an_old_request(table, "contest_roll", arguments, hero)
    approved = table.gm_runs("approve_roll_request", request_id, RollRequestApproval())
    changed = approved.result_as(PlayStateChanged)
    assert changed.state_id == contest and changed.roll is not None
    play = table.app.repository.get(scene).state("wcbh", "play")
    rolled = play["contests"][str(contest)]["current"]
    assert rolled[str(hero)]["roll_id"] == str(changed.roll.id)
