"""Contests (WCBH-12) and chases (WCBH-27) through the API, checked against the recorded faces."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table
from tests.api.test_wcbh_scene_play import counted, dice, half_up, make, play, refused, send

RANGES = ["cornered", "close", "far", "extreme", "escaped"]


# ---- WCBH-12: contests ---------------------------------------------------------------------------


def contest_roll(table: Table, scene: str, contest: str, who: str, token: str) -> dict[str, Any]:
    body = {"character_id": who, "request": {"trait": "Will", "purpose": "the staring match"}}
    response = send(table, f"/v1/scenes/{scene}/contests/{contest}/rolls", body, token)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_contest_gives_the_roll_s_winner_two_dice_and_the_last_roll_decides_wcbh_12(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)
    null = make(table, "Dr. Null", side="villain")
    scene = table.scene()
    started = send(
        table,
        f"/v1/scenes/{scene}/contests",
        {"first_id": nova, "second_id": null, "rolls": 3, "purpose": "who blinks first"},
        table.player,
    )
    assert started.status_code == 201, started.text
    contest = started.json()["contest"]["id"]
    last_winner = None
    winners = []
    for _ in range(40):  # 3 rounds, plus one more for each tied final round (bounded)
        first = contest_roll(table, scene, contest, nova, table.player)
        answer = contest_roll(table, scene, contest, null, table.gm)
        rolls = {first["roll"]["character_id"]: first["roll"], null: answer["roll"]}
        for who, roll in rolls.items():
            bonus = 2 if who == last_winner else 0  # WCBH-12: +2 for the last roll's winner
            assert roll["request"].get("modifier", 0) == bonus
            assert dice(roll) == 6 + bonus  # Will 6
        mine, theirs = counted(rolls[nova]), counted(rolls[null])
        last_winner = nova if mine > theirs else null if theirs > mine else None
        winners.append(last_winner)
        state = answer["contest"]
        assert state["history"][-1]["winner"] == last_winner
        assert state["next_bonus"] == {
            nova: 2 if last_winner == nova else 0,
            null: 2 if last_winner == null else 0,
        }
        if len(winners) >= 3 and last_winner is not None:
            break
        assert state["finished"] is False
    else:
        raise AssertionError("the contest never ended in 40 rounds")
    assert state["finished"] is True and state["winner"] == last_winner
    assert play(table, scene)["contests"][0]["winner"] == last_winner
    assert [h["winner"] for h in play(table, scene)["contests"][0]["history"]] == winners
    before = table.position()
    over = send(
        table,
        f"/v1/scenes/{scene}/contests/{contest}/rolls",
        {"character_id": nova, "request": {"trait": "Will"}},
        table.player,
    )
    refused(table, over, 409, "contest_over")
    assert table.position() == before


def test_a_side_rolls_once_a_round_and_only_for_its_own_character_wcbh_12(table: Table) -> None:
    nova = make(table, "Nova", table.player)
    null = make(table, "Dr. Null", side="villain")
    scene = table.scene()
    contest = send(
        table, f"/v1/scenes/{scene}/contests", {"first_id": nova, "second_id": null, "rolls": 6}
    ).json()["contest"]["id"]
    assert play(table, scene)["contests"][0]["rolls"] == 6  # an epic contest
    contest_roll(table, scene, contest, nova, table.player)
    other = table.other_player  # joined before the count
    before = table.position()
    body = {"character_id": nova, "request": {"trait": "Will"}}
    path = f"/v1/scenes/{scene}/contests/{contest}/rolls"
    refused(table, send(table, path, body, table.player), 409, "already_rolled")
    refused(table, send(table, path, {**body, "character_id": null}, table.player), 403)
    refused(table, send(table, path, body, other), 403)
    assert table.position() == before


# ---- WCBH-27: chases -----------------------------------------------------------------------------


def chase_check(
    table: Table, scene: str, chase: str, who: str, token: str, **extra: Any
) -> dict[str, Any]:
    body = {"character_id": who, "request": {"trait": "Agility"}, **extra}
    response = send(table, f"/v1/scenes/{scene}/chases/{chase}/checks", body, token)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_chase_moves_the_range_on_3_net_and_ends_cornered_or_escaped_wcbh_27(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)  # Agility 5, flies: rolls Flight 6
    null = make(table, "Dr. Null", side="villain")  # on foot with Agility 5: half, 3 dice
    scene = table.scene()
    started = send(
        table,
        f"/v1/scenes/{scene}/chases",
        {"pairs": [{"pursuer_id": nova, "target_id": null}], "range": "far"},
        table.player,
    )
    assert started.status_code == 201, started.text
    chase = started.json()["chase"]["id"]
    distance, bonus = "far", {nova: 0, null: 0}
    for _ in range(40):  # bounded: each page moves the range with some chance (20+ pages: 2e-4)
        body = {"character_id": nova, "request": {"trait": "Flight"}}
        mine = send(table, f"/v1/scenes/{scene}/chases/{chase}/checks", body, table.player)
        assert mine.status_code == 201, mine.text
        assert mine.json()["chase"]["waiting"][0]["character_id"] == nova
        theirs = chase_check(table, scene, chase, null, table.gm, on_foot_against_faster=True)
        pursuer, target = mine.json()["roll"], theirs["roll"]
        assert pursuer["request"].get("modifier", 0) == bonus[nova]
        assert dice(pursuer) == 6 + bonus[nova]
        assert target["request"]["modifier"] == bonus[null] - (5 - half_up(5))
        assert dice(target) == half_up(5) + bonus[null]  # WCBH-27: half the trait on foot
        net = counted(pursuer) - counted(target)
        winner = nova if net > 0 else null if net < 0 else None
        if abs(net) >= 3:  # by default the pursuer closes in, the target pulls away
            distance = RANGES[RANGES.index(distance) + (-1 if net > 0 else 1)]
        bonus = {nova: 2 if winner == nova else 0, null: 2 if winner == null else 0}
        pair = theirs["chase"]["pairs"][0]
        assert (pair["range"], pair["history"][-1]["winner"]) == (distance, winner)
        assert theirs["chase"]["next_bonus"] == bonus and theirs["chase"]["waiting"] == []
        if distance in ("cornered", "escaped"):
            break
        before = table.position()
        again = send(table, f"/v1/scenes/{scene}/chases/{chase}/checks", body, table.player)
        refused(table, again, 409, "already_rolled")  # one chase check per page
        assert table.position() == before
        table.post(f"/v1/scenes/{scene}/pages", status=200)
    else:
        raise AssertionError("the chase never ended in 40 pages")
    state = play(table, scene)["chases"][0]
    assert state["over"] is True and state["pairs"][0]["over"] is True
    before = table.position()
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    after = table.position()
    over = send(table, f"/v1/scenes/{scene}/chases/{chase}/checks", body, table.player)
    refused(table, over, 409, "chase_over")
    assert table.position() == after > before


def test_a_chase_winner_may_hold_the_range_and_on_foot_is_for_agility_wcbh_27(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)
    null = make(table, "Dr. Null", side="villain")
    scene = table.scene()
    chase = send(
        table,
        f"/v1/scenes/{scene}/chases",
        {"pairs": [{"pursuer_id": nova, "target_id": null}], "range": "close"},
    ).json()["chase"]["id"]
    before = table.position()
    path = f"/v1/scenes/{scene}/chases/{chase}/checks"
    flight = {"character_id": nova, "request": {"trait": "Flight"}, "on_foot_against_faster": True}
    error = refused(table, send(table, path, flight, table.player), 422)
    assert (error["field"], error["rule"]) == ("request.trait", "WCBH-27")
    refused(table, send(table, path, {**flight, "character_id": null}, table.player), 403)
    assert table.position() == before
    chase_check(table, scene, chase, nova, table.player, shift=0)
    answer = chase_check(table, scene, chase, null, table.gm, shift=0)
    assert answer["chase"]["pairs"][0]["range"] == "close"  # both chose to hold the range
