"""nWoD micro firefights through the API: Initiative, two actions, attacks, damage, armour,
ammunition, Will Power, maneuvers, cover and modifiers (NW-1..NW-18), checked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.nwod_support import (
    SHOOTER,
    Firefight,
    hand_damage,
    hand_pool,
    hand_successes,
    mods,
    thug,
)
from tests.client import TestClient


@pytest.fixture
def fight(client: TestClient) -> Firefight:
    return Firefight(client)


def duel(fight: Firefight, **sheet: Any) -> str:
    """The hero and one thug in the fight, with the hero to act first every turn: the thug's
    Initiative modifier -10 (NW-18) puts it at 1d10 + 1 - 10 <= 1 against the hero's >= 4."""
    foe = fight.character("Thug", "villain", thug(**sheet))
    fight.join(fight.hero, fight.t.player)
    assert fight.ok("initiative", {"character_id": foe, "modifier": -10})["order"][0] == fight.hero
    fight.until_current(fight.hero)
    return foe


# ---- NW-1, NW-2, NW-11, NW-12: the sheet -----------------------------------------------------------


def test_sheet_derives_defense_armour_speed_and_weapons_nw_1_nw_2_nw_11_nw_12(
    fight: Firefight,
) -> None:
    shielded = dict(
        SHOOTER,
        protection=[*SHOOTER["protection"], {"name": "Riot shield", "kind": "SLD", "rating": 2}],
    )
    other = fight.character("Shield", "hero", shielded)
    doc = fight.t.get(f"/v1/characters/{other}")
    derived = doc["derived"]
    assert derived["defense"] == 2 + 2  # NW-12: a shield only raises DEF
    assert derived["armor"] == 2  # ARM subtracted from damage
    assert derived["speed"] == {"walk": 5, "run": 10, "sprint": 15}  # NW-2
    assert derived["initiative_bonus"] == 3  # NW-14: INT
    rifle = next(w for w in derived["weapons"] if w["name"] == "Assault rifle")
    assert rifle == {
        "name": "Assault rifle",
        "damage_class": "professional",
        "damage_bonus": 2,
        "magazine": 30,
        "spare_magazines": 20,
        "kind": "ranged",
    }
    assert {n: r["current"] for n, r in doc["resources"].items()} == {"health": 8, "will_power": 3}


# ---- NW-14: Initiative ------------------------------------------------------------------------------


def test_initiative_is_1d10_plus_int_and_sets_the_order_nw_14(fight: Firefight) -> None:
    foe = fight.character("Thug", "villain", thug())
    mine = fight.join(fight.hero, fight.t.player)
    roll = mine["roll"]
    face = roll["faces"][0]["face"]
    assert len(roll["faces"]) == 1 and 1 <= face <= 10
    assert roll["request"]["intelligence"] == 3
    assert roll["result"]["total"] == face + 3 == mine["initiative"][fight.hero]["total"]
    theirs = fight.join(foe)
    foe_total = theirs["initiative"][foe]["total"]
    assert foe_total == theirs["roll"]["faces"][0]["face"] + 1
    hero_total = mine["outcome"]["total"]
    # NW-14: higher first; ruling: ties go to the higher INT (the hero's 3 over 1).
    expected = [fight.hero, foe] if hero_total >= foe_total else [foe, fight.hero]
    assert theirs["order"] == expected and theirs["current"] == expected[0]
    fight.refused("initiative", {"character_id": foe}, 409, "NW-14")


def test_only_fighters_with_initiative_act_and_in_order_nw_14(fight: Firefight) -> None:
    foe = fight.character("Thug", "villain", thug())
    fight.refused(
        "actions", {"character_id": fight.hero, "maneuver": "aim"}, 409, "NW-14", fight.t.player
    )
    fight.join(fight.hero, fight.t.player)
    fight.join(foe)
    first = fight.state()["current"]
    second = foe if first == fight.hero else fight.hero
    token = fight.t.player if second == fight.hero else None
    fight.refused("actions", {"character_id": second, "maneuver": "aim"}, 409, "NW-14", token)


