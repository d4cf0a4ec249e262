"""A grapple inside the running Nimble encounter (NB-24 with NB-7, NB-10, NB-15, NB-21):
`POST /v1/scenes/{id}/nimble/grapples`. Dice are fair: every outcome is checked against the
recorded faces (the example hero: STR 2, Might 4; the goblins roll with the request's modifier).
"""

from __future__ import annotations

from typing import Any

from tests.api.support import Table
from tests.api.test_nimble_encounter import Enc
from tests.api.test_nimble_encounter import stage as nimble_stage
from tests.client import TestClient

MIGHT = 4  # the example hero's Might


def grab(e: Enc, who: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"grappler_id": who, "target_id": target, "size": "same"} | extra


def refused(
    e: Enc, body: Any, token: str | None, status: int, rule: str | None, code: str | None = None
) -> dict[str, Any]:
    """The grapple is refused with `status` (and the rule, the code) and writes nothing: the
    encounter is unchanged and no event was appended."""
    before, position = e.state(), e.t.position()
    response = e.post("grapples", body, token)
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    if rule is not None:
        assert error["rule"] == rule, error
    if code is not None:
        assert error["code"] == code, error
    assert e.t.position() == position, "a refusal wrote something"
    assert e.state() == before
    return error


def skill_d20s(roll: dict[str, Any]) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["label"] == "skill"]


def natural(roll: dict[str, Any], label: str) -> int:
    kept = [f["face"] for f in roll["faces"] if f["kept"] and f["label"] == label]
    assert len(kept) == 1
    return kept[0]  # type: ignore[no-any-return]


def conditions(e: Enc, who: str) -> dict[str, Any]:
    return e.nimble(who)["conditions"]  # type: ignore[no-any-return]


def check_grapple(e: Enc, made: dict[str, Any], grappler: str, target: str, mod: int) -> bool:
    """The grapple's result, from the recorded d20, agrees with the outcome and the conditions."""
    roll, out = made["roll"], made["outcome"]
    assert roll["check"] == "skill" and roll["request"]["skill"] == "Might"
    assert roll["request"]["modifier"] == mod and roll["request"]["dc"] == 10
    success = natural(roll, "skill") + mod >= 10
    assert out["grappled"] is success and roll["result"]["success"] is success
    if success:
        assert out["condition"] == "grappling"
        assert conditions(e, grappler)["grappling"]["target_id"] == target
        assert conditions(e, target)["grappled"]["by_id"] == grappler
    else:
        assert out["condition"] is None
        assert "grappling" not in conditions(e, grappler)
        assert "grappled" not in conditions(e, target)
    return success


# ---- NB-24 + NB-7 + NB-10: an action and an attack ---------------------------------------------


def test_a_grapple_spends_1_action_and_counts_as_an_attack_nb_24_nb_7_nb_10(
    client: TestClient,
) -> None:
    e = Enc(client)
    e.start()
    made = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    assert made["actions"][e.hero] == 2  # NB-7: 1 of its 3 actions
    assert made["attacks"][e.hero] == 1  # NB-10: it counts as an attack this turn
    assert made["refreshes"]["end_of_own_turn"][e.hero]["attacks_this_turn"] == 1
    roll = made["roll"]
    assert roll["request"]["attack_number"] == 1 and roll["result"]["edge"] == 0
    assert len(skill_d20s(roll)) == 1
    out = made["outcome"]
    assert (out["grappler_id"], out["target_id"]) == (e.hero, e.goblin)
    assert (out["attack_number"], out["hasty_steps"]) == (1, 0)
    assert out["check"]["natural"] == natural(roll, "skill")
    check_grapple(e, made, e.hero, e.goblin, MIGHT)
    state = e.state()
    assert state["actions"][e.hero] == 2 and state["attacks"][e.hero] == 1
    state = e.end_turn(e.hero, e.t.player)  # NB-10: hasty attacks count within one turn
    assert e.hero not in state["attacks"] and state["actions"][e.hero] == 3


def test_an_attack_after_a_grapple_is_hasty_nb_10_nb_24(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    grabbed = check_grapple(
        e, e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player), e.hero, e.goblin, MIGHT
    )
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe"}
    state = e.ok("attacks", body, e.t.player)
    request, result = state["roll"]["request"], state["roll"]["result"]
    assert request["attack_number"] == 2 and state["outcome"]["hasty_steps"] == 1
    # NB-24: a grappled target is attacked with advantage; the hasty step takes one off (NB-11)
    assert request["advantage"] == (1 if grabbed else 0)
    assert result["edge"] == (0 if grabbed else -1)
    assert state["attacks"][e.hero] == 2 and state["actions"][e.hero] == 1
    # NB-10: a save ability after the grapple and the attack gives its targets 2 steps
    save = e.ok(
        "actions", {"character_id": e.hero, "action": "Roar", "save_ability": True}, e.t.player
    )
    assert save["outcome"]["target_advantage"] == 2


