"""Status follows Health (issue #15: a defeated character healed by the GM stayed "defeated"):
WCBH-31, 36, 39 through the application, in memory."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.aggregates import Character
from domain.errors import Conflict
from domain.requests import ResourceChange
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


def health(t: Table, who: UUID, change: int) -> Character:
    body = ResourceChange(resource="health", change=change, reason="the GM's ruling")
    changed = t.gm_runs("adjust_resource", who, body).aggregate
    assert isinstance(changed, Character)
    return changed


def test_a_defeated_hero_healed_by_the_gm_is_back_and_may_act_wcbh_31() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    down = health(t, nova, -t.app.repository.get(nova).resources["health"])
    assert down.status == "defeated"  # at 0 Health the character is defeated (WCBH-31)
    zap = FightAttackCreate(attacker_id=nova, target_id=null, trait="Lightning Bolt")
    with pytest.raises(Conflict) as refused:
        t.run(t.player, "attack", scene, zap)
    assert refused.value.rule == "WCBH-31"
    healed = health(t, nova, 2)
    assert (healed.status, healed.defeated_at) == ("active", None)
    assert t.run(t.player, "attack", scene, zap).aggregate is not None
    changes = [e["payload"] for e in t.export() if e.get("type") == "Character.StatusChanged"]
    assert [(c["status"], c["rule"]) for c in changes] == [
        ("defeated", "WCBH-31"),
        ("active", "WCBH-31"),
    ]


def test_a_heal_does_not_lift_a_defeat_by_an_effect_wcbh_36() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    hero: Character = t.app.repository.get(nova)
    hero.apply_effect("Stunned", 9, True, scene)  # defeated by the effect for the scene
    t.app.save(hero)
    assert health(t, nova, 1).status == "defeated"
