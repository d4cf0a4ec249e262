"""WCBH-36 when damage lowers Health (issue #15: it was checked only when an effect grew), in
memory: an attack's damage, and the GM's change of Health."""

from __future__ import annotations

from uuid import UUID

from domain.aggregates import Character
from domain.requests import ResourceChange
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


def stunned(t: Table, pages: int) -> tuple[UUID, UUID]:
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    villain: Character = t.app.repository.get(null)
    villain.apply_effect("Stunned", pages, False, scene)
    t.app.save(villain)
    return null, scene


def test_an_attacks_damage_down_to_the_effects_pages_defeats_for_the_scene_wcbh_36() -> None:
    t = Table("wcbh")
    null, scene = stunned(t, 5)
    health = t.app.repository.get(null).resources["health"]
    assert health > 5
    for n in range(30):  # fair dice: attack until one hit leaves Health between 1 and 5
        striker = t.character(f"Striker {n}")
        body = FightAttackCreate(
            attacker_id=striker, target_id=null, trait="Lightning Bolt", client_seed=f"s{n}"
        )
        hit = t.record(t.gm_runs("attack", scene, body))["result"]
        if 0 < hit["health"] <= 5:
            break
        assert hit["health"] > 5, "a hit took Health to 0: a new villain would be needed"
    else:
        raise AssertionError("no hit left Health between 1 and 5")
    villain: Character = t.app.repository.get(null)
    assert villain.status == "defeated"
    assert villain.effects["Stunned"]["whole_scene"]


def test_the_gms_harm_down_to_the_effects_pages_defeats_by_it_wcbh_36() -> None:
    t = Table("wcbh")
    null, _ = stunned(t, 2)
    health = t.app.repository.get(null).resources["health"]
    body = ResourceChange(resource="health", change=2 - health, reason="the fall")
    villain = t.gm_runs("adjust_resource", null, body).aggregate
    assert (villain.status, villain.effects["Stunned"]["whole_scene"]) == ("defeated", True)
