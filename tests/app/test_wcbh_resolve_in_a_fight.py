"""Resolve in a fight (issue #15): an attack may be a Decisive Moment and take Resolve dice before
the roll, and the target may spend its own Resolve on its defence (WCBH-13..16, 20b), in memory."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Character
from domain.errors import Conflict, Forbidden
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


def resolve_of(t: Table, character: UUID) -> int:
    return int(t.app.repository.get(character).resources["resolve"])


def attack(t: Table, nova: UUID, null: UUID, **fields: Any) -> FightAttackCreate:
    return FightAttackCreate(
        attacker_id=nova, target_id=null, trait="Lightning Bolt", client_seed="zap", **fields
    )


def test_a_decisive_moment_attack_explodes_owes_an_ability_and_counts_once_wcbh_13_15_16() -> None:
    t = Table("wcbh", {"trait_limit": 10})
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    issue = t.issue()
    scene = t.scene(issue)
    body = attack(t, nova, null, decisive_moment=True, effort="physical", resolve=1)
    before = resolve_of(t, nova)
    roll = t.record(t.run(t.player, "attack", scene, body))
    assert roll["request"]["decisive_moment"] and roll["costs"] == {"resolve": 1}
    assert [f["label"] for f in roll["faces"]].count("resolve") >= 3  # 3 dice per Resolve
    assert resolve_of(t, nova) == before - 1
    hero: Character = t.app.repository.get(nova)
    assert [o["effort"] for o in hero.owed_losses.values()] == ["physical"]
    # the story's one Decisive Moment is spent: another in a later scene of the story is refused
    other = t.scene(issue, title="The roof")
    fresh = t.character("Dr. Null's twin", "villain")  # Dr. Null may be down already
    again = attack(t, nova, fresh, decisive_moment=True, effort="physical")
    with pytest.raises(Conflict) as refused:
        t.run(t.player, "attack", other, again)
    assert refused.value.rule == "WCBH-15"


def test_the_targets_resolve_on_its_defence_is_paid_by_the_target_wcbh_20b() -> None:
    t = Table("wcbh", {"trait_limit": 10})
    nova = t.character("Nova", owner=t.player)
    bolt = t.character("Bolt", owner=t.other_player)
    scene = t.scene()
    body = attack(t, nova, bolt, defence_resolve=2)
    with pytest.raises(Forbidden) as refused:  # Bo cannot spend Cy's hero's Resolve
        t.run(t.player, "attack", scene, body)
    assert refused.value.field == "defence_resolve"
    nova_before, bolt_before = resolve_of(t, nova), resolve_of(t, bolt)
    roll = t.record(t.gm_runs("attack", scene, body))
    assert [f["label"] for f in roll["faces"]].count("defence_resolve") == 2
    assert (resolve_of(t, nova), resolve_of(t, bolt)) == (nova_before, bolt_before - 2)
