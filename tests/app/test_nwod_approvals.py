"""The GM's approval of a player's nWoD attack runs the command with its request whole, also for a
roll request recorded before the command took it so (its fields stored one by one, the range
band then called `range_band`)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Roll, RollRequest
from domain.commands import ApprovalNeeded, CommandContext
from domain.errors import InvalidInput
from domain.requests import RollRequestApproval
from systems.nwod_micro.commands import Nwod
from systems.nwod_micro.requests import AttackCreate, InitiativeCreate, NwodRollCreate, TurnEnd
from systems.nwod_micro.rules import combat
from tests.app.plays.nwod import THUG
from tests.app.table import Table


class Stage:
    """A player's hero and the GM's villain, both in the fight, on the hero's turn."""

    def __init__(self, policy: str = "gm_approval") -> None:
        self.t = Table("nwod-micro", {"player_modifiers": policy})
        self.hero = self.t.character("Vega", "hero", THUG, owner=self.t.player)
        self.villain = self.t.character("Sentry", "villain", THUG)
        self.scene = self.t.scene()
        self.t.run(
            self.t.player, "nwod_initiative", self.scene, InitiativeCreate(character_id=self.hero)
        )
        self.t.gm_runs("nwod_initiative", self.scene, InitiativeCreate(character_id=self.villain))
        if combat.current(self.state()) != str(self.hero):
            self.t.gm_runs("nwod_end_turn", self.scene, TurnEnd(character_id=self.villain))

    def state(self) -> dict[str, Any]:
        fight = self.t.app.system(Nwod).fight
        return fight.nwod_fight(self.t.gm, self.scene).state("nwod-micro", "fight")

    def approve(self, request_id: UUID) -> Roll:
        approved = self.t.gm_runs("approve_roll_request", request_id, RollRequestApproval())
        rolls = [a for a in approved.saved if isinstance(a, Roll)]
        assert len(rolls) == 1
        return rolls[0]


def _dice(roll: Roll) -> dict[str, int]:
    return {m["source"]: m["dice"] for m in roll.record["request"]["modifiers"]}


def test_a_players_attack_with_a_modifier_waits_and_runs_whole_on_approval_nw_17() -> None:
    s = Stage()
    body = AttackCreate(
        attacker_id=s.hero,
        target_ids=[s.villain],
        weapon="Assault rifle",
        range="medium",
        modifier=2,
    )
    asked = s.t.run(s.t.player, "nwod_attack", s.scene, body)
    request = asked.aggregate
    assert isinstance(request, RollRequest) and request.status == "pending"
    assert request.arguments["body"]["range"] == "medium"
    assert s.state()["actions"].get(str(s.hero)) is None  # nothing happened yet
    roll = s.approve(request.id)
    assert _dice(roll) == {"medium range": -2, "situation (GM)": 2}
    assert s.state()["actions"][str(s.hero)][0]["maneuver"] == "standard"


def test_an_attack_request_recorded_field_by_field_is_approved_the_same_nw_17() -> None:
    s = Stage()
    recorded = {  # what the command stored before it took its request whole
        "scene_id": str(s.scene),
        "attacker_id": str(s.hero),
        "target_ids": [str(s.villain)],
        "kind": "ranged",
        "maneuver": "standard",
        "weapon": "Assault rifle",
        "range_band": "long",
        "modifier": 3,
    }
    pending = ApprovalNeeded(s.scene, s.hero, {"modifier": 3}, ("modifier",), "")
    asked = s.t.app._ask_gm(CommandContext(s.t.player), "nwod_attack", recorded, pending, "")
    roll = s.approve(asked.aggregate.id)
    assert _dice(roll) == {"long range": -4, "situation (GM)": 3}
    assert roll.record["rolled_by"] == str(s.t.player.member_id)
    assert roll.record["request"]["target_health"] == THUG["health"]  # aimed at the villain
    assert s.state()["actions"][str(s.hero)][0]["maneuver"] == "standard"


def test_a_campaign_that_refuses_players_modifiers_names_the_bodys_field_nw_17() -> None:
    s = Stage("refused")
    before = s.t.position()
    body = NwodRollCreate(character_id=s.hero, affinity="VIO", modifier=2)
    with pytest.raises(InvalidInput) as refused:
        s.t.run(s.t.player, "nwod_roll", s.scene, body)
    assert (refused.value.field, refused.value.rule) == ("modifier", "player_modifiers")
    assert s.t.position() == before
