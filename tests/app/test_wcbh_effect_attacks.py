"""WCBH-35 through the attack command (issue #15): an effect attack lowers the target's Health by
its damage and puts the effect on it, in one save."""

from __future__ import annotations

import copy

from domain.aggregates import Character
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


def test_an_effect_attack_takes_health_and_leaves_its_effect_wcbh_35() -> None:
    t = Table("wcbh")
    sturdy = copy.deepcopy(t.rules.example_sheet())
    sturdy["abilities"].update(Agility=1, Stamina=10, Strength=10, Will=10)  # Health 10
    scene = t.scene()
    for n in range(20):  # the dice decide; the seeded table makes the same ones every run
        nova = t.character(f"Nova {n}", owner=t.player)
        null = t.character(f"Dr. Null {n}", "villain", sturdy)
        body = FightAttackCreate(
            attacker_id=nova, target_id=null, trait="Lightning Bolt", effect="Stunned"
        )
        record = t.record(t.run(t.player, "attack", scene, body))
        if record["result"]["net"] >= 1:
            break
        t.gm_runs("advance_page", scene)
    else:
        raise AssertionError("no 8-dice attack got through in 20 tries")
    assert record["request"]["besides_damage"] is True
    result = record["result"]
    villain: Character = t.app.repository.get(null)
    assert isinstance(villain, Character)
    assert villain.resources["health"] == 10 - result["net"] == result["health"]
    assert villain.effects["Stunned"]["pages"] == result["effect_pages"] == -(-result["net"] // 2)
