"""Class D Heroes combat through the API: rounds, actions, attacks, reactions (CD-1, CD-8..CD-20).

Dice are fair: each test checks the recorded faces against the rule by hand (2 kept d6 + stat
against 5 + the target's stat, criticals on the two kept dice), or loops a bounded number of rounds
to reach an outcome.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.classd_support import SHEET, Fight, final_check_dice, hand_check, kept
from tests.api.support import bearer
from tests.client import TestClient

TRIES = 40


@pytest.fixture
def fight(client: TestClient) -> Fight:
    return Fight(client)


def until(fight: Fight, wanted: Any, attempt: Any, tries: int = TRIES) -> dict[str, Any]:
    """Play `attempt` once a round until `wanted(response)`; bounded, and fails loudly."""
    for _ in range(tries):
        response = attempt()
        if wanted(response):
            return response  # type: ignore[no-any-return]
        fight.next_round()
    raise AssertionError(f"the wanted outcome did not come up in {tries} rounds")


# ---- CD-1: the sheet ----------------------------------------------------------------------------


def test_a_hero_has_no_rank_and_a_villain_needs_one_cd_1(fight: Fight) -> None:
    path = f"/v1/campaigns/{fight.t.campaign_id}/characters"
    hero = {"name": "X", "side": "hero", "sheet": SHEET | {"rank": "boss"}}
    response = fight.t.client.post(path, json=hero, headers=bearer(fight.t.gm))
    assert response.status_code == 422 and response.json()["error"]["rule"] == "CD-1"
    villain = {"name": "Y", "side": "villain", "sheet": SHEET}
    response = fight.t.client.post(path, json=villain, headers=bearer(fight.t.gm))
    assert response.status_code == 422 and response.json()["error"]["rule"] == "CD-17"


def test_the_sheet_has_stats_health_will_maxima_and_attack_gear_cd_1(fight: Fight) -> None:
    hero = fight.t.get(f"/v1/characters/{fight.hero}")
    assert (hero["sheet"]["might"], hero["sheet"]["speed"], hero["sheet"]["spirit"]) == (2, 3, 1)
    assert hero["resources"]["health"]["max"] == 60 and hero["resources"]["will"]["max"] == 5
    assert hero["sheet"]["gear"][0] == {
        "name": "Sling",
        "description": "",
        "attack": "ranged",
        "damage": 1,
    }


# ---- CD-8: rounds -------------------------------------------------------------------------------


def test_a_round_is_the_heroes_turn_then_the_villains_turn_cd_8(fight: Fight) -> None:
    goon = fight.villain()
    assert (fight.state()["round"], fight.state()["turn"]) == (1, "heroes")
    body = {"villain_id": goon, "hero_id": fight.hero, "attack_type": "melee"}
    error = fight.refused("villain-attacks", body, None, 409)
    assert (error["rule"], error["details"]["turn"]) == ("CD-8", "heroes")
    assert fight.villains_turn()["turn"] == "villains"
    attack = {"attacker_id": fight.hero, "target_id": goon, "attack_type": "melee"}
    assert fight.refused("attacks", attack, fight.t.player, 409)["rule"] == "CD-8"
    assert fight.refused("villains-turn", None, None, 409)["rule"] == "CD-8"
    fight.ok("villain-attacks", body)
    fight.next_round()
    assert (fight.state()["round"], fight.state()["turn"]) == (2, "heroes")


def test_only_the_gm_ends_the_heroes_turn_cd_8(fight: Fight) -> None:
    assert fight.refused("villains-turn", None, fight.t.player, 403)["code"] == "forbidden"


# ---- CD-9: one action a round -------------------------------------------------------------------


def test_a_second_action_in_a_round_is_409_and_writes_nothing_cd_9(fight: Fight) -> None:
    goon = fight.villain()
    fight.ok(
        "actions",
        {"character_id": fight.hero, "action": "power", "feature": "Mind spike"},
        fight.t.player,
    )
    body = {"attacker_id": fight.hero, "target_id": goon, "attack_type": "melee"}
    error = fight.refused("attacks", body, fight.t.player, 409)
    assert (error["rule"], error["details"]["actions"]) == ("CD-9", ["power:Mind spike"])
    item = {"character_id": fight.hero, "action": "item"}
    assert fight.refused("actions", item, fight.t.player, 409)["rule"] == "CD-9"
    fight.next_round()
    fight.attack(goon)  # a new round, a new action


def test_a_hero_cannot_take_a_villain_s_action_cd_9(fight: Fight) -> None:
    body = {"character_id": fight.hero, "action": "special"}
    assert fight.refused("actions", body, fight.t.player, 422)["field"] == "action"


def test_a_player_acting_for_another_s_hero_is_403_and_writes_nothing(fight: Fight) -> None:
    goon = fight.villain()
    body = {"attacker_id": fight.hero, "target_id": goon, "attack_type": "melee"}
    fight.refused("attacks", body, fight.t.other_player, 403)
    fight.refused("attacks", body, fight.t.observer, 403)
    move = {"hero_id": fight.hero, "edge": "cover", "difficulty": 8}
    fight.refused("moves", move, fight.t.other_player, 403)


# ---- CD-10, CD-11: attacks and their outcomes ---------------------------------------------------


@pytest.mark.parametrize(
    ("attack_type", "stat"), [("melee", "might"), ("ranged", "speed"), ("mental", "spirit")]
)
def test_each_attack_type_rolls_its_stat_against_the_target_s_cd_10(
    fight: Fight, attack_type: str, stat: str
) -> None:
    goon = fight.villain(might=4, speed=0, spirit=2)
    roll = fight.attack(goon, attack_type)["roll"]
    hero_stat, target_stat = SHEET[stat], {"might": 4, "speed": 0, "spirit": 2}[stat]
    assert (roll["request"]["stat_value"], roll["request"]["target_stat"]) == (
        hero_stat,
        target_stat,
    )
    hand_check(roll, hero_stat, 5 + target_stat)
    assert roll["result"]["stat"] == stat


def test_a_ranged_attack_needs_a_ranged_weapon_or_a_power_and_will_cd_10(fight: Fight) -> None:
    goon = fight.villain()
    bare = fight.character("Bare", "hero", SHEET | {"gear": [], "powers": []}, fight.t.player)
    body = {"attacker_id": bare, "target_id": goon, "attack_type": "ranged"}
    assert fight.refused("attacks", body, fight.t.player, 409)["rule"] == "CD-10"
    zap = [{"name": "Zap", "attack": "ranged", "damage": 0}]
    tired = fight.character(
        "Tired", "hero", SHEET | {"gear": [], "powers": zap, "will": 0}, fight.t.player
    )
    error = fight.refused("attacks", body | {"attacker_id": tired}, fight.t.player, 409)
    assert (error["rule"], error["code"]) == ("CD-10", "not_enough_will")
    zapper = fight.character("Zapper", "hero", SHEET | {"gear": [], "powers": zap}, fight.t.player)
    roll = fight.attack(goon, "ranged", hero=zapper)["roll"]
    assert roll["result"]["will_spent"] == 0  # ruling: the power needs 1 Will, it does not spend it
    assert fight.resources(zapper)["will"] == 5
    wrong = body | {"attacker_id": fight.hero, "using": "Mind spike"}
    assert fight.refused("attacks", wrong, fight.t.player, 422)["rule"] == "CD-10"


def test_attack_outcomes_deal_damage_or_let_the_target_hit_back_cd_11(fight: Fight) -> None:
    seen: set[str] = set()
    # target Might 3: difficulty 8 for Might 2; a plain failure is 1 roll in 4, so 2 x TRIES (40
    # rolls without one: about 1 run in 10^5)
    for n in range(2 * TRIES):
        goon = fight.villain(f"Goon {n}", might=3)
        before = fight.resources(fight.hero)
        response = fight.attack(goon, using=None)
        roll = response["roll"]
        kind = hand_check(roll, 2, 8)
        seen.add(kind)
        result = roll["result"]
        damage_dice = kept(roll, "damage")
        assert len(damage_dice) == {"critical_success": 2, "success": 1}.get(kind, 0)
        assert result["damage"] == (sum(damage_dice) if damage_dice else 0)
        assert fight.resources(goon)["health"] == 30 - result["damage"]
        strike = result["strike_back"]
        if kind in ("failure", "critical_failure"):  # a fresh henchman has its melee reaction
            assert strike is not None and strike["dice"] == kept(roll, "strike_back")
            assert strike["damage"] == strike["dice"][0]
            assert strike["reaction_spent"] == (kind == "failure")
            assert fight.resources(fight.hero)["health"] == before["health"] - strike["damage"]
            reactions = response["reactions"].get(goon, [])
            assert reactions == (["melee"] if kind == "failure" else [])
        else:
            assert strike is None and fight.resources(fight.hero) == before
        if {"success", "failure"} <= seen:
            break
        fight.next_round()
    assert {"success", "failure"} <= seen


def test_damage_adds_the_weapon_s_modifier_cd_11(fight: Fight) -> None:
    goon = fight.villain(speed=0)
    response = until(
        fight,
        lambda r: r["roll"]["result"]["damage"] > 0,
        lambda: fight.attack(goon, "ranged", using="Sling"),
    )
    roll = response["roll"]
    assert roll["request"]["damage_modifier"] == 1
    assert roll["result"]["damage"] == sum(kept(roll, "damage")) + 1


def test_a_failure_against_a_villain_without_a_reaction_has_no_strike_back_cd_11(
    fight: Fight,
) -> None:
    """A minion whose reaction is spent has none left this round (CD-17)."""
    minion = fight.villain("Minion", "minion", might=10, spirit=10)  # only a double 6 succeeds
    other = fight.character("Vega", "hero", SHEET, fight.t.other_player)
    first = until(
        fight,
        lambda r: r["roll"]["result"]["outcome"] == "failure",
        lambda: fight.attack(minion),
    )
    assert first["reactions"][minion] == ["melee"]
    second = fight.attack(minion, "mental", hero=other, token=fight.t.other_player)["roll"]
    assert second["request"]["reaction"] is False  # a minion's one reaction covers every type
    if second["result"]["outcome"] == "failure":
        assert second["result"]["strike_back"] is None


# ---- CD-12: mental attacks ----------------------------------------------------------------------


def test_a_mental_attack_to_zero_health_captures_the_villain_alive_cd_12(fight: Fight) -> None:
    mentalist = fight.character("Mind", "hero", SHEET | {"spirit": 8}, fight.t.player)

    def attempt() -> dict[str, Any]:
        goon = fight.villain(health=1, spirit=0)
        return {"goon": goon, **fight.attack(goon, "mental", hero=mentalist)}

    response = until(fight, lambda r: r["roll"]["result"]["damage"] > 0, attempt)
    assert response["roll"]["result"]["captured"] is True
    assert fight.status(response["goon"]) == "captured"
    assert fight.resources(response["goon"])["health"] == 0


def test_a_failed_mental_attack_s_strike_back_hurts_will_not_health_cd_12(fight: Fight) -> None:
    def attempt() -> dict[str, Any]:
        boss = fight.villain("Brain", "boss", spirit=10)  # difficulty 15 for Spirit 1
        before = fight.resources(fight.hero)
        return {"before": before, **fight.attack(boss, "mental")}

    response = until(fight, lambda r: r["roll"]["result"]["strike_back"] is not None, attempt)
    strike = response["roll"]["result"]["strike_back"]
    assert strike["resource"] == "will"
    after = fight.resources(fight.hero)
    assert after["health"] == response["before"]["health"]
    assert after["will"] == strike["level"] == max(0, response["before"]["will"] - strike["damage"])


# ---- CD-13: overflow ----------------------------------------------------------------------------


def test_overflow_moves_to_a_target_of_no_higher_rank_for_one_will_cd_13(fight: Fight) -> None:
    brute = fight.character(
        "Brute",
        "hero",
        SHEET | {"might": 9, "gear": [{"name": "Bat", "attack": "melee", "damage": 3}]},
        fight.t.player,
    )

    def attempt() -> dict[str, Any]:
        first, second = fight.villain("Thug", health=1, might=0), fight.villain("Lackey", "minion")
        body = {"using": "Bat", "overflow_target_id": second}
        return {"second": second, **fight.attack(first, hero=brute, **body)}

    response = until(fight, lambda r: r["roll"]["result"]["overflow"] > 0, attempt)
    result = response["roll"]["result"]
    assert result["overflow"] == result["damage"] - 1 and result["overflow_moved"]
    assert result["will_spent"] == 1 and fight.resources(brute)["will"] == 4
    assert fight.resources(response["second"])["health"] == 30 - result["overflow"]


def test_overflow_to_a_higher_rank_is_refused_cd_13(fight: Fight) -> None:
    minion, boss = fight.villain("Minion", "minion"), fight.villain("Boss", "boss")
    body = {
        "attacker_id": fight.hero,
        "target_id": minion,
        "attack_type": "melee",
        "overflow_target_id": boss,
    }
    error = fight.refused("attacks", body, fight.t.player, 422)
    assert (error["rule"], error["field"]) == ("CD-13", "overflow_target_id")


# ---- CD-14: retreat -----------------------------------------------------------------------------


def test_retreat_is_speed_against_the_fastest_pursuer_cd_14(fight: Fight) -> None:
    slow, fast = fight.villain("Slow", speed=1), fight.villain("Fast", speed=4)
    body = {"hero_id": fight.hero, "pursuer_ids": [slow, fast]}
    response = fight.ok("retreats", body, fight.t.player)
    roll = response["roll"]
    assert roll["request"]["target_stat"] == 4
    kind = hand_check(roll, 3, 9)
    retreated = kind in ("success", "critical_success")
    assert response["outcome"] == {
        "retreated": retreated,
        "automatic": False,
        "fastest_pursuer_id": fast,
        "pursuers": 2,
        "covering": 0,
    }
    assert (fight.hero in response["left"]) == retreated
    assert response["actions"][fight.hero] == ["flee"]


def test_retreat_succeeds_without_a_roll_when_enough_allies_cover_it_cd_14(fight: Fight) -> None:
    goon = fight.villain(speed=9)
    ally = fight.character("Ally", "hero", SHEET, fight.t.other_player)
    body = {"hero_id": fight.hero, "pursuer_ids": [goon], "covering_ids": [ally]}
    response = fight.ok("retreats", body, fight.t.player)
    assert response["roll"] is None and response["outcome"]["automatic"] is True
    assert response["left"] == {fight.hero: "retreated"}
    fight.next_round()
    attack = {"attacker_id": fight.hero, "target_id": goon, "attack_type": "melee"}
    assert fight.refused("attacks", attack, fight.t.player, 409)["code"] == "left_the_fight"


# ---- CD-15: the villains' turn ------------------------------------------------------------------


def test_a_hero_defends_with_the_matching_stat_and_a_failure_takes_damage_cd_15(
    fight: Fight,
) -> None:
    kinds: set[str] = set()
    for n in range(TRIES):
        thug = fight.villain(
            f"Thug {n}", speed=5, gear=[{"name": "Gun", "attack": "ranged", "damage": 2}]
        )
        fight.villains_turn()
        before = fight.resources(fight.hero)["health"]
        body = {"villain_id": thug, "hero_id": fight.hero, "attack_type": "ranged"}
        roll = fight.ok("villain-attacks", body)["roll"]
        kind = hand_check(roll, 3, 10)  # the hero's Speed 3 against 5 + the villain's Speed 5
        kinds.add(kind)
        dice = kept(roll, "damage")
        assert len(dice) == {"failure": 1, "critical_failure": 2}.get(kind, 0)  # one more die
        damage = sum(dice) + 2 if dice else 0
        assert roll["result"]["damage"] == damage
        assert fight.resources(fight.hero)["health"] == before - damage
        if {"success", "failure"} <= kinds:
            break
        fight.next_round()
    assert {"success", "failure"} <= kinds


def test_a_villain_s_mental_attack_hurts_will_cd_15(fight: Fight) -> None:
    def attempt() -> dict[str, Any]:
        fight.villains_turn()
        brain = fight.villain("Brain", spirit=8)
        body = {"villain_id": brain, "hero_id": fight.hero, "attack_type": "mental"}
        return fight.ok("villain-attacks", body)  # type: ignore[no-any-return]

    response = until(fight, lambda r: r["roll"]["result"]["damage"] > 0, attempt, 10)
    result = response["roll"]["result"]
    assert result["resource"] == "will"
    assert fight.resources(fight.hero)["will"] == result["level"]


def test_only_the_gm_attacks_with_villains_cd_15(fight: Fight) -> None:
    goon = fight.villain()
    fight.villains_turn()
    body = {"villain_id": goon, "hero_id": fight.hero, "attack_type": "melee"}
    fight.refused("villain-attacks", body, fight.t.player, 403)


# ---- CD-16: stopping a fleeing villain ----------------------------------------------------------


def test_a_hero_may_stop_one_fleeing_villain_a_turn_speed_against_speed_cd_16(fight: Fight) -> None:
    runner, sprinter = fight.villain("Runner", speed=2), fight.villain("Sprinter", speed=2)
    fight.villains_turn()
    stop = {"hero_id": fight.hero, "villain_id": runner}
    assert fight.refused("stops", stop, fight.t.player, 409)["rule"] == "CD-16"  # not fleeing
    fight.ok("actions", {"character_id": runner, "action": "flee"})
    fight.ok("actions", {"character_id": sprinter, "action": "flee"})
    response = fight.ok("stops", stop, fight.t.player)
    kind = hand_check(response["roll"], 3, 7)
    stopped = kind in ("success", "critical_success")
    assert response["outcome"] == {"stopped": stopped}
    assert (runner in response["fleeing"]) != stopped and sprinter in response["fleeing"]
    again = {"hero_id": fight.hero, "villain_id": sprinter}
    assert fight.refused("stops", again, fight.t.player, 409)["rule"] == "CD-16"
    fight.next_round()  # who still flees has escaped
    left = fight.state()["left"]
    assert left.get(sprinter) == "escaped" and (runner in left) != stopped


def test_stopping_is_a_reaction_of_the_villains_turn_cd_8_cd_16(fight: Fight) -> None:
    runner = fight.villain("Runner")
    stop = {"hero_id": fight.hero, "villain_id": runner}
    assert fight.refused("stops", stop, fight.t.player, 409)["rule"] == "CD-8"


# ---- CD-17: reactions and actions by rank -------------------------------------------------------


def _spent_reaction(fight: Fight, rank: str) -> str:
    """A villain that has just spent a melee reaction on a failed attack of the hero's."""

    def attempt() -> dict[str, Any]:
        villain = fight.villain(f"A {rank}", rank, might=10)
        return {"villain": villain, **fight.attack(villain)}

    response = until(fight, lambda r: r["roll"]["result"]["outcome"] == "failure", attempt)
    assert response["reactions"][response["villain"]] == ["melee"]
    fight.villains_turn()
    return str(response["villain"])


