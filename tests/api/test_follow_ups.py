"""Follow-ups through the API: linked to their roll, paid for in the same save, refused when unaffordable."""

from __future__ import annotations

from tests.api.support import Table, bearer
from tests.api.test_rolls import Dice


def test_resolve_dice_after_the_roll_are_linked_and_spend_resolve_wcbh_20b(table: Table) -> None:
    dice = Dice(table)
    start = table.get(f"/v1/characters/{dice.hero}")["resources"]["resolve"]["current"]
    roll = dice.roll(table.player)
    follow = table.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        {"follow_up": "resolve_dice", "request": {"resolve": 2}},
        table.player,
    )
    assert (follow["follow_up"], follow["follow_up_of"]) == ("resolve_dice", roll["id"])
    assert follow["nonce"] == roll["nonce"] + 1
    assert follow["proof"]["prev_hash"] == roll["proof"]["hash"]
    assert len(follow["faces"]) >= 2  # the two new dice (and any explosions)
    hero = table.get(f"/v1/characters/{dice.hero}")
    assert hero["resources"]["resolve"]["current"] == start - 2
    dice.close()
    verified = table.get(f"/v1/rolls/{follow['id']}/verification")
    assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_a_follow_up_the_character_cannot_afford_is_409_and_writes_nothing_wcbh_20(
    table: Table,
) -> None:
    dice = Dice(table)
    roll = dice.roll(table.player)
    start = table.get(f"/v1/characters/{dice.hero}")["resources"]["resolve"]["current"]
    before = table.position()
    response = table.client.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        json={"follow_up": "resolve_dice", "request": {"resolve": start + 1}},
        headers=bearer(table.player),
    )
    assert response.status_code == 409
    assert response.json()["error"]["details"] == {
        "resource": "resolve",
        "have": start,
        "needed": start + 1,
    }
    assert table.position() == before


def test_a_resolve_reroll_replaces_all_dice_wcbh_20c(table: Table) -> None:
    dice = Dice(table)
    roll = dice.roll(table.player)
    reroll = table.post(
        f"/v1/rolls/{roll['id']}/follow-ups", {"follow_up": "resolve_reroll"}, table.player
    )
    base = [f for f in roll["faces"] if f["exploded_from"] is None]
    assert len([f for f in reroll["faces"] if f["exploded_from"] is None]) == len(base)


def test_another_player_may_not_follow_up_my_roll(table: Table) -> None:
    dice = Dice(table)
    roll = dice.roll(table.player)
    response = table.client.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        json={"follow_up": "resolve_reroll"},
        headers=bearer(table.other_player),
    )
    assert response.status_code == 403


def test_an_unknown_follow_up_names_the_field(table: Table) -> None:
    dice = Dice(table)
    roll = dice.roll(table.player)
    response = table.client.post(
        f"/v1/rolls/{roll['id']}/follow-ups", json={"follow_up": "bribe"}, headers=bearer(table.gm)
    )
    assert response.status_code == 422 and response.json()["error"]["field"] == "follow_up"