def test_players_act_only_for_their_own_characters(fight: Firefight) -> None:
    fight.refused("initiative", {"character_id": fight.hero}, 403, None, fight.t.other_player)


# ---- NW-15: two actions per turn --------------------------------------------------------------------


def test_two_actions_per_turn_then_the_next_fighter_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    fight.act(fight.hero, "aim", fight.t.player)
    state = fight.act(fight.hero, "run", fight.t.player)
    assert state["actions"][fight.hero] == [
        {"maneuver": "aim", "cost": 1},
        {"maneuver": "run", "cost": 1},
    ]
    # the hero's turn is over: a third action, even a free walk, is refused
    for maneuver in ("aim", "walk"):
        body = {"character_id": fight.hero, "maneuver": maneuver}
        error = fight.refused("actions", body, 409, "NW-15", fight.t.player)
        assert error["code"] == "no_actions_left"
    assert state["current"] in (foe, None)


def test_a_third_action_is_refused_while_walking_is_free_nw_15(fight: Firefight) -> None:
    duel(fight)
    fight.act(fight.hero, "aim", fight.t.player)
    walked = fight.act(fight.hero, "walk", fight.t.player)
    assert walked["outcome"]["metres"] == 5 and walked["outcome"]["actions"] == 0  # NW-2, NW-15
    # sprint takes all actions: not after the aim
    error = fight.refused(
        "actions", {"character_id": fight.hero, "maneuver": "sprint"}, 409, "NW-15", fight.t.player
    )
    assert error["code"] == "no_actions_left"


def test_sprint_and_defend_take_the_whole_turn_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    sprint = fight.act(fight.hero, "sprint", fight.t.player, difficult_terrain=True)
    assert sprint["outcome"]["metres"] == 15 // 2  # NW-2 sprint 3X, NW-17 difficult terrain -50%
    assert sprint["actions"][fight.hero] == [{"maneuver": "sprint", "cost": 2}]
    fight.next_turn()
    fight.until_current(fight.hero)
    state = fight.act(fight.hero, "defend", fight.t.player)
    assert fight.hero in state["defending"] and state["current"] != fight.hero
    assert foe in state["order"]


# ---- NW-6, NW-8, NW-10, NW-11, NW-12: attacks, damage, armour ----------------------------------------


def test_a_ranged_shot_deals_successes_plus_weapon_minus_armour_nw_6_nw_8_nw_11(
    fight: Firefight,
) -> None:
    foe = duel(fight, protection=[{"name": "Flak jacket", "kind": "ARM", "rating": 1}])
    shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    roll = shot["roll"]
    assert roll["check"] == "fight_roll" and roll["request"]["kind"] == "ranged"
    assert roll["request"]["target_defense"] == 0  # NW-6/NW-10: DEF is not subtracted at range
    assert hand_pool(roll) == 4 and mods(roll) == {}
    assert roll["request"]["damage_bonus"] == 2 and roll["request"]["target_armor"] == 1
    damage = hand_damage(roll)
    assert roll["result"]["damage"] == damage == shot["outcome"]["rolls"][0]["damage"]
    assert fight.resources(foe)["health"] == max(0, 6 - damage)
    assert shot["magazines"][fight.hero] == {"Assault rifle": 29}  # NW-16: one round a shot


def test_a_melee_strike_subtracts_the_target_s_defense_and_shield_nw_6_nw_10_nw_12(
    fight: Firefight,
) -> None:
    foe = duel(fight, defense=1, protection=[{"name": "Buckler", "kind": "SLD", "rating": 1}])
    strike = fight.attack(fight.hero, [foe], fight.t.player, kind="melee", weapon="Knife")
    roll = strike["roll"]
    assert roll["request"]["target_defense"] == 2  # DEF 1 + SLD 1
    assert hand_pool(roll) == 4 - 2
    assert roll["request"]["target_armor"] == 0  # a shield is no armour (NW-12)
    assert hand_damage(roll) == roll["result"]["damage"]
    assert "Knife" not in strike["magazines"].get(fight.hero, {})  # no magazine, no rounds


