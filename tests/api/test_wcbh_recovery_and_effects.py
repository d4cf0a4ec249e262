"""A long Decisive Moment (WCBH-14), recovery (WCBH-34), shaking off (WCBH-37), extending
(WCBH-38) and back in the fight (WCBH-39) through the API, checked against the recorded faces."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table
from tests.api.test_wcbh_scene_play import (
    character,
    counted,
    half_up,
    make,
    refused,
    send,
    sheet,
    striker,
    stun,
    stunned_goon,
    stunned_villain,
)

# ---- WCBH-14: a Decisive Moment over several pages ------------------------------------------------


def decisive(table: Table, scene: str, who: str, token: str) -> Any:
    body = {
        "check": "trait",
        "character_id": who,
        "request": {
            "trait": "Strength",  # no difficulty of the player's: that would wait for the GM
            "decisive_moment": True,
            "effort": "physical",
            "purpose": "hold up the bridge",
        },
    }
    return send(table, f"/v1/scenes/{scene}/rolls", body, token)


def test_a_decisive_moment_goes_on_over_later_pages_of_its_scene_wcbh_14(table: Table) -> None:
    nova, bolt = make(table, "Nova", table.player), make(table, "Bolt", table.other_player)
    null = make(table, "Dr. Null", side="villain")
    issue = table.issue()
    scene = table.scene(issue)
    assert decisive(table, scene, nova, table.player).status_code == 201
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    again = decisive(table, scene, nova, table.player)  # the next page: the same moment goes on
    assert again.status_code == 201, again.text
    assert again.json()["result"]["decisive_moment"] is True
    assert table.get(f"/v1/scenes/{scene}")["once_per_scene_uses"]["decisive_moment"] == [nova]
    assert decisive(table, scene, null, table.gm).status_code == 201  # a villain's own
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    assert decisive(table, scene, null, table.gm).status_code == 201  # ... goes on as well
    later = table.scene(issue)
    before = table.position()
    other = decisive(table, scene, bolt, table.other_player)  # one hero's per scene (WCBH-15)
    assert refused(table, other, 409, "once_per_scene")["rule"] == "WCBH-15"
    new_scene = decisive(table, later, nova, table.player)  # once per story
    assert refused(table, new_scene, 409, "once_per_story")["rule"] == "WCBH-15"
    assert table.position() == before


# ---- WCBH-34: recovery ----------------------------------------------------------------------------


def recovery(table: Table, scene: str, who: str, token: str, rested: bool = False) -> Any:
    body = {"character_id": who, "rested_whole_day": rested}
    return send(table, f"/v1/scenes/{scene}/recoveries", body, token)


def hurt(table: Table, who: str, amount: int) -> None:
    body = {"resource": "health", "change": -amount, "reason": "the fight"}
    table.post(f"/v1/characters/{who}/resources", body, status=200)


def test_a_stamina_check_at_difficulty_2_restores_a_health_per_net_success_wcbh_34(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)  # Stamina 5, Health 6
    hurt(table, nova, 5)
    scene = table.scene()
    response = recovery(table, scene, nova, table.player)
    assert response.status_code == 201, response.text
    answer = response.json()
    roll = answer["roll"]
    assert (roll["request"]["trait"], roll["request"]["difficulty"]) == ("Stamina", 2)
    health = min(6, 1 + max(0, counted(roll) - 2))
    assert (answer["health_before"], answer["health"], answer["max_health"]) == (1, health, 6)
    assert character(table, nova)["resources"]["health"]["current"] == health
    other = table.other_player  # joined before the count
    before = table.position()
    # once after the fight (ruling), then again for each day of rest the GM records (issue #15)
    again = recovery(table, scene, nova, table.player)
    assert refused(table, again, 409, "no_rest_day")["rule"] == "WCBH-34"
    refused(table, recovery(table, scene, nova, other), 403)
    assert table.position() == before
    day = {"character_ids": [nova], "reason": "a night at the lab"}
    table.post(f"/v1/scenes/{scene}/rest-days", day, status=200)
    next_day = recovery(table, scene, nova, table.player)
    assert next_day.status_code == 201, next_day.text
    assert next_day.json()["roll"]["request"]["difficulty"] == 2
    refused(table, recovery(table, scene, nova, table.player), 409, "no_rest_day")


def test_a_whole_day_of_rest_lowers_the_difficulty_to_1_and_health_stops_at_max_wcbh_34(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)
    hurt(table, nova, 1)
    scene = table.scene()
    # difficulty 1 needs the GM's record of a whole day of nothing but rest (issue #15)
    claimed = recovery(table, scene, nova, table.player, rested=True)
    assert refused(table, claimed, 409, "no_rest_day")["field"] == "rested_whole_day"
    day = {"character_ids": [nova], "whole_day": True, "reason": "in bed all day"}
    refused(table, send(table, f"/v1/scenes/{scene}/rest-days", day, table.player), 403)
    table.post(f"/v1/scenes/{scene}/rest-days", day, status=200)
    asked = recovery(table, scene, nova, table.player, rested=True)
    # the player's claim lowers the difficulty: it waits for the GM (player_modifiers)
    assert asked.status_code == 202, asked.text
    assert asked.json()["modifiers"] == {"rested_whole_day": True}
    roll = table.approved(asked.json())
    assert roll["request"]["difficulty"] == 1
    [claim] = roll["modifiers"]
    assert (claim["field"], claim["by"], claim["rule"]) == (
        "rested_whole_day",
        table.player_id,
        "player_modifiers:gm_approval",
    )
    assert character(table, nova)["resources"]["health"]["current"] == min(
        6, 5 + max(0, counted(roll) - 1)
    )
    other = table.scene()
    table.post(f"/v1/scenes/{other}/rest-days", day, status=200)
    gm = recovery(table, other, nova, table.gm, rested=True).json()  # the GM's own word
    assert [(m["field"], m["role"]) for m in gm["roll"]["modifiers"]] == [
        ("rested_whole_day", "gm")
    ]


# ---- WCBH-37: shaking off an effect ---------------------------------------------------------------


def test_shaking_off_takes_half_the_net_successes_off_the_pages_wcbh_37(table: Table) -> None:
    scene = table.scene()
    null, pages = stunned_villain(table, scene)
    for _ in range(10):  # bounded: roll until the effect is over (or stop when it is)
        body = {
            "character_id": null,
            "effect": "Stunned",
            "request": {"trait": "Will", "difficulty": 1},
        }
        response = send(table, f"/v1/scenes/{scene}/shake-offs", body)
        assert response.status_code == 201, response.text
        answer = response.json()
        net = counted(answer["roll"]) - 1
        left = pages - half_up(net) if net > 0 else pages
        assert answer["pages_before"] == pages
        assert (answer["pages_left"], answer["free"]) == (max(0, left), left <= 0)
        conditions = character(table, null)["conditions"]
        if left <= 0:
            assert conditions == [] and character(table, null)["status"] == "active"
            break
        assert conditions == [{"name": "Stunned", "pages": left, "whole_scene": False}]
        pages = left
    else:
        raise AssertionError("Will 6 never shook off the effect in 10 tries")
    before = table.position()
    gone = send(table, f"/v1/scenes/{scene}/shake-offs", body)
    refused(table, gone, 409, "no_such_effect")
    assert table.position() == before


def test_an_effect_that_defeated_its_target_is_not_shaken_off_wcbh_37(table: Table) -> None:
    scene = table.scene()
    goon = stunned_goon(table, scene)
    body = {"character_id": goon, "effect": "Stunned", "request": {"trait": "Will"}}
    before = table.position()
    error = refused(table, send(table, f"/v1/scenes/{scene}/shake-offs", body), 409)
    assert error["rule"] == "WCBH-36"
    assert table.position() == before


# ---- WCBH-38: extending an effect -----------------------------------------------------------------


def extend(table: Table, scene: str, spender: str, target: str, token: str) -> Any:
    body = {"character_id": spender, "target_id": target, "effect": "Stunned"}
    return send(table, f"/v1/scenes/{scene}/effect-extensions", body, token)


def test_resolve_extends_an_effect_on_a_defeated_opponent_through_the_next_scene_wcbh_38(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)  # Resolve 4
    issue = table.issue()
    first = table.scene(issue)
    goon = stunned_goon(table, first)
    response = extend(table, first, nova, goon, table.player)
    assert response.status_code == 200, response.text
    assert character(table, nova)["resources"]["resolve"]["current"] == 3
    before = table.position()
    twice = extend(table, first, nova, goon, table.player)  # once per scene per effect
    assert refused(table, twice, 409, "already_extended")["rule"] == "WCBH-38"
    assert table.position() == before
    table.post(f"/v1/scenes/{first}/close", status=200)
    carried = character(table, goon)
    assert carried["status"] == "defeated"
    assert carried["conditions"][0]["name"] == "Stunned"
    assert carried["conditions"][0]["carried_from"] == first
    second = table.scene(issue)  # the next scene: still defeated there
    assert extend(table, second, nova, goon, table.player).status_code == 200  # and again
    table.post(f"/v1/scenes/{second}/close", status=200)
    assert character(table, goon)["status"] == "defeated"
    third = table.scene(issue)
    table.post(f"/v1/scenes/{third}/close", status=200)  # not extended in the third: it ends
    ended = character(table, goon)
    assert (ended["status"], ended["conditions"]) == ("active", [])
    assert character(table, nova)["resources"]["resolve"]["current"] == 2


def test_an_extended_effect_ends_with_the_game_issue_and_needs_a_defeated_target_wcbh_38(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)
    issue = table.issue()
    scene = table.scene(issue)
    goon = stunned_goon(table, scene)
    null, _ = stunned_villain(table, scene)
    other = table.other_player  # joined before the count
    before = table.position()
    standing = extend(table, scene, nova, null, table.player)
    assert refused(table, standing, 409, "target_not_defeated")["rule"] == "WCBH-38"
    refused(table, extend(table, scene, nova, goon, other), 403)
    assert table.position() == before
    assert extend(table, scene, nova, goon, table.player).status_code == 200
    table.post(f"/v1/scenes/{scene}/close", status=200)
    assert character(table, goon)["status"] == "defeated"  # waiting for the next scene
    table.post(f"/v1/issues/{issue}/end", status=200)
    ended = character(table, goon)
    assert (ended["status"], ended["conditions"]) == ("active", [])


# ---- WCBH-39: back in the fight -------------------------------------------------------------------


def knocked_out(table: Table, scene: str, token: str) -> tuple[str, int]:
    """A hero (Health 3, easy to hit) whom damage defeated on this page (bounded)."""
    frail = sheet(table, Agility=1, Strength=1, Will=1)  # Health 3, defends with 3 dice
    for n in range(30):
        hero = make(table, f"Nova {n}", token, body_sheet=frail)
        body = {"attacker_id": striker(table, n), "target_id": hero, "trait": "Lightning Bolt"}
        result = send(table, f"/v1/scenes/{scene}/attacks", body).json()["result"]
        if result["defeated"]:
            return hero, int(table.get(f"/v1/scenes/{scene}")["page"])
    raise AssertionError("no attack of 8 dice defeated a Health-3 hero in 30 tries")


def back(table: Table, scene: str, who: str, token: str, **extra: Any) -> Any:
    body = {"character_id": who, "use": "come_back", **extra}
    return send(table, f"/v1/scenes/{scene}/back-in-the-fight", body, token)


def test_one_resolve_on_the_next_page_brings_a_defeated_hero_back_with_3_health_wcbh_39(
    table: Table,
) -> None:
    scene = table.scene()
    hero, page = knocked_out(table, scene, table.player)
    resolve = character(table, hero)["resources"]["resolve"]["current"]
    other = table.other_player  # joined before the count
    before = table.position()
    same_page = back(table, scene, hero, table.player)
    error = refused(table, same_page, 409, "wrong_page")
    assert error["rule"] == "WCBH-39" and error["details"]["defeated_on_page"] == page
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    middle = table.position()
    refused(table, back(table, scene, hero, other), 403)
    assert table.position() == middle > before
    response = back(table, scene, hero, table.player)
    assert response.status_code == 200, response.text
    view = character(table, hero)
    assert view["status"] == "active" and view["resources"]["health"]["current"] == 3
    assert view["resources"]["resolve"]["current"] == resolve - 1
    assert table.get(f"/v1/scenes/{scene}")["once_per_scene_uses"]["back_in_the_fight"] == [hero]
    after = table.position()
    second = back(table, scene, hero, table.player, use="drop_effect", effect="Stunned")
    assert refused(table, second, 409, "once_per_scene")["rule"] == "WCBH-39"
    assert table.position() == after


def test_coming_back_a_page_late_or_without_resolve_is_refused_wcbh_39(table: Table) -> None:
    scene = table.scene()
    hero, _ = knocked_out(table, scene, table.player)
    late = make(table, "Late", table.player)
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    resolve = character(table, hero)["resources"]["resolve"]["current"]
    body = {"resource": "resolve", "change": -resolve, "reason": "spent it all"}
    table.post(f"/v1/characters/{hero}/resources", body, status=200)
    before = table.position()
    refused(table, back(table, scene, hero, table.player), 409, "not_enough_resolve")
    refused(table, back(table, scene, late, table.player), 409, "not_defeated")
    assert table.position() == before
    table.post(f"/v1/characters/{hero}/resources", {**body, "change": 1}, status=200)
    table.post(f"/v1/scenes/{scene}/pages", status=200)  # two pages after the defeat: too late
    before = table.position()
    refused(table, back(table, scene, hero, table.player), 409, "wrong_page")
    assert table.position() == before


def test_one_resolve_drops_an_effect_from_the_next_page_wcbh_39(table: Table) -> None:
    scene = table.scene()
    hero = stunned_goon(table, scene, table.player, side="hero")  # Resolve 4
    for n in range(20):  # a minion under the effect (one net success defeats it by damage too)
        goon = make(table, f"Goon {n}", side="minion", body_sheet={"kind": "minion", "threat": 1})
        if stun(table, scene, striker(table, 100 + n), goon)["effect_pages"]:
            break
    else:
        raise AssertionError("no attack of 8 dice landed on a threat-1 minion in 20 tries")
    before = table.position()
    minion = send(
        table,
        f"/v1/scenes/{scene}/back-in-the-fight",
        {"character_id": goon, "use": "drop_effect", "effect": "Stunned"},
    )
    refused(table, minion, 409, "not_enough_resolve")  # a minion has no Resolve
    no_effect = {"character_id": hero, "use": "drop_effect", "effect": "Frozen"}
    path = f"/v1/scenes/{scene}/back-in-the-fight"
    refused(table, send(table, path, no_effect, table.player), 409, "no_such_effect")
    assert table.position() == before
    body = {"character_id": hero, "use": "drop_effect", "effect": "Stunned"}
    response = send(table, path, body, table.player)
    assert response.status_code == 200, response.text
    dropping = response.json()
    assert dropping["status"] == "defeated" and dropping["conditions"][0]["dropping"] is True
    assert dropping["resolve"] == 3
    table.post(f"/v1/scenes/{scene}/pages", status=200)  # the next page: rid of it
    view = character(table, hero)
    assert (view["conditions"], view["status"]) == ([], "active")


def test_extra_actions_penalise_action_rolls_but_not_a_recovery_wcbh_25_wcbh_34(
    table: Table,
) -> None:
    nova = make(table, "Nova", table.player)  # Stamina 5
    hurt(table, nova, 3)
    scene = table.scene()
    body = {"character_id": nova, "actions": 3}  # two extra actions: -4 dice on actions (WCBH-25)
    assert send(table, f"/v1/scenes/{scene}/declarations", body, table.player).status_code == 200
    roll = {"check": "trait", "character_id": nova, "request": {"trait": "Agility"}}
    acted = send(table, f"/v1/scenes/{scene}/rolls", roll, table.player)
    assert acted.status_code == 201, acted.text
    assert acted.json()["request"]["page_modifier"] == -4
    assert len(acted.json()["faces"]) == 5 - 4  # Agility 5
    response = recovery(table, scene, nova, table.player)
    assert response.status_code == 201, response.text
    rolled = response.json()["roll"]
    assert rolled["request"]["page_modifier"] == 0  # "other checks are unchanged"
    assert len(rolled["faces"]) == 5  # Stamina 5, unpenalised
