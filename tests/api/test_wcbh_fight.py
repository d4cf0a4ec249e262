"""The page's actions in a We Can Be Heroes fight (WCBH-25), the attack maneuvers of WCBH-44 and
the follow-ups of an attack (WCBH-45, WCBH-46), through the API. Numbers are checked against the
recorded faces."""

from __future__ import annotations

import copy
import math
from typing import Any

from tests.api.support import Table, bearer
from tests.api.test_attacks import make, sturdy

SUCCESSES = {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}  # WCBH-7


def faces(roll: dict[str, Any], label: str) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["label"] == label and f["kept"]]


def successes(roll: dict[str, Any], label: str) -> int:
    return sum(SUCCESSES[f] for f in faces(roll, label))


def send(table: Table, path: str, body: Any, token: str | None = None) -> Any:
    return table.client.post(path, json=body, headers=bearer(token or table.gm))


def refused(
    table: Table, path: str, body: Any, status: int, rule: str | None, token: str | None = None
) -> dict[str, Any]:
    """The command is refused with `status` naming `rule`, and writes nothing."""
    before = table.position()
    response = send(table, path, body, token)
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["rule"] == rule, error
    assert table.position() == before
    return error


def sheet_with(table: Table, **abilities: int) -> dict[str, Any]:
    sheet = copy.deepcopy(table.example_sheet)
    sheet["abilities"].update(abilities)
    return sheet


def attack_body(
    attacker: str, target: str, trait: str = "Lightning Bolt", **extra: Any
) -> dict[str, Any]:
    return {"attacker_id": attacker, "target_id": target, "trait": trait, **extra}


def next_page(table: Table, scene: str) -> None:
    table.post(f"/v1/scenes/{scene}/pages", status=200)