def test_no_damage_without_a_hit_and_never_below_zero_nw_8_nw_11(fight: Firefight) -> None:
    # ARM 4 against a common pistol: 1 success + 1 - 4 is 0, never negative.
    foe = duel(fight, protection=[{"name": "APC plate", "kind": "ARM", "rating": 4}])
    health = 6
    for _ in range(3):
        shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Pistol")
        roll = shot["roll"]
        damage = hand_damage(roll)
        assert roll["result"]["damage"] == damage
        assert (
            damage == max(0, hand_successes(roll) + 1 - 4) if hand_successes(roll) else damage == 0
        )
        health = max(0, health - damage)
        assert fight.resources(foe)["health"] == health
        fight.until_current(fight.hero)


def test_zero_health_is_reported_for_the_gm_to_narrate_nw_8(fight: Firefight) -> None:
    foe = duel(fight, health=1)
    for _ in range(30):
        shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle", rounds=None)
        if shot["outcome"]["rolls"][0]["hit"]:
            break
        fight.until_current(fight.hero)
    else:
        raise AssertionError("30 shots of 4d10 all missed")
    assert shot["outcome"]["at_zero_health"] == [foe]
    assert fight.resources(foe)["health"] == 0
    # the rules leave 0 Health to the GM: the character stays active
    assert fight.t.get(f"/v1/characters/{foe}")["status"] == "active"


# ---- NW-16: ammunition --------------------------------------------------------------------------------


def test_the_magazine_runs_dry_and_reloads_nw_16(fight: Firefight) -> None:
    foe = duel(fight)
    fight.attack(fight.hero, [foe], fight.t.player, weapon="Pistol")
    state = fight.attack(fight.hero, [foe], fight.t.player, weapon="Pistol")
    assert state["magazines"][fight.hero]["Pistol"] == 1
    fight.until_current(fight.hero)
    state = fight.attack(fight.hero, [foe], fight.t.player, weapon="Pistol")
    assert state["magazines"][fight.hero]["Pistol"] == 0
    error = fight.refused(
        "attacks",
        {"attacker_id": fight.hero, "target_ids": [foe], "weapon": "Pistol"},
        409,
        "NW-16",
        fight.t.player,
    )
    assert error["code"] == "out_of_ammunition" and error["details"] == {"left": 0, "needed": 1}
    reloaded = fight.act(fight.hero, "reload", fight.t.player, weapon="Pistol")
    assert reloaded["magazines"][fight.hero]["Pistol"] == 3


def test_a_burst_states_its_rounds_within_the_range_nw_15_nw_16(fight: Firefight) -> None:
    foe = duel(fight)
    body = {
        "attacker_id": fight.hero,
        "target_ids": [foe],
        "weapon": "Pistol",
        "maneuver": "short_burst",
    }
    fight.refused("attacks", body, 422, "NW-15", fight.t.player)  # no rounds stated
    fight.refused("attacks", body | {"rounds": 2}, 422, "NW-15", fight.t.player)  # 3-5
    fight.refused("attacks", body | {"rounds": 4}, 409, "NW-16", fight.t.player)  # only 3 loaded
    fight.refused("attacks", body | {"weapon": "Knife", "rounds": 3}, 422, "NW-16", fight.t.player)
    burst = fight.attack(
        fight.hero, [foe], fight.t.player, weapon="Assault rifle", maneuver="short_burst", rounds=5
    )
    assert mods(burst["roll"]) == {"short burst": 1} and hand_pool(burst["roll"]) == 5
    assert burst["magazines"][fight.hero]["Assault rifle"] == 25


# ---- NW-9: Will Power ---------------------------------------------------------------------------------


