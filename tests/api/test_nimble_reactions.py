"""Nimble reactions declared after seeing the roll (NB-15..NB-17): a held attack waits for its
target's side to Defend, Interpose or let it land; and the Dying hero's action limit against
granted actions and after healing (NB-21). Numbers are checked against the recorded faces."""

from __future__ import annotations

from typing import Any

from tests.api.test_nimble_encounter import Enc, _attack_damage

CLAW = {"attack": "Claw", "hold": True}


def _held_hit(
    e: Enc, target: str, token: str | None = None, plain: bool = True, **extra: Any
) -> dict[str, Any]:
    """The goblins (or ``extra``'s attacker) attack ``target`` with ``hold`` until a hit is held;
    a miss is never held and lands at once (nothing to react to). A monster's attacks are
    never hasty (NB-10 is a hero rule), so every try rolls one d6 with no step."""
    body = {"attacker_id": e.goblin, "target_id": target, **CLAW, **extra}
    for number in range(1, 13):
        before = e.hp(target)
        state = e.ok("attacks", body, token)
        assert state["roll"]["request"]["attack_number"] == 1, number
        assert state["roll"]["result"]["edge"] == 0 and state["outcome"]["hasty_steps"] == 0
        outcome = state["outcome"]
        if not outcome["miss"]:
            assert outcome["pending"] is True and outcome["hit"] is None
            assert e.hp(target) == before  # nothing landed yet
            if not (plain and outcome["critical"]):
                return state
            # NB-16: Defend against a crit seen is refused (it would reduce nothing); the tests
            # of Defend want a plain hit, so this one lands and is healed away.
            resolve = f"attacks/{state['roll']['id']}/resolve"
            e.refused(resolve, {"defend": True}, None, 409, "NB-16")
            e.ok(resolve, {}, None, 200)
            heal = {"amount": outcome["damage"], "reason": "a test wants a plain hit"}
            e.t.post(f"/v1/characters/{target}/nimble/heal", heal, status=200)
            continue
        assert outcome["pending"] is False and state["pending"] is None
        assert e.hp(target) == before
    raise AssertionError("twelve attacks in a row missed or crit")


def _goblins_turn(e: Enc) -> None:
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)


