"""The order of action of a scene's fight (WCBH-22..24), and acting first for 1 Resolve."""

from __future__ import annotations

import copy
from typing import Any

from tests.api.support import Table, bearer


def sheet_with(table: Table, perception: int, agility: int) -> dict[str, Any]:
    sheet = copy.deepcopy(table.example_sheet)
    sheet["abilities"].update(Perception=perception, Agility=agility, Intelligence=1)
    return sheet


def make(
    table: Table, name: str, side: str, sheet: dict[str, Any], token: str | None = None
) -> str:
    body: dict[str, Any] = {"name": name, "side": side, "sheet": sheet}
    return str(table.post(f"/v1/campaigns/{table.campaign_id}/characters", body, token)["id"])


def test_edge_orders_the_fight_heroes_win_ties_and_minions_go_last_wcbh_23(table: Table) -> None:
    nova = make(table, "Nova", "hero", sheet_with(table, 4, 5), table.player)  # Edge 9
    null = make(table, "Dr. Null", "villain", sheet_with(table, 5, 4))  # Edge 9, loses the tie
    fast = make(table, "Quick", "opponent", sheet_with(table, 6, 6))  # Edge 12
    goon = make(table, "Goon", "minion", {"kind": "minion", "threat": 3})
    scene = table.scene()
    fight = table.post(
        f"/v1/scenes/{scene}/combatants", {"character_ids": [goon, null, nova, fast]}, status=200
    )
    assert fight["order_of_action"] == [[fast], [nova], [null], [goon]]
    assert table.get(f"/v1/scenes/{scene}")["order_of_action"] == fight["order_of_action"]


def test_acting_first_costs_one_resolve_and_puts_the_character_first_wcbh_24(table: Table) -> None:
    nova = make(table, "Nova", "hero", sheet_with(table, 2, 2), table.player)  # Edge 4
    fast = make(table, "Quick", "villain", sheet_with(table, 6, 6))
    scene = table.scene()
    table.post(f"/v1/scenes/{scene}/combatants", {"character_ids": [nova, fast]}, status=200)
    resolve = table.get(f"/v1/characters/{nova}")["resources"]["resolve"]["current"]
    first = table.post(
        f"/v1/scenes/{scene}/act-first", {"character_id": nova}, table.player, status=200
    )
    assert first["order_of_action"] == [[nova], [fast]]
    assert table.get(f"/v1/characters/{nova}")["resources"]["resolve"]["current"] == resolve - 1
    again = table.client.post(
        f"/v1/scenes/{scene}/act-first", json={"character_id": nova}, headers=bearer(table.player)
    )
    assert again.status_code == 409 and again.json()["error"]["rule"] == "WCBH-24"


def test_acting_first_is_refused_without_resolve_or_outside_the_fight_wcbh_24(table: Table) -> None:
    nova = make(table, "Nova", "hero", sheet_with(table, 2, 2), table.player)
    scene = table.scene()
    outside = table.client.post(
        f"/v1/scenes/{scene}/act-first", json={"character_id": nova}, headers=bearer(table.player)
    )
    assert outside.status_code == 422 and outside.json()["error"]["field"] == "character_id"
    table.post(f"/v1/scenes/{scene}/combatants", {"character_ids": [nova]}, status=200)
    resolve = table.get(f"/v1/characters/{nova}")["resources"]["resolve"]["current"]
    table.post(
        f"/v1/characters/{nova}/resources",
        {"resource": "resolve", "change": -resolve, "reason": "spent elsewhere"},
        status=200,
    )
    before = table.position()
    broke = table.client.post(
        f"/v1/scenes/{scene}/act-first", json={"character_id": nova}, headers=bearer(table.player)
    )
    assert broke.status_code == 409 and broke.json()["error"]["code"] == "not_enough_resolve"
    assert table.position() == before


def test_only_the_gm_puts_characters_into_a_fight_and_players_act_first_only_for_their_own(
    table: Table,
) -> None:
    nova = make(table, "Nova", "hero", sheet_with(table, 2, 2), table.player)
    scene = table.scene()
    denied = table.client.post(
        f"/v1/scenes/{scene}/combatants",
        json={"character_ids": [nova]},
        headers=bearer(table.player),
    )
    assert denied.status_code == 403
    table.post(f"/v1/scenes/{scene}/combatants", {"character_ids": [nova]}, status=200)
    other = table.client.post(
        f"/v1/scenes/{scene}/act-first",
        json={"character_id": nova},
        headers=bearer(table.other_player),
    )
    assert other.status_code == 403


def test_a_scene_without_a_fight_has_no_order_of_action(table: Table) -> None:
    assert table.get(f"/v1/scenes/{table.scene()}")["order_of_action"] is None
