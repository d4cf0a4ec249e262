"""The target's Resolve on its defence after seeing the attack (WCBH-20b, 20c; issue #15): who
may spend it, who pays, the hit decided again from both sides' follow-ups, and the audit, in memory."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.audit import verify_export
from domain.errors import Forbidden, InvalidInput
from domain.requests import FollowUpCreate, RollCreate
from systems.wcbh.requests import FightAttackCreate
from tests.app.table import Table
from tests.unit.dice import reference_checks


def resolve_of(t: Table, character: UUID) -> int:
    return int(t.app.repository.get(character).resources["resolve"])


def health_of(t: Table, character: UUID) -> int:
    return int(t.app.repository.get(character).resources["health"])


def follow(name: str, seed: str, **request: Any) -> FollowUpCreate:
    return FollowUpCreate(follow_up=name, request=request, client_seed=seed)


def fight() -> tuple[Table, UUID, UUID, UUID]:
    """A table where Bo's Nova has attacked Cy's Bolt: the table, the scene, Bolt, the roll."""
    t = Table("wcbh", {"trait_limit": 10})
    nova = t.character("Nova", owner=t.player)
    bolt = t.character("Bolt", owner=t.other_player)
    scene = t.scene()
    body = FightAttackCreate(
        attacker_id=nova, target_id=bolt, trait="Lightning Bolt", client_seed="zap"
    )
    roll = t.run(t.player, "attack", scene, body)
    return t, scene, bolt, roll.aggregate.id


def test_only_who_acts_for_the_target_spends_resolve_on_its_defence_wcbh_20b() -> None:
    t, _, bolt, roll = fight()
    nova = UUID(t.app.repository.get(roll).record["character_id"])
    position = t.position()
    with pytest.raises(Forbidden) as refused:  # Bo plays the attacker, not the target
        t.run(t.player, "follow_up", roll, follow("resolve_dice", "d", resolve=1, side="defence"))
    assert refused.value.field == "request.side"
    assert t.position() == position  # nothing written
    bolt_before, nova_before = resolve_of(t, bolt), resolve_of(t, nova)
    more = t.record(
        t.run(
            t.other_player,
            "follow_up",
            roll,
            follow("resolve_dice", "d", resolve=2, side="defence"),
        )
    )
    assert [f["label"] for f in more["faces"]] == ["defence_resolve"] * 2
    assert (resolve_of(t, bolt), resolve_of(t, nova)) == (bolt_before - 2, nova_before)
    assert health_of(t, bolt) == more["result"]["health"]


def test_both_sides_follow_ups_combine_in_order_and_the_audit_recomputes_them_wcbh_20b_20c() -> (
    None
):
    t, scene, bolt, roll = fight()
    first = t.record(t.run(t.player, "follow_up", roll, follow("resolve_dice", "a", resolve=2)))
    second = t.record(
        t.gm_runs("follow_up", roll, follow("resolve_dice", "b", resolve=3, side="defence"))
    )
    third = t.record(t.gm_runs("follow_up", roll, follow("resolve_reroll", "c", side="defence")))
    assert second["after"] == [first["roll_id"]]
    assert third["after"] == [first["roll_id"], second["roll_id"]]
    # the attacker's two Resolve dice still count after the defence's spends
    assert second["result"]["attack_successes"] == first["result"]["attack_successes"]
    assert third["result"]["attack_successes"] == first["result"]["attack_successes"]
    # the defence reroll replaced every defence die, the three bought after the roll too
    original: dict[str, Any] = t.app.repository.get(roll).record
    defence_dice = [f for f in original["faces"] if f["label"] == "defence"]
    assert len(third["faces"]) == len(defence_dice) + 3
    assert {f["reroll_of"] for f in third["faces"]} == set(
        [f["index"] for f in defence_dice]
        + [len(original["faces"]) + len(first["faces"]) + i for i in range(3)]
    )
    assert health_of(t, bolt) == third["result"]["health"]
    assert verify_export(t.export()).problems == []  # odds checked before the reveal
    t.gm_runs("close_scene", scene)
    entries = t.export()
    report = verify_export(entries)
    assert report.problems == [] and report.recomputed == 4
    # the reference verifier, written from docs/fair-dice-checks.md alone, agrees
    payloads = [e.get("payload") or {} for e in entries]
    seed = bytes.fromhex(next(p["revealed_seed"] for p in payloads if p.get("revealed_seed")))
    records = {r["roll_id"]: r for r in (p["record"] for p in payloads if "record" in p)}
    for made in (first, second, third):
        earlier = [records[i] for i in made["after"]]
        again = reference_checks.recompute(made, seed, original, earlier)
        assert (again["faces"], again["result"]) == (made["faces"], made["result"])


def test_a_trait_check_has_no_defence_to_spend_on_wcbh_20b() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    body = RollCreate(
        check="trait", request={"trait": "Agility"}, character_id=nova, client_seed="x"
    )
    roll = t.run(t.player, "roll", scene, body).aggregate.id
    with pytest.raises(InvalidInput) as refused:
        t.run(t.player, "follow_up", roll, follow("resolve_reroll", "y", side="defence"))
    assert refused.value.field == "request.side"
