"""A scripted Nimble encounter through the API (work issue #7), on SQLite and PostgreSQL.

Initiative with one surprised hero (NB-1, NB-2); Assess finds a weakness (NB-14) and a shifted d2
crits for certain, a critical chain (NB-9); a hasty attack (NB-10); a monster's crit-born
Concentration save (NB-25); Defend and Interpose together (NB-15..17); a hero dropping to 0 HP and
taking Wounds while Dying (NB-20, NB-21); a Dying hero's 1 action and its STR save to attack
(NB-21); a grapple and the advantage it gives (NB-24); the encounter's end (NB-4) and a Safe Rest
(NB-22). Work issue #15 adds: the goblins' claws are never hasty (NB-10 is a hero rule); a hit
on a hero waits for its reactions by default and Defend against a crit is refused (NB-15, NB-16);
a rat pack shrinks with its pooled HP and bites once per rat left (NB-4 ruling); cover and
hiding out of turn are refused and hiding costs an action (NB-15, NB-26).
The sheets make the outcomes the story needs certain (Might 20, STR 20, Initiative +20);
every roll the dice decide is checked by hand against its recorded faces.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.support import Table, bearer, verified_export
from tests.client import TestClient

STATS = {"STR": 20, "DEX": 1, "INT": 0, "WIL": 0}
NOVA = {
    "kind": "hero",
    "stats": STATS,
    "skills": {"Might": 20, "Finesse": 1, "Stealth": 0},
    "max_hp": 30,
    "armor": 3,
    "speed": 6,
    "initiative_bonus": 20,  # 1d20 + 20 >= 20: always 3 actions (NB-1)
    "attacks": [{"name": "Needle", "dice": "1d2"}, {"name": "Greataxe", "dice": "1d12+2"}],
    "mana": 3,
    "spells": [{"name": "Ward", "tier": 1, "upcast": 1}],  # NB-12: the tier is the sheet's
}
ROOK = NOVA | {"max_hp": 40, "initiative_bonus": 0}
GOBLINS = {
    "kind": "monster",
    "hp": 200,
    "armor": 0,
    "attacks": [
        {"name": "Claw", "dice": "1d6"},
        {"name": "Crush", "dice": "40", "primary_die": False},  # fixed damage: no miss, no crit
    ],
}

RATS = {"kind": "monster", "count": 4, "hp": 3, "attacks": [{"name": "Bite", "dice": "1d4"}]}


def kept(roll: dict[str, Any], label: str | None = None) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["kept"] and label in (None, f["label"])]


def by_hand(
    roll: dict[str, Any], sides: int, modifier: int, shift: int = 0, armor: int = 0
) -> dict[str, Any]:
    """NB-9/NB-11/NB-14/NB-16 by hand for a one-die attack: the kept Primary die (shifted for
    missing and critting), the crit chain (the Primary die again, and again on each real
    maximum), and the Armor off a hit that is not a crit."""
    faces = kept(roll)
    lead, chain = faces[0], faces[1:]
    counted = lead + shift
    miss, critical = counted <= 1, counted >= sides
    if critical:
        assert chain and all(f == sides for f in chain[:-1]) and chain[-1] != sides
    else:
        assert chain == []
    rolled = 0 if miss else max(0, sum(faces) + modifier)
    damage = rolled if miss or critical else max(0, rolled - armor)
    result = roll["result"]
    assert (result["miss"], result["critical"], result["damage"]) == (miss, critical, damage)
    assert result["total"] == rolled and roll["request"]["armor"] == armor
    assert result["crit_dice"] == len(chain)
    return {"damage": damage, "miss": miss, "critical": critical, "lead": lead, "chain": chain}


class Story:
    def __init__(self, client: TestClient) -> None:
        self.t = Table(client, "nimble")
        self.scene = self.t.scene()
        self.nova = self.make("Nova", "hero", NOVA, self.t.player)
        self.rook = self.make("Rook", "hero", ROOK, self.t.other_player)
        self.goblins = self.make("Goblins", "opponent", GOBLINS)

    def make(self, name: str, side: str, sheet: Any, owner: str | None = None) -> str:
        body = {"name": name, "side": side, "sheet": sheet}
        if owner is not None:
            body["owner_member_id"] = self.t.member_id(owner)
        return str(self.t.post(f"/v1/campaigns/{self.t.campaign_id}/characters", body)["id"])

    def enc(self, what: str, body: Any = None, token: str | None = None, status: int = 201) -> Any:
        response = self.t.client.post(
            f"/v1/scenes/{self.scene}/nimble/{what}", json=body, headers=bearer(token or self.t.gm)
        )
        assert response.status_code == status, response.text
        return response.json()

    def health(self, who: str, verb: str, body: Any = None, status: int = 200) -> Any:
        return self.t.post(f"/v1/characters/{who}/nimble/{verb}", body, status=status)

    def attack(
        self, attacker: str, target: str, attack: str, token: str | None = None, **more: Any
    ) -> Any:
        self.roll_saves_due(attacker)
        body = {"attacker_id": attacker, "target_id": target, "attack": attack} | more
        return self.enc("attacks", body, token)

    def roll_saves_due(self, who: str) -> None:
        """A crit on a concentrating creature calls for its save before it acts again (NB-25); the
        dice decide whether an attack crit, so the GM rolls any save due first."""
        concentration = self.view(who)["concentration"]
        while concentration is not None and concentration["saves_due"] > 0:
            self.health(who, "concentration/save", {"scene_id": self.scene}, status=201)
            concentration = self.view(who)["concentration"]

    def end_turn(self, who: str, token: str | None = None) -> Any:
        return self.enc("turns/end", {"character_id": who}, token, 200)

    def view(self, who: str) -> dict[str, Any]:
        return self.t.get(f"/v1/characters/{who}/nimble")["nimble"]  # type: ignore[no-any-return]

    def roll(self, roll_id: str) -> dict[str, Any]:
        return self.t.get(f"/v1/rolls/{roll_id}")  # type: ignore[no-any-return]


# A journey its work issue asked to see on both backends (docs/testing.md).
@pytest.mark.store
def test_a_scripted_nimble_encounter_nb_1_to_nb_25(client: TestClient) -> None:
    s = Story(client)
    t = s.t
    goblin_hp = 200

    # The goblin shaman concentrates on a shield (NB-25), set by the GM before the fight: once
    # the encounter runs, an effect is begun only on the creature's own turn.
    s.health(s.goblins, "concentration", {"scene_id": s.scene, "effect": "Dark shield"})

    # ---- Round 1. NB-1/NB-2: Initiative; Rook is surprised and rolls with disadvantage. ------
    state = s.enc(
        "encounter",
        {"order": [s.nova, s.rook, s.goblins], "surprised": {s.rook: "disadvantage"}},
    )
    nova_init = s.roll(state["initiative"][s.nova]["roll_id"])
    assert nova_init["request"]["disadvantage"] == 0
    assert kept(nova_init)[0] + 20 >= 20 and state["actions"][s.nova] == 3
    rook_init = s.roll(state["initiative"][s.rook]["roll_id"])
    assert rook_init["request"]["disadvantage"] == 1
    faces = [f["face"] for f in rook_init["faces"] if f["label"] == rook_init["faces"][0]["label"]]
    assert len(faces) == 2 and kept(rook_init) == [min(faces)]  # disadvantage keeps the lowest
    natural = min(faces)  # Initiative bonus 0
    rook_actions = 3 if natural == 20 else 2 if natural >= 10 else 1
    assert state["actions"][s.rook] == rook_actions
    assert s.goblins not in state["actions"] and state["turn_of"] == s.nova

    # NB-14: Nova Assesses with Might (20): a certain success; a weakness of the goblins found.
    body = {"character_id": s.nova, "skill": "Might", "option": "find_weakness"}
    state = s.enc("assessments", body | {"target_id": s.goblins}, t.player)
    assess = state["outcome"]["assess"]
    assert assess["success"] and assess["total"] == assess["natural"] + 20
    assert state["actions"][s.nova] == 2 and state["weakness"][s.goblins][0]["by"] == s.nova
    s.enc("assessments", body | {"target_id": s.goblins}, t.player, 409)  # once per skill

    # NB-9/NB-14: the Needle (1d2) against a found weakness counts one face higher: it crits for
    # certain, and the crit chain rolls the d2 again, and again on every 2.
    state = s.attack(s.nova, s.goblins, "Needle", t.player)
    out = state["outcome"]
    assert state["roll"]["request"]["primary_shift"] == 1
    assert state["roll"]["request"]["attack_number"] == 1
    needle = by_hand(state["roll"], 2, 0, shift=1)
    assert needle["critical"] and out["critical"] and out["damage"] == needle["damage"]
    # a natural crit (a 2) does not use the weakness up: it carries over (NB-14)
    assert out["weakness_used"] is (needle["lead"] == 1)
    goblin_hp -= needle["damage"]
    assert out["hit"]["hp"] == goblin_hp
    assert out["hit"]["concentration"] == "save_needed"  # a crit on a concentrating creature
    saved = s.health(s.goblins, "concentration/save", {"scene_id": s.scene}, status=201)
    kept_it = kept(saved["roll"])[0] + 0 >= 10  # a monster's STR save: +0, DC 10
    assert saved["outcome"]["kept"] is kept_it
    assert (s.view(s.goblins)["concentration"] is not None) is kept_it

    # NB-10: the second attack of the turn is hasty: one step of disadvantage (2d12, keep lowest).
    state = s.attack(s.nova, s.goblins, "Greataxe", t.player)
    request, out = state["roll"]["request"], state["outcome"]
    assert (request["attack_number"], request["disadvantage"], out["hasty_steps"]) == (2, 0, 1)
    assert state["roll"]["result"]["edge"] == -1  # the hasty step, from attack_number
    shift = 0 if needle["lead"] == 1 else 1  # the weakness waited for this attack
    assert request["primary_shift"] == shift
    drawn = [f["face"] for f in state["roll"]["faces"] if f["index"] < 2 and f["label"] == "attack"]
    assert kept(state["roll"])[0] == min(drawn)
    axe = by_hand(state["roll"], 12, 2, shift=shift)
    goblin_hp -= axe["damage"]
    assert t.get(f"/v1/characters/{s.goblins}")["resources"]["hp"]["current"] == goblin_hp
    assert state["actions"][s.nova] == 0
    s.enc("actions", {"character_id": s.nova, "action": "Search"}, t.player, 409)  # NB-7
    state = s.end_turn(s.nova, t.player)
    assert state["actions"][s.nova] == 3  # NB-7: all 3 back at the end of its own turn

    state = s.end_turn(s.rook, t.other_player)
    assert state["actions"][s.rook] == 3 and state["turn_of"] == s.goblins

    # NB-15..NB-17: the goblins claw at Nova and the GM holds the roll for the reactions; a miss
    # is never held (nothing to react to), so the goblins claw again until one hits.
    rook_hp = 40
    for _ in range(12):  # NB-10 is a hero rule: a monster group's claws are never hasty
        # NB-15: a hit on a hero waits for its side's reactions by default (no `hold` sent)
        state = s.attack(s.goblins, s.nova, "Claw")
        assert (
            state["roll"]["request"]["attack_number"] == 1 and state["outcome"]["hasty_steps"] == 0
        )
        claw = by_hand(state["roll"], 6, 0)  # no Armor in the roll: no one Defends yet
        if claw["critical"]:  # NB-16: Defend against a crit seen is refused, not wasted
            resolve = f"attacks/{state['roll']['id']}/resolve"
            s.enc(resolve, {"defend": True}, t.player, 409)
            landed = s.enc(resolve, {}, t.player, 200)  # it lands on Nova; the goblins claw again
            # The GM heals it back (NB-20), so that the dice cannot take Nova's 3 actions before
            # the script means to (NB-21).
            healed = {"amount": landed["outcome"]["damage"], "reason": "the story's dice"}
            if healed["amount"]:
                s.health(s.nova, "heal", healed)
            continue
        if not claw["miss"]:
            break
        assert state["pending"] is None and state["outcome"]["pending"] is False
    else:
        raise AssertionError("twelve claws in a row missed or crit")
    assert state["pending"]["damage"] == claw["damage"] and state["outcome"]["hit"] is None
    # Seeing the roll, Rook Interposes and Defends (2 of its actions; Rook's player answers).
    resolve = f"attacks/{state['roll']['id']}/resolve"
    state = s.enc(resolve, {"defend": True, "interpose_by": s.rook}, t.other_player, 200)
    out = state["outcome"]
    assert out["target_id"] == s.rook and out["interposed_by"] == s.rook and out["defended"]
    expected = max(0, claw["damage"] - 3)  # Armor 3 (a plain hit)
    assert out["damage"] == expected and out["defend_armor"] == 3
    rook_hp -= expected
    assert t.get(f"/v1/characters/{s.rook}")["resources"]["hp"]["current"] == rook_hp
    assert state["actions"][s.rook] == 1 and state["actions"][s.nova] == 3
    again = {"defend": True, "interpose_by": s.rook}
    s.enc(
        "attacks",
        {"attacker_id": s.goblins, "target_id": s.nova, "attack": "Claw"} | again,
        None,
        409,
    )

    # NB-20: Crush (a fixed 40) drops Nova from 30 to 0 HP: 1 Wound and Dying, 1 action at most.
    state = s.attack(s.goblins, s.nova, "Crush", hold=False)
    hit = state["outcome"]["hit"]
    assert (hit["damage"], hit["hp"], hit["wounds_taken"], hit["wounds"]) == (40, 0, 1, 1)
    assert hit["status"] == "dying" and state["actions"][s.nova] == 1  # NB-21
    # NB-21: damage while Dying: 2 Wounds (not a crit).
    state = s.attack(s.goblins, s.nova, "Crush", hold=False)
    hit = state["outcome"]["hit"]
    assert (hit["wounds_taken"], hit["wounds"], hit["status"]) == (2, 3, "dying")
    state = s.end_turn(s.goblins)
    assert state["turn_of"] is None
    t.post(f"/v1/scenes/{s.scene}/pages", status=200)

    # ---- Round 2. NB-21: Dying Nova has 1 action; attacking, she first makes a STR save. ----
    state = t.get(f"/v1/scenes/{s.scene}/nimble/encounter")
    assert state["round"] == 2 and state["turn_of"] == s.nova and state["weakness"] == {}
    state = s.attack(s.nova, s.goblins, "Greataxe", t.player)
    out = state["outcome"]
    save = s.roll(out["dying_save"]["roll_id"])
    assert save["request"]["modifier"] == 20 and kept(save, "save")[0] + 20 >= 10
    assert out["dying_save"]["success"] and out["dying_save"]["wounds_taken"] == 0
    assert out["attacked"] and state["roll"]["request"]["primary_shift"] == 0
    axe = by_hand(state["roll"], 12, 2)
    goblin_hp -= axe["damage"]
    assert state["actions"][s.nova] == 0 and s.view(s.nova)["wounds"] == 3
    s.enc("moves", {"character_id": s.nova, "squares": 1}, t.player, 409)  # no 2nd action
    state = s.end_turn(s.nova, t.player)
    assert state["actions"][s.nova] == 1  # NB-21: 1 back while Dying

    # NB-24: Rook (1 action left after its reactions) grapples the goblins: Might 20, certain.
    # A grapple is an action and an attack (NB-10: it counts for hasty attacks).
    grab = {"grappler_id": s.rook, "target_id": s.goblins, "size": "same", "skill": "Might"}
    grabbed = s.enc("grapples", grab, t.other_player)
    check = grabbed["outcome"]["check"]
    assert grabbed["outcome"]["grappled"] and check["total"] == kept(grabbed["roll"])[0] + 20
    assert grabbed["actions"][s.rook] == 0 and grabbed["attacks"][s.rook] == 1
    s.enc("grapples", grab, t.other_player, 409)  # NB-7: no action left
    s.end_turn(s.rook, t.other_player)

    # NB-24: attacks against either creature of a grapple have advantage.
    state = s.attack(s.goblins, s.rook, "Claw", hold=False)
    assert state["roll"]["request"]["advantage"] == 1
    two = [f["face"] for f in state["roll"]["faces"] if f["index"] < 2 and f["label"] == "attack"]
    assert kept(state["roll"])[0] == max(two)  # advantage keeps the highest
    claw = by_hand(state["roll"], 6, 0)
    rook_hp -= claw["damage"]
    assert t.get(f"/v1/characters/{s.rook}")["resources"]["hp"]["current"] == rook_hp
    conditions = s.view(s.rook)["conditions"]
    assert ("grappling" in conditions) is not claw["critical"]  # a crit ends the grapple
    s.end_turn(s.goblins)

    # ---- NB-4: the encounter ends; NB-22: a Safe Rest heals 1 Wound and restores HP. --------
    ended = s.enc("encounter/end", None, None, 200)
    assert ended["status"] == "ended" and ended["assessed"] == {}
    rested = s.health(s.nova, "safe-rest")["outcome"]
    assert rested["wounds_healed"] == 1 and rested["wounds"] == 2
    assert rested["hp"] == 30 and rested["status"] == "active"
    assert t.get(f"/v1/characters/{s.goblins}")["resources"]["hp"]["current"] == goblin_hp

    # ---- Work issue #15: a rat pack shrinks with its pooled HP; turns and actions hold. -------
    rats = s.make("Rats", "opponent", RATS)
    s.enc("encounter", {"order": [s.nova, s.rook, rats], "party": "three_actions"})
    hit = s.health(rats, "damage", {"scene_id": s.scene, "amount": 9})["outcome"]
    assert hit["hp"] == 3 and hit["members"] == {"count": 4, "left": 1}  # 1 rat of 3 HP left
    assert s.view(rats)["members"] == {"count": 4, "left": 1}
    cover = {"scene_id": s.scene, "level": "full"}
    refused = s.health(s.rook, "cover", cover, status=409)["error"]  # on Nova's turn
    assert (refused["code"], refused["rule"]) == ("not_your_turn", "NB-15")
    # NB-12: a spell's mana is the sheet's tier; the player only chooses extra mana (upcast 1)
    ward = {"character_id": s.nova, "action": "Ward"}
    error = s.enc("actions", ward | {"mana": 1}, t.player, 422)["error"]  # no spell named
    assert (error["field"], error["rule"]) == ("mana", "NB-12")
    cast = s.enc("actions", ward | {"spell": "Ward", "extra_mana": 1}, t.player)["outcome"]
    assert (cast["spell_tier"], cast["extra_mana"], cast["mana"]) == (1, 1, 2)
    assert t.get(f"/v1/characters/{s.nova}")["resources"]["mana"]["current"] == 1
    s.end_turn(s.nova, t.player)
    s.health(s.rook, "cover", cover)
    hid = s.health(s.rook, "hide", {"scene_id": s.scene}, status=201)
    assert hid["outcome"]["automatic"]
    state = t.get(f"/v1/scenes/{s.scene}/nimble/encounter")
    assert state["actions"][s.rook] == 2  # NB-26: hiding is an action
    s.end_turn(s.rook, t.other_player)
    bite = s.attack(rats, s.nova, "Bite", hold=False)
    assert bite["outcome"]["hasty_steps"] == 0
    again = {"attacker_id": rats, "target_id": s.nova, "attack": "Bite", "hold": False}
    error = s.enc("attacks", again, None, 409)["error"]  # the one rat left has bitten
    assert (error["code"], error["rule"]) == ("no_members_left", "NB-4")
    s.enc("encounter/end", None, None, 200)

    # The whole encounter's export verifies offline (issue #13, "done when").
    assert verified_export(t, s.scene).rolls > 1
