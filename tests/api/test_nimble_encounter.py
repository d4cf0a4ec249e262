"""Nimble encounters through the API (NB-1..NB-19): numbers checked against the recorded faces."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.client import TestClient

MONSTER = {"kind": "monster", "hp": 40, "armor": 1, "attacks": [{"name": "Claw", "dice": "1d6"}]}


class Enc:
    def __init__(
        self,
        client: TestClient,
        settings: dict[str, Any] | None = None,
        hero_sheet: dict[str, Any] | None = None,
    ) -> None:
        self.t = Table(client, "nimble")
        if settings:  # the same table in a campaign with these settings (e.g. max_wounds)
            created = self.t.post(
                "/v1/campaigns", {"name": "Deadly", "ruleset": "nimble", "settings": settings}
            )
            self.t.campaign_id, self.t.gm = created["id"], created["gm_token"]
            self.t.player = self.t.join("Bo", "player")
            self.t.other_player = self.t.join("Cy", "player")
        if hero_sheet is not None:
            self.t.example_sheet = {**self.t.example_sheet, **hero_sheet}
        self.scene = self.t.scene()
        self.hero = self.t.character(self.t.player, "Nova")
        self.ally = self.t.character(self.t.other_player, "Rook")
        chars = f"/v1/campaigns/{self.t.campaign_id}/characters"
        self.goblin = str(
            self.t.post(chars, {"name": "Goblins", "side": "opponent", "sheet": MONSTER})["id"]
        )

    def url(self, what: str) -> str:
        return f"/v1/scenes/{self.scene}/nimble/{what}"

    def post(self, what: str, body: Any = None, token: str | None = None) -> Any:
        return self.t.client.post(self.url(what), json=body, headers=bearer(token or self.t.gm))

    def ok(self, what: str, body: Any = None, token: str | None = None, status: int = 201) -> Any:
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        return response.json()

    def start(self, **extra: Any) -> dict[str, Any]:
        body = {"order": [self.hero, self.ally, self.goblin], "party": "three_actions"} | extra
        return self.ok("encounter", body)  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        return self.t.get(self.url("encounter"))  # type: ignore[no-any-return]

    def refused(
        self, what: str, body: Any, token: str | None, status: int, rule: str | None
    ) -> None:
        before = self.state()
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        if rule:
            assert response.json()["error"]["rule"] == rule
        assert self.state() == before  # wrote nothing

    def end_turn(self, who: str, token: str | None = None) -> dict[str, Any]:
        return self.ok("turns/end", {"character_id": who}, token, 200)  # type: ignore[no-any-return]

    def hp(self, who: str) -> int:
        return int(self.t.get(f"/v1/characters/{who}")["resources"]["hp"]["current"])

    def nimble(self, who: str) -> dict[str, Any]:
        return self.t.get(f"/v1/characters/{who}/nimble")["nimble"]  # type: ignore[no-any-return]

    def damage(self, who: str, amount: int, critical: bool = False) -> dict[str, Any]:
        body = {"scene_id": self.scene, "amount": amount, "critical": critical}
        return self.t.post(f"/v1/characters/{who}/nimble/damage", body, status=200)["outcome"]  # type: ignore[no-any-return]

    def next_round(self) -> None:
        """Every creature still to act ends its turn; the GM turns the page."""
        state = self.state()
        while state["turn_of"] is not None:
            state = self.end_turn(state["turn_of"])
        self.t.post(f"/v1/scenes/{self.scene}/pages", status=200)


def test_initiative_to_starting_actions_nb_1_nb_2_nb_3(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    body = {"order": [e.hero, e.ally, e.goblin], "surprised": {e.ally: "one_action"}}
    state = e.ok("encounter", body)
    init = state["initiative"][e.hero]
    roll = e.t.get(f"/v1/rolls/{init['roll_id']}")
    natural = next(f["face"] for f in roll["faces"] if f["kept"])
    total = natural + 1  # example sheet: DEX 1
    expected = 3 if natural == 20 or total >= 20 else 2 if total >= 10 else 1
    assert state["actions"][e.hero] == expected == init["actions"]
    assert state["actions"][e.ally] == 1 and state["initiative"][e.ally]["roll_id"] is None
    assert e.goblin not in state["actions"]  # monsters roll no Initiative (NB-3)
    assert state["turn_of"] == e.hero and state["order"][-1] == e.goblin


def test_monsters_first_and_three_actions_nb_2(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    state = e.start(monsters_first=True)
    assert state["round_order"][0] == e.goblin and state["turn_of"] == e.goblin
    assert state["actions"] == {e.hero: 3, e.ally: 3}


def test_turns_rounds_swaps_and_end_nb_3_nb_4(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    swapped = e.ok("swaps", {"first_id": e.hero, "second_id": e.ally}, status=200)
    assert swapped["turn_of"] == e.ally
    e.end_turn(e.ally, e.t.other_player)
    e.end_turn(e.hero, e.t.player)
    state = e.end_turn(e.goblin)
    assert state["turn_of"] is None
    e.t.post(f"/v1/scenes/{e.scene}/pages", status=200)
    state = e.state()
    assert state["round"] == 2 and state["round_order"] == state["order"]  # swap lasted one round
    assert state["turn_of"] == e.hero
    ended = e.ok("encounter/end", status=200)
    assert ended["status"] == "ended"


def test_three_actions_and_a_fourth_refused_nb_7(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    for _ in range(3):
        e.ok("actions", {"character_id": e.hero, "action": "Search"}, e.t.player)
    assert e.state()["actions"][e.hero] == 0
    e.refused("actions", {"character_id": e.hero, "action": "Search"}, e.t.player, 409, "NB-7")
    e.ok("grants", {"character_id": e.hero, "actions": 1, "reason": "Haste"}, status=200)
    e.ok("actions", {"character_id": e.hero, "action": "Search"}, e.t.player)
    state = e.end_turn(e.hero, e.t.player)
    assert state["actions"][e.hero] == 3  # restored at the end of its own turn, not above
    assert state["refreshes"]["end_of_own_turn"][e.hero]["actions_back_to"] == 3


def test_free_action_once_per_turn_nb_8(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.ok("actions", {"character_id": e.hero, "action": "Shout", "free": True}, e.t.player)
    assert e.state()["actions"][e.hero] == 3
    body = {"character_id": e.hero, "action": "Drop", "free": True}
    e.refused("actions", body, e.t.player, 409, "NB-8")


def test_limited_uses_reset_at_the_right_moment_nb_5(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    turn = {"character_id": e.hero, "action": "Riposte", "use_key": "riposte", "per": "turn"}
    rnd = {"character_id": e.hero, "action": "Rally", "use_key": "rally", "per": "round"}
    e.ok("actions", turn | {"cost": 0}, e.t.player)
    e.ok("actions", rnd | {"cost": 0}, e.t.player)
    e.refused("actions", turn | {"cost": 0}, e.t.player, 409, "NB-5")
    e.refused("actions", rnd | {"cost": 0}, e.t.player, 409, "NB-5")
    state = e.end_turn(e.hero, e.t.player)
    assert state["uses"]["turn"] == {} and e.hero not in state["uses"]["round"]


def test_acting_out_of_turn_and_for_another_refused_nb_15(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.refused(
        "actions", {"character_id": e.ally, "action": "Search"}, e.t.other_player, 409, "NB-15"
    )
    e.refused("actions", {"character_id": e.hero, "action": "Search"}, e.t.other_player, 403, None)


def test_movement_with_difficult_terrain_nb_13(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    state = e.ok("moves", {"character_id": e.hero, "squares": 2, "difficult": 3}, e.t.player)
    # 2 + 2x3 = 8 squares at speed 6: two Move actions, 4 squares left this turn
    assert state["outcome"] == {"actions_spent": 2, "movement_left": 4, "movement_cost": 8}
    assert state["actions"][e.hero] == 1
    state = e.ok("moves", {"character_id": e.hero, "squares": 4}, e.t.player)
    assert state["actions"][e.hero] == 1 and state["outcome"]["actions_spent"] == 0


def test_casting_spends_mana_nb_12(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    body = {"character_id": e.hero, "action": "Fireball", "mana": 1}
    # NB-12: mana is the sheet's spell's tier, not a number the player sends
    e.refused("actions", body, e.t.player, 422, "NB-12")


def _attack_damage(
    roll: dict[str, Any], modifier: int, sides: int, armor: int = 0
) -> tuple[int, bool, bool]:
    """The damage by hand from the kept faces: a miss on 1, a crit on the maximum, and the
    target's Armor off a hit that is not a crit (NB-9, NB-16)."""
    kept = [f["face"] for f in roll["faces"] if f["kept"]]
    lead = kept[0]
    miss, crit = lead == 1, lead == sides
    damage = 0 if miss else max(0, sum(kept) + modifier)
    return (damage if miss or crit else max(0, damage - armor)), miss, crit


