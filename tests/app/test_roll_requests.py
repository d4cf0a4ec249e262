"""The GM's approval of a roll request runs the player's command with its stored arguments: those
recorded now (the request model whole) and those recorded before the commands took their request
models whole (each field stored on its own, `check_name` for today's `check`)."""

from __future__ import annotations

from uuid import UUID

from domain.aggregates import Roll, RollRequest
from domain.requests import RollCreate, RollRequestApproval
from tests.app.table import Table

AGILITY = {"trait": "Agility", "modifier": 2}


def asking_table() -> tuple[Table, UUID, UUID]:
    t = Table("wcbh", settings={"player_modifiers": "gm_approval"})
    return t, t.character("Nova", owner=t.player), t.scene()


def approve(t: Table, request_id: UUID, **modifiers: int) -> Roll:
    approved = t.gm_runs(
        "approve_roll_request", request_id, RollRequestApproval(modifiers=modifiers)
    )
    request = approved.aggregate
    assert isinstance(request, RollRequest) and request.status == "approved"
    roll: Roll = t.app.repository.get(request.result_id)
    return roll


def test_a_roll_request_approved_with_a_change_rolls_the_gms_modifier() -> None:
    t, nova, scene = asking_table()
    body = RollCreate(check="trait", request=AGILITY, character_id=nova, client_seed="mine")
    asked = t.run(t.player, "roll", scene, body).aggregate
    assert isinstance(asked, RollRequest) and asked.path == "body.request"
    record = approve(t, asked.id, modifier=1).record
    assert record["request"]["modifier"] == 1
    assert (record["client_seed"], record["character_id"]) == ("mine", str(nova))


def test_a_roll_request_recorded_field_by_field_is_approved_as_before() -> None:
    t, nova, scene = asking_table()
    old = RollRequest(
        campaign_id=t.campaign_id,
        scene_id=scene,
        character_id=nova,
        requested_by=t.player.member_id,
        verb="roll",
        arguments={
            "scene_id": str(scene),
            "check_name": "trait",
            "request": AGILITY,
            "character_id": str(nova),
            "client_seed": "from before",
        },
        path="request",
        modifiers={"modifier": 2},
        modifier_fields=["modifier", "difficulty"],
    )
    t.app.save(old)
    record = approve(t, old.id, difficulty=3).record
    assert (record["check"], record["client_seed"]) == ("trait", "from before")
    assert (record["request"]["modifier"], record["request"]["difficulty"]) == (2, 3)