def test_will_power_adds_3d10_to_one_roll_and_is_spent_nw_9(fight: Firefight) -> None:
    foe = duel(fight)
    shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle", will_power=2)
    assert hand_pool(shot["roll"]) == 4 + 6
    assert fight.resources(fight.hero)["will_power"] == 1
    fight.refused(
        "attacks",
        {
            "attacker_id": fight.hero,
            "target_ids": [foe],
            "weapon": "Assault rifle",
            "will_power": 2,
        },
        409,
        "NW-9",
        fight.t.player,
    )
    fight.refused(
        "will-power",
        {"character_id": fight.hero, "boost": "defense", "points": 2},
        409,
        "NW-9",
        fight.t.player,
    )


def test_will_power_raises_defense_until_the_next_turn_nw_9(fight: Firefight) -> None:
    foe = duel(fight)
    boosted = fight.ok(
        "will-power", {"character_id": fight.hero, "boost": "defense"}, fight.t.player
    )
    assert boosted["boosts"][fight.hero] == {"defense": 1} and boosted["outcome"]["will_power"] == 2
    fight.end_turn(fight.hero, fight.t.player)
    fight.until_current(foe)
    strike = fight.attack(foe, [fight.hero], kind="melee", weapon="Club")
    assert strike["roll"]["request"]["target_defense"] == 2 + 2
    assert hand_pool(strike["roll"]) == 3 - 4
    assert strike["roll"]["result"]["chance_roll"] is True  # NW-5
    assert strike["roll"]["request"]["target_armor"] == 2  # the hero's vest
    fight.next_turn()  # the boost lasts until the hero's next turn, not only the page
    assert fight.state()["boosts"] == {fight.hero: {"defense": 1}}
    fight.until_current(fight.hero)
    fight.end_turn(fight.hero, fight.t.player)
    assert fight.state()["boosts"] == {}


def test_will_power_raises_initiative_for_the_turn_nw_9_nw_14(fight: Firefight) -> None:
    foe = fight.character("Thug", "villain", thug())
    fight.join(fight.hero, fight.t.player)
    fight.join(foe)
    state = fight.state()
    hero, them = (
        initiative["total"]
        for initiative in (state["initiative"][fight.hero], state["initiative"][foe])
    )
    state = fight.ok(
        "will-power", {"character_id": fight.hero, "boost": "initiative"}, fight.t.player
    )
    # NW-9: +2 Initiative this turn; ruling: ties go to the higher INT (the hero's 3 over 1)
    assert state["order"][0] == (fight.hero if hero + 2 >= them else foe)
    fight.next_turn()
    state = fight.state()
    assert state["boosts"] == {}
    assert state["order"][0] == (fight.hero if hero >= them else foe)


# ---- NW-15: maneuvers ---------------------------------------------------------------------------------


def test_aiming_adds_a_die_per_action_up_to_three_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    fight.act(fight.hero, "aim", fight.t.player)
    fight.act(fight.hero, "aim", fight.t.player)
    fight.until_current(fight.hero)
    state = fight.act(fight.hero, "aim", fight.t.player)
    assert state["aim"][fight.hero] == 3
    error = fight.refused(
        "actions", {"character_id": fight.hero, "maneuver": "aim"}, 409, "NW-15", fight.t.player
    )
    assert error["code"] == "aim_limit"
    shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    assert mods(shot["roll"]) == {"aim (3 action(s))": 3} and hand_pool(shot["roll"]) == 4 + 3
    assert shot["aim"] == {}  # spent on the shot


def test_a_precise_shot_is_minus_2d10_and_names_the_location_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    shot = fight.attack(
        fight.hero,
        [foe],
        fight.t.player,
        weapon="Assault rifle",
        maneuver="precise",
        hit_location="right hand",
    )
    assert mods(shot["roll"]) == {"precise": -2} and hand_pool(shot["roll"]) == 2
    body = {
        "attacker_id": fight.hero,
        "target_ids": [foe],
        "weapon": "Assault rifle",
        "hit_location": "head",
    }
    fight.refused("attacks", body, 422, "NW-15", fight.t.player)