def test_a_held_hit_waits_and_the_target_defends_after_seeing_it_nb_15_nb_16(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    _goblins_turn(e)
    before = e.hp(e.hero)
    state = _held_hit(e, e.hero)
    roll = state["roll"]
    damage, _, crit = _attack_damage(roll, 0, 6)
    pending = state["pending"]
    assert pending["roll_id"] == roll["id"] and pending["target_id"] == e.hero
    assert pending["damage"] == damage and pending["critical"] == crit
    assert roll["request"]["armor"] == 0  # a hero's Armor comes off only when it Defends
    # NB-15: reactions resolve before what triggered them: nothing else goes on meanwhile.
    again = {"attacker_id": e.goblin, "target_id": e.ally, "attack": "Claw"}
    e.refused("attacks", again, None, 409, "NB-15")
    e.refused("turns/end", {"character_id": e.goblin}, None, 409, "NB-15")
    # Only the target's side answers: the other player may not settle Nova's hit.
    resolve = f"attacks/{roll['id']}/resolve"
    e.refused(resolve, {"defend": True}, e.t.other_player, 403, None)
    done = e.ok(resolve, {"defend": True}, e.t.player, 200)
    expected = damage if crit else max(0, damage - 3)  # NB-16: Armor 3, not against a crit
    outcome = done["outcome"]
    assert outcome["damage"] == expected and outcome["defended"] is True
    assert outcome["defend_armor"] == (0 if crit else 3)
    assert e.hp(e.hero) == before - expected
    assert done["pending"] is None and done["actions"][e.hero] == 2  # 1 from its next turn
    e.refused(resolve, {}, e.t.player, 409, "NB-15")  # settled once
    # The next held hit on Nova this round: Defend again is once per round (NB-15).
    state = _held_hit(e, e.hero, plain=False)
    e.refused(f"attacks/{state['roll']['id']}/resolve", {"defend": True}, e.t.player, 409, "NB-15")
    e.ok(f"attacks/{state['roll']['id']}/resolve", {}, e.t.player, 200)  # it lands unreduced


def test_an_ally_interposes_after_seeing_the_roll_nb_17(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    _goblins_turn(e)
    hero_hp, ally_hp = e.hp(e.hero), e.hp(e.ally)
    state = _held_hit(e, e.hero)
    damage, _, crit = _attack_damage(state["roll"], 0, 6)
    resolve = f"attacks/{state['roll']['id']}/resolve"
    body = {"interpose_by": e.ally, "defend": True}
    e.refused(resolve, body, e.t.player, 403, None)  # Nova's player cannot spend Rook's actions
    done = e.ok(resolve, body, e.t.other_player, 200)
    outcome = done["outcome"]
    expected = damage if crit else max(0, damage - 3)
    assert outcome["target_id"] == e.ally and outcome["interposed_by"] == e.ally
    assert outcome["damage"] == expected
    assert e.hp(e.ally) == ally_hp - expected and e.hp(e.hero) == hero_hp
    assert done["actions"][e.ally] == 1  # Interpose and Defend: two reactions, two actions
    assert set(done["uses"]["round"][e.ally]) == {"reaction:interpose", "reaction:defend"}
    # The scene's replay tells the held attack and its landing, step by step.
    replay = e.t.get(f"/v1/scenes/{e.scene}/replay?min_position={done['position']}")
    texts = [step["text"] for step in replay["steps"]]
    held = next(i for i, x in enumerate(texts) if "unless the target reacts (NB-15)" in x)
    landed = next(i for i, x in enumerate(texts) if f"lands: {expected} damage" in x)
    assert texts[held].startswith("Goblins") and held < landed


def test_a_held_attack_refuses_reactions_in_its_request_and_unknown_rolls_nb_15(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    _goblins_turn(e)
    body = {"attacker_id": e.goblin, "target_id": e.hero, **CLAW, "defend": True}
    e.refused("attacks", body, None, 422, "NB-15")
    body = {"attacker_id": e.goblin, "target_id": e.hero, **CLAW, "interpose_by": e.ally}
    e.refused("attacks", body, None, 422, "NB-15")
    stray = "00000000-0000-4000-8000-000000000000"
    e.refused(f"attacks/{stray}/resolve", {}, None, 409, "NB-15")
    response = e.post(f"attacks/{stray}/resolve", {"defend": "yes please"})
    assert response.status_code == 422 and response.json()["error"]["field"] == "defend"


def test_a_held_hit_on_a_monster_keeps_its_armor_and_the_attacker_settles_it_nb_16_nb_17(
    client,  # type: ignore[no-untyped-def]
) -> None:
    e = Enc(client)
    e.start()
    before = e.hp(e.goblin)
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe", "hold": True}
    state = e.ok("attacks", body, e.t.player)
    damage, miss, _ = _attack_damage(state["roll"], 2, 12, armor=1)  # the goblins' Armor 1
    if miss:  # a miss lands at once: nothing to react to
        assert state["pending"] is None and e.hp(e.goblin) == before
        return
    assert state["pending"]["damage"] == damage and e.hp(e.goblin) == before
    resolve = f"attacks/{state['roll']['id']}/resolve"
    e.refused(resolve, {"defend": True}, e.t.player, 422, "NB-16")  # monsters do not react
    e.refused(resolve, {"interpose_by": e.ally}, e.t.other_player, 422, "NB-17")
    e.refused(resolve, {}, e.t.other_player, 403, None)  # Rook's player did not attack
    done = e.ok(resolve, {}, e.t.player, 200)
    assert done["outcome"]["damage"] == damage and e.hp(e.goblin) == before - damage


def test_ending_the_encounter_drops_a_held_attack_nb_4_nb_15(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    _goblins_turn(e)
    state = _held_hit(e, e.hero)
    before = e.hp(e.hero)
    ended = e.ok("encounter/end", None, None, 200)
    assert ended["pending"] is None and e.hp(e.hero) == before
    e.refused(f"attacks/{state['roll']['id']}/resolve", {}, e.t.player, 409, "NB-4")


def test_granted_actions_beyond_3_stay_nb_7(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    grant = {"character_id": e.hero, "actions": 1, "reason": "Haste"}
    assert e.ok("grants", grant, None, 200)["actions"][e.hero] == 4  # beyond the limit
    assert e.ok("grants", grant, None, 200)["actions"][e.hero] == 5  # grants add up
    state = e.ok("actions", {"character_id": e.hero, "action": "Search"}, e.t.player)
    assert state["actions"][e.hero] == 4
    assert e.end_turn(e.hero, e.t.player)["actions"][e.hero] == 3  # unspent extras lapse


def test_a_dying_hero_gets_no_extra_actions_beyond_1_a_turn_nb_7_nb_21(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.damage(e.hero, 24)  # Nova is Dying with 3 actions counted (capped to 1)
    grant = {"character_id": e.hero, "actions": 1, "reason": "Haste"}
    e.refused("grants", grant, None, 409, "NB-21")  # 1 held + 1 granted
    e.ok("actions", {"character_id": e.hero, "action": "Crawl"}, e.t.player)
    e.refused("grants", grant, None, 409, "NB-21")  # its 1 action of the turn is spent
    _goblins_turn(e)
    claw = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "defend": True}
    assert e.ok("attacks", claw)["actions"][e.hero] == 0  # a reaction from its next turn
    e.next_round()
    assert e.state()["actions"][e.hero] == 0  # NB-15: it starts its turn with fewer
    assert e.nimble(e.hero)["wounds"] <= 4  # 1, and 2 or 3 for the claw (NB-21): alive
    assert e.ok("grants", grant, None, 200)["actions"][e.hero] == 1  # 0 + 1: within 1 a turn
    e.ok("actions", {"character_id": e.hero, "action": "Crawl"}, e.t.player)
    e.refused("grants", grant, None, 409, "NB-21")


def test_healing_a_dying_hero_shows_3_actions_back_at_once_nb_21(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.damage(e.hero, 24)
    e.ok("actions", {"character_id": e.hero, "action": "Crawl"}, e.t.player)
    state = e.state()
    assert state["refreshes"]["end_of_own_turn"][e.hero]["actions_back_to"] == 1
    e.t.post(f"/v1/characters/{e.hero}/nimble/heal", {"amount": 5, "reason": "potion"}, status=200)
    state = e.state()  # the view follows the hero's health at once (NB-20: no longer Dying)
    assert state["refreshes"]["end_of_own_turn"][e.hero]["actions_back_to"] == 3
    assert state["actions"][e.hero] == 0  # healing gives back no actions now
    assert e.end_turn(e.hero, e.t.player)["actions"][e.hero] == 3


# ---- NB-19: Help rerolls one die of a held attack ---------------------------------------------

TWIN = {
    "attacks": [{"name": "Twin Blades", "dice": "2d6+1"}, {"name": "Greataxe", "dice": "1d12+2"}]
}


def _helped_damage(
    original: dict[str, Any], reroll: dict[str, Any], die: int, modifier: int, armor: int
) -> tuple[int, bool, bool]:
    """By hand: the chosen die replaced by the new one; a new Primary die brings its own crit
    chain (the old one goes with the old die); miss on 1, crit on the maximum (NB-9, NB-16)."""
    faces = original["faces"]
    lead = next(f for f in faces if f["kept"] and f["exploded_from"] is None)
    new = reroll["faces"]
    assert new[0]["reroll_of"] == die and all(f["kept"] for f in new)
    if faces[die]["index"] == lead["index"]:
        rest = [f for f in faces if f["kept"] and f["exploded_from"] is None and f is not lead]
        primary = new[0]
    else:
        rest = [f for f in faces if f["kept"] and f["index"] != die]
        primary = lead
        assert len(new) == 1  # no new chain: only a Primary die crits
    miss, crit = primary["face"] == 1, primary["face"] == primary["sides"]
    total = 0 if miss else max(0, sum(f["face"] for f in rest + new) + modifier)
    return (total if miss or crit else max(0, total - armor)), miss, crit


def _held_hero_hit(e: Enc, attack: str) -> dict[str, Any]:
    """Nova attacks the goblins until a hit is held: the GM grants 3 more actions (NB-7), and each
    try brings advantage against its hasty steps (NB-10, NB-11), so each rolls as a first attack."""
    e.ok("grants", {"character_id": e.hero, "actions": 3, "reason": "a test's patience"}, None, 200)
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": attack, "hold": True}
    for tries in range(6):
        # The retries' advantage is the GM's to give (player_modifiers): the GM sends them.
        state = e.ok("attacks", {**body, "advantage": tries}, e.t.player if tries == 0 else None)
        assert state["roll"]["result"]["edge"] == 0
        if state["pending"] is not None:
            return state
    raise AssertionError("six attacks in a row missed")


def test_help_rerolls_the_primary_die_of_a_held_attack_nb_19_nb_9(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    before = e.hp(e.goblin)
    state = _held_hero_hit(e, "Greataxe")
    attack = state["roll"]
    help_body = {"helper_id": e.ally, "roll_id": attack["id"], "die": 0, "purpose": "a feint"}
    e.refused("help", {**help_body, "helper_id": e.hero}, e.t.player, 422, "NB-19")  # no ally
    e.refused("help", {**help_body, "die": 9}, e.t.player, 422, "NB-19")
    e.refused("help", {k: v for k, v in help_body.items() if k != "die"}, e.t.player, 422, "NB-19")
    # NB-19: the reroll is the ally's: Rook's player alone does not pick Nova's die
    e.refused("help", help_body, e.t.other_player, 403, "NB-19")
    helped = e.ok("help", help_body, e.t.player)  # the helped hero picks the die
    reroll = helped["roll"]
    assert reroll["id"] == helped["outcome"]["help"]["reroll_id"]
    assert helped["actions"][e.ally] == 2  # a reaction off Rook's turn (NB-15)
    damage, miss, crit = _helped_damage(attack, reroll, 0, 2, 1)  # 1d12+2, the goblins' Armor 1
    assert helped["outcome"]["help"]["damage"] == damage
    assert (
        helped["outcome"]["help"]["miss"] == miss and helped["outcome"]["help"]["critical"] == crit
    )
    # One Help per roll (asked by the GM: once the reroll made it a miss, nothing is held, and Nova's
    # player no longer speaks for Rook, a 403 before the 409)
    e.refused("help", help_body, None, 409, "NB-19")
    if miss:  # the reroll made it a miss: nothing is left to land
        assert helped["pending"] is None and e.hp(e.goblin) == before
    else:
        assert helped["pending"]["damage"] == damage
        done = e.ok(f"attacks/{attack['id']}/resolve", {}, e.t.player, 200)
        assert done["outcome"]["damage"] == damage and e.hp(e.goblin) == before - damage
    # Both rolls recompute from the revealed seed (the reroll through the attack it follows).
    e.t.post(f"/v1/scenes/{e.scene}/close", status=200)
    for roll in (attack, reroll):
        verification = e.t.get(f"/v1/rolls/{roll['id']}/verification")
        assert verification["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_help_rerolls_another_die_and_keeps_the_primary_nb_19(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client, hero_sheet=TWIN)
    e.start()
    state = _held_hero_hit(e, "Twin Blades")
    attack = state["roll"]
    second = next(
        f for f in attack["faces"] if f["kept"] and f["exploded_from"] is None and f["index"] > 0
    )
    # Rook helps on its own turn: swap so Rook acts now; then it is an action, not a reaction.
    e.refused("attacks/" + attack["id"] + "/resolve", {"defend": True}, e.t.player, 422, "NB-16")
    helped = e.ok(
        "help",
        {"helper_id": e.ally, "roll_id": attack["id"], "die": second["index"]},
        e.t.player,
    )
    damage, miss, crit = _helped_damage(attack, helped["roll"], second["index"], 1, 1)
    assert not miss  # the Primary die stayed (a held attack is a hit)
    assert helped["pending"]["damage"] == damage and helped["pending"]["critical"] == crit
    assert "reaction:help" in helped["uses"]["round"][e.ally]


def test_no_help_for_a_monster_s_attack_nor_through_the_raw_follow_up_nb_19(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    _goblins_turn(e)
    state = _held_hit(e, e.hero)
    body = {"helper_id": e.ally, "roll_id": state["roll"]["id"], "die": 0}
    e.refused("help", body, None, 422, "NB-19")
    raw = e.t.client.post(
        f"/v1/rolls/{state['roll']['id']}/follow-ups",
        json={"follow_up": "help_die", "request": {"die": 0}},
        headers={"Authorization": f"Bearer {e.t.gm}"},
    )
    assert raw.status_code == 422 and raw.json()["error"]["field"] == "follow_up", raw.text


# ---- staging for the access matrix (tests/api/test_access.py) ---------------------------------

CRUSHER = {
    "kind": "monster",
    "hp": 40,
    "armor": 0,
    "attacks": [{"name": "Crush", "dice": "1", "primary_die": False}],  # fixed 1: never misses
}


def held_stage(t: Any) -> dict[str, str]:
    """A scene where the goblins' held Crush (certain to hit) waits for the player's hero to
    answer; made once per table."""
    found: dict[str, str] | None = getattr(t, "nimble_held_stage", None)
    if found is not None:
        return found
    scene = t.scene()
    hero = t.character(t.player, "Nova")
    chars = f"/v1/campaigns/{t.campaign_id}/characters"
    crusher = str(t.post(chars, {"name": "Crusher", "side": "opponent", "sheet": CRUSHER})["id"])
    base = f"/v1/scenes/{scene}/nimble"
    t.post(
        f"{base}/encounter",
        {"order": [hero, crusher], "party": "three_actions", "monsters_first": True},
    )
    body = {"attacker_id": crusher, "target_id": hero, "attack": "Crush", "hold": True}
    held = t.post(f"{base}/attacks", body)
    assert held["pending"] is not None
    found = {"scene": scene, "hero": hero, "roll": held["roll"]["id"]}
    t.nimble_held_stage = found
    return found


PUNCH = {"name": "Punch", "dice": "1", "primary_die": False}  # fixed damage: never misses
NEEDLE = {"skills": {"Might": 20}, "attacks": [{"name": "Needle", "dice": "1d2"}, PUNCH]}


def test_help_decides_again_whether_the_weakness_is_used_up_nb_14_nb_19(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client, hero_sheet=NEEDLE)
    e.start()
    body = {
        "character_id": e.hero,
        "skill": "Might",
        "option": "find_weakness",
        "target_id": e.goblin,
    }
    assert e.ok("assessments", body, e.t.player)["outcome"]["assess"]["success"]  # Might 20
    # The Needle (1d2) against the weakness counts one face higher: it never misses, it is held.
    needle = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Needle", "hold": True}
    held = e.ok("attacks", needle, e.t.player)
    natural = held["roll"]["result"]["primary_face"]
    assert held["pending"] is not None and held["roll"]["request"]["primary_shift"] == 1
    assert len(held["weakness"].get(e.goblin, [])) == (1 if natural == 2 else 0)  # NB-14
    helped = e.ok(
        "help", {"helper_id": e.ally, "roll_id": held["roll"]["id"], "die": 0}, e.t.player
    )
    new_face = helped["roll"]["faces"][0]["face"]
    # Used up unless the new Primary die crits by itself (a natural 2); it waits again if so.
    assert len(helped["weakness"].get(e.goblin, [])) == (1 if new_face == 2 else 0)
    e.ok(f"attacks/{held['roll']['id']}/resolve", {}, e.t.player, 200)
    again = e.ok("attacks", {**needle, "hold": False}, e.t.player)
    assert again["roll"]["request"]["primary_shift"] == (1 if new_face == 2 else 0)


def test_the_target_does_not_help_the_attack_on_it_nb_19(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client, hero_sheet=NEEDLE)
    e.start()
    body = {"attacker_id": e.hero, "target_id": e.ally, "attack": "Punch", "hold": True}
    held = e.ok("attacks", body, e.t.player)  # a hero strikes a hero (fixed damage: held)
    help_body = {"helper_id": e.ally, "roll_id": held["roll"]["id"], "die": 0}
    e.refused("help", help_body, e.t.player, 422, "NB-19")