class Fight:
    """A scene with Nova (the player's hero) and villains of the GM's."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.nova = make(table, "Nova", "hero", table.example_sheet, table.player)
        self.scene = table.scene()
        self.count = 0

    def villain(self, sheet: dict[str, Any] | None = None, name: str | None = None) -> str:
        self.count += 1
        return make(
            self.table, name or f"Villain {self.count}", "villain", sheet or sturdy(self.table)
        )

    def path(self, what: str) -> str:
        return f"/v1/scenes/{self.scene}/{what}"

    def attack(self, target: str, token: str | None = None, **extra: Any) -> dict[str, Any]:
        body = attack_body(extra.pop("attacker", self.nova), target, **extra)
        return self.table.rolled(self.path("attacks"), body, token or self.table.player)

    def declare(
        self, character: str, actions: int = 1, token: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        body = {"character_id": character, "actions": actions, **extra}
        return self.table.post(
            self.path("declarations"), body, token or self.table.player, status=200
        )  # type: ignore[no-any-return]

    def page_state(self, character: str) -> dict[str, Any]:
        return self.table.get(self.path(f"page-states/{character}"))  # type: ignore[no-any-return]


# ---- WCBH-25 --------------------------------------------------------------------------------------


def test_extra_actions_cost_two_dice_on_every_roll_of_the_page_but_defence_wcbh_25(
    table: Table,
) -> None:
    fight = Fight(table)
    first, second = fight.villain(), fight.villain()
    declared = fight.declare(fight.nova, 2)
    assert declared["declared"] == 2 and declared["dice"] == {"action": -2, "defence": 0}
    roll = fight.attack(first)
    assert roll["request"]["page_modifier"] == -2
    assert len(faces(roll, "attack")) == 8 - 2  # Lightning Bolt 8, one extra action
    assert roll["result"]["attack_successes"] == successes(roll, "attack")
    # A trait roll of the same page carries the penalty in its own request...
    trait = table.post(
        fight.path("rolls"),
        {"check": "trait", "character_id": fight.nova, "request": {"trait": "Agility"}},
        table.player,
    )
    assert trait["request"]["page_modifier"] == -2 and len(trait["faces"]) == 5 - 2
    # ...but Nova's defence is not penalised (its defence dice are its own).
    # (no attack dice: Nova must stay standing to attack again, WCBH-31)
    villain_attack = table.post(
        fight.path("attacks"), attack_body(first, fight.nova, "Strength", modifier=-20)
    )
    assert villain_attack["request"]["defence_modifier"] == 0
    assert len(faces(villain_attack, "defence")) == villain_attack["result"]["defence_rank"]
    fight.attack(second)
    third = fight.villain()
    refused(
        table, fight.path("attacks"), attack_body(fight.nova, third), 409, "WCBH-25", table.player
    )
    next_page(table, fight.scene)
    assert fight.attack(third)["request"]["page_modifier"] == 0  # the page state starts afresh


def test_one_action_unless_more_are_declared_and_only_before_the_first_wcbh_25(
    table: Table,
) -> None:
    fight = Fight(table)
    a, b, c, d = (fight.villain() for _ in range(4))
    fight.attack(a)
    refused(table, fight.path("attacks"), attack_body(fight.nova, b), 409, "WCBH-25", table.player)
    refused(
        table,
        fight.path("declarations"),
        {"character_id": fight.nova, "actions": 3},
        409,
        "WCBH-25",
        table.player,
    )
    next_page(table, fight.scene)
    fight.declare(fight.nova, 3)
    for target in (a, b, c):
        assert fight.attack(target)["request"]["page_modifier"] == -4  # 3 attacks: -4 each
    refused(table, fight.path("attacks"), attack_body(fight.nova, d), 409, "WCBH-25", table.player)


def test_the_same_target_once_a_page_and_one_move_a_page_wcbh_25(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain()
    fight.declare(fight.nova, 2)
    fight.attack(villain)
    refused(
        table, fight.path("attacks"), attack_body(fight.nova, villain), 409, "WCBH-25", table.player
    )
    move = {"character_id": fight.nova}
    assert table.post(fight.path("moves"), move, table.player, status=200)["moved"] is True
    refused(table, fight.path("moves"), move, 409, "WCBH-25", table.player)
    next_page(table, fight.scene)
    assert table.post(fight.path("moves"), move, table.player, status=200)["page"] == 2


def test_the_page_modifier_is_the_server_s_to_fill_wcbh_25(table: Table) -> None:
    fight = Fight(table)
    fight.declare(fight.nova, 2)
    body = {
        "check": "trait",
        "character_id": fight.nova,
        "request": {"trait": "Agility", "page_modifier": 0},
    }
    error = refused(table, fight.path("rolls"), body, 422, "WCBH-25", table.player)
    assert error["field"] == "request.page_modifier" and error["details"]["expected"] == -2
    body["request"]["page_modifier"] = -2
    assert table.post(fight.path("rolls"), body, table.player)["request"]["page_modifier"] == -2


def test_a_player_acts_only_for_its_own_characters(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain()
    refused(
        table,
        fight.path("declarations"),
        {"character_id": fight.nova, "actions": 2},
        403,
        None,
        table.other_player,
    )
    refused(table, fight.path("moves"), {"character_id": fight.nova}, 403, None, table.other_player)
    refused(
        table,
        fight.path("attacks"),
        attack_body(fight.nova, villain),
        403,
        None,
        table.other_player,
    )
    refused(
        table,
        fight.path("grapples"),
        {"attacker_id": fight.nova, "target_id": villain},
        403,
        None,
        table.other_player,
    )


def test_fight_rolls_recompute_from_their_own_records_once_the_seed_is_revealed(
    table: Table,
) -> None:
    fight = Fight(table)
    villain = fight.villain()
    fight.declare(fight.nova, 3)
    rolls = [
        fight.attack(villain, maneuver="charge"),
        table.post(
            fight.path("maneuvers"),
            {"attacker_id": fight.nova, "target_id": fight.villain(), "maneuver": "taunt"},
            table.player,
        ),
        table.post(
            fight.path("grapples"),
            {"attacker_id": fight.nova, "target_id": fight.villain()},
            table.player,
        ),
    ]
    table.post(f"/v1/scenes/{fight.scene}/close", status=200)
    for roll in rolls:
        assert roll["request"]["page_modifier"] == -4
        verification = table.get(f"/v1/rolls/{roll['id']}/verification")
        assert verification["recomputed"] == {"revealed": True, "match": True, "problems": []}


# ---- WCBH-44 --------------------------------------------------------------------------------------


def test_a_charge_adds_two_dice_halves_the_charger_s_active_defence_and_collides_wcbh_44(
    table: Table,
) -> None:
    fight = Fight(table)
    # Agility 1 against half of Stamina 10 (5): the target defends passively, so Nova collides.
    wall = fight.villain(sheet_with(table, Agility=1, Stamina=10, Strength=10, Will=10))
    roll = fight.attack(wall, maneuver="charge")
    result = roll["result"]
    assert len(faces(roll, "attack")) == 8 + 2 and result["defence"] == "Stamina"
    own = successes(roll, "collision")
    assert len(faces(roll, "collision")) == 3  # Nova's Stamina 5, halved against a lethal attack
    assert result["collision"]["defence_successes"] == own
    collision = max(0, result["attack_successes"] - own - result["damage"])
    assert result["collision"]["damage"] == collision
    health = table.get(f"/v1/characters/{fight.nova}")["resources"]["health"]
    assert health["current"] == health["max"] - collision
    assert fight.page_state(fight.nova)["halve_active"] is True
    if health["current"] == 0:  # the collision itself defeated Nova: no one attacks her (WCBH-31)
        body = attack_body(fight.villain(), fight.nova, "Strength")
        refused(table, fight.path("attacks"), body, 409, "WCBH-31")
        return
    # A fresh villain strikes back: the charge may have defeated the wall (WCBH-31).
    back = table.post(fight.path("attacks"), attack_body(fight.villain(), fight.nova, "Strength"))
    assert back["request"]["halve_active"] is True
    agility = next(d for d in back["request"]["defences"] if d["name"] == "Agility")
    assert back["result"]["defence_rank"] == 3 and agility["rank"] == 5  # Agility 5 halved: 3


def test_all_out_attack_adds_two_dice_and_halves_both_defences_wcbh_44(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain()
    roll = fight.attack(villain, maneuver="all_out")
    assert len(faces(roll, "attack")) == 10
    state = fight.page_state(fight.nova)
    assert state["halve_active"] is True and state["halve_passive"] is True
    # A fresh villain strikes back: the all-out attack may have defeated the first (WCBH-31).
    back = table.post(fight.path("attacks"), attack_body(fight.villain(), fight.nova, "Strength"))
    assert back["request"]["halve_passive"] is True and back["result"]["defence_rank"] == 3


def test_all_out_defence_adds_two_defence_dice_and_forbids_actions_wcbh_44(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain()
    state = fight.declare(fight.nova, 1, all_out_defence=True)
    assert state["dice"] == {"action": 0, "defence": 2}
    refused(
        table, fight.path("attacks"), attack_body(fight.nova, villain), 409, "WCBH-44", table.player
    )
    back = table.post(fight.path("attacks"), attack_body(villain, fight.nova, "Strength"))
    assert back["request"]["defence_modifier"] == 2
    assert len(faces(back, "defence")) == back["result"]["defence_rank"] + 2
    table.post(
        fight.path("moves"), {"character_id": fight.nova}, table.player, status=200
    )  # moving is free


def test_bashing_one_foe_with_another_wcbh_44(table: Table) -> None:
    fight = Fight(table)
    for _ in range(12):
        club, target = fight.villain(), fight.villain()
        roll = fight.attack(target, club_id=club, modifier=-4)  # a weak blow: the club may dodge
        result = roll["result"]
        assert len(faces(roll, "attack")) == 8 - 2 - 4  # bashing: -2 dice
        assert result["club"]["defence_successes"] == successes(roll, "club")
        assert result["defence_successes"] == successes(roll, "defence")
        # Agility 5 against half of Stamina 10: both defend actively (equal ranks: active)
        club_damage = max(0, result["attack_successes"] - result["club"]["defence_successes"])
        assert result["club"]["damage"] == club_damage
        if club_damage == 0:
            assert result["failed_for_both"] and result["damage"] == 0
        else:
            assert result["damage"] == max(
                0, result["attack_successes"] - result["defence_successes"]
            )
        for cid, damage in ((club, result["club"]["damage"]), (target, result["damage"])):
            assert (
                table.get(f"/v1/characters/{cid}")["resources"]["health"]["current"] == 10 - damage
            )
        next_page(table, fight.scene)
        if result["failed_for_both"]:
            return
    raise AssertionError("no club avoided all damage in 12 bashes")


def test_defending_an_ally_rolls_its_defence_and_costs_the_next_turn_wcbh_44(table: Table) -> None:
    fight = Fight(table)
    bolt = make(table, "Bolt", "hero", sturdy(table), table.player)
    villain = fight.villain()
    body = attack_body(villain, fight.nova, "Strength", defender_id=bolt)
    refused(table, fight.path("attacks"), body, 403, None, table.other_player)
    roll = table.post(fight.path("attacks"), body)
    result = roll["result"]
    guard = successes(roll, "guard")
    assert result["guard"]["defence_successes"] == guard and result["guard"]["active"]
    attack = result["attack_successes"]
    if guard >= attack:
        assert result["damage"] == 0 and not faces(roll, "defence")
    else:  # the ally failed: Nova is hit but still defends
        assert result["damage"] == max(0, attack - successes(roll, "defence"))
    state = fight.page_state(bolt)
    assert state["defending"] is True and state["next_page_lost"] == "WCBH-44"
    cy = make(table, "Cy", "hero", table.example_sheet, table.player)
    again = attack_body(fight.villain(), cy, "Strength", defender_id=bolt)
    refused(table, fight.path("attacks"), again, 409, "WCBH-44")
    next_page(table, fight.scene)
    refused(table, fight.path("attacks"), attack_body(bolt, villain), 409, "WCBH-44", table.player)


def test_a_passive_defender_takes_the_damage_itself_wcbh_44(table: Table) -> None:
    fight = Fight(table)
    bolt = make(table, "Bolt", "hero", sturdy(table), table.player)
    roll = table.post(
        fight.path("attacks"),
        attack_body(
            fight.villain(), fight.nova, "Strength", defender_id=bolt, defender_active=False
        ),
    )
    result = roll["result"]
    assert result["damage"] == 0 and result["guard"]["defence"] == "Stamina"
    damage = max(0, result["attack_successes"] - successes(roll, "guard"))
    assert result["guard"]["damage"] == damage
    # Health stops at 0 (defeated, WCBH-31): a guard's damage can be more than its Health.
    health = table.get(f"/v1/characters/{bolt}")["resources"]["health"]["current"]
    assert health == max(0, 10 - damage)


# ---- WCBH-45 --------------------------------------------------------------------------------------


def test_knockback_after_six_damage_throws_and_takes_the_next_turn_wcbh_45(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain(sheet_with(table, Agility=1, Stamina=10, Strength=10, Will=10))
    roll = fight.attack(villain, weapon=20, modifier=20)  # 48 dice: 6+ damage all but surely
    damage = roll["result"]["damage"]
    assert damage >= 6
    resolve = table.get(f"/v1/characters/{fight.nova}")["resources"]["resolve"]["current"]
    done = table.post(
        f"/v1/rolls/{roll['id']}/knockback", {"hits_object": "sturdier"}, table.player, status=200
    )
    extra = math.ceil(damage / 2)
    assert done["details"]["distance"] == "far"  # thrown by Strength 8 (WCBH-26)
    assert done["details"]["extra_damage"] == extra
    assert done["details"]["health"] == max(0, 10 - damage - extra)
    assert (
        table.get(f"/v1/characters/{fight.nova}")["resources"]["resolve"]["current"] == resolve - 1
    )
    refused(table, f"/v1/rolls/{roll['id']}/knockback", {}, 409, "WCBH-45", table.player)
    if done["details"]["health"] > 0:
        next_page(table, fight.scene)
        refused(
            table,
            fight.path("attacks"),
            attack_body(villain, fight.nova, "Strength"),
            409,
            "WCBH-45",
        )


def test_no_knockback_under_six_damage_wcbh_45(table: Table) -> None:
    fight = Fight(table)
    roll = fight.attack(fight.villain(), modifier=-20)  # no dice: no damage
    assert roll["result"]["damage"] == 0
    refused(table, f"/v1/rolls/{roll['id']}/knockback", {}, 409, "WCBH-45", table.player)


# ---- WCBH-46 --------------------------------------------------------------------------------------


def test_a_redirect_at_someone_else_is_a_second_roll_and_costs_the_next_turn_wcbh_46(
    table: Table,
) -> None:
    fight = Fight(table)
    bystander = fight.villain(name="Bystander")
    for _ in range(15):  # no attack dice: the defence beats it by 3+ when Agility rolls 3+
        villain = fight.villain()
        roll = table.post(
            fight.path("attacks"),
            attack_body(villain, fight.nova, "Strength", modifier=-20, redirect=True),
        )
        assert all(d["active"] for d in roll["request"]["defences"])  # active defence only
        if roll["result"]["defence_successes"] >= 3:
            break
        next_page(table, fight.scene)
    else:
        raise AssertionError("Agility 5 never rolled 3 successes in 15 tries")
    done = table.post(
        f"/v1/rolls/{roll['id']}/redirect", {"at_id": bystander}, table.player, status=200
    )
    new = done["new_roll"]
    assert new["check"] == "redirected_attack" and new["request"]["attack_successes"] == 0
    assert new["result"]["defence_successes"] == successes(new, "defence")
    page = table.get(f"/v1/scenes/{fight.scene}")["page"]
    assert done["details"]["loses_turn_on_page"] == page + 1  # the next page (ruling)
    refused(table, f"/v1/rolls/{roll['id']}/redirect", {}, 409, "WCBH-46", table.player)
    next_page(table, fight.scene)
    refused(
        table, fight.path("attacks"), attack_body(fight.nova, villain), 409, "WCBH-46", table.player
    )


def test_a_redirect_needs_an_active_defence_declared_before_the_roll_wcbh_46(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain()
    body = attack_body(villain, fight.nova, "Strength", redirect=True, defences=[])
    refused(table, fight.path("attacks"), body, 422, "WCBH-46")
    declared_for_villain = attack_body(
        fight.nova, villain, redirect=True
    )  # the villain's to declare
    refused(table, fight.path("attacks"), declared_for_villain, 403, None, table.player)
    plain = table.post(
        fight.path("attacks"), attack_body(villain, fight.nova, "Strength", modifier=-20)
    )
    refused(table, f"/v1/rolls/{plain['id']}/redirect", {}, 409, "WCBH-46", table.player)


# ---- staging for the access matrix (tests/api/test_access.py) ---------------------------------------


def stage(t: Table) -> dict[str, str]:
    """A scene with the owner's hero and sidekick and a GM's villain, made once per table."""
    staged: dict[str, str] | None = getattr(t, "fight_stage", None)
    if staged is None:
        staged = {
            "hero": make(t, "Nova", "hero", t.example_sheet, t.player),
            "sidekick": make(t, "Bolt", "hero", t.example_sheet, t.player),
            "villain": make(t, "Dr. Null", "villain", sturdy(t)),
            "scene": t.scene(),
        }
        t.fight_stage = staged  # type: ignore[attr-defined]
    return staged


def hero_on_villain(t: Table, **extra: Any) -> dict[str, Any]:
    return {"attacker_id": stage(t)["hero"], "target_id": stage(t)["villain"], **extra}


def knockback_path(t: Table) -> str:
    """An attack of the owner's hero that dealt 6+ damage (48 dice against 1: all but sure)."""
    s = stage(t)
    villain = make(t, "Wall", "villain", sheet_with(t, Agility=1, Stamina=10, Strength=10, Will=10))
    body = attack_body(s["hero"], villain, weapon=20, modifier=20)
    # the player's weapon and situation dice wait for the GM (player_modifiers: gm_approval)
    roll = t.approved(t.post(f"/v1/scenes/{s['scene']}/attacks", body, t.player, status=202))
    assert roll["result"]["damage"] >= 6
    next_page(t, s["scene"])
    return f"/v1/rolls/{roll['id']}/knockback"


