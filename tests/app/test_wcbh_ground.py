"""The fight's ground (issue #15, WCBH-26, 30) on the in-memory store: the GM's ranges, moves that
change them (two pages, one with a fast movement Power), contact for grapples and charges, and the
GM's cover and sizes in every attack's dice."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Scene
from domain.errors import Conflict, Forbidden, InvalidInput
from systems.wcbh.requests import (
    FightAttackCreate,
    GrappleCreate,
    RangeMoveCreate,
    RangeSet,
    SituationSet,
)
from systems.wcbh.rules.ground import pair_key
from tests.app.table import Table


def ground(t: Table, scene: UUID) -> dict[str, Any]:
    found: Scene = t.app.repository.get(scene)
    return found.state("wcbh", "ground")


def fighters(t: Table) -> tuple[UUID, UUID, UUID]:
    nova = t.character("Nova", owner=t.player)  # the example sheet: Flight 6
    null = t.character("Dr. Null", "villain")
    return nova, null, t.scene()


def at(t: Table, scene: UUID, a: UUID, b: UUID, range_: str) -> None:
    body = RangeSet(first_id=a, second_id=b, range=range_, reason="across the hall")  # type: ignore[arg-type]
    t.gm_runs("set_range", scene, body)


def test_only_the_gm_sets_ranges_and_situations_wcbh_26_30() -> None:
    t = Table("wcbh")
    nova, null, scene = fighters(t)
    with pytest.raises(Forbidden):
        t.run(
            t.player,
            "set_range",
            scene,
            RangeSet(first_id=nova, second_id=null, range="far", reason="x"),
        )
    with pytest.raises(Forbidden):
        t.run(
            t.player, "set_situation", scene, SituationSet(character_id=null, cover=3, reason="x")
        )
    at(t, scene, null, nova, "far")
    assert ground(t, scene)["ranges"][pair_key(str(nova), str(null))] == {
        "range": "far",
        "moving": None,
    }


def test_a_grapple_or_a_charge_needs_the_foe_within_close_wcbh_26() -> None:
    t = Table("wcbh")
    nova, null, scene = fighters(t)
    at(t, scene, nova, null, "far")
    before = t.position()
    for verb, body in (
        ("grapple", GrappleCreate(attacker_id=nova, target_id=null)),
        (
            "attack",
            FightAttackCreate(
                attacker_id=nova, target_id=null, trait="Strength", maneuver="charge"
            ),
        ),
    ):
        with pytest.raises(Conflict) as refused:
            t.run(t.player, verb, scene, body)
        assert (refused.value.code, refused.value.rule) == ("out_of_reach", "WCBH-26")
    assert t.position() == before
    # a plain attack at range is the Power's to reach (the source: most Powers reach Far)
    goon = t.character("Goon", "villain")
    at(t, scene, nova, goon, "far")
    bolt = FightAttackCreate(attacker_id=nova, target_id=goon, trait="Lightning Bolt")
    t.run(t.player, "attack", scene, bolt)
    t.gm_runs("advance_page", scene)
    at(t, scene, nova, null, "close")
    t.run(t.player, "grapple", scene, GrappleCreate(attacker_id=nova, target_id=null))


def test_changing_a_range_class_on_foot_takes_two_pages_wcbh_26() -> None:
    t = Table("wcbh")
    nova, null, scene = fighters(t)
    at(t, scene, nova, null, "far")
    move = RangeMoveCreate(character_id=nova, other_id=null, to="close")
    t.run(t.player, "move_range", scene, move)
    entry = ground(t, scene)["ranges"][pair_key(str(nova), str(null))]
    assert entry["range"] == "far" and entry["moving"]["to"] == "close"
    with pytest.raises(Conflict) as twice:  # the page's one move is made (WCBH-25)
        t.run(t.player, "move_range", scene, move)
    assert twice.value.rule == "WCBH-25"
    t.gm_runs("advance_page", scene)
    t.run(t.player, "move_range", scene, move)
    assert ground(t, scene)["ranges"][pair_key(str(nova), str(null))] == {
        "range": "close",
        "moving": None,
    }


def test_a_movement_power_of_rank_6_changes_the_class_in_one_page_wcbh_26() -> None:
    t = Table("wcbh")
    nova, null, scene = fighters(t)
    at(t, scene, nova, null, "far")
    fly = RangeMoveCreate(character_id=nova, other_id=null, to="extreme", power="Flight")
    t.run(t.player, "move_range", scene, fly)
    assert ground(t, scene)["ranges"][pair_key(str(nova), str(null))]["range"] == "extreme"


def test_a_move_is_one_class_at_a_time_from_a_range_the_gm_set_wcbh_26() -> None:
    t = Table("wcbh")
    nova, null, scene = fighters(t)
    with pytest.raises(Conflict) as unset:
        t.run(
            t.player,
            "move_range",
            scene,
            RangeMoveCreate(character_id=nova, other_id=null, to="far"),
        )
    assert (unset.value.code, unset.value.rule) == ("no_range", "WCBH-26")
    at(t, scene, nova, null, "close")
    with pytest.raises(InvalidInput) as jump:
        t.run(
            t.player,
            "move_range",
            scene,
            RangeMoveCreate(character_id=nova, other_id=null, to="extreme"),
        )
    assert (jump.value.field, jump.value.rule) == ("to", "WCBH-26")


def test_cover_and_size_are_the_attacks_situation_dice_wcbh_30() -> None:
    t = Table("wcbh")
    scene = t.scene()

    def sized(name: str, size: str, cover: int = 0) -> UUID:
        who = t.character(name, "villain")
        body = SituationSet(character_id=who, cover=cover, size=size, reason="the GM's call")  # type: ignore[arg-type]
        t.gm_runs("set_situation", scene, body)
        return who

    def situation(attacker: UUID, target: UUID) -> int:
        body = FightAttackCreate(attacker_id=attacker, target_id=target, trait="Lightning Bolt")
        record = t.record(t.gm_runs("attack", scene, body))
        attack_dice = sum(1 for f in record["faces"] if f["label"] == "attack")
        assert attack_dice == max(0, 8 + record["request"]["situation"])
        return int(record["request"]["situation"])

    # a fresh attacker and target each time: the dice may defeat either
    assert situation(sized("A1", "same"), sized("T1", "double", cover=2)) == 1 - 2
    assert situation(sized("A2", "double"), sized("T2", "tenfold")) == 1  # one class above
    assert situation(sized("A3", "same"), sized("T3", "tenfold")) == 3  # two above
    assert situation(t.character("A4", "villain"), sized("T4", "tenth")) == -3  # unset: same