def test_a_long_burst_hits_up_to_three_targets_with_less_damage_nw_15(fight: Firefight) -> None:
    foes = [fight.character(f"Thug {i}", "villain", thug()) for i in range(4)]
    fight.join(fight.hero, fight.t.player)
    for foe in foes:
        fight.join(foe)
    fight.until_current(fight.hero)
    body = {
        "attacker_id": fight.hero,
        "target_ids": foes,
        "weapon": "Assault rifle",
        "maneuver": "long_burst",
        "rounds": 15,
    }
    fight.refused("attacks", body, 422, "NW-15", fight.t.player)  # four targets
    burst = fight.attack(
        fight.hero,
        foes[:3],
        fight.t.player,
        weapon="Assault rifle",
        maneuver="long_burst",
        rounds=20,
    )
    assert len(burst["outcome"]["rolls"]) == 3
    for index, (foe, hit) in enumerate(zip(foes, burst["outcome"]["rolls"], strict=False)):
        roll = fight.roll(hit["roll_id"])
        assert roll["request"]["damage_penalty"] == index
        assert mods(roll) == {"long burst": 2} and hand_pool(roll) == 6
        assert hit["damage"] == hand_damage(roll)
        assert fight.resources(foe)["health"] == max(0, 6 - hit["damage"])  # Health stops at 0
    assert burst["magazines"][fight.hero]["Assault rifle"] == 10


def test_reckless_attack_drops_defense_to_zero_until_the_next_turn_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    body = {
        "attacker_id": fight.hero,
        "target_ids": [foe],
        "weapon": "Assault rifle",
        "maneuver": "reckless",
        "kind": "ranged",
    }
    fight.refused("attacks", body, 422, "NW-15", fight.t.player)  # reckless is melee
    strike = fight.attack(
        fight.hero, [foe], fight.t.player, kind="melee", weapon="Knife", maneuver="reckless"
    )
    assert mods(strike["roll"]) == {"reckless": 2} and hand_pool(strike["roll"]) == 4 + 2 - 1
    fight.end_turn(fight.hero, fight.t.player)
    fight.until_current(foe)
    back = fight.attack(foe, [fight.hero], kind="melee", weapon="Club")
    assert back["roll"]["request"]["target_defense"] == 0  # DEF 0 until the hero's next turn
    fight.until_current(fight.hero)
    fight.act(fight.hero, "walk", fight.t.player)  # the hero's next turn has come
    fight.end_turn(fight.hero, fight.t.player)
    fight.until_current(foe)
    again = fight.attack(foe, [fight.hero], kind="melee", weapon="Club")
    assert again["roll"]["request"]["target_defense"] == 2


def test_defend_doubles_defense_and_allows_nothing_else_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    fight.act(fight.hero, "defend", fight.t.player)
    fight.until_current(foe)
    strike = fight.attack(foe, [fight.hero], kind="melee", weapon="Club")
    assert strike["roll"]["request"]["target_defense"] == 4


def test_a_sneak_attack_ignores_defense_nw_15(fight: Firefight) -> None:
    foe = duel(fight, defense=3)
    strike = fight.attack(
        fight.hero, [foe], fight.t.player, kind="melee", weapon="Knife", sneak=True
    )
    assert strike["roll"]["request"]["target_defense"] == 0 and hand_pool(strike["roll"]) == 4


def test_dodging_adds_defense_against_ranged_and_costs_own_dice_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    state = fight.act(fight.hero, "run", fight.t.player, dodge=True)  # combines with movement
    assert fight.hero in state["dodging"] and state["actions"][fight.hero][0]["cost"] == 1
    shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    assert mods(shot["roll"]) == {"dodging this turn": -1} and hand_pool(shot["roll"]) == 3
    fight.until_current(foe)
    back = fight.attack(foe, [fight.hero], weapon="Pistol")
    assert back["roll"]["request"]["target_defense"] == 1 and hand_pool(back["roll"]) == 2


