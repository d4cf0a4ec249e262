"""Class D Heroes played through the application on the in-memory store (work issue #15): a hero
taken out comes back, rests and fights exclude each other, turn order with the GM's override."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Character, Scene
from domain.errors import Conflict, Forbidden, InvalidInput
from domain.requests import MissionCreate, ResourceChange, RestCreate
from systems.classd.requests import (
    ClassDAttackCreate,
    ClassDCaptureCreate,
    ClassDFightEnd,
    ClassDGrantCreate,
    ClassDVillainAttackCreate,
)
from tests.app.table import Table

ROUNDS = 12  # a defence of Might 0 against 15 fails but on a double 6 (1 in 36)

HERO = {"might": 0, "speed": 1, "spirit": 1, "health": 2, "will": 0}
BOSS = {"might": 10, "speed": 1, "spirit": 1, "health": 30, "will": 0, "rank": "boss"}


def character_scene(f: Fight) -> Scene:
    found: object = f.t.app.repository.get(f.scene)
    assert isinstance(found, Scene)
    return found


def rolled(f: Fight, outcome: Any) -> dict[str, Any]:
    """The roll record a combat command's outcome names (its aggregate is the scene)."""
    roll: Any = f.t.app.repository.get(outcome.result.roll_id)
    return roll.record  # type: ignore[no-any-return]


def character(t: Table, character_id: UUID) -> Character:
    found: object = t.app.repository.get(character_id)
    assert isinstance(found, Character)
    return found


class Fight:
    """A classd table with one open scene, the player's hero Nova (2 Health unless told) and a
    boss."""

    def __init__(self, health: int = 2) -> None:
        self.t = Table("classd")
        self.scene = self.t.scene()
        sheet = HERO | {"health": health}
        self.hero = self.t.character("Nova", "hero", sheet, owner=self.t.player)
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


# ---- rests: an open scene found for them, never in a fight (CD-22) --------------------------------


def rest(f: Fight, mission: UUID, **body: Any) -> Any:
    return f.t.gm_runs("rest_on_mission", mission, RestCreate(character_ids=[f.hero], **body))


def test_a_rest_rolls_in_the_open_scene_of_the_story_once_the_missions_scene_closed_cd_22() -> None:
    f = Fight()
    scene: Any = f.t.app.repository.get(f.scene)
    mission = f.t.gm_runs(
        "create_mission",
        f.t.campaign_id,
        MissionCreate(title="The lab", scene_id=f.scene, story_id=scene.story_id),
    ).aggregate.id
    f.t.gm_runs("close_scene", f.scene)
    later = f.t.scene(scene.issue_id, title="The roof")
    f.t.scene(title="Elsewhere, another story")  # not the mission's story: not chosen
    rest(f, mission)
    rested: Any = f.t.app.repository.get(mission)
    assert rested.rests[-1]["scene_id"] == later


def test_a_rest_without_a_scene_asks_for_one_when_several_are_open_and_none_is_linked_cd_22() -> (
    None
):
    f = Fight()
    mission = f.t.gm_runs("create_mission", f.t.campaign_id, MissionCreate(title="The lab"))
    f.t.scene(title="Another room")
    with pytest.raises(InvalidInput) as refused:
        rest(f, mission.aggregate.id)
    assert (refused.value.field, refused.value.rule) == ("scene_id", "CD-22")
    assert len(refused.value.details["open_scene_ids"]) == 2


def test_a_rest_in_a_scene_with_a_fight_under_way_is_refused_until_the_gm_ends_it_cd_22() -> None:
    f = Fight()
    mission = f.t.gm_runs(
        "create_mission", f.t.campaign_id, MissionCreate(title="The lab", scene_id=f.scene)
    ).aggregate.id
    f.knock_out()  # mid-fight, with a defeated hero who would like her Health back
    before = f.t.position()
    with pytest.raises(Conflict) as refused:
        rest(f, mission)
    assert (refused.value.code, refused.value.field, refused.value.rule) == (
        "fight_under_way",
        "scene_id",
        "CD-22",
    )
    assert f.t.position() == before
    f.t.gm_runs("classd_end_fight", f.scene, ClassDFightEnd(reason="Dr. Vile gets away"))
    rest(f, mission)
    assert f.status() == "active"
    with pytest.raises(Conflict) as again:  # nothing to end now
        f.t.gm_runs("classd_end_fight", f.scene, ClassDFightEnd(reason="twice"))
    assert again.value.code == "no_fight"


def test_the_next_action_after_the_fight_ended_starts_another_fight_cd_8() -> None:
    f = Fight()
    mission = f.t.gm_runs(
        "create_mission", f.t.campaign_id, MissionCreate(title="The lab", scene_id=f.scene)
    ).aggregate.id
    f.attack()
    f.t.gm_runs("classd_end_fight", f.scene, ClassDFightEnd(reason="a truce"))
    f.attack()  # a fresh round: her action of the old one is forgotten
    with pytest.raises(Conflict) as refused:
        rest(f, mission)
    assert refused.value.code == "fight_under_way"


# ---- turn order and action economy, with the GM's recorded override (CD-8, 9, 15, 17) -------------