def redirect_path(t: Table) -> str:
    """An attack on the owner's hero, which declared a redirect and beat it by 3+ (bounded)."""
    s = stage(t)
    for _ in range(20):
        body = attack_body(s["villain"], s["hero"], "Strength", modifier=-20, redirect=True)
        roll = t.post(f"/v1/scenes/{s['scene']}/attacks", body)
        next_page(t, s["scene"])
        if roll["result"]["defence_successes"] >= 3:
            return f"/v1/rolls/{roll['id']}/redirect"
    raise AssertionError("Agility 5 never rolled 3 successes in 20 tries")


def test_a_defeated_character_is_out_of_the_fight_wcbh_31(table: Table) -> None:
    fight = Fight(table)
    villain = fight.villain(sheet_with(table, Agility=1, Stamina=1, Strength=1, Will=1))  # Health 1
    for _ in range(10):  # 8 dice against 1: one net success defeats it (bounded tries)
        roll = fight.attack(villain)
        if roll["result"]["defeated"]:
            break
        next_page(table, fight.scene)
    else:
        raise AssertionError("Lightning Bolt 8 never beat a defence of 1 in 10 pages")
    next_page(table, fight.scene)
    refused(
        table, fight.path("attacks"), attack_body(villain, fight.nova, "Strength"), 409, "WCBH-31"
    )