def test_a_minion_that_reacted_cannot_attack_this_round_cd_17(fight: Fight) -> None:
    minion = _spent_reaction(fight, "minion")
    body = {"villain_id": minion, "hero_id": fight.hero, "attack_type": "ranged"}
    error = fight.refused("villain-attacks", body, None, 409)
    assert (error["rule"], error["code"]) == ("CD-17", "reaction_used")
    fight.next_round()  # reactions reset every round
    fight.villains_turn()
    fight.ok("villain-attacks", body)


def test_a_henchman_cannot_attack_with_a_type_it_reacted_with_cd_17(fight: Fight) -> None:
    henchman = _spent_reaction(fight, "henchman")
    body = {"villain_id": henchman, "hero_id": fight.hero, "attack_type": "melee"}
    error = fight.refused("villain-attacks", body, None, 409)
    assert (error["rule"], error["details"]["reactions"]) == ("CD-17", ["melee"])
    fight.ok("villain-attacks", body | {"attack_type": "ranged"})


def test_a_boss_reacts_always_and_takes_two_attacks_or_an_attack_and_a_special_cd_17(
    fight: Fight,
) -> None:
    boss = _spent_reaction(fight, "boss")
    body = {"villain_id": boss, "hero_id": fight.hero, "attack_type": "melee"}
    fight.ok("villain-attacks", body)
    fight.ok("villain-attacks", body | {"attack_type": "mental"})
    assert fight.refused("villain-attacks", body, None, 409)["rule"] == "CD-17"
    fight.next_round()
    fight.villains_turn()
    fight.ok("actions", {"character_id": boss, "action": "special"})
    special = {"character_id": boss, "action": "special"}
    assert fight.refused("actions", special, None, 409)["rule"] == "CD-17"
    fight.ok("villain-attacks", body)