def test_a_heros_second_action_and_an_action_in_the_villains_turn_are_refused_cd_8_cd_9() -> None:
    f = Fight()
    f.attack()
    with pytest.raises(Conflict) as second:
        f.attack()
    assert second.value.rule == "CD-9"
    f.villains_turn()
    other = f.t.character("Blink", "hero", HERO | {"health": 10}, owner=f.t.player)
    with pytest.raises(Conflict) as out_of_turn:
        f.attack(other)
    assert out_of_turn.value.rule == "CD-8"


def test_the_gms_grant_lets_a_hero_act_once_in_the_villains_turn_and_is_used_up_cd_8() -> None:
    f = Fight()
    f.attack()
    f.villains_turn()
    grant = ClassDGrantCreate(character_id=f.hero, reason="she set up the ambush")
    f.t.gm_runs("classd_grant_action", f.scene, grant)
    state = character_scene(f).state("classd", "round")
    assert state["grants"] == {str(f.hero): "she set up the ambush"}
    f.attack()  # out of turn and a second action: the grant covers both
    state = character_scene(f).state("classd", "round")
    assert state["grants"] == {} and state["actions"][str(f.hero)] == ["attack:mental"] * 2
    with pytest.raises(Conflict) as used:
        f.attack()
    assert used.value.rule == "CD-8"


def test_a_grant_unused_lapses_when_the_round_ends_and_only_the_gm_grants_cd_8() -> None:
    f = Fight(health=60)
    grant = ClassDGrantCreate(character_id=f.boss, reason="the boss's lair, its rules")
    with pytest.raises(Forbidden):
        f.t.run(f.t.player, "classd_grant_action", f.scene, grant)
    f.t.gm_runs("classd_grant_action", f.scene, grant)
    with pytest.raises(Conflict) as twice:
        f.t.gm_runs("classd_grant_action", f.scene, grant)
    assert twice.value.code == "grant_unused"
    f.villain_attack()  # in the heroes' turn, by the GM's leave
    f.next_round()
    f.t.gm_runs("classd_grant_action", f.scene, grant)
    f.next_round()
    assert character_scene(f).state("classd", "round")["grants"] == {}
    with pytest.raises(Conflict) as lapsed:
        f.villain_attack()
    assert lapsed.value.rule == "CD-8"


# ---- a class's damage, the inventory, captured heroes (CD-9, CD-11, CD-23) ------------------------


def test_a_class_adds_its_damage_to_attacks_of_its_type_beside_the_gear_used_cd_11() -> None:
    f = Fight(health=60)
    bruiser = HERO | {
        "health": 60,
        "gear": [{"name": "Bat", "attack": "melee", "damage": 1}],
        "character_class": {"name": "Bruiser", "attack": "melee", "damage": 2},
    }
    hero = f.t.character("Brick", "hero", bruiser, owner=f.t.player)
    body = ClassDAttackCreate.model_validate(
        {"attacker_id": hero, "target_id": f.boss, "attack_type": "melee", "using": "Bat"}
    )
    melee = rolled(f, f.t.run(f.t.player, "classd_attack", f.scene, body))
    assert melee["request"]["damage_modifier"] == 1 + 2
    if melee["result"]["damage_dice"]:
        assert melee["result"]["damage"] == sum(melee["result"]["damage_dice"]) + 3
    f.next_round()
    mental = rolled(f, f.attack(hero))  # a melee class adds nothing to a mental attack
    assert mental["request"]["damage_modifier"] == 0


def test_a_villains_class_adds_to_the_damage_its_attacks_deal_cd_11() -> None:
    f = Fight(health=60)
    brute = BOSS | {"character_class": {"name": "Thug", "damage": 4}}  # every attack type
    villain = f.t.character("Brute", "villain", brute)
    f.villains_turn()
    body = ClassDVillainAttackCreate.model_validate(
        {"villain_id": villain, "hero_id": f.hero, "attack_type": "ranged"}
    )
    defence = rolled(f, f.t.gm_runs("classd_villain_attack", f.scene, body))
    assert defence["request"]["damage_modifier"] == 4


def test_the_gm_records_a_hero_captured_who_acts_no_more_until_freed_cd_23() -> None:
    f = Fight(health=60)
    taken = ClassDCaptureCreate(hero_id=f.hero, reason="dragged into the vault")
    with pytest.raises(Forbidden):
        f.t.run(f.t.player, "classd_capture", f.scene, taken)
    f.t.gm_runs("classd_capture", f.scene, taken)
    assert f.status() == "captured"
    with pytest.raises(Conflict) as out:
        f.attack()
    assert out.value.code == "out_of_action"
    for change in (-5, 5):
        first_aid = ResourceChange(resource="health", change=change, reason="rough handling")
        f.t.gm_runs("adjust_resource", f.hero, first_aid)
    assert f.status() == "captured"  # healing does not free her
    with pytest.raises(Conflict) as twice:
        f.t.gm_runs("classd_capture", f.scene, taken)
    assert twice.value.rule == "CD-23"
    freed = ClassDCaptureCreate(hero_id=f.hero, reason="Blink opens the vault", release=True)
    f.t.gm_runs("classd_capture", f.scene, freed)
    assert f.status() == "active"
    f.attack()
    with pytest.raises(InvalidInput) as villain:
        f.t.gm_runs("classd_capture", f.scene, ClassDCaptureCreate(hero_id=f.boss, reason="x"))
    assert (villain.value.field, villain.value.rule) == ("hero_id", "CD-1")