def test_suppressive_fire_forces_a_vio_roll_or_cover_nw_15(fight: Firefight) -> None:
    foe = duel(fight)
    for _ in range(20):
        fire = fight.attack(
            fight.hero,
            [foe],
            fight.t.player,
            weapon="Assault rifle",
            maneuver="suppressive",
            rounds=20,
        )
        assert mods(fire["roll"]) == {"suppressive": 2} and hand_pool(fire["roll"]) == 6
        assert fire["magazines"][fight.hero]["Assault rifle"] == 10
        if fire["outcome"]["suppressed"]:
            break
        fight.act(fight.hero, "reload", fight.t.player, weapon="Assault rifle")
        fight.until_current(fight.hero)
    else:
        raise AssertionError("20 rolls of 6d10 without a success")
    assert fire["suppressed"][foe]["status"] == "pending"
    fight.until_current(foe)
    fight.refused(
        "attacks",
        {"attacker_id": foe, "target_ids": [fight.hero], "weapon": "Pistol"},
        409,
        "NW-15",
    )
    held = fight.ok("suppression-rolls", {"character_id": foe})
    if held["outcome"]["held"]:
        assert foe not in held["suppressed"]
    else:
        assert held["suppressed"][foe]["status"] == "must_take_cover"
        fight.refused("actions", {"character_id": foe, "maneuver": "aim"}, 409, "NW-15")
        covered = fight.act(foe, "take_cover", cover="partial")
        assert foe not in covered["suppressed"] and covered["cover"][foe]["kind"] == "partial"


# ---- NW-13, NW-17, NW-18: cover and modifiers ---------------------------------------------------------


def test_partial_cover_costs_the_attacker_2d10_nw_13(fight: Firefight) -> None:
    foe = duel(fight)
    fight.end_turn(fight.hero, fight.t.player)
    fight.until_current(foe)
    fight.act(foe, "take_cover", cover="partial")
    fight.until_current(fight.hero)
    shot = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    assert mods(shot["roll"]) == {"target in partial cover": -2} and hand_pool(shot["roll"]) == 2


def test_full_cover_needs_its_dur_pierced_and_fires_back_blind_nw_13(fight: Firefight) -> None:
    foe = duel(fight)
    fight.refused(
        "actions",
        {
            "character_id": fight.hero,
            "maneuver": "take_cover",
            "cover": "partial",
            "cover_durability": 2,
        },
        422,
        "NW-13",
        fight.t.player,
    )
    full = {"character_id": fight.hero, "maneuver": "take_cover", "cover": "full"}
    asked = fight.post("actions", full | {"cover_durability": 3}, fight.t.player)
    # no sheet holds the cover's DUR: the player's number waits for the GM (player_modifiers)
    assert asked.status_code == 202, asked.text
    assert asked.json()["modifiers"] == {"cover_durability": 3}
    fight.t.post(f"/v1/roll-requests/{asked.json()['id']}/approve", {}, status=200)
    melee = {"attacker_id": fight.hero, "target_ids": [foe], "kind": "melee", "weapon": "Knife"}
    fight.refused("attacks", melee, 409, "NW-13", fight.t.player)  # only blind fire from there
    blind = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    assert (
        mods(blind["roll"]) == {"blind fire from full cover": -5} and hand_pool(blind["roll"]) == -1
    )
    assert blind["roll"]["result"]["chance_roll"] is True
    fight.until_current(foe)
    shot = fight.attack(foe, [fight.hero], weapon="Pistol")
    assert mods(shot["roll"]) == {"no line of sight (full cover)": -2}
    assert shot["roll"]["request"]["target_armor"] == 2 + 3  # vest ARM 2 + the cover's DUR 3
    [dur] = [m for m in shot["roll"]["modifiers"] if m["field"] == "cover_durability"]
    assert (dur["value"], dur["by"], dur["rule"]) == (
        3,
        fight.t.player_id,
        "player_modifiers:gm_approval",
    )
    assert shot["roll"]["result"]["damage"] == hand_damage(shot["roll"])


