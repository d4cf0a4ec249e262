"""Class D Heroes played through the application on the in-memory store (work issue #15): a hero
taken out comes back, rests and fights exclude each other, turn order with the GM's override."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Character
from domain.errors import Conflict
from domain.requests import MissionCreate, ResourceChange, RestCreate
from systems.classd.requests import ClassDAttackCreate, ClassDVillainAttackCreate
from tests.app.table import Table

ROUNDS = 12  # a defence of Might 0 against 15 fails but on a double 6 (1 in 36)

HERO = {"might": 0, "speed": 1, "spirit": 1, "health": 2, "will": 0}
BOSS = {"might": 10, "speed": 1, "spirit": 1, "health": 30, "will": 0, "rank": "boss"}


def character(t: Table, character_id: UUID) -> Character:
    found: object = t.app.repository.get(character_id)
    assert isinstance(found, Character)
    return found


class Fight:
    """A classd table with one open scene, the player's hero Nova (2 Health) and a boss."""

    def __init__(self) -> None:
        self.t = Table("classd")
        self.scene = self.t.scene()
        self.hero = self.t.character("Nova", "hero", HERO, owner=self.t.player)
        self.boss = self.t.character("Dr. Vile", "villain", BOSS)

    def attack(self, hero: UUID | None = None) -> Any:
        body = ClassDAttackCreate.model_validate(
            {"attacker_id": hero or self.hero, "target_id": self.boss, "attack_type": "mental"}
        )
        return self.t.run(self.t.player, "classd_attack", self.scene, body)

    def villain_attack(self) -> Any:
        body = ClassDVillainAttackCreate.model_validate(
            {"villain_id": self.boss, "hero_id": self.hero, "attack_type": "melee"}
        )
        return self.t.gm_runs("classd_villain_attack", self.scene, body)

    def villains_turn(self) -> None:
        self.t.gm_runs("classd_end_heroes_turn", self.scene)

    def next_round(self) -> None:
        self.t.gm_runs("advance_page", self.scene)

    def knock_out(self) -> None:
        """The boss attacks Nova round after round until her Health is 0 (CD-15)."""
        for _ in range(ROUNDS):
            self.villains_turn()
            for _ in range(2):  # a boss attacks twice (CD-17)
                self.villain_attack()
                if character(self.t, self.hero).status == "defeated":
                    return
            self.next_round()
        raise AssertionError(f"the boss never took Nova's 2 Health in {ROUNDS} rounds")

    def status(self) -> str:
        return character(self.t, self.hero).status


# ---- a hero taken out acts again once Health is back (CD-11, CD-22) -----------------------------


def test_a_hero_knocked_to_0_health_is_refused_until_the_gm_heals_her_then_attacks_cd_11() -> None:
    f = Fight()
    f.knock_out()
    assert character(f.t, f.hero).resources["health"] == 0
    f.next_round()
    with pytest.raises(Conflict) as refused:
        f.attack()
    assert (refused.value.code, refused.value.rule, refused.value.field) == (
        "out_of_action",
        "CD-11",
        "attacker_id",
    )
    healed = ResourceChange(resource="health", change=1, reason="the school nurse")
    f.t.gm_runs("adjust_resource", f.hero, healed)
    assert f.status() == "active"
    assert f.attack().aggregate is not None  # back in the fight, in the heroes' turn


def test_a_rest_that_restores_health_puts_a_defeated_hero_back_in_action_cd_22() -> None:
    f = Fight()
    f.knock_out()
    scene = f.t.scene(title="The stairwell")  # a quiet room, no fight in it
    mission = f.t.gm_runs("create_mission", f.t.campaign_id, MissionCreate(title="The lab"))
    rest = RestCreate(character_ids=[f.hero], scene_id=scene)
    f.t.gm_runs("rest_on_mission", mission.aggregate.id, rest)
    assert character(f.t, f.hero).resources["health"] >= 1  # 1d6, never above the maximum
    assert f.status() == "active"


def test_the_gm_taking_a_heros_health_to_0_takes_her_out_of_the_fight_cd_11() -> None:
    f = Fight()
    hurt = ResourceChange(resource="health", change=-2, reason="a falling beam")
    f.t.gm_runs("adjust_resource", f.hero, hurt)
    assert f.status() == "defeated"
    with pytest.raises(Conflict):
        f.attack()


def test_healing_a_captured_villain_leaves_it_captured_cd_12() -> None:
    f = Fight()
    villain = character(f.t, f.boss)
    villain.take_damage("health", 0, "captured", f.scene, f.scene, 1)
    f.t.app.save(villain)
    healed = ResourceChange(resource="health", change=3, reason="first aid")
    f.t.gm_runs("adjust_resource", f.boss, healed)
    assert character(f.t, f.boss).status == "captured"