def test_a_minion_or_henchman_has_one_action_in_the_villains_turn_cd_15(fight: Fight) -> None:
    goon = fight.villain()
    fight.villains_turn()
    fight.ok("actions", {"character_id": goon, "action": "special"})
    body = {"villain_id": goon, "hero_id": fight.hero, "attack_type": "ranged"}
    assert fight.refused("villain-attacks", body, None, 409)["rule"] == "CD-15"


# ---- CD-18: moving for an edge ------------------------------------------------------------------


def test_moving_for_high_ground_gives_advantage_on_ranged_attacks_cd_18(fight: Fight) -> None:
    goon = fight.villain()
    move = {"hero_id": fight.hero, "edge": "high_ground", "difficulty": 9}
    response = until(
        fight,
        lambda r: r["outcome"]["edge"] is not None,
        lambda: fight.ok("moves", move),  # the GM's difficulty (a player's waits for it)
    )
    hand_check(response["roll"], 3, 9)
    round_ = response["round"]
    assert response["edges"][fight.hero] == {"kind": "high_ground", "until_round": round_ + 1}
    assert response["actions"][fight.hero] == ["move"]  # the move took the action
    fight.next_round()
    roll = fight.attack(goon, "ranged")["roll"]
    assert roll["request"]["advantage"] == 1
    hand_check(roll, 3, 6, edge=1)
    fight.next_round()
    assert fight.state()["edges"] == {}  # until the end of the next round


