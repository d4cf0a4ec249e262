"""A scripted We Can Be Heroes story through the API (work issue #5), on SQLite and PostgreSQL.

Game Issue #1, scene 1 "Ambush at the docks": the heroes ambush the villains (WCBH-42), then fight
several pages in the order of action (Rex may not act before Nova, WCBH-22; a hero with nothing to do
passes): a special effect defeats Dr. Null (WCBH-35, 36), a knockback throws a thug (WCBH-45), a
team attack on the Brute (WCBH-47), Nova's Decisive Moment (WCBH-13, 15) and its Ability loss
(WCBH-16); effects tick with the pages and end with the scene. Scene 2 "The rooftop": a second
Decisive Moment in the story is refused, a paralysed thug neither attacks nor moves until the GM
rules what the power allows (WCBH-35, 37), a hero felled and healed by the GM is back (WCBH-31), the
GM's villainous deed (WCBH-21). Game Issue #2 starts:
Resolve and Adversity refresh (WCBH-17, WCBH-21).

Dice are fair and unpredictable, so every number is recomputed here by hand from the recorded faces
(WCBH-7: a 2 or 4 is one success, a 6 two) and the rules, never taken from the server's result alone.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from tests.api.support import Table, bearer, verified_export

SUCCESSES = {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}  # WCBH-7
# Bound for outcomes the dice decide: Rex's knockback (63% a page) and a thug left standing
# paralysed (66%) missed in 8 pages about once in 3000 and 6000 runs; in 20, about once in 10^9.
MAX_PAGES = 20


def successes(faces: list[int]) -> int:
    return sum(SUCCESSES[f] for f in faces)


def faces(roll: dict[str, Any], label: str) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["label"] == label and f["kept"]]


def sheet(table: Table, **abilities: int) -> dict[str, Any]:
    value = copy.deepcopy(table.example_sheet)
    value["abilities"].update(abilities)
    return value


class Story:
    def __init__(self, table: Table) -> None:
        self.t = table
        cid = table.campaign_id
        # Nova (Bo): the example sheet. Highest attacking trait Lightning Bolt 8, Trait Limit 10:
        # starting Resolve 2 x (10 - 8) = 4 (WCBH-17); Health max(ceil(9/2), ceil(11/2)) = 6 (WCBH-32).
        self.nova = self.make("Nova", "hero", table.example_sheet, table.player)
        # Rex (Cy): Strength 9 -> starting Resolve 2 x (10 - 9) = 2; Health max(ceil(15/2), 5) = 8.
        rex = sheet(table, Agility=4, Strength=9, Stamina=6, Perception=3, Will=4)
        rex["powers"] = {}
        self.rex = self.make("Rex", "hero", rex, table.other_player)
        # Dr. Null: Agility 1, Stamina 1 -> Health max(ceil(3/2), ceil(2/2)) = 2.
        self.null = self.make(
            "Dr. Null",
            "villain",
            sheet(table, Agility=1, Strength=2, Stamina=1, Will=1, Perception=1),
        )
        # The Brute: Health max(ceil(16/2), ceil(11/2)) = 8.
        self.brute = self.make(
            "Brute", "villain", sheet(table, Agility=2, Strength=8, Stamina=8, Will=3, Perception=2)
        )
        self.goon = self.make("Goon", "minion", {"kind": "minion", "threat": 2})
        self.story = table.post(f"/v1/campaigns/{cid}/stories", {"title": "The Null Device"})["id"]
        self.position = 0

    def make(self, name: str, side: str, value: dict[str, Any], token: str | None = None) -> str:
        body = {"name": name, "side": side, "sheet": value}
        return str(self.t.post(f"/v1/campaigns/{self.t.campaign_id}/characters", body, token)["id"])

    def thug(self, n: int) -> str:
        # Health max(ceil(20/2), ceil(20/2)) = 10.
        return self.make(
            f"Thug {n}", "villain", sheet(self.t, Agility=1, Stamina=10, Strength=10, Will=10)
        )

    def post(self, path: str, body: Any, token: str | None = None, status: int = 201) -> Any:
        response = self.t.client.post(path, json=body, headers=bearer(token or self.t.gm))
        if response.status_code == 202 and status == 201:  # a player's dice: the GM approves them
            decided = self.post(
                f"/v1/roll-requests/{response.json()['id']}/approve", {}, status=200
            )
            return self.t.get(f"/v1/rolls/{decided['result_id']}")
        assert response.status_code == status, response.text
        data = response.json()
        self.position = max(self.position, int(data.get("position") or 0))
        return data

    def refused(
        self, path: str, body: Any, status: int, rule: str, token: str | None = None
    ) -> None:
        before = self.t.position()
        response = self.t.client.post(path, json=body, headers=bearer(token or self.t.gm))
        assert response.status_code == status, response.text
        assert response.json()["error"]["rule"] == rule, response.text
        assert self.t.position() == before  # a refusal writes nothing

    def character(self, character_id: str) -> dict[str, Any]:
        return self.t.get(f"/v1/characters/{character_id}")  # type: ignore[no-any-return]

    def resolve(self, character_id: str) -> int:
        return int(self.character(character_id)["resources"]["resolve"]["current"])

    def health(self, character_id: str) -> int:
        return int(self.character(character_id)["resources"]["health"]["current"])

    def next_page(self, scene: str) -> None:
        self.post(f"/v1/scenes/{scene}/pages", None, status=200)

    def availability(self, scene: str) -> dict[str, dict[str, Any]]:
        found = self.t.get(f"/v1/scenes/{scene}/availability?min_position={self.position}")
        return {c["character_id"]: c for c in found["characters"]}


def check_attack(roll: dict[str, Any], health_before: int) -> int:
    """WCBH-28..31 by hand: damage = attack successes - defence successes, at least 0."""
    attack, defence = successes(faces(roll, "attack")), successes(faces(roll, "defence"))
    assert (roll["result"]["attack_successes"], roll["result"]["defence_successes"]) == (
        attack,
        defence,
    )
    damage = max(0, attack - defence)
    # an effect attack deals its damage too (WCBH-35: "помимо урона", besides damage)
    assert roll["result"]["damage"] == damage
    assert roll["result"]["health"] == max(0, health_before - damage)
    return damage


# A journey its work issue asked to see on both backends (docs/testing.md).
@pytest.mark.store
def test_a_scripted_story_of_two_scenes_and_two_game_issues_wcbh(table: Table) -> None:
    s = Story(table)

    # ---- game Issue #1: Resolve and Adversity start (WCBH-17, WCBH-21) ---------------------------
    issue = s.post(f"/v1/stories/{s.story}/issues", {"title": "Issue #1"})
    assert issue["pools"] == {"adversity": 2}  # two heroes
    assert (s.resolve(s.nova), s.resolve(s.rex)) == (4, 2)
    assert (s.health(s.nova), s.health(s.rex), s.health(s.null), s.health(s.brute)) == (6, 8, 2, 8)
    scene = s.post(f"/v1/issues/{issue['id']}/scenes", {"title": "Ambush at the docks"})["id"]
    fighters = [s.nova, s.rex, s.null, s.brute, s.goon]
    s.post(f"/v1/scenes/{scene}/combatants", {"character_ids": fighters}, status=200)

    # ---- the ambush (WCBH-42): Stealth as a group (WCBH-11) against each one's Perception -------
    ambush = s.post(
        f"/v1/scenes/{scene}/ambushes",
        {
            "ambushers": [{"character_id": s.nova}, {"character_id": s.rex}],
            "target_ids": [s.null, s.brute, s.goon],
        },
    )
    rolled = faces(ambush, "ambush")
    assert len(rolled) == 4 + 4  # Stealth 4 each (WCBH-7: the rank is the pool)
    own = [successes(rolled[:4]), successes(rolled[4:])]
    result = ambush["result"]
    assert [a["successes"] for a in result["ambushers"]] == own
    totals = [a["total"] for a in result["ambushers"]]
    assert sum(totals) == sum(own)  # successes above 3 are handed over, none made or lost
    assert all(t <= max(own) for t in totals) and result["worst"] == min(totals)
    perception = faces(ambush, "perception")
    assert len(perception) == 1 + 2 + 2  # Dr. Null 1, the Brute 2, the Goon's threat 2
    surprised, nets = {}, {}
    for target in result["targets"]:
        nets[target["target_id"]] = target["net"]
        assert target["net"] == result["worst"] - target["perception_successes"]
        surprised[target["target_id"]] = target["net"] >= 1
        assert target["surprised"] == surprised[target["target_id"]]
    for target_id, lost in surprised.items():
        state = table.get(f"/v1/scenes/{scene}/page-states/{target_id}")
        assert state["lost_turn"] == lost
    if surprised[s.brute]:  # a surprised villain cannot act on the first page
        body = {"attacker_id": s.brute, "target_id": s.rex, "trait": "Strength"}
        s.refused(f"/v1/scenes/{scene}/attacks", body, 409, "WCBH-42")

    # ---- the order of action is enforced (WCBH-22, 23; issue #15): Nova (Edge 9) before Rex (7) ---
    assert table.get(f"/v1/scenes/{scene}/turn")["now"] == [s.nova]
    early = {"attacker_id": s.rex, "target_id": s.brute, "trait": "Strength"}
    s.refused(f"/v1/scenes/{scene}/attacks", early, 409, "WCBH-22", table.other_player)

    # ---- pages of combat ------------------------------------------------------------------------
    # Nova's Paralysis bolt at Dr. Null (WCBH-35, 36): its damage, and besides it a page of the
    # effect per 2 net successes; at least the Health the damage left in pages defeats him for the
    # whole scene, damage to 0 defeats him by damage. Rex hits thugs until one takes 6+ damage
    # and is knocked back (WCBH-45). Each tries once a page (WCBH-25) until it happens.
    null_defeated = knocked = False
    paralysis_pages = 0
    null_health = 2
    thugs = 0
    for page in range(MAX_PAGES):
        if null_defeated:  # Nova (Edge 9) has no one to paralyse: she passes, so Rex's turn
            # comes (the order of action is enforced, WCBH-22; issue #15)
            s.post(f"/v1/scenes/{scene}/passes", {"character_id": s.nova}, table.player, 200)
        else:
            body = {
                "attacker_id": s.nova,
                "target_id": s.null,
                "trait": "Lightning Bolt",
                "effect": "Paralysed",
            }
            bolt = s.post(f"/v1/scenes/{scene}/attacks", body, table.player)
            assert len(faces(bolt, "attack")) == 8
            # Dr. Null's best defence: Agility 1 (active) against half of Stamina 1 (rounded up: 1);
            # surprised by 3+ he has no active defence on the ambush's page (WCBH-42).
            passive = page == 0 and nets[s.null] >= 3
            expected = ("Stamina", 1) if passive else ("Agility", 1)
            assert (bolt["result"]["defence"], bolt["result"]["defence_rank"]) == expected
            null_health = max(0, null_health - check_attack(bolt, null_health))
            net = bolt["result"]["net"]
            pages = math.ceil(net / 2) if net > 0 else 0  # WCBH-35
            total = paralysis_pages + pages  # durations add up to what is left (WCBH-35)
            if pages:
                assert bolt["result"]["effect_pages"] == total
                paralysis_pages = total
            by_damage = null_health == 0  # WCBH-31 (then WCBH-36 is not what defeated him)
            by_effect = not by_damage and paralysis_pages >= null_health  # WCBH-36
            null_defeated = by_damage or by_effect
            assert bolt["result"]["defeated"] == null_defeated
            assert bolt["result"].get("whole_scene", False) == by_effect
            assert s.character(s.null)["status"] == ("defeated" if null_defeated else "active")
            assert s.health(s.null) == null_health
        if not knocked:
            thugs += 1
            thug = s.thug(thugs)
            s.post(f"/v1/scenes/{scene}/combatants", {"character_ids": [thug]}, status=200)
            body = {"attacker_id": s.rex, "target_id": thug, "trait": "Strength", "weapon": 6}
            hit = s.post(f"/v1/scenes/{scene}/attacks", body, table.other_player)
            assert len(faces(hit, "attack")) == 9 + 6  # Strength 9 + weapon 6 (WCBH-28)
            damage = check_attack(hit, 10)
            if damage >= 6:
                knock = s.post(
                    f"/v1/rolls/{hit['id']}/knockback",
                    {"hits_object": "sturdier"},
                    table.other_player,
                    status=200,
                )
                extra = math.ceil(damage / 2)  # hitting an object: half the damage again
                details = knock["details"]
                assert (
                    details["distance"] == "far"
                )  # thrown as by Strength 9: 7-12 is Far (WCBH-26)
                assert details["extra_damage"] == extra
                assert details["health"] == max(0, 10 - damage - extra)
                assert s.health(thug) == details["health"]
                assert s.resolve(s.rex) == 2 - 1
                knocked = True
                knocked_thug, knocked_health = thug, details["health"]
                page_now = table.get(f"/v1/scenes/{scene}")["page"]
                assert details["loses_turn_on_page"] == page_now + 1
            else:
                s.refused(
                    f"/v1/rolls/{hit['id']}/knockback", {}, 409, "WCBH-45", table.other_player
                )
        if null_defeated and knocked:
            break
        s.next_page(scene)
        paralysis_pages = max(0, paralysis_pages - 1)  # a page passes (WCBH-35)
    assert null_defeated and knocked, f"the dice of {MAX_PAGES} pages never came through"
    if by_effect:  # to the end of the scene; after a defeat by damage its pages may run out
        assert s.character(s.null)["conditions"][0]["whole_scene"]

    # The next page: the thug thrown back loses its turn (WCBH-45); the team attack (WCBH-47).
    s.next_page(scene)
    if knocked_health > 0 and table.get(f"/v1/scenes/{scene}")["page"] == page_now + 1:
        body = {"attacker_id": knocked_thug, "target_id": s.rex, "trait": "Strength"}
        s.refused(f"/v1/scenes/{scene}/attacks", body, 409, "WCBH-45")
    team = s.post(
        f"/v1/scenes/{scene}/team-attacks",
        {
            "target_id": s.brute,
            "attackers": [
                {"attacker_id": s.nova, "trait": "Lightning Bolt"},
                {"attacker_id": s.rex, "trait": "Strength"},
            ],
        },
    )
    first, second = team["rolls"]
    assert len(faces(first, "attack")) == 8 + 2  # +2 dice each (WCBH-47)
    assert len(faces(second, "attack")) == 9 + 2
    brute = 8
    for roll in (first, second):
        assert roll["request"]["target_health"] == brute
        brute = max(0, brute - check_attack(roll, brute))
    assert s.health(s.brute) == brute
    seen = s.availability(scene)
    for hero in (s.nova, s.rex):
        assert not seen[hero]["scene"]["team_attack"]["available"]  # once per battle (WCBH-47)
    s.next_page(scene)
    again = [
        {"attacker_id": s.nova, "trait": "Lightning Bolt"},
        {"attacker_id": s.rex, "trait": "Strength"},
    ]
    s.refused(
        f"/v1/scenes/{scene}/team-attacks",
        {"target_id": s.goon, "attackers": again},
        409,
        "WCBH-47",
    )

    # ---- Nova's Decisive Moment (WCBH-13, 15, 16) -------------------------------------------------
    moment = s.post(
        f"/v1/scenes/{scene}/rolls",
        {
            "check": "trait",
            "character_id": s.nova,
            "request": {
                "trait": "Agility",
                "difficulty": 3,
                "resolve": 1,
                "decisive_moment": True,
                "effort": "physical",
                "purpose": "catch the falling Null Device",
            },
        },
        table.player,
    )
    by_label = {
        label: [f for f in moment["faces"] if f["label"] == label] for label in ("trait", "resolve")
    }
    for label, first_dice in (("trait", 5), ("resolve", 3)):  # Agility 5; 1 Resolve = 3 dice
        dice = by_label[label]
        originals = [f for f in dice if f["exploded_from"] is None]
        assert len(originals) == first_dice
        assert len(dice) - len(originals) == sum(
            1 for f in dice if f["face"] == 6
        )  # every 6 explodes
    got = successes([f["face"] for f in by_label["trait"] + by_label["resolve"]])
    assert moment["result"]["successes"] == got and moment["result"]["net"] == got - 3
    assert s.resolve(s.nova) == 4 - 1
    s.refused(  # one hero's Decisive Moment per scene (WCBH-15)
        f"/v1/scenes/{scene}/rolls",
        {
            "check": "trait",
            "character_id": s.rex,
            "request": {"trait": "Strength", "decisive_moment": True, "effort": "physical"},
        },
        409,
        "WCBH-15",
        table.other_player,
    )
    nova = s.character(s.nova)
    assert list(nova["owed_ability_losses"]) == [moment["id"]]
    assert nova["derived"]["edge"] == 4 + 5  # Perception + max(Agility, Intelligence) (WCBH-23)
    lowered = s.post(
        f"/v1/characters/{s.nova}/ability-losses",
        {"roll_id": moment["id"], "ability": "Agility"},
        table.player,
        status=200,
    )
    assert lowered["sheet"]["abilities"]["Agility"] == 4
    assert s.character(s.nova)["derived"]["edge"] == 4 + 4
    s.refused(
        f"/v1/characters/{s.nova}/ability-losses",
        {"roll_id": moment["id"], "ability": "Strength"},
        409,
        "WCBH-16",
        table.player,
    )

    # ---- the scene ends: effects end with it (WCBH-36) ---------------------------------------------
    s.post(f"/v1/scenes/{scene}/close", None, status=200)
    null = s.character(s.null)
    # defeated by the effect he is back; by damage he stays down at 0 Health (WCBH-31, 36)
    assert null["conditions"] == [] and null["resources"]["health"]["current"] == null_health
    assert null["status"] == ("active" if by_effect else "defeated")

    # ---- scene 2: no second Decisive Moment in the story; the villainous deed (WCBH-15, 21) ------
    rooftop = s.post(f"/v1/issues/{issue['id']}/scenes", {"title": "The rooftop"})["id"]
    s.refused(
        f"/v1/scenes/{rooftop}/rolls",
        {
            "check": "trait",
            "character_id": s.nova,
            "request": {"trait": "Will", "decisive_moment": True, "effort": "mental"},
        },
        409,
        "WCBH-15",
        table.player,
    )
    seen = s.availability(rooftop)
    assert not seen[s.nova]["story"]["decisive_moment"]["available"]
    assert seen[s.rex]["story"]["decisive_moment"]["available"]
    assert seen[s.nova]["issue"] == {"resolve": 3, "starting_resolve": 4}
    # A paralysed thug is not free (WCBH-35, 37; issue #15): no attack, no move, until the GM rules
    # what the power allows (recorded).
    # The bolt deals its damage besides the effect (WCBH-35), so a strong one can defeat the thug
    # outright or through the effect (WCBH-36): a new thug for each try until one stands paralysed.
    for n in range(MAX_PAGES):
        thug = s.thug(100 + n)  # Health 10
        bolt = {"attacker_id": s.nova, "target_id": thug, "trait": "Lightning Bolt"}
        bolt = s.post(
            f"/v1/scenes/{rooftop}/attacks", {**bolt, "effect": "Paralysed"}, table.player
        )
        if bolt["result"]["effect_pages"] and s.character(thug)["status"] == "active":
            break
        s.next_page(rooftop)
    assert bolt["result"]["effect_pages"], f"{MAX_PAGES} bolts and no paralysis"
    assert s.character(thug)["status"] == "active", f"{MAX_PAGES} bolts and no thug left standing"
    swing = {"attacker_id": thug, "target_id": s.nova, "trait": "Strength"}
    s.refused(f"/v1/scenes/{rooftop}/attacks", swing, 409, "WCBH-37")
    s.refused(f"/v1/scenes/{rooftop}/moves", {"character_id": thug}, 409, "WCBH-37")
    ruling = {"character_id": thug, "effect": "Paralysed", "may_move": True, "reason": "arms only"}
    page = s.post(f"/v1/scenes/{rooftop}/effect-rulings", ruling, status=200)
    assert page["effects"][0]["may_move"] and not page["effects"][0]["may_act"]
    s.post(f"/v1/scenes/{rooftop}/moves", {"character_id": thug}, status=200)
    s.refused(f"/v1/scenes/{rooftop}/attacks", swing, 409, "WCBH-37")

    # A hero the GM fells and heals: the status follows Health (WCBH-31; issue #15).
    change = {"resource": "health", "reason": "the roof gives way"}
    s.post(f"/v1/characters/{s.rex}/resources", {**change, "change": -8}, status=200)
    assert s.character(s.rex)["status"] == "defeated"
    punch = {"attacker_id": s.rex, "target_id": s.goon, "trait": "Strength"}
    s.refused(f"/v1/scenes/{rooftop}/attacks", punch, 409, "WCBH-31", table.other_player)
    s.post(f"/v1/characters/{s.rex}/resources", {**change, "change": 3}, status=200)
    assert s.character(s.rex)["status"] == "active"  # healed above 0: back (WCBH-31)
    s.post(f"/v1/scenes/{rooftop}/attacks", punch, table.other_player)
    deed = {"villain_id": s.null, "description": "The Null Device darkens the city"}
    done = s.post(f"/v1/issues/{issue['id']}/villainous-deed", deed, status=200)
    assert done["pools"] == {"adversity": 2 - 1}
    s.refused(f"/v1/issues/{issue['id']}/villainous-deed", deed, 409, "WCBH-21")
    s.post(
        f"/v1/issues/{issue['id']}/pools",
        {"pool": "adversity", "change": 1, "reason": "Rex broke his word (unbecoming)"},
        status=200,
    )
    s.post(f"/v1/issues/{issue['id']}/end", None, status=200)

    # ---- game Issue #2: Resolve and Adversity refresh (WCBH-17, WCBH-21) -------------------------
    assert (s.resolve(s.nova), s.resolve(s.rex)) == (3, 1)
    second = s.post(f"/v1/stories/{s.story}/issues", {"title": "Issue #2"})
    assert second["pools"] == {"adversity": 2}  # back to the number of heroes
    # Nova's highest attacking trait is still Lightning Bolt 8 (the lost Agility rank does not count).
    assert (s.resolve(s.nova), s.resolve(s.rex)) == (4, 2)
    replay = table.get(f"/v1/issues/{second['id']}/replay?min_position={s.position}")["steps"]
    texts = [step["text"] for step in replay if step["type"] == "Character.ResourcesRefreshed"]
    assert "Nova: resolve 4 restored (new game issue)" in texts
    assert "Rex: resolve 2 restored (new game issue)" in texts

    # The whole story's export verifies offline (issue #13, "done when"): it never cries wolf.
    assert verified_export(table).rolls > 1


# A journey of work issue #15 (part B), on both backends as the story above: armour and who names the
# defences (WCBH-28, 29), a Resolve award and the players' Adversity (WCBH-18, 21), an effect attack's
# damage (WCBH-35), a Power's uses per game Issue (WCBH-2), the GM's ground (WCBH-26, 30) and days
# of rest (WCBH-34).
@pytest.mark.store
def test_a_scripted_fight_on_the_gms_ground_with_armour_and_limited_powers_wcbh(
    table: Table,
) -> None:
    s = Story(table)
    blaze_sheet = copy.deepcopy(table.example_sheet)
    blaze_sheet["powers"]["Missile Barrage"] = {"rank": 6, "can_attack": True, "uses_per_issue": 1}
    blaze = s.make("Blaze", "hero", blaze_sheet, table.player)  # Bo's second hero
    civic = s.make("Captain Civic", "hero", table.example_sheet)  # the GM's hero: no player
    armoured = sheet(table, Agility=2, Strength=8, Stamina=8, Will=3)
    armoured["powers"]["Iron Skin"] = {"rank": 9, "defence": "passive"}
    tank = s.make("Tank", "villain", armoured)

    # WCBH-21: two players (Bo, Cy) -> Adversity 2, whatever heroes they or the GM play
    issue = s.post(f"/v1/stories/{s.story}/issues", {"title": "Issue #1"})
    assert issue["pools"] == {"adversity": 2}
    scene = s.post(f"/v1/issues/{issue['id']}/scenes", {"title": "The foundry"})["id"]

    # WCBH-18: a Resolve award is 1
    award = {"resource": "resolve", "change": 2, "reason": "social play, twice"}
    s.refused(f"/v1/characters/{s.nova}/resources", award, 422, "WCBH-18")
    start = s.resolve(s.nova)
    s.post(f"/v1/characters/{s.nova}/resources", {**award, "change": 1}, status=200)
    assert s.resolve(s.nova) == start + 1

    # WCBH-28: the attacker names no defences of the target's; armour defends passively at full
    # rank (Iron Skin 9 over Agility 2 and half of Stamina 8), and WCBH-30: the GM's cover
    body = {"attacker_id": s.nova, "target_id": tank, "trait": "Lightning Bolt"}
    named = table.client.post(
        f"/v1/scenes/{scene}/attacks",
        json={**body, "defences": ["Agility"]},
        headers=bearer(table.player),
    )
    assert named.status_code == 403 and named.json()["error"]["field"] == "defences"
    cover = {"character_id": tank, "cover": 2, "reason": "behind the furnace"}
    s.post(f"/v1/scenes/{scene}/situations", cover, status=200)
    bolt = s.post(f"/v1/scenes/{scene}/attacks", body, table.player)
    assert {(d["name"], d["active"]) for d in bolt["request"]["defences"]} == {
        ("Stamina", False),
        ("Iron Skin", False),
        ("Agility", True),
    }
    assert (bolt["result"]["defence"], bolt["result"]["defence_rank"]) == ("Iron Skin", 9)
    assert bolt["request"]["situation"] == -2 and len(faces(bolt, "attack")) == 8 - 2
    tank_health = max(0, 8 - check_attack(bolt, 8))
    assert s.health(tank) == tank_health

    # WCBH-20b (issue #15): after seeing the roll both sides spend Resolve on it, in order: Bo buys
    # Nova a die, then the GM buys the Tank's defence one (Bo may not: the Tank is not his), and
    # the Tank's Health follows the hit decided from both sides' dice
    follow_ups = f"/v1/rolls/{bolt['id']}/follow-ups"
    more = s.post(
        follow_ups, {"follow_up": "resolve_dice", "request": {"resolve": 1}}, table.player
    )
    defence = {"follow_up": "resolve_dice", "request": {"resolve": 1, "side": "defence"}}
    denied = table.client.post(follow_ups, json=defence, headers=bearer(table.player))
    assert denied.status_code == 403 and denied.json()["error"]["field"] == "request.side"
    tank_resolve = s.resolve(tank)
    guarded = s.post(follow_ups, defence)
    assert s.resolve(tank) == tank_resolve - 1
    assert guarded["result"]["attack_successes"] == more["result"]["attack_successes"]
    bought = successes(faces(guarded, "defence_resolve"))
    assert guarded["result"]["defence_successes"] == bolt["result"]["defence_successes"] + bought
    assert s.health(tank) == guarded["result"]["health"]

    # WCBH-26: at Far range Rex cannot grab the Tank; moving in on foot takes two pages
    ranges = {"first_id": s.rex, "second_id": tank, "range": "far", "reason": "across the hall"}
    s.post(f"/v1/scenes/{scene}/ranges", ranges, status=200)
    grab = {"attacker_id": s.rex, "target_id": tank}
    s.refused(f"/v1/scenes/{scene}/grapples", grab, 409, "WCBH-26", table.other_player)
    closer = {"character_id": s.rex, "other_id": tank, "to": "close"}
    s.post(f"/v1/scenes/{scene}/range-moves", closer, table.other_player, status=200)

    ground = table.get(f"/v1/scenes/{scene}/ground?min_position={s.position}")
    key = "|".join(sorted((s.rex, tank)))
    assert ground["ranges"][key]["moving"] == {"by": s.rex, "to": "close", "since_page": 1}
    s.next_page(scene)
    s.post(f"/v1/scenes/{scene}/range-moves", closer, table.other_player, status=200)
    ground = table.get(f"/v1/scenes/{scene}/ground?min_position={s.position}")
    assert ground["ranges"][key] == {"range": "close", "moving": None}

    # WCBH-35: Dr. Null's stun bolt on Captain Civic takes Health too ("помимо урона")
    stun = {"attacker_id": s.null, "target_id": civic, "trait": "Lightning Bolt", "effect": "Stun"}
    hit = s.post(f"/v1/scenes/{scene}/attacks", stun)
    assert s.health(civic) == max(0, 6 - check_attack(hit, 6))
    assert hit["result"]["effect_pages"] == (
        math.ceil(hit["result"]["net"] / 2) if hit["result"]["net"] > 0 else 0
    )

    # WCBH-2: Missile Barrage once per game Issue; a new game Issue brings it back
    barrage = {"check": "trait", "character_id": blaze, "request": {"trait": "Missile Barrage"}}
    rolled = s.post(f"/v1/scenes/{scene}/rolls", barrage, table.player)
    assert rolled["request"]["power_use"] == "uses:Missile Barrage"
    s.refused(f"/v1/scenes/{scene}/rolls", barrage, 409, "WCBH-2", table.player)

    # WCBH-34: a recovery after the fight, another only after a day of rest the GM records
    recovery = {"character_id": blaze}
    s.post(f"/v1/scenes/{scene}/recoveries", recovery, table.player)
    s.refused(f"/v1/scenes/{scene}/recoveries", recovery, 409, "WCBH-34", table.player)
    day = {"character_ids": [blaze], "reason": "a night's sleep"}
    s.post(f"/v1/scenes/{scene}/rest-days", day, status=200)
    s.post(f"/v1/scenes/{scene}/recoveries", recovery, table.player)

    s.post(f"/v1/scenes/{scene}/close", None, status=200)
    s.post(f"/v1/issues/{issue['id']}/end", None, status=200)
    s.post(f"/v1/stories/{s.story}/issues", {"title": "Issue #2"})
    uses = s.character(blaze)["resources"]["uses:Missile Barrage"]
    assert (uses["current"], uses["max"], uses["refresh"]) == (1, 1, "issue")
    assert verified_export(table).rolls > 1