def test_range_weather_and_darkness_nw_17(fight: Firefight) -> None:
    foe = duel(fight)
    shot = fight.attack(
        fight.hero,
        [foe],
        fight.t.player,
        weapon="Assault rifle",
        range="long",
        conditions=["smoke", "fog"],
    )
    assert mods(shot["roll"]) == {"long range": -4, "smoke, fog": -2}  # ruling: -2 once
    assert hand_pool(shot["roll"]) == -2 and shot["roll"]["result"]["chance_roll"]
    dark = fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle", darkness=True)
    assert dark["roll"]["request"]["chance_only"] and hand_pool(dark["roll"]) == 4
    assert len([f for f in dark["roll"]["faces"] if f["exploded_from"] is None]) == 1
    assert dark["roll"]["result"]["successes"] == hand_successes(dark["roll"])
    body = {"attacker_id": fight.hero, "target_ids": [foe], "kind": "melee", "range": "medium"}
    fight.refused("attacks", body, 422, "NW-17", fight.t.player)


def test_merits_apply_their_dice_modifier_as_written_nw_3_nw_18(fight: Firefight) -> None:
    foe = duel(fight)
    body = {"attacker_id": fight.hero, "target_ids": [foe], "weapon": "Assault rifle"}
    fight.refused("attacks", body | {"merits": ["Ex-cop"]}, 422, "NW-18", fight.t.player)
    fight.refused("attacks", body | {"merits": ["Sniper"]}, 422, "NW-3", fight.t.player)
    shot = fight.attack(
        fight.hero,
        [foe],
        fight.t.player,
        weapon="Assault rifle",
        merits=["Marksman"],
        range="medium",
    )
    assert mods(shot["roll"]) == {"medium range": -2, "merit: Marksman": 1}
    assert hand_pool(shot["roll"]) == 3


def test_an_affinity_roll_with_modifiers_and_a_contest_nw_4_nw_6(fight: Firefight) -> None:
    foe = fight.character("Thug", "villain", thug())
    rolled = fight.ok(
        "rolls",
        {"character_id": fight.hero, "affinity": "ELG", "conditions": ["poor_light"]},
        fight.t.player,
    )
    assert hand_pool(rolled["roll"]) == 0 and rolled["roll"]["result"]["chance_roll"]  # NW-5
    assert rolled["outcome"]["successes"] == hand_successes(rolled["roll"])
    body = {
        "sides": [
            {"character_id": fight.hero, "affinity": "ELG"},
            {"character_id": foe, "affinity": "INT"},
        ]
    }
    fight.refused("contests", body, 403, None, fight.t.player)  # the GM runs contests
    contest = fight.ok("contests", body)
    sides = contest["outcome"]["sides"]
    counts = [hand_successes(fight.roll(s["roll_id"])) for s in sides]
    assert [s["successes"] for s in sides] == counts
    if counts[0] == counts[1]:
        assert contest["outcome"]["tie"] and contest["outcome"]["winner_id"] is None
    else:
        assert contest["outcome"]["winner_id"] == sides[counts.index(max(counts))]["character_id"]


def test_firefights_need_an_nwod_campaign(client: TestClient) -> None:
    from tests.api.support import Table

    table = Table(client)
    scene = table.scene()
    hero = table.character(table.player)
    response = table.client.post(
        f"/v1/scenes/{scene}/nwod/initiative",
        json={"character_id": hero},
        headers={"Authorization": f"Bearer {table.gm}"},
    )
    assert response.status_code == 422


