"""Effects have consequences (issue #15: a paralysed villain still attacked and moved), in memory:
WCBH-35, 37 (not free until shaken off), the GM's ruling recorded, WCBH-40, 41 (a weapon taken)."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.aggregates import Character
from domain.errors import Conflict, Forbidden
from systems.wcbh.requests import (
    EffectRulingCreate,
    FightAttackCreate,
    MoveCreate,
    ShakeOffCreate,
)
from tests.app.table import Table


def paralysed(t: Table, pages: int = 2) -> tuple[UUID, UUID, UUID]:
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain", sheet={**t.rules.example_sheet()})
    scene = t.scene()
    villain: Character = t.app.repository.get(null)
    villain.apply_effect("Paralysed", pages, False, scene)
    t.app.save(villain)
    return nova, null, scene


def test_a_paralysed_villain_neither_attacks_nor_moves_nor_dodges_wcbh_35_37() -> None:
    t = Table("wcbh")
    nova, null, scene = paralysed(t)
    zap = FightAttackCreate(attacker_id=null, target_id=nova, trait="Lightning Bolt")
    with pytest.raises(Conflict) as refused:
        t.gm_runs("attack", scene, zap)
    assert (refused.value.code, refused.value.rule) == ("under_effect", "WCBH-37")
    with pytest.raises(Conflict) as refused:
        t.gm_runs("move", scene, MoveCreate(character_id=null))
    assert refused.value.rule == "WCBH-37"
    at_him = FightAttackCreate(attacker_id=nova, target_id=null, trait="Lightning Bolt")
    roll = t.record(t.run(t.player, "attack", scene, at_him))
    assert [d["active"] for d in roll["request"]["defences"]] == [False]  # no dodging


def test_the_gms_ruling_on_an_effect_is_recorded_and_lets_it_act_wcbh_35() -> None:
    t = Table("wcbh")
    nova, null, scene = paralysed(t)
    ruling = EffectRulingCreate(
        character_id=null, effect="Paralysed", may_act=True, reason="only his legs are frozen"
    )
    with pytest.raises(Forbidden):
        t.run(t.player, "rule_effect", scene, ruling)
    t.gm_runs("rule_effect", scene, ruling)
    zap = FightAttackCreate(attacker_id=null, target_id=nova, trait="Lightning Bolt")
    t.gm_runs("attack", scene, zap)
    with pytest.raises(Conflict):  # still cannot move
        t.gm_runs("move", scene, MoveCreate(character_id=null))
    ruled = [e for e in t.export() if e.get("type") == "Character.EffectRuled"]
    assert [e["payload"]["limits"]["may_act"] for e in ruled] == [True]
    unknown = EffectRulingCreate(character_id=nova, effect="Paralysed", reason="?")
    with pytest.raises(Conflict) as refused:
        t.gm_runs("rule_effect", scene, unknown)
    assert refused.value.field == "effect"


def test_a_villain_who_shook_the_effect_off_is_free_to_act_wcbh_37() -> None:
    t = Table("wcbh")
    nova, null, scene = paralysed(t, pages=1)
    for n in range(20):  # fair dice: shake off until free
        shake = ShakeOffCreate(
            character_id=null, effect="Paralysed", request={"trait": "Will"}, client_seed=f"w{n}"
        )
        t.gm_runs("shake_off_effect", scene, shake)
        if "Paralysed" not in t.app.repository.get(null).effects:
            break
    else:
        raise AssertionError("never shaken off")
    zap = FightAttackCreate(attacker_id=null, target_id=nova, trait="Lightning Bolt")
    t.gm_runs("attack", scene, zap)
