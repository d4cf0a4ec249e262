"""Attacks in a We Can Be Heroes fight (WCBH-25, WCBH-28..31, WCBH-33), through the API."""

from __future__ import annotations

import copy
from typing import Any

from tests.api.support import Table, bearer

SUCCESSES = {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}  # WCBH-7


def sturdy(table: Table) -> dict[str, Any]:
    sheet = copy.deepcopy(table.example_sheet)
    sheet["abilities"].update(Stamina=10, Strength=10, Will=10)  # Health 10 (WCBH-32)
    return sheet


def make(
    table: Table, name: str, side: str, sheet: dict[str, Any], token: str | None = None
) -> str:
    body = {"name": name, "side": side, "sheet": sheet}
    return str(table.post(f"/v1/campaigns/{table.campaign_id}/characters", body, token)["id"])


def attack(table: Table, scene: str, attacker: str, target: str, trait: str, token: str) -> Any:
    body = {"attacker_id": attacker, "target_id": target, "trait": trait}
    return table.client.post(f"/v1/scenes/{scene}/attacks", json=body, headers=bearer(token))


def test_damage_is_attack_minus_best_defence_and_lowers_health_wcbh_28_31(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))
    scene = table.scene()
    response = attack(table, scene, nova, null, "Charisma", table.player)
    assert response.status_code == 201, response.text
    roll = response.json()
    faces = {
        label: [f["face"] for f in roll["faces"] if f["label"] == label]
        for label in ("attack", "defence")
    }
    assert len(faces["attack"]) == 3  # Charisma 3 (WCBH-7: the rank is the pool)
    attack_successes = sum(SUCCESSES[f] for f in faces["attack"])
    defence_successes = sum(SUCCESSES[f] for f in faces["defence"])
    result = roll["result"]
    assert (result["attack_successes"], result["defence_successes"]) == (
        attack_successes,
        defence_successes,
    )
    # WCBH-28/29: Agility 5 (active) beats half of Stamina 10 against a lethal attack (5): equal ranks
    # go to the active defence.
    assert (result["defence"], result["defence_rank"], len(faces["defence"])) == ("Agility", 5, 5)
    damage = max(0, attack_successes - defence_successes)
    assert result["damage"] == damage
    assert table.get(f"/v1/characters/{null}")["resources"]["health"]["current"] == 10 - damage


def test_one_attack_per_target_per_page_wcbh_25(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))
    scene = table.scene()
    assert attack(table, scene, nova, null, "Charisma", table.player).status_code == 201
    before = table.position()
    again = attack(table, scene, nova, null, "Charisma", table.player)
    assert again.status_code == 409 and again.json()["error"]["rule"] == "WCBH-25"
    assert table.position() == before
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    assert attack(table, scene, nova, null, "Charisma", table.player).status_code == 201


def test_a_minion_falls_to_one_net_success_wcbh_33(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    scene = table.scene()
    for n in range(4):
        table.post(f"/v1/scenes/{scene}/pages", status=200)  # one action per page (WCBH-25)
        goon = make(table, f"Goon {n}", "minion", {"kind": "minion", "threat": 2})
        result = attack(table, scene, nova, goon, "Lightning Bolt", table.player).json()["result"]
        assert result["defeated"] == (result["net"] >= 1)
        status = table.get(f"/v1/characters/{goon}")["status"]
        assert status == ("defeated" if result["defeated"] else "active")


def test_who_may_attack_and_with_what(table: Table) -> None:
    nova = make(table, "Nova", "hero", table.example_sheet, table.player)
    null = make(table, "Dr. Null", "villain", sturdy(table))
    scene = table.scene()
    assert attack(table, scene, nova, null, "Charisma", table.other_player).status_code == 403
    unknown = attack(table, scene, nova, null, "Telekinesis", table.player)
    assert unknown.status_code == 422 and unknown.json()["error"]["field"].startswith("request")
    itself = attack(table, scene, nova, nova, "Charisma", table.player)
    assert itself.status_code == 422 and itself.json()["error"]["field"] == "target_id"


def test_attacks_are_for_we_can_be_heroes_campaigns(client) -> None:  # type: ignore[no-untyped-def]
    table = Table(client, "nimble")
    hero = table.character(table.player)
    other = table.character(table.gm, "Bandit")
    response = attack(table, table.scene(), hero, other, "Might", table.player)
    assert response.status_code == 422 and response.json()["error"]["field"] == "scene_id"
