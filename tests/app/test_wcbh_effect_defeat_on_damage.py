"""WCBH-36 when damage lowers Health (issue #15: it was checked only when an effect grew), in
memory: an attack's damage, and the GM's change of Health."""

from __future__ import annotations

from uuid import UUID

from domain.aggregates import Character
from domain.requests import ResourceChange
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


def stunned(t: Table, pages: int) -> tuple[UUID, UUID]:
    """Dr. Null, Health 10 (Stamina, Strength, Will 10), stunned for `pages`."""
    sturdy = t.rules.example_sheet()
    sturdy["abilities"].update(Stamina=10, Strength=10, Will=10)
    null = t.character("Dr. Null", "villain", sturdy)
    scene = t.scene()
    villain: Character = t.app.repository.get(null)
    villain.apply_effect("Stunned", pages, False, scene)
    t.app.save(villain)
    return null, scene


def test_an_attacks_damage_down_to_the_effects_pages_defeats_for_the_scene_wcbh_36() -> None:
    t = Table("wcbh", {"trait_limit": 10})
    null, scene = stunned(t, 9)
    assert t.app.repository.get(null).resources["health"] == 10
    for n in range(30):  # fair dice: until a hit lands; Intelligence 3 deals at most 6 (Health 4+)
        striker = t.character(f"Striker {n}")
        body = FightAttackCreate(attacker_id=striker, target_id=null, trait="Intelligence")
        hit = t.record(t.gm_runs("attack", scene, body))["result"]
        if hit["damage"]:
            break
    else:
        raise AssertionError("thirty attacks and no damage")
    villain: Character = t.app.repository.get(null)
    assert 0 < villain.resources["health"] <= 9
    assert villain.status == "defeated"
    assert villain.effects["Stunned"]["whole_scene"]


def test_the_gms_harm_down_to_the_effects_pages_defeats_by_it_wcbh_36() -> None:
    t = Table("wcbh")
    null, _ = stunned(t, 2)
    health: int = t.app.repository.get(null).resources["health"]
    body = ResourceChange(resource="health", change=2 - health, reason="the fall")
    villain = t.gm_runs("adjust_resource", null, body).aggregate
    assert isinstance(villain, Character)
    assert (villain.status, villain.effects["Stunned"]["whole_scene"]) == ("defeated", True)