def test_only_the_gm_rules_a_move_free_of_the_action_cd_18(fight: Fight) -> None:
    goon = fight.villain()
    move = {
        "hero_id": fight.hero,
        "edge": "cover",
        "difficulty_name": "medium",
        "takes_action": False,
    }
    assert fight.refused("moves", move, fight.t.player, 403)["rule"] == "CD-18"
    response = fight.ok("moves", move)
    assert fight.hero not in response["actions"]
    fight.attack(goon)  # the hero still has its action


def test_cover_gives_advantage_on_defence_against_ranged_attacks_cd_18(fight: Fight) -> None:
    goon = fight.villain()
    move = {"hero_id": fight.hero, "edge": "cover", "stat": "might", "difficulty": 2}
    until(fight, lambda r: r["outcome"]["edge"] == "cover", lambda: fight.ok("moves", move))
    fight.villains_turn()
    body = {"villain_id": goon, "hero_id": fight.hero, "attack_type": "ranged"}
    roll = fight.ok("villain-attacks", body)["roll"]
    assert roll["request"]["advantage"] == 1
    hand_check(roll, 3, 6, edge=1)


@pytest.mark.parametrize("policy", ["refused", "gm_approval", "trusted"])
def test_a_players_difficulty_for_a_move_follows_player_modifiers_cd_18(
    client: TestClient, policy: str
) -> None:
    """CD-18: a move is a Speed check against a GM difficulty: a player who names one declares
    a number, like a raw stat check's difficulty."""
    fight = Fight(client, {"player_modifiers": policy})
    move = {"hero_id": fight.hero, "edge": "cover", "difficulty": 0}
    before = fight.t.position()
    response = fight.post("moves", move, fight.t.player)
    if policy == "refused":
        assert response.status_code == 422, response.text
        assert response.json()["error"]["field"] == "difficulty"
        assert fight.t.position() == before
        return
    if policy == "gm_approval":
        assert response.status_code == 202, response.text
        assert response.json()["modifiers"] == {"difficulty": 0}
        assert fight.state()["actions"] == {}  # nothing rolled, the action not taken
        roll = fight.t.approved(response.json(), difficulty=9)
        assert roll["request"]["difficulty"] == 9
        assert [(m["field"], m["rule"]) for m in roll["modifiers"]] == [("difficulty", "gm")]
        return
    assert response.status_code == 201, response.text
    roll = response.json()["roll"]
    assert [(m["field"], m["value"], m["by"], m["rule"]) for m in roll["modifiers"]] == [
        ("difficulty", 0, fight.t.player_id, "player_modifiers:trusted")
    ]