def test_hasty_attacks_damage_and_defend_nb_9_nb_10_nb_16(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    for number in (1, 2):
        state = e.ok(
            "attacks",
            {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe"},
            e.t.player,
        )
        roll = state["roll"]
        assert roll["request"]["attack_number"] == number  # NB-10: the 2nd is hasty
        assert state["outcome"]["hasty_steps"] == number - 1
        if number == 2:
            assert len(roll["faces"]) >= 2  # disadvantage: one more d12
        damage, miss, crit = _attack_damage(roll, 2, 12, armor=1)  # the goblins' Armor 1
        assert state["outcome"]["damage"] == damage and state["outcome"]["miss"] == miss
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    before = e.hp(e.hero)
    state = e.ok(
        "attacks", {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "defend": True}
    )
    damage, miss, crit = _attack_damage(state["roll"], 0, 6)
    expected = damage if crit else max(0, damage - 3)  # Armor 3 unless critical
    assert state["outcome"]["damage"] == expected
    assert e.hp(e.hero) == before - expected
    assert state["actions"][e.hero] == 2  # the reaction came from its next turn's actions
    again = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "defend": True}
    e.refused("attacks", again, None, 409, "NB-15")  # Defend once per round


def test_interpose_and_opportunity_attack_nb_17_nb_18(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    body = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "interpose_by": e.ally}
    state = e.ok("attacks", body)
    assert state["outcome"]["target_id"] == e.ally and state["actions"][e.ally] == 2
    opp = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe", "opportunity": True}
    state = e.ok("attacks", opp, e.t.player)
    assert state["roll"]["request"]["disadvantage"] == 1 and state["actions"][e.hero] == 2
    e.refused("attacks", opp, e.t.player, 409, "NB-15")
    monster_opp = {
        "attacker_id": e.goblin,
        "target_id": e.hero,
        "attack": "Claw",
        "opportunity": True,
    }
    e.refused("attacks", monster_opp, None, 422, "NB-18")


def test_assess_once_per_skill_and_help_nb_14_nb_19(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    body = {"character_id": e.hero, "skill": "Might", "option": "anticipate_danger"}
    state = e.ok("assessments", body, e.t.player)
    natural = state["outcome"]["assess"]["natural"]
    assert state["outcome"]["assess"]["success"] == (natural + 4 >= 10)
    e.refused("assessments", body, e.t.player, 409, "NB-14")
    roll_id = state["roll"]["id"]
    helped = e.ok("help", {"helper_id": e.ally, "roll_id": roll_id}, e.t.other_player)
    new = helped["outcome"]["help"]
    assert new["success"] == (new["natural"] + 4 >= 10) and helped["actions"][e.ally] == 2
    e.refused("help", {"helper_id": e.ally, "roll_id": roll_id}, e.t.other_player, 409, "NB-19")
    if new["success"]:
        assert helped["anticipating"] == {e.hero: 1}


def test_concentration_activity_over_turns_nb_6(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    body = {"character_id": e.hero, "action": "Ritual", "activity_cost": 5}
    state = e.ok("actions", body, e.t.player)
    assert state["activities"][e.hero]["paid"] == 3 and state["actions"][e.hero] == 0
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    e.end_turn(e.goblin)
    e.t.post(f"/v1/scenes/{e.scene}/pages", status=200)
    e.refused("moves", {"character_id": e.hero, "squares": 1}, e.t.player, 409, "NB-6")
    state = e.ok("actions", {"character_id": e.hero, "action": "Ritual"}, e.t.player)
    assert state["activities"] == {} and state["actions"][e.hero] == 1
    assert state["outcome"]["activity_done"] is True


def stage(t: Table, started: bool = True, assessed: bool = False) -> dict[str, str]:
    """For the access matrix: a nimble scene with the player's hero, another player's ally and a
    goblin group; the encounter started (all heroes with 3 actions), once per table."""
    key = f"nimble_stage_{started}_{assessed}"
    found: dict[str, str] | None = getattr(t, key, None)
    if found is not None:
        return found
    scene = t.scene()
    hero = t.character(t.player, "Nova")
    ally = t.character(t.other_player, "Rook")
    chars = f"/v1/campaigns/{t.campaign_id}/characters"
    goblin = str(t.post(chars, {"name": "Goblins", "side": "opponent", "sheet": MONSTER})["id"])
    found = {"scene": scene, "hero": hero, "ally": ally, "goblin": goblin}
    base = f"/v1/scenes/{scene}/nimble"
    if started:
        order = [ally, hero, goblin] if assessed else [hero, ally, goblin]
        t.post(f"{base}/encounter", {"order": order, "party": "three_actions"})
    if assessed:
        body = {"character_id": ally, "skill": "Might", "option": "question"}
        found["roll"] = t.post(f"{base}/assessments", body, t.other_player)["roll"]["id"]
    setattr(t, key, found)
    return found


# ---- NB-21 in the encounter: Dying heroes, the attack save; NB-24 a miss that hits the mount ----


def _kept(roll: dict[str, Any], label: str | None = None) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["kept"] and label in (None, f["label"])]


def test_a_dying_hero_has_1_action_and_gets_1_back_nb_21(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    assert e.damage(e.hero, 24)["status"] == "dying"  # 0 HP: a Wound and Dying (NB-20)
    search = {"character_id": e.hero, "action": "Crawl"}
    state = e.ok("actions", search, e.t.player)  # "dying" is not refused as not "active"
    assert state["actions"][e.hero] == 0  # its 3 were capped to 1, then spent
    e.refused("actions", search, e.t.player, 409, "NB-7")
    state = e.end_turn(e.hero, e.t.player)
    assert state["actions"][e.hero] == 1  # NB-21: 1 back, not 3
    assert state["refreshes"]["end_of_own_turn"][e.hero]["actions_back_to"] == 1
    e.t.post(f"/v1/characters/{e.hero}/nimble/heal", {"amount": 5, "reason": "potion"}, status=200)
    e.next_round()
    state = e.end_turn(e.hero, e.t.player)  # healed: back to 3 at the end of its own turn
    assert state["actions"][e.hero] == 3
    assert state["refreshes"]["end_of_own_turn"][e.hero]["actions_back_to"] == 3


def test_a_hero_falling_dying_keeps_1_action_for_reactions_nb_21(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    assert e.state()["actions"][e.hero] == 3
    e.damage(e.hero, 24)  # Dying on the goblins' turn, with 3 actions counted
    body = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "defend": True}
    state = e.ok("attacks", body)
    assert state["actions"][e.hero] == 0  # capped to 1, which Defend spent
    damage, _, crit = _attack_damage(state["roll"], 0, 6)
    expected = damage if crit else max(0, damage - 3)
    hit = state["outcome"]["hit"]
    if expected == 0:
        assert hit is None and e.nimble(e.hero)["wounds"] == 1
    else:  # NB-21: damage while Dying: 2 Wounds, a critical 3
        assert hit["wounds_taken"] == (3 if crit else 2)
        assert e.nimble(e.hero)["wounds"] == 1 + hit["wounds_taken"]
    interpose = {
        "attacker_id": e.goblin,
        "target_id": e.ally,
        "attack": "Claw",
        "interpose_by": e.hero,
    }
    if e.nimble(e.hero)["dead"]:
        e.refused("attacks", interpose, None, 409, "NB-22")
    else:
        e.refused("attacks", interpose, None, 409, "NB-15")  # no action left


def test_a_dying_attacker_rolls_a_str_save_first_nb_21(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client)
    e.start()
    e.damage(e.hero, 24)
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe"}
    state = e.ok("attacks", body, e.t.player)
    out = state["outcome"]
    save = e.t.get(f"/v1/rolls/{out['dying_save']['roll_id']}")
    assert save["check"] == "save" and save["request"]["stat"] == "STR"
    assert save["request"]["modifier"] == 2 and save["request"]["dc"] == 10
    success = _kept(save, "save")[0] + 2 >= 10
    assert out["dying_save"]["success"] is success
    assert out["dying_save"]["wounds"] == e.nimble(e.hero)["wounds"] == (1 if success else 2)
    # the attack goes on either way (NB-21 costs a Wound, not the attack)
    assert out["attacked"] is True and state["roll"]["check"] == "attack"
    damage, _, _ = _attack_damage(state["roll"], 2, 12, armor=1)
    assert out["damage"] == damage and e.hp(e.goblin) == 40 - damage
    assert state["actions"][e.hero] == 0
    assert (
        state["roll"]["proof"]["sequence"] == save["proof"]["sequence"] + 1
    )  # the save first, then the attack


def test_a_dying_attacker_killed_by_its_save_does_not_attack_nb_21_nb_22(client) -> None:  # type: ignore[no-untyped-def]
    for _ in range(20):  # STR -5: the save fails on a natural 1..14 (70%; 12 tries: 5e-7)
        e = Enc(client, {"max_wounds": 2}, {"stats": {"STR": -5, "DEX": 1, "INT": 0, "WIL": 0}})
        e.start()
        e.damage(e.hero, 24)  # 1 Wound of 2
        body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe"}
        state = e.ok("attacks", body, e.t.player)
        out = state["outcome"]
        save = e.t.get(f"/v1/rolls/{out['dying_save']['roll_id']}")
        success = _kept(save, "save")[0] - 5 >= 10
        assert out["dying_save"]["success"] is success
        if success:
            assert out["attacked"] is True
            continue
        assert out["dying_save"]["dead"] is True and out["attacked"] is False
        assert state["roll"]["check"] == "save" and out["hit"] is None
        assert e.hp(e.goblin) == 40 and e.nimble(e.hero)["status"] == "dead"
        assert state["actions"][e.hero] == 0
        e.refused("actions", {"character_id": e.hero, "action": "Crawl"}, e.t.player, 409, "NB-22")
        state = e.end_turn(e.hero, e.t.player)
        assert state["actions"][e.hero] == 0  # the dead get no actions back
        break
    else:
        raise AssertionError("the save never failed in 20 tries")


def test_a_miss_against_the_rider_hits_the_mount_nb_24(client) -> None:  # type: ignore[no-untyped-def]
    e = Enc(client, hero_sheet={"max_hp": 999})
    e.start(monsters_first=True)
    grab = {"scene_id": e.scene, "target_id": e.goblin, "size": "larger"}
    attack = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "hold": False}
    missed = None
    for _ in range(6):  # rounds: a claw misses 11 times in 36, so 24 claws all hit 1 run in 6000
        for _ in range(8):  # each with the rider's step of disadvantage (NB-24), none hasty
            for _ in range(20):
                if "mounted" in e.nimble(e.hero)["conditions"]:
                    break
                e.t.post(f"/v1/characters/{e.hero}/nimble/grapples", grab)
            else:
                raise AssertionError("the grapple never held")
            goblin_hp, hero_hp = e.hp(e.goblin), e.hp(e.hero)
            state = e.ok("attacks", attack)
            out = state["outcome"]
            assert out["miss_hits_attacker"] is True and out["hasty_steps"] == 0  # NB-10: heroes
            if out["miss"]:
                missed = out
                rolled = sum(_kept(state["roll"]))
                assert out["self_hit"]["damage"] == rolled  # Claw 1d6+0
                assert e.hp(e.goblin) == goblin_hp - rolled and e.hp(e.hero) == hero_hp
                break
            assert out["self_hit"] is None and e.hp(e.goblin) == goblin_hp
        if missed:
            break
        e.next_round()
        e.end_turn(e.hero, e.t.player)
        e.end_turn(e.ally, e.t.other_player)
    assert missed is not None


def test_a_monster_s_armor_comes_off_every_hit_but_a_crit_nb_16(client) -> None:  # type: ignore[no-untyped-def]
    """NB-16 (sheet: a monster's Armor is "damage removed from each hit"): every hit on an Armor 3
    ogre loses 3 damage (never below 0) unless it crits; the Armor is in the roll's request, so the
    record recomputes offline. A hero's Armor counts only when it Defends."""
    e = Enc(client)
    chars = f"/v1/campaigns/{e.t.campaign_id}/characters"
    ogre_sheet = {
        "kind": "monster",
        "hp": 300,
        "armor": 3,
        "attacks": [{"name": "Fist", "dice": "1d4"}],
    }
    ogre = str(e.t.post(chars, {"name": "Ogre", "side": "opponent", "sheet": ogre_sheet})["id"])
    e.ok("encounter", {"order": [e.hero, e.ally, ogre], "party": "three_actions"})
    hp, rolls = 300, []
    for who, token in ((e.hero, e.t.player), (e.ally, e.t.other_player)):
        for _ in range(3):
            body = {"attacker_id": who, "target_id": ogre, "attack": "Greataxe"}
            state = e.ok("attacks", body, token)
            roll, out = state["roll"], state["outcome"]
            assert roll["request"]["armor"] == 3
            damage, miss, crit = _attack_damage(roll, 2, 12, armor=3)  # Greataxe 1d12+2
            assert (out["damage"], out["miss"], out["critical"]) == (damage, miss, crit)
            assert out["armor"] == roll["result"]["armor"] == (0 if miss or crit else 3)
            assert out["rolled_damage"] == roll["result"]["total"]
            hp -= damage
            assert e.hp(ogre) == hp
            rolls.append(roll)
        e.end_turn(who, token)
    # The ogre hits a hero that does not Defend: no Armor in the request (the hero's is 3).
    state = e.ok("attacks", {"attacker_id": ogre, "target_id": e.hero, "attack": "Fist"})
    assert state["roll"]["request"]["armor"] == 0
    assert state["outcome"]["damage"] == _attack_damage(state["roll"], 0, 4)[0]
    rolls.append(state["roll"])
    e.t.post(f"/v1/scenes/{e.scene}/close", status=200)  # a running encounter ends with it
    assert e.state()["status"] == "ended"
    for roll in rolls:
        verified = e.t.get(f"/v1/rolls/{roll['id']}/verification")
        assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_attacks_on_a_hidden_creature_have_disadvantage_nb_26(client) -> None:  # type: ignore[no-untyped-def]
    """NB-26 (and the source under NB-17: "the attack on a hidden hero has disadvantage, as
    usual"): hidden in partial cover, the hero is attacked with two steps of disadvantage, its
    cover's and its hiding's (ruling: each source one step); the attacker rolls 3d6, keeps the
    lowest. Being attacked does not end hiding; attacking does."""
    e = Enc(client)
    e.start()
    cover = f"/v1/characters/{e.hero}/nimble"
    e.t.post(f"{cover}/cover", {"scene_id": e.scene, "level": "full"}, e.t.player, 200)
    e.t.post(f"{cover}/hide", {"scene_id": e.scene}, e.t.player, 201)  # automatic in full cover
    e.t.post(f"{cover}/cover", {"scene_id": e.scene, "level": "partial"}, e.t.player, 200)
    e.end_turn(e.hero, e.t.player)
    e.end_turn(e.ally, e.t.other_player)
    claw = {"attacker_id": e.goblin, "target_id": e.hero, "attack": "Claw", "hold": False}
    state = e.ok("attacks", claw)
    roll = state["roll"]
    assert (roll["request"]["advantage"], roll["request"]["disadvantage"]) == (0, 2)
    attack_dice = [f["face"] for f in roll["faces"] if f["label"] == "attack" and f["index"] < 3]
    assert len(attack_dice) == 3 and _kept(roll)[0] == min(attack_dice)
    damage, miss, _ = _attack_damage(roll, 0, 6)  # Claw 1d6, no Defend: no Armor
    assert state["outcome"]["damage"] == damage and state["outcome"]["miss"] == miss
    assert "hidden" in e.nimble(e.hero)["conditions"]
    # the ally (not hidden, no cover) is attacked with no disadvantage
    state = e.ok("attacks", claw | {"target_id": e.ally})
    assert state["roll"]["request"]["disadvantage"] == 0
