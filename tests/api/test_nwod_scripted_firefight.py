"""A scripted firefight through the API (issue #8), every number checked by hand against the rules:
Initiative (NW-14), aiming then a shot (NW-15), a long burst at three gunmen behind partial cover
(NW-13, NW-15), a reckless knife attack and the Defense it costs (NW-15), Will Power on a roll
(NW-9), armour absorbing damage (NW-11, NW-12) and a magazine running dry (NW-16); then (issue
#15) turn order refusing an out-of-turn action until the GM records leave (NW-14), and the
magazines carrying over into the next scene, where a reload uses a spare magazine (NW-16). A
journey: it runs on SQLite and PostgreSQL (docs/testing.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.nwod_support import Firefight, hand_damage, hand_pool, hand_successes, mods, thug
from tests.api.support import verified_export
from tests.client import TestClient


@pytest.mark.store
def test_scripted_firefight_nw_8_nw_9_nw_11_nw_13_nw_14_nw_15_nw_16(client: TestClient) -> None:
    fight = Firefight(client)  # Vega: INT 3, VIO 4, DEF 2, ARM 2, Health 8, WP 3
    vega, player = fight.hero, fight.t.player
    brute = fight.character(
        "Brute", "villain", thug(protection=[{"name": "Flak", "kind": "ARM", "rating": 1}])
    )  # VIO 3, DEF 1, ARM 1, Health 6, WP 1, a club
    gunmen = [fight.character(f"Gunman {i}", "villain", thug()) for i in (1, 2, 3)]
    health = {vega: 8, brute: 6} | {g: 6 for g in gunmen}

    # NW-14: Initiative 1d10 + INT for everyone.
    totals = {}
    for who in [vega, brute, *gunmen]:
        joined = fight.join(who, player if who == vega else None)
        face = joined["roll"]["faces"][0]["face"]
        bonus = 3 if who == vega else 1
        totals[who] = face + bonus
        assert joined["initiative"][who]["total"] == totals[who]
    order = fight.state()["order"]
    assert [totals[w] for w in order] == sorted(totals.values(), reverse=True)

    # Turn 1: the gunmen take partial cover in their turns; the others hold.
    for _ in range(5):
        current = fight.state()["current"]
        if current in gunmen:
            taken = fight.act(current, "take_cover", cover="partial")
            assert taken["actions"][current] == [{"maneuver": "take_cover", "cost": 1}]
            fight.end_turn(current)  # one action left: ends the turn with it
        else:
            fight.end_turn(current, player if current == vega else None)
    state = fight.state()
    assert state["current"] is None and all(state["cover"][g]["kind"] == "partial" for g in gunmen)

    # Turn 2: Vega aims, then shoots the Brute: VIO 4 + 1 aim die; DEF not subtracted at range;
    # damage = successes + 2 (professional rifle) - 1 (Flak), only on a hit.
    fight.until_current(vega)
    assert fight.state()["turn"] == 2
    fight.act(vega, "aim", player)
    shot = fight.attack(vega, [brute], player, weapon="Assault rifle")
    roll = shot["roll"]
    assert mods(roll) == {"aim (1 action(s))": 1} and hand_pool(roll) == 5
    assert roll["request"]["target_armor"] == 1 and roll["request"]["damage_bonus"] == 2
    successes = hand_successes(roll)
    damage = max(0, successes + 2 - 1) if successes else 0
    assert hand_damage(roll) == damage == shot["outcome"]["rolls"][0]["damage"]
    health[brute] = max(0, health[brute] - damage)
    assert fight.resources(brute)["health"] == health[brute]
    assert shot["magazines"][vega]["Assault rifle"] == 29

    # Turn 3: a long burst of 15 rounds at the three gunmen behind partial cover: VIO 4 + 2 - 2;
    # damage successes + 2 - 0 / - 1 / - 2 (NW-15), ARM 0.
    fight.until_current(vega)
    burst = fight.attack(
        vega, gunmen, player, weapon="Assault rifle", maneuver="long_burst", rounds=15
    )
    assert burst["magazines"][vega]["Assault rifle"] == 29 - 15
    for index, (gunman, hit) in enumerate(zip(gunmen, burst["outcome"]["rolls"], strict=True)):
        roll = fight.roll(hit["roll_id"])
        assert mods(roll) == {"long burst": 2, "target in partial cover": -2}
        assert hand_pool(roll) == 4
        successes = hand_successes(roll)
        damage = max(0, successes + 2 - index) if successes else 0
        assert hit["damage"] == damage == roll["result"]["damage"]
        health[gunman] = max(0, health[gunman] - damage)
        assert fight.resources(gunman)["health"] == health[gunman]

    # ... then a reckless knife attack on the Brute: VIO 4 + 2 - DEF 1 = 5 dice; knife +1, Flak -1.
    strike = fight.attack(vega, [brute], player, kind="melee", weapon="Knife", maneuver="reckless")
    roll = strike["roll"]
    assert mods(roll) == {"reckless": 2} and roll["request"]["target_defense"] == 1
    assert hand_pool(roll) == 5
    successes = hand_successes(roll)
    damage = max(0, successes + 1 - 1) if successes else 0
    assert hand_damage(roll) == damage
    health[brute] = max(0, health[brute] - damage)
    assert fight.resources(brute)["health"] == health[brute]
    assert strike["reckless"] == {vega: 3}

    # The Brute clubs Vega, spending its 1 Will Power (+3d10): Vega's DEF is 0 after the reckless
    # attack, so VIO 3 + 3 = 6 dice; the club +1, Vega's vest ARM 2 absorbs.
    fight.until_current(brute)
    club = fight.attack(brute, [vega], kind="melee", weapon="Club", will_power=1)
    roll = club["roll"]
    assert roll["request"]["target_defense"] == 0 and hand_pool(roll) == 3 + 3
    assert fight.resources(brute)["will_power"] == 0
    successes = hand_successes(roll)
    damage = max(0, successes + 1 - 2) if successes else 0
    assert hand_damage(roll) == damage
    health[vega] = max(0, health[vega] - damage)
    assert fight.resources(vega)["health"] == health[vega]
    # Will Power one does not have: refused, nothing written (NW-9).
    fight.refused(
        "attacks",
        {"attacker_id": brute, "target_ids": [vega], "kind": "melee", "will_power": 1},
        409,
        "NW-9",
    )

    # Vega's next turn: the pistol (3 rounds) runs dry; its DEF is back to 2 once it acts.
    fight.until_current(vega)
    first = fight.attack(vega, [gunmen[0]], player, weapon="Pistol")
    assert first["reckless"] == {} and first["magazines"][vega]["Pistol"] == 2
    second = fight.attack(vega, [gunmen[0]], player, weapon="Pistol")
    assert second["magazines"][vega]["Pistol"] == 1
    for shot in (first, second):
        roll = shot["roll"]
        assert mods(roll) == {"target in partial cover": -2} and hand_pool(roll) == 2
        damage = hand_damage(roll)
        assert roll["result"]["damage"] == damage
        health[gunmen[0]] = max(0, health[gunmen[0]] - damage)
    assert fight.resources(gunmen[0])["health"] == health[gunmen[0]]
    # NW-15: a third action is refused
    fight.refused("actions", {"character_id": vega, "maneuver": "aim"}, 409, "NW-15", player)
    fight.until_current(brute)
    check = fight.attack(brute, [vega], kind="melee", weapon="Club")
    assert check["roll"]["request"]["target_defense"] == 2 and hand_pool(check["roll"]) == 1
    health[vega] = max(0, health[vega] - hand_damage(check["roll"]))
    fight.until_current(vega)
    last = fight.attack(vega, [gunmen[0]], player, weapon="Pistol")
    assert last["magazines"][vega]["Pistol"] == 0
    health[gunmen[0]] = max(0, health[gunmen[0]] - hand_damage(last["roll"]))
    error = fight.refused(
        "attacks",
        {"attacker_id": vega, "target_ids": [gunmen[0]], "weapon": "Pistol"},
        409,
        "NW-16",
        player,
    )
    assert error["details"] == {"left": 0, "needed": 1}
    everyone: dict[str, Any] = {w: fight.resources(w)["health"] for w in health}
    assert everyone == health
    # NW-8: who is at 0 Health is reported, the GM narrates; nobody is taken out by the service.
    for who in health:
        assert fight.t.get(f"/v1/characters/{who}")["status"] == "active"

    # Issue #15, NW-14: Vega is mid-turn; a gunman acting now is refused, nothing written, until
    # the GM records its leave to act out of turn; that does not end Vega's turn.
    assert fight.state()["current"] == vega
    waiting = gunmen[1]
    error = fight.refused("actions", {"character_id": waiting, "maneuver": "aim"}, 409, "NW-14")
    assert error["code"] == "not_your_turn" and error["details"]["current"] == vega
    leave = {"character_id": waiting, "grant": "act_out_of_turn", "reason": "it held its fire"}
    fight.refused("overrides", leave, 403, None, player)  # the GM's decision only
    granted = fight.ok("overrides", leave)
    assert granted["overrides"][waiting][0]["reason"] == "it held its fire"
    aimed = fight.act(waiting, "aim")
    assert aimed["actions"][waiting] == [{"maneuver": "aim", "cost": 1, "out_of_turn": True}]
    assert aimed["current"] == vega

    # The whole firefight's export verifies offline (issue #13, "done when").
    assert verified_export(fight.t, fight.scene).rolls > 1

    # Issue #15, NW-16: the next scene. Cover stayed behind, the ammunition did not: the pistol
    # is as empty as the last scene left it, the rifle has 14 rounds; a reload takes a spare.
    fight.scene = fight.t.scene()
    fight.join(vega, player)
    fight.join(waiting)
    fight.until_current(vega)
    error = fight.refused(
        "attacks",
        {"attacker_id": vega, "target_ids": [waiting], "weapon": "Pistol"},
        409,
        "NW-16",
        player,
    )
    assert error["details"] == {"left": 0, "needed": 1}
    shot = fight.attack(vega, [waiting], player, weapon="Assault rifle")
    assert shot["magazines"][vega]["Assault rifle"] == 14 - 1
    assert mods(shot["roll"]) == {} and hand_pool(shot["roll"]) == 4  # no cover in this scene
    reload = fight.act(vega, "reload", player, weapon="Pistol")
    assert reload["outcome"] == {
        "maneuver": "reload",
        "actions": 1,
        "rounds_left": 3,
        "spare_magazines": 0,
    }
    fight.until_current(vega)
    assert fight.attack(vega, [waiting], player, weapon="Pistol")["magazines"][vega] == {
        "Assault rifle": 13,
        "Pistol": 2,
    }
    error = fight.refused(
        "actions",
        {"character_id": vega, "maneuver": "reload", "weapon": "Pistol"},
        409,
        "NW-16",
        player,
    )
    assert error["code"] == "no_spare_magazine"
    assert verified_export(fight.t, fight.scene).rolls > 1