def test_the_scene_replay_tells_the_firefight_with_the_same_state_nw_7(fight: Firefight) -> None:
    foe = duel(fight)
    fight.act(fight.hero, "aim", fight.t.player)
    fight.attack(fight.hero, [foe], fight.t.player, weapon="Assault rifle")
    turned = fight.t.post(f"/v1/scenes/{fight.scene}/pages", status=200)
    replay = f"/v1/scenes/{fight.scene}/replay?min_position={turned['position']}"
    steps = fight.t.get(replay)["steps"]
    texts = [s["text"] for s in steps if s["type"] == "Scene.StateChanged"]
    assert texts[0].startswith("Vega rolls Initiative: ") and texts[0].endswith("(NW-14)")
    assert "Vega: aim (1 action(s))" in texts
    assert "Vega: standard (1 action(s)), 29 rounds left in the Assault rifle" in texts
    assert texts[-1] == "Turn 2 of the firefight begins (NW-7, NW-14)"
    changes = [s["changes"] for s in steps if s["type"] == "Scene.StateChanged"]
    replayed = changes[-1]["nwod"][1]
    state = fight.state()
    for key in ("turn", "initiative", "actions", "aim", "magazines", "cover"):
        assert replayed[key] == state[key]


def test_firefight_rolls_recompute_from_their_own_request_once_the_seed_is_revealed(
    fight: Firefight,
) -> None:
    foe = duel(fight)
    initiative = fight.state()["initiative"]
    assert initiative[fight.hero]["total"] >= 4
    burst = fight.attack(
        fight.hero,
        [foe],
        fight.t.player,
        weapon="Assault rifle",
        maneuver="short_burst",
        rounds=3,
        will_power=1,
        merits=["Marksman"],
    )
    rolls = [burst["roll"]["id"]]
    rolls += [
        s["roll_id"]
        for s in fight.ok(
            "contests",
            {
                "sides": [
                    {"character_id": fight.hero, "affinity": "INT"},
                    {"character_id": foe, "affinity": "VIO", "darkness": True},
                ]
            },
        )["outcome"]["sides"]
    ]
    fight.t.post(f"/v1/scenes/{fight.scene}/close", status=200)
    for roll_id in rolls:
        verified = fight.t.get(f"/v1/rolls/{roll_id}/verification")
        assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}
    # a closed scene takes no more firefight commands
    fight.refused(
        "actions", {"character_id": fight.hero, "maneuver": "aim"}, 409, None, fight.t.player
    )


@pytest.mark.parametrize("policy", ["refused", "trusted"])
def test_a_players_cover_dur_follows_player_modifiers_nw_13(
    client: TestClient, policy: str
) -> None:
    """No sheet holds a cover's DUR, and it is added to the fighter's armour against every attack:
    a player's is a declared number like a roll's modifier."""
    fight = Firefight(client, {"player_modifiers": policy})
    foe = duel(fight)
    full = {"character_id": fight.hero, "maneuver": "take_cover", "cover": "full"}
    before = fight.t.position()
    taken = fight.post("actions", full | {"cover_durability": 20}, fight.t.player)
    if policy == "refused":
        assert taken.status_code == 422, taken.text
        assert taken.json()["error"]["field"] == "cover_durability"
        assert fight.t.position() == before
        return
    assert taken.status_code == 201, taken.text
    fight.until_current(foe)
    shot = fight.attack(foe, [fight.hero], weapon="Pistol")
    assert shot["roll"]["request"]["target_armor"] == 2 + 20
    assert [m for m in shot["roll"]["modifiers"] if m["field"] == "cover_durability"] == [
        {
            "field": "cover_durability",
            "value": 20,
            "by": fight.t.player_id,
            "role": "player",
            "rule": "player_modifiers:trusted",
        }
    ]


def test_a_contest_s_records_name_the_gm_as_the_giver_of_each_side_s_dice_nw_6_nw_17(
    fight: Firefight,
) -> None:
    foe = duel(fight)
    body = {
        "sides": [
            {"character_id": fight.hero, "affinity": "ELG", "modifier": 2},
            {"character_id": foe, "affinity": "INT"},
        ]
    }
    sides = fight.ok("contests", body)["outcome"]["sides"]
    first, second = (fight.roll(s["roll_id"]) for s in sides)
    assert [(m["field"], m["value"], m["by"], m["role"]) for m in first["modifiers"]] == [
        ("sides.0.modifier", 2, fight.t.member_id(fight.t.gm), "gm")
    ]
    assert second["modifiers"] == []
