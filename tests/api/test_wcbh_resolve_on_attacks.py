"""Resolve after an attack roll (WCBH-20b dice, WCBH-20c reroll; WCBH-13..15, 20: "any roll"):
the attacker's dice change, the hit is decided again, the target's Health follows in the same
save, and the follow-up recomputes from the revealed seed."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.api.test_attacks import SUCCESSES, attack, make, sturdy


def follow_up(table: Table, roll_id: str, name: str, request: dict[str, Any] | None = None) -> Any:
    body: dict[str, Any] = {"follow_up": name}
    if request is not None:
        body["request"] = request
    return table.client.post(
        f"/v1/rolls/{roll_id}/follow-ups", json=body, headers=bearer(table.player)
    )


def successes(roll: dict[str, Any], *labels: str) -> int:
    return sum(SUCCESSES[f["face"]] for f in roll["faces"] if f["kept"] and f["label"] in labels)


def fight(table: Table) -> tuple[str, str, str, dict[str, Any]]:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))  # Health 10
    scene = table.scene()
    response = attack(table, scene, nova, null, "Charisma", table.player)
    assert response.status_code == 201, response.text
    return nova, null, scene, response.json()


def health(table: Table, character: str) -> int:
    return int(table.get(f"/v1/characters/{character}")["resources"]["health"]["current"])


def resolve(table: Table, character: str) -> int:
    return int(table.get(f"/v1/characters/{character}")["resources"]["resolve"]["current"])


def test_resolve_dice_after_an_attack_add_to_its_damage_wcbh_20b(table: Table) -> None:
    nova, null, scene, roll = fight(table)
    start = resolve(table, nova)
    response = follow_up(table, roll["id"], "resolve_dice", {"resolve": 2})
    assert response.status_code == 201, response.text
    follow = response.json()
    assert [f["label"] for f in follow["faces"]] == ["resolve", "resolve"]
    attack_successes = successes(roll, "attack") + successes(follow, "resolve")
    defence = roll["result"]["defence_successes"]
    result = follow["result"]
    assert (result["attack_successes"], result["defence_successes"]) == (attack_successes, defence)
    damage = max(0, attack_successes - defence)
    assert (result["damage"], result["health"]) == (damage, 10 - damage)
    assert health(table, null) == 10 - damage  # the same save lowered it
    assert resolve(table, nova) == start - 2
    table.post(f"/v1/scenes/{scene}/close", status=200)
    verified = table.get(f"/v1/rolls/{follow['id']}/verification")
    assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_a_resolve_reroll_of_an_attack_rerolls_the_attackers_dice_only_wcbh_20c(
    table: Table,
) -> None:
    _, null, scene, roll = fight(table)
    response = follow_up(table, roll["id"], "resolve_reroll")
    assert response.status_code == 201, response.text
    follow = response.json()
    attack_dice = [f for f in roll["faces"] if f["label"] == "attack"]
    assert [f["reroll_of"] for f in follow["faces"]] == [f["index"] for f in attack_dice]
    attack_successes = successes(follow, "attack")
    net = attack_successes - roll["result"]["defence_successes"]
    assert (follow["result"]["attack_successes"], follow["result"]["net"]) == (
        attack_successes,
        net,
    )
    # The Health the first outcome took is given back, the new one's taken.
    assert health(table, null) == 10 - max(0, net)
    table.post(f"/v1/scenes/{scene}/close", status=200)
    verified = table.get(f"/v1/rolls/{follow['id']}/verification")
    assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_every_follow_up_of_an_attack_replaces_the_last_ones_hit_wcbh_20b_20c(
    table: Table,
) -> None:
    _, null, _, roll = fight(table)
    changes, last = 0, roll["result"]["health"]
    for name, request in (("resolve_dice", {"resolve": 1}), ("resolve_reroll", None)):
        response = follow_up(table, roll["id"], name, request)
        assert response.status_code == 201, response.text
        now = response.json()["result"]["health"]
        assert health(table, null) == now
        changes, last = changes + (now != last), now
    now_at = table.position()  # the views include every write so far first
    events = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?limit=1000&min_position={now_at}"
    )["items"]
    revised = [e["originator_id"] for e in events if e["type"] == "Character.HitRevised"]
    assert revised == [null] * changes


def test_a_minion_defeated_by_an_attack_gets_back_up_when_a_reroll_misses_wcbh_33_20c(
    table: Table,
) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    scene = table.scene()
    seen_revival = False
    for n in range(100):  # a hit, then a reroll that misses: 18% of tries (40 missed 1 run in 3000)
        table.post(f"/v1/scenes/{scene}/pages", status=200)  # one action per page (WCBH-25)
        goon = make(table, f"Goon {n}", "minion", {"kind": "minion", "threat": 2})
        first = attack(table, scene, nova, goon, "Charisma", table.player).json()
        if not first["result"]["defeated"]:
            continue
        if resolve(table, nova) == 0:
            table.post(
                f"/v1/characters/{nova}/resources",
                {"resource": "resolve", "change": 1, "reason": "a pep talk"},
                status=200,
            )
        follow = follow_up(table, first["id"], "resolve_reroll")
        assert follow.status_code == 201, follow.text
        status = table.get(f"/v1/characters/{goon}")["status"]
        if follow.json()["result"]["defeated"]:
            assert status == "defeated"
        else:
            assert status == "active"
            seen_revival = True
            break
    assert seen_revival


def test_resolve_after_a_knockback_is_refused_and_writes_nothing_wcbh_20b(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    weak = sturdy(table)
    weak["abilities"]["Agility"] = 1
    null = make(table, "Dr. Null", "villain", weak)
    scene = table.scene()
    body = {
        "attacker_id": nova,
        "target_id": null,
        "trait": "Lightning Bolt",
        "weapon": 20,
        "modifier": 20,  # 48 dice: 6+ damage all but surely (WCBH-45)
    }
    roll = table.rolled(f"/v1/scenes/{scene}/attacks", body, table.player)  # the GM approves
    assert roll["result"]["damage"] >= 6
    table.post(f"/v1/rolls/{roll['id']}/knockback", {}, table.player, status=200)
    before = table.position()
    response = follow_up(table, roll["id"], "resolve_dice", {"resolve": 1})
    assert response.status_code == 409, response.text
    assert response.json()["error"]["rule"] == "WCBH-20b"
    assert table.position() == before


def test_resolve_on_a_bashing_attack_is_refused_naming_the_rule(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))
    goon = make(table, "Goon", "minion", {"kind": "minion", "threat": 2})
    scene = table.scene()
    body = {"attacker_id": nova, "target_id": null, "trait": "Strength", "club_id": goon}
    roll = table.post(f"/v1/scenes/{scene}/attacks", body, table.player)
    before = table.position()
    response = follow_up(table, roll["id"], "resolve_dice", {"resolve": 1})
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert (error["code"], error["rule"]) == ("follow_up_refused", "WCBH-20b,WCBH-13")
    assert "club" in error["message"]
    assert table.position() == before


RAW_ATTACK = {
    "attack_rank": 8,
    "defences": [{"name": "Agility", "rank": 4, "active": True}],
    "target_health": 6,
}


def test_a_raw_attack_roll_names_no_target(table: Table) -> None:
    """Only the attack verb rolls at a character (and applies the hit): a raw roll naming one
    could otherwise have Resolve change that character's Health."""
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))
    scene = table.scene()
    before = table.position()
    body = {
        "check": "attack",
        "character_id": nova,
        "request": {**RAW_ATTACK, "target_id": null},
    }
    response = table.client.post(
        f"/v1/scenes/{scene}/rolls", json=body, headers=bearer(table.player)
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == "request.target_id"
    assert table.position() == before


def test_resolve_on_a_raw_attack_roll_rerolls_and_hits_no_one_wcbh_20c(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    scene = table.scene()
    body = {"check": "attack", "character_id": nova, "request": RAW_ATTACK}
    roll = table.post(f"/v1/scenes/{scene}/rolls", body, table.gm)  # only the GM rolls it raw
    response = follow_up(table, roll["id"], "resolve_reroll")
    assert response.status_code == 201, response.text
    assert response.json()["result"]["attack_successes"] == successes(response.json(), "attack")
    now_at = table.position()  # the views include every write so far first
    events = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?limit=1000&min_position={now_at}"
    )["items"]
    assert not [e for e in events if e["type"] in ("Character.Hit", "Character.HitRevised")]
