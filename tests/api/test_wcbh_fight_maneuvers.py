"""Grappling, maneuvers, ambushes, area and team attacks in a We Can Be Heroes fight (WCBH-40..43,
WCBH-47), through the API; numbers are checked against the recorded faces."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.support import Table, bearer
from tests.api.test_attacks import make
from tests.api.test_wcbh_fight import (
    Fight,
    attack_body,
    faces,
    next_page,
    refused,
    sheet_with,
    successes,
)

BANDS = {1: -1, 2: -1, 3: -2, 4: -2}  # WCBH-41: net -> penalty (5+: -3)


# ---- WCBH-40 --------------------------------------------------------------------------------------


def test_grappling_is_strength_against_the_best_active_defence_wcbh_40(table: Table) -> None:
    fight = Fight(table)
    strong = make(table, "Atlas", "hero", sheet_with(table, Strength=10), table.player)
    for _ in range(12):
        target = fight.villain(sheet_with(table, Agility=2))
        roll = table.post(
            fight.path("grapples"), {"attacker_id": strong, "target_id": target}, table.player
        )
        result = roll["result"]
        assert len(faces(roll, "grapple")) == 10 and len(faces(roll, "defence")) == 2
        net = successes(roll, "grapple") - successes(roll, "defence")
        assert result["net"] == net
        assert result["outcome"] == ("failed" if net <= 0 else "partial" if net <= 2 else "held")
        conditions = {c["name"]: c for c in table.get(f"/v1/characters/{target}")["conditions"]}
        if result["outcome"] == "partial":
            assert conditions["grappled"]["until_page"] == roll_page(table, fight) + 1
        if result["outcome"] == "held":
            assert conditions["held"]["by"] == strong and conditions["held"]["until_page"] is None
            at = roll["position"]
            view = table.get(f"/v1/characters/{target}?at_position={at}&min_position={at}")
            assert view["conditions"] == list(conditions.values())  # the views agree
            # held: it cannot move (ruling), and it stays held until the scene ends
            refused(table, fight.path("moves"), {"character_id": target}, 409, "WCBH-40")
            next_page(table, fight.scene)
            next_page(table, fight.scene)
            assert "held" in {
                c["name"] for c in table.get(f"/v1/characters/{target}")["conditions"]
            }
            table.post(f"/v1/scenes/{fight.scene}/close", status=200)
            assert table.get(f"/v1/characters/{target}")["conditions"] == []
            return
        next_page(table, fight.scene)
    raise AssertionError("Strength 10 never held an Agility 2 in 12 grapples")


def roll_page(table: Table, fight: Fight) -> int:
    return int(table.get(f"/v1/scenes/{fight.scene}")["page"])


# ---- WCBH-41 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("maneuver", "trait", "against", "attacker_rank", "against_rank"),
    [
        ("feint", "Agility", "Agility", 8, 5),
        ("stunning_blow", "Lightning Bolt", "Stamina", 8, 5),
        ("overpower", "Strength", "Strength", 8, 4),
        ("taunt", "Charisma", "Will", 8, 6),
    ],
)
def test_each_maneuver_rolls_its_traits_and_imposes_its_band_wcbh_41(
    table: Table, maneuver: str, trait: str, against: str, attacker_rank: int, against_rank: int
) -> None:
    fight = Fight(table)
    ace = make(
        table, "Ace", "hero", sheet_with(table, Agility=8, Strength=8, Charisma=8), table.player
    )
    body: dict[str, Any] = {"attacker_id": ace, "maneuver": maneuver}
    if maneuver == "stunning_blow":
        body.update(trait=trait, against=against)
    for _ in range(20):  # dice decide: until one lands (each lands 60% of the time or more)
        target = fight.villain(table.example_sheet)
        roll = table.post(fight.path("maneuvers"), {**body, "target_id": target}, table.player)
        result = roll["result"]
        assert (result["trait"], result["against"]) == (trait, against)
        assert len(faces(roll, "maneuver")) == attacker_rank
        assert len(faces(roll, "defence")) == against_rank
        net = successes(roll, "maneuver") - successes(roll, "defence")
        assert result["net"] == net
        conditions = {c["name"]: c for c in table.get(f"/v1/characters/{target}")["conditions"]}
        if net <= 0:
            assert result["penalty"] == 0 and maneuver not in conditions
            next_page(table, fight.scene)
            continue
        assert result["penalty"] == BANDS.get(net, -3)
        assert (result["cannot_move"], result["loses_weapon"]) == (3 <= net <= 4, 3 <= net <= 4)
        assert result["halve_speed"] == (net <= 2) and result["loses_turn"] == (net >= 5)
        assert conditions[maneuver]["penalty"] == result["penalty"]
        assert conditions[maneuver]["until_page"] == roll_page(table, fight) + 1
        return
    raise AssertionError(f"no {maneuver} landed in 20 tries")


def test_a_maneuver_s_penalty_reaches_the_target_s_rolls_until_the_next_page_ends_wcbh_41(
    table: Table,
) -> None:
    fight = Fight(table)
    mocker = make(table, "Mocker", "hero", sheet_with(table, Charisma=10), table.player)
    for _ in range(15):
        target = fight.villain(sheet_with(table, Will=1, Stamina=10, Strength=10))
        roll = table.post(
            fight.path("maneuvers"),
            {"attacker_id": mocker, "target_id": target, "maneuver": "taunt"},
            table.player,
        )
        if roll["result"]["net"] >= 1:
            break
        next_page(table, fight.scene)
    else:
        raise AssertionError("Charisma 10 never taunted a Will of 1 in 15 tries")
    result = roll["result"]
    penalty = result["penalty"]
    state = fight.page_state(target)
    assert state["dice"] == {"action": penalty, "defence": penalty}
    trait = table.post(
        fight.path("rolls"),
        {"check": "trait", "character_id": target, "request": {"trait": "Agility"}},
    )
    assert trait["request"]["page_modifier"] == penalty and len(trait["faces"]) == 5 + penalty
    # Four dice score at most 8 successes: the target (Health 10) stays in the fight (WCBH-31).
    defence = fight.attack(target, modifier=-4)
    assert defence["request"]["defence_modifier"] == penalty
    if result["cannot_move"]:
        refused(table, fight.path("moves"), {"character_id": target}, 409, "WCBH-41")
    next_page(table, fight.scene)
    if result["loses_turn"]:  # 5+: the next page is lost
        refused(
            table,
            fight.path("attacks"),
            attack_body(target, fight.nova, "Strength"),
            409,
            "WCBH-41",
        )
    assert fight.page_state(target)["dice"]["action"] == penalty  # still on the next page
    next_page(table, fight.scene)
    assert fight.page_state(target)["dice"]["action"] == 0
    assert table.get(f"/v1/characters/{target}")["conditions"] == []


def test_a_five_plus_maneuver_takes_the_next_turn_wcbh_41(table: Table) -> None:
    fight = Fight(table)
    mocker = make(table, "Mocker", "hero", sheet_with(table, Charisma=10), table.player)
    for _ in range(20):
        target = fight.villain(sheet_with(table, Will=1))
        roll = table.post(
            fight.path("maneuvers"),
            {"attacker_id": mocker, "target_id": target, "maneuver": "taunt"},
            table.player,
        )
        if roll["result"]["net"] >= 5:
            break
        next_page(table, fight.scene)
    else:
        raise AssertionError("Charisma 10 never beat a Will of 1 by 5 in 20 tries")
    assert roll["result"]["loses_turn"] and roll["result"]["penalty"] == -3
    assert fight.page_state(target)["next_page_lost"] == "WCBH-41"
    next_page(table, fight.scene)
    refused(
        table, fight.path("attacks"), attack_body(target, fight.nova, "Strength"), 409, "WCBH-41"
    )
    refused(table, fight.path("moves"), {"character_id": target}, 409, "WCBH-41")


def test_a_maneuver_uses_its_own_traits_wcbh_41(table: Table) -> None:
    fight = Fight(table)
    body = {
        "attacker_id": fight.nova,
        "target_id": fight.villain(),
        "maneuver": "taunt",
        "trait": "Strength",
    }
    refused(table, fight.path("maneuvers"), body, 422, "WCBH-41", table.player)
    body = {**body, "maneuver": "stunning_blow", "trait": None}
    refused(table, fight.path("maneuvers"), body, 422, "WCBH-41", table.player)


# ---- WCBH-42 --------------------------------------------------------------------------------------


def test_an_ambush_surprises_targets_its_worst_member_beats_wcbh_42(table: Table) -> None:
    fight = Fight(table)
    shadow = make(table, "Shadow", "hero", sheet_with(table, Agility=5), table.player)
    targets = [fight.villain(sheet_with(table, Perception=1)) for _ in range(3)]
    goons = [make(table, f"Goon {n}", "minion", {"kind": "minion", "threat": 2}) for n in range(2)]
    body = {
        "ambushers": [{"character_id": fight.nova}, {"character_id": shadow}],
        "target_ids": targets + goons,
    }
    roll = table.post(fight.path("ambushes"), body, table.player)
    result = roll["result"]
    rolled = faces(roll, "ambush")
    assert len(rolled) == 4 + 4  # Stealth 4 each
    own = [
        sum({1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}[f] for f in rolled[i * 4 : i * 4 + 4])
        for i in range(2)
    ]
    assert [a["successes"] for a in result["ambushers"]] == own
    totals = [a["total"] for a in result["ambushers"]]
    assert sum(totals) == sum(own) and result["worst"] == min(totals)  # WCBH-11: handed over
    perception = faces(roll, "perception")
    assert len(perception) == 2 + 3 * 1  # one roll of threat 2 for the minions, Perception 1 each
    by_target = {t["target_id"]: t for t in result["targets"]}
    assert (
        by_target[goons[0]]["perception_successes"] == by_target[goons[1]]["perception_successes"]
    )
    for target in targets + goons:
        entry = by_target[target]
        assert entry["net"] == result["worst"] - entry["perception_successes"]
        assert entry["surprised"] == (entry["net"] >= 1)
        state = fight.page_state(target)
        assert state["lost_turn"] == entry["surprised"]
        assert state["passive_only"] == (entry["net"] >= 3)
        if entry["surprised"]:
            trait = "threat" if target in goons else "Strength"
            refused(
                table, fight.path("attacks"), attack_body(target, fight.nova, trait), 409, "WCBH-42"
            )
        if entry["net"] >= 3 and target in targets:  # no active defence on the first page
            hit = fight.attack(target, attacker=shadow, trait="Agility")
            assert all(not d["active"] for d in hit["request"]["defences"])
            return
    next_page(table, fight.scene)
    assert all(not fight.page_state(t)["lost_turn"] for t in targets)


# ---- WCBH-43 --------------------------------------------------------------------------------------


def test_an_area_attack_is_one_roll_each_target_defending_on_its_own_wcbh_43(table: Table) -> None:
    fight = Fight(table)
    dodger, brave = fight.villain(table.example_sheet), fight.villain(table.example_sheet)
    body = {
        "attacker_id": fight.nova,
        "trait": "Lightning Bolt",
        "targets": [{"target_id": dodger, "skip_turn": True}, {"target_id": brave}],
    }
    refused(
        table, fight.path("area-attacks"), body, 403, None, table.player
    )  # the villain's choice
    roll = table.post(fight.path("area-attacks"), body)  # the GM acts for Nova and the villain
    result = roll["result"]
    attack = successes(roll, "attack")
    assert len(faces(roll, "attack")) == 8 and result["attack_successes"] == attack
    defence_faces = faces(roll, "defence")
    full, half = result["targets"]
    assert (full["defence"], full["defence_rank"]) == ("Agility", 5)  # skips its turn: full rank
    assert (half["defence"], half["defence_rank"]) == ("Agility", 3)  # half of Agility 5
    assert len(defence_faces) == 5 + 3
    first = sum({1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}[f] for f in defence_faces[:5])
    second = sum({1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}[f] for f in defence_faces[5:])
    assert (full["defence_successes"], half["defence_successes"]) == (first, second)
    for entry, target in ((full, dodger), (half, brave)):
        assert entry["damage"] == max(0, attack - entry["defence_successes"])
        health = table.get(f"/v1/characters/{target}")["resources"]["health"]["current"]
        assert health == max(0, 6 - entry["damage"])  # Health 6 (WCBH-32)
    assert full["skips_turn"] and not half["skips_turn"]
    fresh = fight.villain(name="Fresh villain")  # the area's targets may be defeated (WCBH-31)
    refused(
        table, fight.path("attacks"), attack_body(fight.nova, fresh), 409, "WCBH-25"
    )  # one action
    next_page(table, fight.scene)
    # The dodger skips this page (WCBH-43); the brave one acts, unless the attack defeated it
    # (WCBH-31: a defeated character is out of the fight).
    rule = "WCBH-43" if full["health"] > 0 else "WCBH-31"
    refused(table, fight.path("attacks"), attack_body(dodger, fight.nova, "Strength"), 409, rule)
    if half["health"] > 0:
        table.post(fight.path("attacks"), attack_body(brave, fight.nova, "Strength"))
    else:
        refused(
            table, fight.path("attacks"), attack_body(brave, fight.nova, "Strength"), 409, "WCBH-31"
        )


# ---- WCBH-47 --------------------------------------------------------------------------------------


def test_a_team_attack_gives_each_two_dice_and_exploding_sixes_for_resolve_wcbh_47(
    table: Table,
) -> None:
    fight = Fight(table)
    bolt = make(table, "Bolt", "hero", table.example_sheet, table.player)
    villain = fight.villain()
    body = {
        "target_id": villain,
        "attackers": [
            {"attacker_id": fight.nova, "trait": "Lightning Bolt", "explode": True},
            {"attacker_id": bolt, "trait": "Strength"},
        ],
    }
    refused(table, fight.path("team-attacks"), body, 403, None, table.other_player)
    resolve = table.get(f"/v1/characters/{fight.nova}")["resources"]["resolve"]["current"]
    done = table.post(fight.path("team-attacks"), body, table.player)
    first, second = done["rolls"]
    assert (
        first["request"]["team"]
        and first["request"]["explode"]
        and not second["request"]["explode"]
    )
    unexploded = [
        f for f in first["faces"] if f["label"] == "attack" and f["exploded_from"] is None
    ]
    assert len(unexploded) == 8 + 2
    exploded = [f for f in first["faces"] if f["exploded_from"] is not None]
    assert len(exploded) == sum(
        1 for f in first["faces"] if f["label"] == "attack" and f["face"] == 6
    )
    assert len(faces(second, "attack")) == 4 + 2
    health = 10
    for roll in (first, second):
        assert roll["request"]["target_health"] == health  # each hits what the one before left
        damage = max(0, successes(roll, "attack") - successes(roll, "defence"))
        assert roll["result"]["damage"] == damage
        health = max(0, health - damage)
    assert table.get(f"/v1/characters/{villain}")["resources"]["health"]["current"] == health
    assert (
        table.get(f"/v1/characters/{fight.nova}")["resources"]["resolve"]["current"] == resolve - 1
    )
    uses = table.get(f"/v1/scenes/{fight.scene}")["once_per_scene_uses"]["team_attack"]
    assert sorted(uses) == sorted([fight.nova, bolt])
    next_page(table, fight.scene)
    body["target_id"] = fight.villain(name="Fresh villain")  # the first may be defeated (WCBH-31)
    refused(table, fight.path("team-attacks"), body, 409, "WCBH-47", table.player)


def _team_with_modifiers(table: Table, fight: Fight) -> dict[str, Any]:
    bolt = make(table, "Bolt", "hero", table.example_sheet, table.player)
    return {
        "target_id": fight.villain(),
        "attackers": [
            {"attacker_id": fight.nova, "trait": "Lightning Bolt", "modifier": 2},
            {"attacker_id": bolt, "trait": "Strength", "weapon": 1},
        ],
    }


def _recorded(table: Table, position: int) -> list[dict[str, Any]]:
    """The roll records in the log, once the views include `position`."""
    path = f"/v1/campaigns/{table.campaign_id}/events?limit=1000&min_position={position}"
    events = table.get(path)["items"]
    return [e["payload"]["record"] for e in events if e["type"] == "Roll.Recorded"]


def test_a_player_s_team_attack_modifiers_wait_for_the_gm_wcbh_47(table: Table) -> None:
    """Each attacker's weapon and modifier are a player's declarations (player_modifiers): the
    team attack waits, rolls nothing, and rolls on approval with what the GM changed."""
    fight = Fight(table)
    body = _team_with_modifiers(table, fight)
    rolls_before = len(_recorded(table, table.position()))
    pending = table.client.post(fight.path("team-attacks"), json=body, headers=bearer(table.player))
    assert pending.status_code == 202, pending.text
    assert pending.json()["modifiers"] == {"0.modifier": 2, "1.weapon": 1}
    assert len(_recorded(table, pending.json()["position"])) == rolls_before
    decided = table.post(
        f"/v1/roll-requests/{pending.json()['id']}/approve",
        {"modifiers": {"0.modifier": 1}},
        status=200,
    )
    first, second = _recorded(table, decided["position"])[rolls_before:]
    assert (first["request"]["modifier"], second["request"]["weapon"]) == (1, 1)
    assert [(m["field"], m["rule"]) for m in first["modifiers"]] == [("0.modifier", "gm")]
    assert [(m["field"], m["rule"]) for m in second["modifiers"]] == [
        ("1.weapon", "player_modifiers:gm_approval")
    ]


def test_a_player_s_team_attack_modifiers_are_refused_when_the_campaign_refuses_them_wcbh_47(
    client: Any,
) -> None:
    table = Table(client, settings={"player_modifiers": "refused"})
    fight = Fight(table)
    body = _team_with_modifiers(table, fight)
    before = table.position()
    response = table.client.post(
        fight.path("team-attacks"), json=body, headers=bearer(table.player)
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == "attackers.0.modifier"
    assert table.position() == before
