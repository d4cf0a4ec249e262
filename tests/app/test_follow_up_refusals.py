"""Resolve after the roll on a fight's roll (found by the generated plays): a 500 once; now applied
to attacks (the hit decided again, tests/api/test_wcbh_resolve_on_attacks.py) and refused, writing
nothing, where it cannot apply (a grapple)."""

from __future__ import annotations

import pytest

from domain.requests import FollowUpCreate, RollCreate
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table


@pytest.mark.parametrize(
    "follow_up, request_", [("resolve_dice", {"resolve": 1}), ("resolve_reroll", {})]
)
def test_resolve_after_an_attack_roll_follows_it_up_wcbh_20b_20c(
    follow_up: str, request_: dict[str, int]
) -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    attack = t.run(
        t.player,
        "attack",
        scene,
        FightAttackCreate(
            attacker_id=nova, target_id=null, trait="Lightning Bolt", client_seed="zap"
        ),
    )
    body = FollowUpCreate(follow_up=follow_up, request=request_, client_seed="more")
    more = t.run(t.player, "follow_up", attack.aggregate.id, body)
    assert t.record(more)["follow_up_of"] == str(attack.aggregate.id)
    assert t.record(more)["follow_up"] == follow_up


def test_resolve_after_a_trait_roll_still_adds_dice_wcbh_20b() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    body = RollCreate(
        check="trait", request={"trait": "Agility"}, character_id=nova, client_seed="first"
    )
    roll = t.run(t.player, "roll", scene, body)
    dice = FollowUpCreate(follow_up="resolve_dice", request={"resolve": 1}, client_seed="more")
    more = t.run(t.player, "follow_up", roll.aggregate.id, dice)
    assert t.record(more)["follow_up_of"] == t.record(roll)["roll_id"]
