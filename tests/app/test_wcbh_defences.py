"""Who chooses a target's defences, and armour in play (issue #15, WCBH-28, 29, 43, 44, 46): the
fight's commands on the in-memory store. The attacker never names the target's defences; the
target's side may (its player or the GM), otherwise every defence its sheet has counts."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

import pytest

from domain.errors import Forbidden
from systems.wcbh.requests import (
    AreaAttackCreate,
    AreaTargetIn,
    FightAttackCreate,
    GrappleCreate,
    TeamAttackCreate,
    TeamAttackerIn,
)
from tests.app.table import Table

IRON_SKIN = {"rank": 8, "defence": "passive", "description": "armour"}


def armoured(t: Table) -> dict[str, Any]:
    sheet = copy.deepcopy(t.rules.example_sheet())
    sheet["powers"]["Iron Skin"] = IRON_SKIN
    return sheet


def attack(attacker: UUID, target: UUID, **more: Any) -> FightAttackCreate:
    return FightAttackCreate(attacker_id=attacker, target_id=target, trait="Strength", **more)


def test_the_attacker_cannot_name_the_targets_defences_wcbh_28() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    before = t.position()
    with pytest.raises(Forbidden) as refused:
        t.run(t.player, "attack", scene, attack(nova, null, defences=["Strength"]))
    assert refused.value.field == "defences"
    assert t.position() == before  # nothing written


def test_a_players_attack_on_another_players_hero_names_no_defences_either_wcbh_28() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    rex = t.character("Rex", owner=t.other_player)
    scene = t.scene()
    for body in (
        attack(nova, rex, defences=["Agility"]),
        GrappleCreate(attacker_id=nova, target_id=rex, defences=["Agility"]),
        AreaAttackCreate(
            attacker_id=nova,
            trait="Lightning Bolt",
            targets=[AreaTargetIn(target_id=rex)],
            defences=["Agility"],
        ),
    ):
        verb = {FightAttackCreate: "attack", GrappleCreate: "grapple"}.get(
            type(body), "area_attack"
        )
        with pytest.raises(Forbidden) as refused:
            t.run(t.player, verb, scene, body)
        assert refused.value.field == "defences"


def test_unnamed_the_target_defends_with_every_defence_of_its_sheet_wcbh_28() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    brute = t.character("Brute", "villain", armoured(t))
    scene = t.scene()
    record = t.record(t.run(t.player, "attack", scene, attack(nova, brute)))
    defences = {d["name"]: d["active"] for d in record["request"]["defences"]}
    assert defences == {"Stamina": False, "Iron Skin": False, "Agility": True}
    # the best counts: Iron Skin 8, over Agility 5 and half of Stamina 5 (WCBH-28, 29)
    assert (record["result"]["defence"], record["result"]["defence_rank"]) == ("Iron Skin", 8)


def test_the_targets_side_names_its_active_defences_wcbh_28() -> None:
    t = Table("wcbh")
    null = t.character("Dr. Null", "villain")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    # the GM attacks with its villain and, acting for every character, may name the hero's dodge
    body = attack(null, nova, defences=["Strength"])
    record = t.record(t.gm_runs("attack", scene, body))
    assert {d["name"]: d["active"] for d in record["request"]["defences"]} == {
        "Stamina": False,
        "Strength": True,
    }


def test_a_team_attack_by_players_names_no_defences_for_the_gms_villain_wcbh_28() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    bolt = t.character("Bolt", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    team = [
        TeamAttackerIn(attacker_id=nova, trait="Strength"),
        TeamAttackerIn(attacker_id=bolt, trait="Strength"),
    ]
    with pytest.raises(Forbidden) as refused:
        t.run(
            t.player,
            "team_attack",
            scene,
            TeamAttackCreate(target_id=null, attackers=team, defences=["Agility"]),
        )
    assert refused.value.field == "defences"


def test_armour_meets_an_area_attack_at_full_rank_without_skipping_a_turn_wcbh_43() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    brute = t.character("Brute", "villain", armoured(t))
    scene = t.scene()
    body = AreaAttackCreate(
        attacker_id=nova, trait="Lightning Bolt", targets=[AreaTargetIn(target_id=brute)]
    )
    entry = t.record(t.run(t.player, "area_attack", scene, body))["result"]["targets"][0]
    assert (entry["defence"], entry["defence_rank"], entry["skips_turn"]) == ("Iron Skin", 8, False)


def test_a_charge_on_an_armoured_target_rolls_the_chargers_collision_wcbh_44() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    brute = t.character("Brute", "villain", armoured(t))
    scene = t.scene()
    record = t.record(t.run(t.player, "attack", scene, attack(nova, brute, maneuver="charge")))
    assert record["result"]["defence"] == "Iron Skin"
    assert "collision" in record["result"]  # a dodge would have spared the charger