# ---- CD-19: engaged pairs -----------------------------------------------------------------------


def test_a_melee_attack_engages_the_pair_and_area_attacks_report_the_other_cd_19(
    fight: Fight,
) -> None:
    goon = fight.villain(health=100)
    vega = fight.character("Vega", "hero", SHEET, fight.t.other_player)
    response = fight.attack(goon)
    assert response["engaged"] == [{"a": fight.hero, "b": goon, "side": "heroes", "round": 1}]
    scene_view = fight.t.get(f"/v1/scenes/{fight.scene}/classd")
    assert scene_view["engaged"] == response["engaged"]
    area = fight.attack(goon, "ranged", hero=vega, token=fight.t.other_player, area=True)
    assert area["roll"]["result"]["also_at_risk"] == [fight.hero]
    fight.next_round()  # a hero's engagement lasts until the heroes' next turn
    assert fight.state()["engaged"] == []


def test_a_move_ends_an_engagement_cd_19(fight: Fight) -> None:
    goon = fight.villain()
    fight.villains_turn()
    fight.ok("villain-attacks", {"villain_id": goon, "hero_id": fight.hero, "attack_type": "melee"})
    fight.next_round()
    assert len(fight.state()["engaged"]) == 1  # a villain's lasts until the villains' next turn
    move = {"hero_id": fight.hero, "edge": "cover", "difficulty": 0, "takes_action": False}
    response = until(
        fight, lambda r: r["outcome"]["edge"] == "cover", lambda: fight.ok("moves", move)
    )
    assert response["engaged"] == []


