"""Nimble HP, Wounds, Dying, temporary HP, grapples, Concentration, cover and hiding (NB-20..26).

The example hero: STR 2, DEX 1, Might 4, Finesse 1, Stealth 0, 24 HP, no mana. Dice are fair:
every rolled outcome is checked against the recorded faces by hand, or a bounded loop reaches it.
"""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.client import TestClient

MONSTER = {"kind": "monster", "hp": 10, "armor": 0, "attacks": [{"name": "Bite", "dice": "1d6"}]}


def nimble(client: TestClient, **settings: Any) -> Table:
    table = Table(client, "nimble")
    if settings:  # the same table, in a campaign with these settings
        created = table.post(
            "/v1/campaigns", {"name": "Deadly", "ruleset": "nimble", "settings": settings}
        )
        table.campaign_id, table.gm = created["id"], created["gm_token"]
        table.player = table.join("Bo", "player")
        table.other_player = table.join("Cy", "player")
        table.player_id = table.member_id(table.player)
    return table


def make(
    table: Table, name: str, side: str = "hero", sheet: Any = None, owner: str | None = None
) -> str:
    body = {"name": name, "side": side, "sheet": sheet or table.example_sheet}
    if owner is not None:
        body["owner_member_id"] = table.member_id(owner)
    return str(table.post(f"/v1/campaigns/{table.campaign_id}/characters", body)["id"])


def act(
    table: Table,
    character: str,
    verb: str,
    body: Any = None,
    token: str | None = None,
    status: int = 200,
) -> Any:
    return table.post(f"/v1/characters/{character}/nimble/{verb}", body, token, status)


def refused(
    table: Table, character: str, verb: str, body: Any, token: str | None, status: int
) -> dict[str, Any]:
    """The request is refused with `status` and writes nothing."""
    before = table.position()
    response = table.client.post(
        f"/v1/characters/{character}/nimble/{verb}", json=body, headers=bearer(token or table.gm)
    )
    assert response.status_code == status, response.text
    assert table.position() == before
    return response.json()["error"]  # type: ignore[no-any-return]


def damage(table: Table, character: str, scene: str, amount: int, critical: bool = False) -> Any:
    return act(
        table, character, "damage", {"scene_id": scene, "amount": amount, "critical": critical}
    )


def health(table: Table, character: str) -> dict[str, Any]:
    return table.get(f"/v1/characters/{character}/nimble")["nimble"]  # type: ignore[no-any-return]


def natural(roll: dict[str, Any], label: str) -> int:
    """The kept d20 of the roll, read from its recorded faces."""
    kept = [f["face"] for f in roll["faces"] if f["kept"] and f["label"] == label]
    assert len(kept) == 1
    return kept[0]  # type: ignore[no-any-return]


# ---- NB-20: damage, 0 HP, a Wound and Dying; healing ends Dying ---------------------------------