def test_a_grapple_after_an_attack_is_hasty_nb_10_nb_24(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    e.ok(
        "attacks", {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe"}, e.t.player
    )
    made = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    roll = made["roll"]
    assert roll["request"]["attack_number"] == 2 and made["outcome"]["hasty_steps"] == 1
    assert roll["result"]["edge"] == -1  # one step of disadvantage: 2d20, the lower kept
    d20s = skill_d20s(roll)
    assert len(d20s) == 2 and natural(roll, "skill") == min(d20s)
    check_grapple(e, made, e.hero, e.goblin, MIGHT)
    assert made["actions"][e.hero] == 1 and made["attacks"][e.hero] == 2


def test_a_grapple_counts_toward_the_three_actions_nb_7(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    for _ in range(2):
        e.ok("actions", {"character_id": e.hero, "action": "Search"}, e.t.player)
    assert e.state()["actions"][e.hero] == 0
    search = {"character_id": e.hero, "action": "Search"}
    e.refused("actions", search, e.t.player, 409, "NB-7")  # a 4th action
    refused(e, grab(e, e.hero, e.ally), e.t.player, 409, "NB-7", "no_actions")
    refused(e, grab(e, e.hero, e.goblin), None, 409, "NB-7", "no_actions")  # the GM as well


# ---- NB-15: only on one's own turn; 403 for another's hero; 422 for bad input ------------------


def test_grappling_outside_one_s_turn_is_refused_nb_15(client: TestClient) -> None:
    e = Enc(client)
    e.start()  # the hero's turn
    error = refused(e, grab(e, e.ally, e.goblin), e.t.other_player, 409, "NB-15", "not_your_turn")
    assert error["details"]["turn_of"] == e.hero
    refused(e, grab(e, e.goblin, e.hero), None, 409, "NB-15", "not_your_turn")  # a monster too
    e.end_turn(e.hero, e.t.player)
    refused(e, grab(e, e.hero, e.goblin), e.t.player, 409, "NB-15", "not_your_turn")
    made = e.ok("grapples", grab(e, e.ally, e.goblin), e.t.other_player)  # now it is Rook's
    assert made["actions"][e.ally] == 2


def test_a_player_cannot_grapple_with_another_s_hero_nb_24(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    refused(e, grab(e, e.hero, e.goblin), e.t.other_player, 403, None, "forbidden")
    refused(e, grab(e, e.hero, e.goblin), e.t.observer, 403, None, "forbidden")


def test_bad_size_skill_or_target_is_422_and_writes_nothing_nb_24_nb_4(
    client: TestClient,
) -> None:
    e = Enc(client)
    e.start()
    outsider = e.t.character(e.t.player, "Wanderer")  # in the campaign, not in the encounter
    for extra, field, rule in (
        ({"size": "huge"}, "size", "NB-24"),
        ({"skill": "Stealth"}, "skill", "NB-24"),
        ({"target_id": outsider}, "target_id", "NB-4"),
        ({"target_id": e.hero}, "target_id", "NB-24"),  # itself
        ({"modifier": 9}, "modifier", None),  # a hero's modifier is its sheet's
    ):
        error = refused(e, grab(e, e.hero, e.goblin) | extra, e.t.player, 422, rule)
        assert error["field"] == field, error
    nobody = "00000000-0000-0000-0000-000000000000"
    error = refused(e, grab(e, e.hero, nobody), e.t.player, 422, None)
    assert error["field"] == "target_id"
    for body in (
        {"grappler_id": e.hero, "target_id": e.goblin},  # no size
        grab(e, e.hero, e.goblin, attack_number=1),  # the encounter counts it (extra="forbid")
        grab(e, e.hero, e.goblin, advantage=-1),
    ):
        refused(e, body, e.t.player, 422, None, "validation_error")
    made = e.ok("grapples", grab(e, e.hero, e.goblin, skill="finesse"), e.t.player)
    assert made["roll"]["request"]["skill"] == "Finesse"
    assert made["roll"]["request"]["modifier"] == 1  # the example hero's Finesse


def test_grappling_needs_a_running_encounter_nb_4(client: TestClient) -> None:
    e = Enc(client)
    refused(e, grab(e, e.hero, e.goblin), e.t.player, 409, "NB-4", "no_encounter")
    e.start()
    e.ok("encounter/end", status=200)
    refused(e, grab(e, e.hero, e.goblin), e.t.player, 409, "NB-4", "no_encounter")


def test_one_hold_each_way_and_a_refusal_spends_no_action_nb_24(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    made = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    if check_grapple(e, made, e.hero, e.goblin, MIGHT):
        refused(e, grab(e, e.hero, e.ally), e.t.player, 409, "NB-24", "already_grappling")
        e.end_turn(e.hero, e.t.player)
        refused(e, grab(e, e.ally, e.goblin), e.t.other_player, 409, "NB-24", "already_grappled")
        assert e.state()["actions"][e.ally] == 3
    else:  # nothing held: another try is a second, hasty attack
        again = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
        assert again["roll"]["request"]["attack_number"] == 2 and again["actions"][e.hero] == 1


# ---- monsters, NB-21 Dying grapplers ---------------------------------------------------------


def test_a_monster_grapples_on_its_turn_without_an_action_count_nb_24_nb_7(
    client: TestClient,
) -> None:
    e = Enc(client)
    e.start()
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    made = e.ok("grapples", grab(e, e.goblin, e.hero, modifier=2))
    assert e.goblin not in made["actions"] and made["attacks"][e.goblin] == 1
    roll = made["roll"]
    success = natural(roll, "skill") + 2 >= 10
    assert roll["request"]["modifier"] == 2 and made["outcome"]["grappled"] is success
    # no sheet gives a monster's modifier: the record says the GM gave it
    assert [(m["field"], m["value"], m["role"]) for m in roll["modifiers"]] == [
        ("modifier", 2, "gm")
    ]
    assert ("grappled" in conditions(e, e.hero)) is success
    # NB-10 is a hero rule: its next attack is not hasty; a grappled hero is attacked with
    # advantage (NB-24)
    state = e.ok("attacks", {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw"})
    assert state["roll"]["request"]["attack_number"] == 1
    assert state["roll"]["result"]["edge"] == (1 if success else 0)


def test_a_dying_grappler_saves_first_and_has_1_action_nb_21_nb_24(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    assert e.damage(e.hero, 24)["status"] == "dying"
    made = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    out = made["outcome"]
    save = e.t.get(f"/v1/rolls/{out['dying_save']['roll_id']}")
    assert save["check"] == "save" and save["request"]["stat"] == "STR"
    assert save["request"]["modifier"] == 2 and save["request"]["dc"] == 10
    saved = natural(save, "save") + 2 >= 10
    assert out["dying_save"]["success"] is saved and out["dying_save"]["dead"] is False
    assert out["dying_save"]["wounds"] == e.nimble(e.hero)["wounds"] == (1 if saved else 2)
    # the grapple goes on either way, rolled after the save in the same chain
    assert made["roll"]["check"] == "skill"
    assert made["roll"]["proof"]["sequence"] == save["proof"]["sequence"] + 1
    check_grapple(e, made, e.hero, e.goblin, MIGHT)
    assert made["actions"][e.hero] == 0  # NB-21: capped to 1 action, spent
    refused(e, grab(e, e.hero, e.ally), e.t.player, 409, "NB-7", "no_actions")


def test_a_grappler_killed_by_its_dying_save_grapples_nothing_nb_21_nb_22(
    client: TestClient,
) -> None:
    for _ in range(20):  # STR -5: the save fails on a natural 1..14 (70%; 12 tries: 5e-7)
        e = Enc(client, {"max_wounds": 2}, {"stats": {"STR": -5, "DEX": 1, "INT": 0, "WIL": 0}})
        e.start()
        e.damage(e.hero, 24)  # 1 Wound of 2
        made = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
        out = made["outcome"]
        save = e.t.get(f"/v1/rolls/{out['dying_save']['roll_id']}")
        saved = natural(save, "save") - 5 >= 10
        assert out["dying_save"]["success"] is saved
        if saved:
            assert made["roll"]["check"] == "skill"
            continue
        assert out["dying_save"]["dead"] is True and out["grappled"] is False
        assert made["roll"]["id"] == save["id"]  # no grapple check was rolled
        assert e.nimble(e.hero)["status"] == "dead" and conditions(e, e.goblin) == {}
        assert made["actions"][e.hero] == 0  # the action is spent
        refused(e, grab(e, e.hero, e.goblin), e.t.player, 409, "NB-22", "out_of_the_fight")
        break
    else:
        raise AssertionError("the save never failed in 20 tries")


# ---- NB-15: a held attack is settled first ------------------------------------------------------


def test_no_grapple_while_an_attack_waits_for_reactions_nb_15(client: TestClient) -> None:
    punch = {"name": "Punch", "dice": "1", "primary_die": False}  # fixed damage: never misses
    e = Enc(client, hero_sheet={"attacks": [punch]})
    e.start()
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Punch", "hold": True}
    held = e.ok("attacks", body, e.t.player)
    assert held["pending"]["roll_id"] == held["roll"]["id"]
    refused(e, grab(e, e.hero, e.goblin), e.t.player, 409, "NB-15", "attack_pending")
    e.ok(f"attacks/{held['roll']['id']}/resolve", {}, e.t.player, 200)
    grabbed = e.ok("grapples", grab(e, e.hero, e.goblin), e.t.player)
    assert grabbed["actions"][e.hero] == 1  # the attack and the grapple: 2 of 3
    assert grabbed["outcome"]["attack_number"] == 2  # the grapple is the turn's 2nd attack


# ---- for the access matrix (tests/api/test_access.py) -------------------------------------------


def stage(t: Table) -> dict[str, str]:
    """The encounter of test_nimble_encounter.stage with the hero (on its turn) down to 1 action:
    its owner's grapple spends it, so the GM's repeat is refused (409 NB-7) whatever the dice."""
    found: dict[str, str] | None = getattr(t, "nimble_grapple_stage", None)
    if found is not None:
        return found
    found = nimble_stage(t)
    body = {"character_id": found["hero"], "action": "Dash", "cost": 2}
    t.post(f"/v1/scenes/{found['scene']}/nimble/actions", body, t.player)
    t.nimble_grapple_stage = found  # type: ignore[attr-defined]
    return found