# ---- CD-20: hostage shields ---------------------------------------------------------------------


def test_a_hostage_shield_gives_disadvantage_and_a_critical_failure_hits_the_hostage_cd_20(
    fight: Fight,
) -> None:
    hostage = fight.character("Hostage", "other", SHEET | {"health": 30})
    goon = fight.villain(health=100)
    shield = fight.ok("hostage-shields", {"villain_id": goon, "hostage_id": hostage}, status=200)
    assert shield["shields"] == {goon: {"hostage_id": hostage, "hostage": "Hostage"}}
    mental = fight.attack(goon, "mental")["roll"]
    assert mental["result"]["edge"] == 0  # only melee and ranged attacks
    fight.next_round()
    response = until(
        fight,
        lambda r: r["roll"]["result"]["outcome"] == "critical_failure",
        lambda: fight.attack(goon, disadvantage=8, token=fight.t.gm),  # the GM's disadvantages
    )
    roll = response["roll"]
    hand_check(roll, 2, 6, edge=-9)  # 8 asked for + 1 for the shield
    result = roll["result"]
    assert result["hostage_dice"] == kept(roll, "hostage")
    assert result["hostage_damage"] == result["hostage_dice"][0]
    assert fight.resources(hostage)["health"] == 30 - result["hostage_damage"]
    assert result["strike_back"]["reaction_spent"] is False  # CD-11 too