def test_damage_lowers_hp_and_0_hp_gives_a_wound_and_dying_nb_20(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova", owner=table.player), table.scene()
    hit = damage(table, hero, scene, 10)
    assert hit["outcome"]["hp"] == 14 and hit["outcome"]["status"] == "active"
    assert hit["character"]["resources"]["hp"]["current"] == 14
    down = damage(table, hero, scene, 30)["outcome"]
    assert (down["hp"], down["wounds"], down["wounds_taken"], down["status"]) == (0, 1, 1, "dying")
    view = health(table, hero)
    assert view["dying"] and view["max_actions"] == 1 and view["wounds"] == 1
    names = [c["name"] for c in table.get(f"/v1/characters/{hero}")["conditions"]]
    assert "dying" in names


def test_healing_lifts_dying_but_not_wounds_nb_20(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    damage(table, hero, scene, 24)
    healed = act(table, hero, "heal", {"amount": 50, "reason": "potion"})
    assert healed["outcome"] == {"healed": 24, "hp": 24, "status": "active", "dying_ended": True}
    assert healed["character"]["nimble"]["wounds"] == 1
    assert healed["character"]["status"] == "active"


def test_a_monster_at_0_hp_is_defeated_without_wounds_nb_20(client: TestClient) -> None:
    table = nimble(client)
    goblins = make(table, "Goblins", "minion", {**MONSTER, "count": 3})
    scene = table.scene()
    assert damage(table, goblins, scene, 12)["outcome"]["hp"] == 18  # 3 x 10 pooled
    out = damage(table, goblins, scene, 99)["outcome"]
    assert (out["hp"], out["wounds"], out["status"]) == (0, 0, "defeated")
    error = refused(table, goblins, "damage", {"scene_id": scene, "amount": 1}, None, 409)
    assert error["code"] == "out_of_the_fight"


# ---- NB-21: Dying --------------------------------------------------------------------------------


def test_damage_while_dying_is_2_wounds_and_3_on_a_critical_nb_21(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    damage(table, hero, scene, 24)
    assert damage(table, hero, scene, 1)["outcome"]["wounds"] == 3
    crit = damage(table, hero, scene, 1, critical=True)["outcome"]
    assert (crit["wounds_taken"], crit["wounds"], crit["status"]) == (3, 6, "dead")  # 6 max


def test_attacking_while_dying_is_a_str_save_or_a_wound_nb_21(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova", owner=table.player), table.scene()
    refused(table, hero, "dying-save", {"scene_id": scene}, table.player, 409)  # not Dying
    damage(table, hero, scene, 24)
    for _ in range(20):
        saved = act(table, hero, "dying-save", {"scene_id": scene}, table.player, status=201)
        roll, out = saved["roll"], saved["outcome"]
        assert roll["check"] == "save" and roll["request"]["modifier"] == 2
        assert roll["request"]["dc"] == 10 and roll["request"]["stat"] == "STR"
        success = natural(roll, "save") + 2 >= 10
        assert out["success"] is success
        assert out["wounds_taken"] == (0 if success else 1)
        if out["dead"]:
            break
    assert health(table, hero)["wounds"] == out["wounds"]


def test_a_dying_hero_cannot_concentrate_and_has_1_action_nb_21(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    act(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"})
    out = damage(table, hero, scene, 24)["outcome"]
    assert out["concentration"] == "ended"
    assert health(table, hero)["concentration"] is None
    error = refused(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"}, None, 409)
    assert error["code"] == "cannot_concentrate" and error["rule"] == "NB-25"


# ---- NB-22: death and the Safe Rest --------------------------------------------------------------


def test_a_hero_dies_at_the_campaign_s_maximum_wounds_nb_22(client: TestClient) -> None:
    table = nimble(client, max_wounds=2)
    hero, scene = make(table, "Nova"), table.scene()
    assert health(table, hero)["max_wounds"] == 2
    damage(table, hero, scene, 24)
    out = damage(table, hero, scene, 3)["outcome"]
    assert (out["wounds"], out["status"], out["dead"]) == (2, "dead", True)
    assert health(table, hero)["max_actions"] == 0
    assert refused(table, hero, "heal", {"amount": 5}, None, 409)["rule"] == "NB-22"
    assert refused(table, hero, "safe-rest", None, None, 409)["code"] == "out_of_the_fight"


def test_a_safe_rest_heals_a_wound_and_restores_hp_mana_and_clears_temp_hp_nb_22_nb_23(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero = make(table, "Mage", sheet={**table.example_sheet, "mana": 5})
    scene = table.scene()
    table.post(
        f"/v1/characters/{hero}/resources",
        {"resource": "mana", "change": -4, "reason": "spells"},
        status=200,
    )
    act(table, hero, "temp-hp", {"amount": 6})
    damage(table, hero, scene, 40)
    damage(table, hero, scene, 1)  # 3 Wounds
    before = health(table, hero)
    assert before["safe_rest"] == {
        "hp": 24,
        "mana": 5,
        "temp_hp": 0,
        "wounds": 2,
        "ends": ["dying", "conditions", "concentration"],
    }
    rested = act(table, hero, "safe-rest")
    assert rested["outcome"] == {
        "wounds_healed": 1,
        "hp": 24,
        "temp_hp": 0,
        "wounds": 2,
        "mana": 5,
        "status": "active",
    }
    assert rested["character"]["resources"]["mana"]["current"] == 5


# ---- NB-23: temporary HP ---------------------------------------------------------------------------


def test_temporary_hp_do_not_stack_and_are_lost_first_nb_23(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    assert act(table, hero, "temp-hp", {"amount": 5})["outcome"]["temp_hp"] == 5
    assert act(table, hero, "temp-hp", {"amount": 3})["outcome"]["temp_hp"] == 5  # higher
    assert act(table, hero, "temp-hp", {"amount": 3, "keep": "new"})["outcome"]["temp_hp"] == 3
    assert act(table, hero, "temp-hp", {"amount": 9, "keep": "current"})["outcome"]["temp_hp"] == 3
    out = damage(table, hero, scene, 4)["outcome"]
    assert (out["temp_hp_absorbed"], out["temp_hp"], out["hp"]) == (3, 0, 23)


def test_damage_absorbed_by_temporary_hp_while_dying_gives_no_wound_nb_23(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    damage(table, hero, scene, 24)
    act(table, hero, "temp-hp", {"amount": 5})
    out = damage(table, hero, scene, 5, critical=True)["outcome"]
    assert (out["wounds"], out["temp_hp"], out["status"]) == (1, 0, "dying")


# ---- NB-24: grapples -------------------------------------------------------------------------------


def grab(table: Table, hero: str, target: str, scene: str, size: str = "same") -> dict[str, Any]:
    """Grapple until it works (75% a try with Might +4), checking each try by hand."""
    for _ in range(30):
        body = {"scene_id": scene, "target_id": target, "size": size}
        made = act(table, hero, "grapples", body, table.player, status=201)
        roll = made["roll"]
        assert roll["request"]["modifier"] == 4 and roll["request"]["skill"] == "Might"
        assert made["outcome"]["grappled"] is (natural(roll, "skill") + 4 >= 10)
        if made["outcome"]["grappled"]:
            return made
    raise AssertionError("no grapple in 30 tries")


def test_a_grapple_holds_the_target_and_gives_advantage_against_both_nb_24(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero = make(table, "Nova", owner=table.player)
    goblin, ally = make(table, "Goblin", "villain", MONSTER), make(table, "Ally")
    scene = table.scene()
    grab(table, hero, goblin, scene, "smaller")
    assert health(table, hero)["conditions"]["grappling"]["target_id"] == goblin
    assert health(table, goblin)["conditions"]["grappled"]["by_id"] == hero
    edge = table.get(f"/v1/characters/{ally}/nimble/attack-edge?target_id={goblin}")
    assert edge["advantage"] == 1 and edge["disadvantage"] == 0
    assert (
        table.get(f"/v1/characters/{goblin}/nimble/attack-edge?target_id={hero}")["advantage"] == 1
    )
    body = {"scene_id": scene, "target_id": ally, "size": "same"}
    assert refused(table, hero, "grapples", body, table.player, 409)["code"] == "already_grappling"
    released = act(table, hero, "release", {"scene_id": scene}, table.player)
    assert released["outcome"]["released"] == [goblin]
    assert health(table, goblin)["conditions"] == {}


def test_a_grapple_is_an_attack_hasty_attacks_add_disadvantage_nb_24(client: TestClient) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    body = {"scene_id": scene, "target_id": goblin, "size": "same", "attack_number": 3}
    roll = act(table, hero, "grapples", body, table.player, status=201)["roll"]
    assert roll["result"]["edge"] == -2
    d20s = [f["face"] for f in roll["faces"] if f["label"] == "skill"]
    assert len(d20s) == 3 and roll["result"]["natural"] == min(d20s)


def test_grabbing_a_larger_creature_is_mounted_nb_24(client: TestClient) -> None:
    table = nimble(client)
    hero, ogre = make(table, "Nova", owner=table.player), make(table, "Ogre", "villain", MONSTER)
    scene = table.scene()
    made = grab(table, hero, ogre, scene, "larger")
    assert made["outcome"]["condition"] == "mounted"
    assert health(table, hero)["conditions"]["mounted"]["on_id"] == ogre
    edge = table.get(f"/v1/characters/{ogre}/nimble/attack-edge?target_id={hero}")
    assert edge["disadvantage"] == 1 and edge["miss_hits_attacker"] is True


def test_a_critical_hit_on_either_creature_ends_the_grapple_nb_24(client: TestClient) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    grab(table, hero, goblin, scene)
    assert damage(table, hero, scene, 2)["outcome"]["grapple_ended"] == []  # no crit: held
    out = damage(table, hero, scene, 2, critical=True)["outcome"]
    assert out["grapple_ended"] == [goblin]
    assert health(table, hero)["conditions"] == {} and health(table, goblin)["conditions"] == {}


def test_escaping_is_a_str_or_dex_save_and_needs_a_hold_nb_24(client: TestClient) -> None:
    table = nimble(client)
    hero = make(table, "Nova", owner=table.player)
    scene = table.scene()
    error = refused(table, hero, "escape", {"scene_id": scene}, table.player, 409)
    assert error["code"] == "not_held" and error["rule"] == "NB-24"
    act(table, hero, "restraint", {"scene_id": scene, "by": "sticky tar"})
    assert health(table, hero)["conditions"]["restrained"]["by"] == "sticky tar"
    other = make(table, "Other")
    assert (
        table.get(f"/v1/characters/{other}/nimble/attack-edge?target_id={hero}")["advantage"] == 1
    )
    for _ in range(30):
        made = act(
            table, hero, "escape", {"scene_id": scene, "stat": "DEX"}, table.player, status=201
        )
        roll = made["roll"]
        assert roll["request"]["modifier"] == 1 and roll["request"]["stat"] == "DEX"
        assert made["outcome"]["escaped"] is (natural(roll, "save") + 1 >= 10)
        if made["outcome"]["escaped"]:
            break
    assert "restrained" not in health(table, hero)["conditions"]


def test_a_player_cannot_grapple_with_another_s_character_nb_24(client: TestClient) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    body = {"scene_id": table.scene(), "target_id": goblin, "size": "same"}
    refused(table, hero, "grapples", body, table.other_player, 403)


def test_a_grappled_monster_escapes_with_a_save_and_frees_both_sides_nb_24(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    grab(table, hero, goblin, scene)
    for _ in range(40):
        made = act(table, goblin, "escape", {"scene_id": scene}, status=201)
        roll = made["roll"]
        assert roll["request"]["modifier"] == 0 and made["outcome"]["condition"] == "grappled"
        assert made["outcome"]["escaped"] is (natural(roll, "save") >= 10)
        if made["outcome"]["escaped"]:
            break
    assert health(table, hero)["conditions"] == {} and health(table, goblin)["conditions"] == {}


def test_a_dying_hero_that_grapples_first_makes_its_str_save_nb_21_nb_24(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    damage(table, hero, scene, 24)
    body = {"scene_id": scene, "target_id": goblin, "size": "same"}
    refused(table, hero, "grapples", {**body, "modifier": 9}, table.player, 422)  # sheet's
    made = act(table, hero, "grapples", body, table.player, status=201)
    saved = made["outcome"]["dying_save"]
    save = table.get(f"/v1/rolls/{saved['roll_id']}")
    assert save["check"] == "save" and save["request"]["modifier"] == 2
    assert saved["success"] is (natural(save, "save") + 2 >= 10)
    assert saved["wounds"] == (1 if saved["success"] else 2)
    assert made["roll"]["check"] == "skill" and made["roll"]["id"] != saved["roll_id"]


# ---- NB-25: Concentration -------------------------------------------------------------------------


def test_one_concentration_at_a_time_nb_25(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova", owner=table.player), table.scene()
    act(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"}, table.player)
    body = {"scene_id": scene, "effect": "Haste"}
    error = refused(table, hero, "concentration", body, table.player, 409)
    assert error["code"] == "already_concentrating"
    act(table, hero, "concentration/end", {"scene_id": scene}, table.player)
    refused(table, hero, "concentration/end", {"scene_id": scene}, table.player, 409)
    act(table, hero, "concentration", body, table.player)
    assert health(table, hero)["concentration"]["effect"] == "Haste"


def test_a_critical_hit_calls_for_a_str_save_to_keep_concentrating_nb_25(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova", owner=table.player), table.scene()
    refused(table, hero, "concentration/save", {"scene_id": scene}, table.player, 409)
    act(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"}, table.player)
    assert damage(table, hero, scene, 1)["outcome"]["concentration"] == "kept"
    assert damage(table, hero, scene, 1, critical=True)["outcome"]["concentration"] == "save_needed"
    assert health(table, hero)["concentration"]["saves_due"] == 1
    saved = act(table, hero, "concentration/save", {"scene_id": scene}, table.player, status=201)
    kept = natural(saved["roll"], "save") + 2 >= 10
    assert saved["outcome"]["kept"] is kept
    now = health(table, hero)["concentration"]
    assert now == ({"effect": "Bless", "scene_id": scene, "saves_due": 0} if kept else None)


# ---- NB-26: cover and hiding ------------------------------------------------------------------------


def test_cover_gives_disadvantage_and_full_cover_cannot_be_targeted_nb_26(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    act(table, hero, "cover", {"scene_id": scene, "level": "partial"}, table.player)
    edge = table.get(f"/v1/characters/{goblin}/nimble/attack-edge?target_id={hero}")
    assert edge["disadvantage"] == 1 and edge["can_target"] is True
    act(table, hero, "cover", {"scene_id": scene, "level": "full"}, table.player)
    edge = table.get(f"/v1/characters/{goblin}/nimble/attack-edge?target_id={hero}")
    assert edge["can_target"] is False
    body = {"scene_id": scene, "target_id": hero, "size": "same"}
    assert refused(table, goblin, "grapples", body, None, 409)["code"] == "full_cover"


def test_hiding_needs_cover_is_automatic_in_full_cover_and_ends_with_an_attack_nb_26(
    client: TestClient,
) -> None:
    table = nimble(client)
    hero, goblin = (
        make(table, "Nova", owner=table.player),
        make(table, "Goblin", "villain", MONSTER),
    )
    scene = table.scene()
    assert (
        refused(table, hero, "hide", {"scene_id": scene}, table.player, 409)["code"] == "no_cover"
    )
    act(table, hero, "cover", {"scene_id": scene, "level": "full"}, table.player)
    hidden = act(table, hero, "hide", {"scene_id": scene}, table.player, status=201)
    assert hidden["outcome"] == {"hidden": True, "automatic": True} and hidden["roll"] is None
    edge = table.get(f"/v1/characters/{hero}/nimble/attack-edge?target_id={goblin}")
    assert edge["from_hiding"] is True and edge["advantage"] == 1
    made = grab(table, hero, goblin, scene)  # a grapple is an attack: hidden no more
    assert made["roll"]["request"]["advantage"] in (0, 1)
    assert "hidden" not in health(table, hero)["conditions"]


def test_hiding_in_partial_cover_is_a_stealth_check_nb_26(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova", owner=table.player), table.scene()
    act(table, hero, "cover", {"scene_id": scene, "level": "partial"}, table.player)
    for _ in range(40):
        made = act(table, hero, "hide", {"scene_id": scene}, table.player, status=201)
        roll = made["roll"]
        assert roll["request"]["skill"] == "Stealth" and roll["request"]["modifier"] == 0
        assert made["outcome"]["hidden"] is (natural(roll, "skill") >= 10)
        if made["outcome"]["hidden"]:
            break
    assert "hidden" in health(table, hero)["conditions"]
    act(table, hero, "cover", {"scene_id": scene, "level": "none"}, table.player)
    assert health(table, hero)["conditions"] == {}


# ---- views, scene close, the other rulesets --------------------------------------------------------


def test_closing_the_scene_ends_its_conditions_and_concentration(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    act(table, hero, "cover", {"scene_id": scene, "level": "partial"})
    act(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"})
    table.post(f"/v1/scenes/{scene}/close", status=200)
    view = health(table, hero)
    assert view["conditions"] == {} and view["concentration"] is None


def test_the_character_seen_at_a_past_position_matches_the_live_one(client: TestClient) -> None:
    table = nimble(client)
    hero, scene = make(table, "Nova"), table.scene()
    act(table, hero, "temp-hp", {"amount": 4})
    act(table, hero, "restraint", {"scene_id": scene, "by": "chains"})
    act(table, hero, "concentration", {"scene_id": scene, "effect": "Bless"})
    damage(table, hero, scene, 30, critical=True)
    live = table.get(f"/v1/characters/{hero}")
    at = table.position()
    seen = table.get(f"/v1/characters/{hero}?at_position={at}&min_position={at}")
    assert seen["nimble"] == live["nimble"]
    assert seen["conditions"] == live["conditions"]
    assert seen["status"] == live["status"] == "dying"


def test_nimble_health_is_for_nimble_campaigns(table: Table) -> None:
    hero, scene = table.character(), table.scene()
    response = table.client.post(
        f"/v1/characters/{hero}/nimble/damage",
        json={"scene_id": scene, "amount": 1},
        headers=bearer(table.gm),
    )
    assert response.status_code == 422


# ---- staging for the access matrix (tests/api/test_access.py) --------------------------------------

STRONG = {
    "kind": "hero",
    "stats": {"STR": 20, "DEX": 20, "INT": 0, "WIL": 0},
    "skills": {"Might": 30, "Stealth": 30},
    "max_hp": 24,
    "mana": 2,
}  # every save and check it makes succeeds: the GM's repeat meets a settled state


def stage(t: Table, setup: str = "") -> dict[str, str]:
    """A strong hero of the owner, a monster and a scene, once per table; `setup` readies the
    hero for one endpoint (dying, grappling, restrained, concentrating, save_due, cover)."""
    found: dict[str, str] | None = getattr(t, "_nimble_stage", None)
    if found is not None:
        return found
    hero = make(t, "Strong", sheet=STRONG, owner=t.player)
    staged = {"hero": hero, "monster": make(t, "Goblin", "villain", MONSTER), "scene": t.scene()}
    scene = staged["scene"]
    if setup == "dying":
        damage(t, hero, scene, 24)
    elif setup == "grappling":
        body = {"scene_id": scene, "target_id": staged["monster"], "size": "same"}
        assert act(t, hero, "grapples", body, status=201)["outcome"]["grappled"]
    elif setup == "restrained":
        act(t, hero, "restraint", {"scene_id": scene, "by": "chains"})
    elif setup in ("concentrating", "save_due"):
        act(t, hero, "concentration", {"scene_id": scene, "effect": "Bless"})
        if setup == "save_due":
            damage(t, hero, scene, 1, critical=True)
    elif setup == "cover":
        act(t, hero, "cover", {"scene_id": scene, "level": "partial"})
    t._nimble_stage = staged  # type: ignore[attr-defined]
    return staged


def path(verb: str, setup: str = "") -> Any:
    tail = f"/{verb}" if verb else ""
    return lambda t: f"/v1/characters/{stage(t, setup)['hero']}/nimble{tail}"


def in_scene(setup: str = "", **fields: Any) -> Any:
    return lambda t: {"scene_id": stage(t, setup)["scene"], **fields}
