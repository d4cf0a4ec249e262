"""Roll requests recorded before the fight's commands took their bodies whole (issue #14) hold the
command's arguments one by one, in its old names (`active_defences`, an area attack's targets as
(target_id, skip_turn) pairs): the GM's approval still runs them, with the modifiers it decided."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.aggregates import Roll, RollRequest, SceneRollRequests
from domain.requests import RollRequestApproval
from tests.app.table import Table


def _recorded_before(
    t: Table, scene: UUID, who: UUID, verb: str, arguments: dict[str, Any]
) -> UUID:
    """A pending roll request as the command runner recorded it before issue #14."""
    request = RollRequest(
        campaign_id=t.campaign_id,
        scene_id=scene,
        character_id=who,
        requested_by=t.player.member_id,
        verb=verb,
        arguments={"scene_id": str(scene), **arguments},
        path="",
        modifiers={"modifier": 2},
        modifier_fields=["weapon", "modifier"],
    )
    index = SceneRollRequests(campaign_id=t.campaign_id, scene_id=scene)
    index.add(request.id)
    t.app.save(request, index)
    return request.id  # type: ignore[no-any-return]


def _approved_roll(t: Table, request_id: UUID) -> dict[str, Any]:
    approved = t.gm_runs(
        "approve_roll_request", request_id, RollRequestApproval(modifiers={"modifier": 1})
    )
    request = approved.aggregate
    assert isinstance(request, RollRequest) and request.status == "approved"
    roll = t.app.repository.get(request.result_id)
    assert isinstance(roll, Roll)
    return roll.record


def test_an_attack_asked_before_its_body_was_whole_is_approved_with_the_gms_modifier() -> None:
    t = Table("wcbh", {"player_modifiers": "gm_approval"})
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    old = {
        "attacker_id": str(nova),
        "target_id": str(null),
        "trait": "Lightning Bolt",
        "weapon": 0,
        "modifier": 2,
        "active_defences": ["Strength"],
        "lethal": False,
        "purpose": "old",
        "effect": None,
        "client_seed": "asked before",
        "maneuver": None,
        "club_id": None,
        "defender_id": None,
        "defender_active": True,
        "redirect": False,
    }
    record = _approved_roll(t, _recorded_before(t, scene, nova, "attack", old))
    assert (record["check"], record["character_id"]) == ("attack", str(nova))
    assert record["request"]["modifier"] == 1 and record["request"]["lethal"] is False
    assert record["request"]["target_id"] == str(null)
    # the attacker's old choice of the target's defences (Strength) is dropped (issue #15, WCBH-28):
    # the target defends with what its sheet has, Agility and Stamina
    assert {d["name"] for d in record["request"]["defences"]} == {"Agility", "Stamina"}
    assert record["client_seed"] == "asked before"


def test_an_area_attack_asked_before_keeps_its_targets_and_who_skips_a_turn_wcbh_43() -> None:
    t = Table("wcbh", {"player_modifiers": "gm_approval"})
    nova = t.character("Nova", owner=t.player)
    null, goon = t.character("Dr. Null", "villain"), t.character("Goon", "villain")
    scene = t.scene()
    old = {
        "attacker_id": str(nova),
        "trait": "Lightning Bolt",
        "targets": [[str(null), False], [str(goon), False]],
        "weapon": 1,
        "modifier": 2,
        "active_defences": ["Agility"],
        "lethal": True,
        "purpose": None,
        "client_seed": None,
    }
    record = _approved_roll(t, _recorded_before(t, scene, nova, "area_attack", old))
    targets = record["request"]["targets"]
    assert [e["target_id"] for e in targets] == [str(null), str(goon)]
    assert [e["skip_turn"] for e in targets] == [False, False]
    assert (record["request"]["weapon"], record["request"]["modifier"]) == (1, 1)