def test_only_a_held_hostage_is_released_cd_20(fight: Fight) -> None:
    goon = fight.villain()
    assert (
        fight.refused("hostage-shields", {"villain_id": goon, "release": True}, None, 409)["rule"]
        == "CD-20"
    )
    fight.ok("hostage-shields", {"villain_id": goon, "hostage": "A banker"}, status=200)
    released = fight.ok("hostage-shields", {"villain_id": goon, "release": True}, status=200)
    assert released["shields"] == {}
    assert fight.refused(
        "hostage-shields", {"villain_id": goon, "hostage": "B"}, fight.t.player, 403
    )


# ---- CD-6: Will rerolls of combat rolls ---------------------------------------------------------


def test_will_rerolls_replace_ordinary_failures_in_the_same_record_cd_6(fight: Fight) -> None:
    def attempt() -> dict[str, Any]:
        goon = fight.villain(might=6)  # difficulty 11 for Might 2: failures are common
        return fight.attack(goon, will_rerolls=2)  # type: ignore[no-any-return]

    response = until(fight, lambda r: r["roll"]["result"]["will_spent"] > 0, attempt)
    roll = response["roll"]
    spent = roll["result"]["will_spent"]
    assert len(roll["result"]["rerolled_totals"]) == spent
    assert len([f for f in roll["faces"] if f["label"] == "check"]) == 2 * (spent + 1)
    kind = hand_check(roll, 2, 11)
    assert kind != "failure" or spent == 2  # an ordinary failure is rerolled while Will allows
    assert fight.resources(fight.hero)["will"] == 5 - spent


