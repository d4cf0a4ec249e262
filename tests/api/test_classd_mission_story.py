"""A scripted Class D mission through the API (work issue #6), on SQLite and PostgreSQL.

Sneaking in raises the alarm by noise through two zones (CD-23); a fight of two rounds (CD-8) with a
minion, a henchman and a boss whose reactions strike back (CD-11, CD-17); a hero out of turn refused,
then let act by the GM's recorded grant (CD-8, work issue #15); a mental capture (CD-12); a hero
knocked out acts no more, no rest while the fight is under way, the GM ends it, the rest (CD-22)
brings her back and she starts the next fight (CD-11 ruling); the rivals advance (CD-24); the heroes
complete the mission (CD-21). Every roll is
checked by hand against its recorded faces (CD-2..5), every number against the rules, and the mission
view and the scene's timeline show it all.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.classd_support import Fight, hand_check, kept, villain_sheet
from tests.api.support import verified_export
from tests.client import TestClient

MAX_ROUNDS = 6  # bound for the outcomes the dice decide (a double 1 is 1 in 36)


def health(fight: Fight, character: str) -> int:
    return fight.resources(character)["health"]


def struck_back(roll: dict[str, Any], stat: int, difficulty: int) -> int:
    """CD-11 by hand for an attack that can only fail (but on a double 6): a failure spends the
    villain's reaction and it hits back with 1d6, a critical failure hits back without spending
    one; a critical success (CD-3) deals 2d6 instead. The damage the attacker took."""
    outcome = hand_check(roll, stat, difficulty)
    back = roll["result"]["strike_back"]
    if outcome == "critical_success":
        assert back is None and roll["result"]["damage"] == sum(kept(roll, "damage"))
        assert len(kept(roll, "damage")) == 2
        return 0
    assert outcome in ("failure", "critical_failure")
    assert back["dice"] == kept(roll, "strike_back") and back["damage"] == sum(back["dice"])
    assert back["reaction_spent"] == (outcome == "failure")
    return int(back["damage"])


def spent(roll: dict[str, Any]) -> bool:
    back = roll["result"]["strike_back"]
    return bool(back and back["reaction_spent"])


# A journey its work issue asked to see on both backends (docs/testing.md).
@pytest.mark.store
def test_a_scripted_mission_sneaks_in_fights_captures_rests_and_completes_cd_21_to_cd_25(
    client: TestClient,
) -> None:
    fight = Fight(client)
    t = fight.t
    # Nova (the player's): Spirit 10 for mental attacks; Might 0 cannot beat Might 10 (5 + 10 = 15 >
    # 2d6 + 0): her melee attacks on the villains below always fail, so their reactions hit back.
    nova_sheet = {"might": 0, "speed": 2, "spirit": 10, "health": 60, "will": 5}
    nova = fight.character("Nova", "hero", nova_sheet, t.player)
    blink = fight.character("Blink", "hero", nova_sheet | {"spirit": 1}, t.player)
    minion = fight.character("Rat", "villain", villain_sheet("minion", might=10, health=30))
    lab_rat = fight.character("Lab rat", "villain", villain_sheet("minion", health=3))
    henchman = fight.character("Brute", "villain", villain_sheet("henchman", might=10))
    boss = fight.character("Dr. Vile", "villain", villain_sheet("boss", might=10, health=40))
    issue = t.get(f"/v1/scenes/{fight.scene}")["issue_id"]
    story = t.get(f"/v1/issues/{issue}")["story_id"]
    mission = t.post(
        f"/v1/campaigns/{t.campaign_id}/missions",
        {"title": "The mutant lab", "scene_id": fight.scene, "story_id": story},
    )["id"]

    def counter(name: str, change: int, reason: str, code: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"change": change, "reason": reason}
        if code:
            body["code"] = code
        view = t.post(f"/v1/missions/{mission}/counters/{name}", body, status=200)
        return next(c for c in view["counters"] if c["name"] == name)

    # ---- sneaking in: noise takes the alarm from green through yellow into red (CD-23) ------------
    assert counter("alarm", 3, "a vent cover clatters", "noise")["zone"] == "green"  # 0-3
    assert counter("alarm", 2, "Blink knocks over a shelf", "noise")["zone"] == "yellow"  # 4-6
    alarm = counter("alarm", 2, "Nova kicks in the lab door", "noise")
    assert (alarm["value"], alarm["zone"]) == (7, "red")  # 7-9

    # ---- round 1, the heroes' turn: failed melee attacks meet reactions (CD-10, 11, 17) -----------
    hurt = 0
    on_minion = fight.attack(minion, "melee", hero=blink)["roll"]
    hurt_blink = struck_back(on_minion, 0, 15)  # Might 0 against 5 + the minion's Might 10 (CD-4)
    on_henchman = fight.attack(henchman, "melee", hero=nova)["roll"]
    hurt += struck_back(on_henchman, 0, 15)
    assert health(fight, nova) == 60 - hurt and health(fight, blink) == 60 - hurt_blink
    second = fight.post("attacks", {"attacker_id": nova, "target_id": boss, "attack_type": "melee"})
    assert second.status_code == 409 and second.json()["error"]["rule"] == "CD-9"  # one action

    # ---- round 1, the villains' turn (CD-15, 17) -------------------------------------------------
    fight.villains_turn()
    if spent(on_minion):  # a minion that reacted cannot attack
        error = fight.refused(
            "villain-attacks",
            {"villain_id": minion, "hero_id": blink, "attack_type": "melee"},
            None,
            409,
        )
        assert error["rule"] == "CD-17"
    if spent(on_henchman):  # nor a henchman with that type
        error = fight.refused(
            "villain-attacks",
            {"villain_id": henchman, "hero_id": nova, "attack_type": "melee"},
            None,
            409,
        )
        assert error["rule"] == "CD-17"
    for n in range(2):  # a boss attacks twice (CD-17)
        attack = fight.ok(
            "villain-attacks", {"villain_id": boss, "hero_id": nova, "attack_type": "melee"}
        )["roll"]
        # Nova defends with Might 0 against 5 + 10 (CD-15): a failure but on a double 6; 1d6
        # damage, one die more on a critical failure.
        outcome = hand_check(attack, 0, 15)
        dice = kept(attack, "damage")
        # (a double 6 is a critical success even below the difficulty: no damage, CD-3)
        expected = {"critical_failure": 2, "critical_success": 0}.get(outcome, 1)
        assert len(dice) == expected, n
        assert attack["result"]["damage"] == sum(dice)
        hurt += sum(dice)
    error = fight.refused(
        "villain-attacks", {"villain_id": boss, "hero_id": nova, "attack_type": "melee"}, None, 409
    )
    assert error["rule"] in ("CD-15", "CD-17")
    assert health(fight, nova) == 60 - hurt

    # ---- turn order: a hero out of turn is refused, unless the GM's recorded grant (CD-8) --------
    out_of_turn = {"attacker_id": nova, "target_id": boss, "attack_type": "mental"}
    error = fight.refused("attacks", out_of_turn, t.player, 409)
    assert error["rule"] == "CD-8"
    grant = {"character_id": nova, "reason": "Nova read the boss's plan"}
    assert fight.ok("grants", grant, status=200)["grants"] == {nova: grant["reason"]}
    granted = fight.ok("attacks", out_of_turn, t.player)
    assert granted["grants"] == {} and granted["actions"][nova][-1] == "attack:mental"
    assert fight.refused("attacks", out_of_turn, t.player, 409)["rule"] == "CD-8"  # used up

    # ---- the next rounds: Nova's mental attack captures the lab rat alive (CD-12) ---------------
    rat = 3  # the lab rat's Health
    for _ in range(MAX_ROUNDS):
        fight.next_round()
        assert fight.state()["turn"] == "heroes"
        mental = fight.attack(lab_rat, "mental", hero=nova)["roll"]
        outcome = hand_check(mental, 10, 5 + 1)  # Spirit 10 against 5 + the lab rat's Spirit 1
        if outcome in ("success", "critical_success"):
            dice = kept(mental, "damage")
            assert len(dice) == (2 if outcome == "critical_success" else 1)  # CD-11
            assert mental["result"]["damage"] == sum(dice)  # no power used: no modifier
            rat = max(0, rat - sum(dice))
            assert mental["result"]["target_health"] == rat
            if rat == 0:  # a mental attack that takes a villain to 0 Health captures it
                assert mental["result"]["captured"]
                break
    else:
        raise AssertionError("no mental attack took the lab rat's 3 Health in six rounds")
    assert fight.status(lab_rat) == "captured"
    assert health(fight, lab_rat) == 0

    # ---- Blink is knocked out (the GM's falling beam): she acts no more (CD-11) -------------------
    beam = {"resource": "health", "change": -health(fight, blink), "reason": "a falling beam"}
    t.post(f"/v1/characters/{blink}/resources", beam, status=200)
    assert fight.status(blink) == "defeated"
    on_boss = {"attacker_id": blink, "target_id": boss, "attack_type": "melee"}
    assert fight.refused("attacks", on_boss, t.player, 409)["rule"] == "CD-11"

    # ---- no rest while the fight is under way (CD-22); the GM ends it -----------------------------
    resting = {"character_ids": [nova, blink]}
    mid_fight = t.client.post(
        f"/v1/missions/{mission}/rests", json=resting, headers={"Authorization": f"Bearer {t.gm}"}
    )
    assert mid_fight.status_code == 409, mid_fight.text
    assert (mid_fight.json()["error"]["code"], mid_fight.json()["error"]["rule"]) == (
        "fight_under_way",
        "CD-22",
    )
    assert fight.ok("fight-end", {"reason": "Dr. Vile's men fall back"}, status=200)["fight_over"]

    # ---- a rest (CD-22), the rivals advance (CD-24), the end (CD-21) ------------------------------
    before = {hero: fight.resources(hero) for hero in (nova, blink)}
    rest = t.post(f"/v1/missions/{mission}/rests", resting, status=200)
    done = rest["rests"][0]
    roll = t.get(f"/v1/rolls/{done['roll_id']}")
    dice = []
    for entry in done["participants"]:
        had = before[entry["character_id"]]
        after = fight.resources(entry["character_id"])
        health_die, will_die = entry["health"]["die"], entry["will"]["die"]
        dice += [health_die, will_die]
        assert after["health"] == min(60, had["health"] + health_die)  # 1d6 each, never above
        assert after["will"] == min(5, had["will"] + will_die)  # the maxima (CD-22)
    assert sorted(f["face"] for f in roll["faces"]) == sorted(dice)  # from the fair dice
    # Her Health back, Blink is back in action (CD-11 ruling) and starts the next fight.
    assert fight.status(blink) == "active"
    assert fight.ok("attacks", on_boss, t.player)["fight_over"] is False
    rivals = counter("rival_progress", 4, "the Sentinels reach the roof", "rival_success")
    assert rivals["value"] == 4
    assert (
        counter("alarm", -3, "the villains think the heroes are beaten", "heroes_believed_beaten")[
            "zone"
        ]
        == "yellow"
    )
    ended = t.post(f"/v1/missions/{mission}/end", {"outcome": "completed"}, status=200)
    assert (ended["status"], ended["outcome"], ended["rest_count"]) == ("ended", "completed", 1)
    refused = t.client.post(
        f"/v1/missions/{mission}/counters/alarm",
        json={"change": 1, "reason": "too late"},
        headers={"Authorization": f"Bearer {t.gm}"},
    )
    assert refused.status_code == 409 and refused.json()["error"]["rule"] == "CD-21"

    # ---- the mission view and the scene's timeline tell it all -----------------------------------
    view = t.get(f"/v1/missions/{mission}?min_position={ended['position']}")
    alarm = next(c for c in view["counters"] if c["name"] == "alarm")
    assert (alarm["value"], alarm["zone"]) == (4, "yellow")
    zones = [(h["from_zone"], h["to_zone"]) for h in alarm["history"] if h["kind"] == "zone"]
    assert zones == [("green", "yellow"), ("yellow", "red"), ("red", "yellow")]
    steps = t.get(f"/v1/scenes/{fight.scene}/replay?min_position={ended['position']}")["steps"]
    types = [s["type"] for s in steps]
    for kind in (
        "Mission.CounterChanged",
        "Mission.ZoneChanged",
        "Mission.Rested",
        "Mission.Ended",
        "Scene.StateChanged",
        "Character.DamageTaken",
    ):
        assert kind in types, kind
    assert any("captured" in s["text"] for s in steps)

    # The whole mission's export verifies offline (issue #13, "done when").
    assert verified_export(t, fight.scene).rolls > 1