def test_a_combat_roll_is_not_rerolled_by_a_follow_up_cd_6(fight: Fight) -> None:
    roll = fight.attack(fight.villain())["roll"]
    before = fight.t.position()
    response = fight.t.client.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        json={"follow_up": "will_reroll"},
        headers=bearer(fight.t.player),
    )
    assert response.status_code == 409 and response.json()["error"]["rule"] == "CD-6"
    assert fight.t.position() == before


def test_will_rerolls_beyond_the_hero_s_will_are_refused_cd_6(fight: Fight) -> None:
    body = {
        "attacker_id": fight.hero,
        "target_id": fight.villain(),
        "attack_type": "melee",
        "will_rerolls": 6,
    }
    error = fight.refused("attacks", body, fight.t.player, 409)
    assert (error["code"], error["rule"]) == ("not_enough_will", "CD-6")


# ---- fair rolls ---------------------------------------------------------------------------------


def test_combat_rolls_recompute_from_their_own_request_once_the_seed_is_revealed(
    fight: Fight,
) -> None:
    goon = fight.villain()
    attack = fight.attack(goon, will_rerolls=1)["roll"]
    fight.villains_turn()
    defence = fight.ok(
        "villain-attacks", {"villain_id": goon, "hero_id": fight.hero, "attack_type": "mental"}
    )["roll"]
    fight.t.post(f"/v1/scenes/{fight.scene}/close", status=200)
    for roll in (attack, defence):
        verified = fight.t.get(f"/v1/rolls/{roll['id']}/verification")
        assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}
    assert final_check_dice(attack)


def test_classd_combat_needs_a_classd_campaign(client: TestClient) -> None:
    from tests.api.support import Table

    table = Table(client)
    scene = table.scene()
    response = client.post(f"/v1/scenes/{scene}/classd/villains-turn", headers=bearer(table.gm))
    assert response.status_code == 422 and response.json()["error"]["field"] == "scene_id"


def test_the_ruleset_serves_an_example_sheet_per_side_each_one_a_valid_character_cd_17(
    fight: Fight,
) -> None:
    sheets = fight.t.get("/v1/rulesets/classd")["example_sheets"]
    assert {"hero", "villain", "minion"} <= set(sheets)
    for side, sheet in sheets.items():
        created = fight.character(f"Example {side}", side, sheet)
        assert fight.status(created) == "active"
