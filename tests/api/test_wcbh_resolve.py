"""Resolve given (WCBH-20a), luck (WCBH-20e), imitation (WCBH-20f), last gasp (WCBH-19), the
scene's Adversity and the villainous deed (WCBH-21), the Decisive Moment's Ability loss (WCBH-16)
and the availability view (issue #5)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.support import Table, bearer, ok


def send(table: Table, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
    return table.client.post(path, json=body, headers=bearer(token or table.gm))


def refused(table: Table, path: str, body: Any, token: str | None, status: int) -> dict[str, Any]:
    """The command is refused with `status` and writes nothing; returns the error."""
    before = table.position()
    response = send(table, path, body, token)
    assert response.status_code == status, response.text
    assert table.position() == before, "a refused command wrote something"
    return response.json()["error"]  # type: ignore[no-any-return]


def character(
    table: Table,
    token: str | None,
    name: str,
    *,
    side: str = "hero",
    abilities: dict[str, int] | None = None,
) -> str:
    sheet = dict(table.example_sheet)
    if abilities:
        sheet["abilities"] = {**sheet["abilities"], **abilities}
    body = {"name": name, "side": side, "sheet": sheet}
    return str(table.post(f"/v1/campaigns/{table.campaign_id}/characters", body, token)["id"])


def spent_hero(table: Table, token: str | None, name: str = "Spent") -> str:
    """A hero at 0 Resolve: a Will at the Trait Limit 10 leaves no Starting Resolve (WCBH-17)."""
    return character(table, token, name, abilities={"Will": 10})


def view(table: Table, character_id: str) -> dict[str, Any]:
    return table.get(f"/v1/characters/{character_id}")  # type: ignore[no-any-return]


def resolve_of(table: Table, character_id: str) -> int:
    return int(view(table, character_id)["resources"]["resolve"]["current"])


def roll(table: Table, scene: str, hero: str, token: str, **request: Any) -> httpx.Response:
    body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility", **request}}
    return send(table, f"/v1/scenes/{scene}/rolls", body, token)


def log_types(table: Table, after: int, position: int) -> list[str]:
    page = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?after={after}&min_position={position}"
    )
    return [item["type"] for item in page["items"]]


# ---- WCBH-20a ------------------------------------------------------------------------------------


def test_giving_resolve_moves_one_in_one_save_wcbh_20a(table: Table) -> None:
    nova, bolt = table.character(table.player, "Nova"), table.character(table.other_player, "Bolt")
    scene = table.scene()
    start = resolve_of(table, nova)
    before = table.position()
    body = {"receiver_id": bolt, "scene_id": scene, "purpose": "holds the ladder"}
    gift = table.post(f"/v1/characters/{nova}/resolve-gifts", body, table.player, status=200)
    assert gift["giver"]["resources"]["resolve"]["current"] == start - 1
    assert gift["receiver"]["resources"]["resolve"]["current"] == start + 1
    assert (resolve_of(table, nova), resolve_of(table, bolt)) == (start - 1, start + 1)
    assert log_types(table, before, gift["position"]) == [
        "Character.ResolveGiven",
        "Character.ResolveReceived",
    ]
    replay = table.get(f"/v1/scenes/{scene}/replay?min_position={gift['position']}")
    assert any("holds the ladder" in step["text"] for step in replay["steps"])


def test_giving_from_afar_costs_two_and_needs_a_flashback_wcbh_20a(table: Table) -> None:
    nova, bolt = table.character(table.player, "Nova"), table.character(table.other_player, "Bolt")
    scene = table.scene()
    start = resolve_of(table, nova)
    path = f"/v1/characters/{nova}/resolve-gifts"
    body = {"receiver_id": bolt, "scene_id": scene, "purpose": "advice", "directly": False}
    error = refused(table, path, body, table.player, 422)
    assert (error["field"], error["rule"]) == ("flashback", "WCBH-20a")
    body["flashback"] = "Nova taught Bolt this trick last summer"
    table.post(path, body, table.player, status=200)
    assert (resolve_of(table, nova), resolve_of(table, bolt)) == (start - 2, start + 1)


def test_giving_resolve_one_does_not_have_is_refused_and_writes_nothing_wcbh_20a(
    table: Table,
) -> None:
    giver, bolt = spent_hero(table, table.player), table.character(table.other_player, "Bolt")
    scene = table.scene()
    body = {"receiver_id": bolt, "scene_id": scene, "purpose": "cheers"}
    error = refused(table, f"/v1/characters/{giver}/resolve-gifts", body, table.player, 409)
    assert (error["code"], error["rule"]) == ("not_enough_resolve", "WCBH-20a")
    assert error["rule"].startswith("WCBH-20")


def test_a_player_gives_only_from_its_own_characters_wcbh_20a(table: Table) -> None:
    nova, bolt = table.character(table.player, "Nova"), table.character(table.other_player, "Bolt")
    scene = table.scene()
    body = {"receiver_id": bolt, "scene_id": scene, "purpose": "mine now"}
    refused(table, f"/v1/characters/{nova}/resolve-gifts", body, table.other_player, 403)
    refused(table, f"/v1/characters/{nova}/resolve-gifts", body, table.observer, 403)
    error = refused(
        table,
        f"/v1/characters/{nova}/resolve-gifts",
        {**body, "receiver_id": nova},
        table.player,
        422,
    )
    assert error["field"] == "receiver_id"


# ---- WCBH-20e ------------------------------------------------------------------------------------


def test_luck_is_pending_until_the_gm_approves_it_once_wcbh_20e(table: Table) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    start = resolve_of(table, nova)
    asked = table.post(
        f"/v1/characters/{nova}/luck-requests",
        {"scene_id": scene, "detail": "lands in a mattress truck"},
        table.player,
    )
    assert (asked["status"], asked["resolve"]) == ("pending", start)
    pending = view(table, nova)["luck_requests"][asked["id"]]
    assert (pending["status"], pending["detail"]) == ("pending", "lands in a mattress truck")
    decision = f"/v1/characters/{nova}/luck-requests/{asked['id']}/decision"
    refused(table, decision, {"approve": True}, table.player, 403)
    approved = table.post(decision, {"approve": True, "note": "why not"}, status=200)
    assert (approved["status"], approved["resolve"]) == ("approved", start - 1)
    assert view(table, nova)["luck_requests"][asked["id"]]["status"] == "approved"
    error = refused(table, decision, {"approve": True}, None, 409)
    assert (error["code"], error["rule"]) == ("luck_already_decided", "WCBH-20e")
    assert resolve_of(table, nova) == start - 1


def test_declined_luck_costs_nothing_and_luck_needs_resolve_wcbh_20e(table: Table) -> None:
    nova, spent = table.character(table.player, "Nova"), spent_hero(table, table.player)
    scene = table.scene()
    start = resolve_of(table, nova)
    asked = table.post(
        f"/v1/characters/{nova}/luck-requests", {"scene_id": scene, "detail": "a cab"}, table.player
    )
    declined = table.post(
        f"/v1/characters/{nova}/luck-requests/{asked['id']}/decision",
        {"approve": False},
        status=200,
    )
    assert (declined["status"], declined["resolve"]) == ("declined", start)
    error = refused(
        table,
        f"/v1/characters/{spent}/luck-requests",
        {"scene_id": scene, "detail": "a cab"},
        table.player,
        409,
    )
    assert error["rule"] == "WCBH-20e"
    refused(
        table,
        f"/v1/characters/{nova}/luck-requests",
        {"scene_id": scene, "detail": "a cab"},
        table.other_player,
        403,
    )


def test_approving_luck_checks_the_resolve_is_still_there_wcbh_20e(table: Table) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    start = resolve_of(table, nova)
    asked = table.post(
        f"/v1/characters/{nova}/luck-requests", {"scene_id": scene, "detail": "a cab"}, table.player
    )
    table.post(
        f"/v1/characters/{nova}/resources",
        {"resource": "resolve", "change": -start, "reason": "spent elsewhere"},
        status=200,
    )
    decision = f"/v1/characters/{nova}/luck-requests/{asked['id']}/decision"
    error = refused(table, decision, {"approve": True}, None, 409)
    assert (error["code"], error["rule"]) == ("not_enough_resolve", "WCBH-20e")
    assert view(table, nova)["luck_requests"][asked["id"]]["status"] == "pending"


# ---- WCBH-20f ------------------------------------------------------------------------------------


def test_imitating_a_power_costs_one_resolve_for_the_scene_at_the_traits_rank_wcbh_20f(
    table: Table,
) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    start = resolve_of(table, nova)
    body = {"character_id": nova, "trait": "agility", "power": "Wall Crawling", "purpose": "up"}
    imitated = table.post(f"/v1/scenes/{scene}/imitations", body, table.player, status=200)
    assert imitated["imitations"] == [
        {
            "character_id": nova,
            "trait": "Agility",
            "power": "Wall Crawling",
            "rank": 5,
            "purpose": "up",
            "page": 1,
        }
    ]
    assert resolve_of(table, nova) == start - 1
    path = f"/v1/scenes/{scene}/imitations"
    talent = refused(table, path, {**body, "trait": "Stealth"}, table.player, 422)
    assert (talent["field"], talent["rule"]) == ("trait", "WCBH-20f")
    owned = refused(table, path, {**body, "power": "flight"}, table.player, 422)
    assert (owned["field"], owned["rule"]) == ("power", "WCBH-20f")
    refused(table, path, body, table.other_player, 403)
    spent = spent_hero(table, table.player)
    broke = refused(table, path, {**body, "character_id": spent}, table.player, 409)
    assert broke["rule"] == "WCBH-20f"


# ---- WCBH-19 -------------------------------------------------------------------------------------


def test_a_last_gasp_is_only_at_zero_resolve_wcbh_19(table: Table) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    error = refused(
        table, f"/v1/characters/{nova}/last-gasp", {"scene_id": scene}, table.player, 409
    )
    assert (error["code"], error["rule"]) == ("resolve_not_zero", "WCBH-19")


def test_a_last_gasp_is_spent_in_its_page_then_unconscious_to_the_scene_end_wcbh_19(
    table: Table,
) -> None:
    hero = spent_hero(table, table.player)
    scene = table.scene()
    gasp = table.post(
        f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200
    )
    assert gasp["resources"]["resolve"]["current"] == 1
    assert gasp["last_gasp"] == {"scene_id": scene, "page": 1, "unconscious": False}
    assert roll(table, scene, hero, table.player, resolve=1).status_code == 201
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    out = view(table, hero)
    assert (out["status"], out["resources"]["resolve"]["current"]) == ("unconscious", 0)
    assert out["last_gasp"]["unconscious"] is True
    before = table.position()
    blocked = roll(table, scene, hero, table.player)
    assert blocked.status_code == 409 and blocked.json()["error"]["rule"] == "WCBH-19"
    assert table.position() == before
    again = refused(
        table, f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, 409
    )
    assert again["rule"] == "WCBH-19"
    table.post(f"/v1/scenes/{scene}/close", status=200)
    back = view(table, hero)
    assert (back["status"], back["last_gasp"]) == ("active", None)


def test_an_unspent_last_gasp_is_gone_when_the_page_ends_wcbh_19(table: Table) -> None:
    hero = spent_hero(table, table.player)
    scene = table.scene()
    table.post(f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200)
    advanced = table.post(f"/v1/scenes/{scene}/pages", status=200)
    assert resolve_of(table, hero) == 0
    replay = table.get(f"/v1/scenes/{scene}/replay?min_position={advanced['position']}")
    assert any("1 unspent Resolve is gone" in step["text"] for step in replay["steps"])


def test_resolve_spent_during_a_last_gasp_spends_the_gasp_first_wcbh_19(table: Table) -> None:
    hero, friend = spent_hero(table, table.player), table.character(table.other_player, "Bolt")
    scene = table.scene()
    table.post(f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200)
    table.post(
        f"/v1/characters/{friend}/resolve-gifts",
        {"receiver_id": hero, "scene_id": scene, "purpose": "hang on"},
        table.other_player,
        status=200,
    )
    assert roll(table, scene, hero, table.player, resolve=1).status_code == 201
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    assert resolve_of(table, hero) == 1  # the gift is kept; the gasp was spent


def test_an_unconscious_character_gives_only_from_afar_wcbh_19(table: Table) -> None:
    hero, friend = spent_hero(table, table.player), table.character(table.other_player, "Bolt")
    scene = table.scene()
    table.post(f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200)
    table.post(
        f"/v1/characters/{friend}/resolve-gifts",
        {"receiver_id": hero, "scene_id": scene, "purpose": "hang on"},
        table.other_player,
        status=200,
    )
    table.post(
        f"/v1/characters/{friend}/resolve-gifts",
        {"receiver_id": hero, "scene_id": scene, "purpose": "hang on"},
        table.other_player,
        status=200,
    )
    table.post(f"/v1/scenes/{scene}/pages", status=200)  # the gasp is gone, 2 are kept
    body = {"receiver_id": friend, "scene_id": scene, "purpose": "a whisper"}
    error = refused(table, f"/v1/characters/{hero}/resolve-gifts", body, table.player, 409)
    assert (error["code"], error["rule"]) == ("cannot_help_directly", "WCBH-20a")
    afar = {**body, "directly": False, "flashback": "the plan she drew last night"}
    table.post(f"/v1/characters/{hero}/resolve-gifts", afar, table.player, status=200)
    assert resolve_of(table, hero) == 0


# ---- WCBH-21 -------------------------------------------------------------------------------------


def test_a_scene_has_its_own_adversity_pool_never_below_zero_wcbh_21(table: Table) -> None:
    table.character(table.player, "Nova")
    scene = table.scene()
    issue = table.get(f"/v1/scenes/{scene}")["issue_id"]
    opened = table.post(
        f"/v1/scenes/{scene}/pools/open",
        {"pool": "adversity", "amount": 3, "reason": "the final battle"},
        status=200,
    )
    assert opened["pools"] == {"adversity": 3}
    twice = {"pool": "adversity", "amount": 1, "reason": "again"}
    assert refused(table, f"/v1/scenes/{scene}/pools/open", twice, None, 409)["rule"] == "WCBH-21"
    spent = table.post(
        f"/v1/scenes/{scene}/pools",
        {"pool": "adversity", "change": -2, "reason": "the floor gives way"},
        status=200,
    )
    assert spent["pools"] == {"adversity": 1}
    assert table.get(f"/v1/scenes/{scene}")["pools"] == {"adversity": 1}
    assert table.get(f"/v1/issues/{issue}")["pools"] == {"adversity": 1}  # the Issue's is apart
    over = {"pool": "adversity", "change": -2, "reason": "too much"}
    error = refused(table, f"/v1/scenes/{scene}/pools", over, None, 409)
    assert (error["code"], error["rule"]) == ("not_enough_adversity", "WCBH-21")
    refused(table, f"/v1/scenes/{scene}/pools", over, table.player, 403)
    kind = {"pool": "doom", "amount": 1, "reason": "?"}
    assert refused(table, f"/v1/scenes/{scene}/pools/open", kind, None, 422)["field"] == "pool"


def test_the_villainous_deed_is_once_per_game_issue_wcbh_21(table: Table) -> None:
    table.character(table.player, "Nova")
    table.character(table.other_player, "Bolt")
    villain = character(table, None, "Dr. Null", side="villain")
    issue = table.issue()
    body = {"villain_id": villain, "description": "the city's power goes out"}
    deed = table.post(f"/v1/issues/{issue}/villainous-deed", body, status=200)
    assert deed["pools"] == {"adversity": 1}
    assert deed["villainous_deed"] == {
        "villain_id": villain,
        "description": "the city's power goes out",
        "scene_id": None,
    }
    error = refused(table, f"/v1/issues/{issue}/villainous-deed", body, None, 409)
    assert (error["code"], error["rule"]) == ("villainous_deed_done", "WCBH-21")
    assert table.get(f"/v1/issues/{issue}")["pools"] == {"adversity": 1}


def test_the_villainous_deed_may_spend_the_scenes_pool_and_needs_a_villain_wcbh_21(
    table: Table,
) -> None:
    hero = table.character(table.player, "Nova")
    villain = character(table, None, "Dr. Null", side="villain")
    issue = table.issue()
    scene = table.scene(issue)
    body = {"villain_id": villain, "description": "a bomb", "scene_id": scene}
    none_yet = refused(table, f"/v1/issues/{issue}/villainous-deed", body, None, 422)
    assert none_yet["field"] == "pool"  # the scene has no pool of its own yet
    table.post(
        f"/v1/scenes/{scene}/pools/open",
        {"pool": "adversity", "amount": 1, "reason": "finale"},
        status=200,
    )
    hero_deed = refused(
        table, f"/v1/issues/{issue}/villainous-deed", {**body, "villain_id": hero}, None, 422
    )
    assert (hero_deed["field"], hero_deed["rule"]) == ("villain_id", "WCBH-21")
    refused(table, f"/v1/issues/{issue}/villainous-deed", body, table.player, 403)
    deed = table.post(f"/v1/issues/{issue}/villainous-deed", body, status=200)
    assert deed["pools"] == {"adversity": 1} and deed["villainous_deed"]["scene_id"] == scene
    assert table.get(f"/v1/scenes/{scene}")["pools"] == {"adversity": 0}


# ---- WCBH-16 -------------------------------------------------------------------------------------


def test_a_decisive_moment_names_its_effort_wcbh_16(table: Table) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    before = table.position()
    missing = roll(table, scene, nova, table.player, decisive_moment=True)
    assert missing.status_code == 422
    assert (missing.json()["error"]["field"], missing.json()["error"]["rule"]) == (
        "request.effort",
        "WCBH-16",
    )
    stray = roll(table, scene, nova, table.player, effort="mental")
    assert stray.status_code == 422
    assert table.position() == before


def test_a_decisive_moment_owes_one_ability_of_its_effort_once_wcbh_16(table: Table) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    dm = roll(table, scene, nova, table.player, decisive_moment=True, effort="physical")
    assert dm.status_code == 201, dm.text
    roll_id = dm.json()["id"]
    owed = view(table, nova)["owed_ability_losses"]
    assert owed == {
        roll_id: {
            "effort": "physical",
            "scene_id": scene,
            "options": ["Agility", "Strength", "Stamina"],
        }
    }
    path = f"/v1/characters/{nova}/ability-losses"
    wrong = refused(table, path, {"roll_id": roll_id, "ability": "Will"}, table.player, 422)
    assert (wrong["field"], wrong["rule"]) == ("ability", "WCBH-16")
    refused(table, path, {"roll_id": roll_id, "ability": "Agility"}, table.other_player, 403)
    before = view(table, nova)
    lost = table.post(path, {"roll_id": roll_id, "ability": "agility"}, table.player, status=200)
    assert lost["sheet"]["abilities"]["Agility"] == before["sheet"]["abilities"]["Agility"] - 1
    assert lost["derived"]["edge"] == before["derived"]["edge"] - 1  # Perception 4 + Agility 4
    assert lost["owed_ability_losses"] == {}
    assert lost["lowered_abilities"] == [{"ability": "Agility", "roll_id": roll_id}]
    again = refused(table, path, {"roll_id": roll_id, "ability": "Strength"}, table.player, 409)
    assert (again["code"], again["rule"]) == ("ability_loss_recorded", "WCBH-16")
    other = refused(table, path, {"roll_id": scene, "ability": "Strength"}, table.player, 422)
    assert other["rule"] == "WCBH-16"


def test_a_lower_stamina_lowers_health_and_the_gm_restores_only_a_lowered_rank_wcbh_16(
    table: Table,
) -> None:
    nova = table.character(table.player, "Nova")
    scene = table.scene()
    dm = roll(table, scene, nova, table.player, decisive_moment=True, effort="physical")
    health = view(table, nova)["derived"]["health"]  # ceil((Stamina 5 + Will 6) / 2) = 6
    lost = table.post(
        f"/v1/characters/{nova}/ability-losses",
        {"roll_id": dm.json()["id"], "ability": "Stamina"},
        table.player,
        status=200,
    )
    assert lost["derived"]["health"] == health - 1
    assert lost["resources"]["health"]["current"] == health - 1  # capped at the new maximum
    path = f"/v1/characters/{nova}/ability-restorations"
    refused(table, path, {"ability": "Stamina", "reason": "5 XP"}, table.player, 403)
    never = refused(table, path, {"ability": "Will", "reason": "5 XP"}, None, 422)
    assert (never["field"], never["rule"]) == ("ability", "WCBH-16")
    restored = table.post(path, {"ability": "stamina", "reason": "5 XP"}, status=200)
    assert restored["sheet"]["abilities"]["Stamina"] == 5
    assert restored["derived"]["health"] == health
    assert restored["lowered_abilities"] == []
    twice = refused(table, path, {"ability": "Stamina", "reason": "5 XP"}, None, 422)
    assert twice["rule"] == "WCBH-16"


def test_the_views_tell_the_resolve_area_like_the_character_wcbh_16_19_20(table: Table) -> None:
    nova, hero = table.character(table.player, "Nova"), spent_hero(table, table.player)
    scene = table.scene()
    dm = roll(table, scene, nova, table.player, decisive_moment=True, effort="mental")
    table.post(
        f"/v1/characters/{nova}/ability-losses",
        {"roll_id": dm.json()["id"], "ability": "Perception"},
        table.player,
        status=200,
    )
    table.post(
        f"/v1/characters/{nova}/luck-requests",
        {"scene_id": scene, "detail": "a cab"},
        table.player,
    )
    table.post(f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200)
    last = table.post(f"/v1/scenes/{scene}/pages", status=200)["position"]
    for character_id in (nova, hero):
        now = view(table, character_id)
        seen = table.get(f"/v1/characters/{character_id}?at_position={last}&min_position={last}")
        for key in ("status", "sheet", "derived", "resources", "last_gasp", "luck_requests"):
            assert seen[key] == now[key], key
        assert seen["owed_ability_losses"] == now["owed_ability_losses"]
        assert seen["lowered_abilities"] == now["lowered_abilities"]


# ---- issue #5: availability ----------------------------------------------------------------------


def availability(table: Table, scene: str, token: str | None = None) -> dict[str, Any]:
    return table.get(f"/v1/scenes/{scene}/availability?min_position={table.position()}", token)  # type: ignore[no-any-return]


def test_availability_says_what_is_left_in_the_scene_issue_and_story(table: Table) -> None:
    nova, bolt = table.character(table.player, "Nova"), table.character(table.other_player, "Bolt")
    villain = character(table, None, "Dr. Null", side="villain")
    issue = table.issue()
    scene = table.scene(issue)
    fresh = availability(table, scene, table.observer)
    assert fresh["gm"] == {
        "adversity": {"issue": 2, "scene": None},
        "villainous_deed": {"available": True},
    }
    first = {c["name"]: c for c in fresh["characters"]}
    assert set(first) == {"Nova", "Bolt", "Dr. Null"}
    assert set(first["Nova"]["scene"]) == {
        "decisive_moment",
        "back_in_the_fight",
        "team_attack",
        "last_gasp",
    }
    assert first["Nova"]["scene"]["decisive_moment"] == {
        "rule": "WCBH-15",
        "available": True,
        "used_by": [],
    }
    start = first["Nova"]["issue"]["starting_resolve"]
    assert first["Nova"]["issue"] == {"resolve": start, "starting_resolve": start}

    assert roll(table, scene, nova, table.player, decisive_moment=True, effort="mental").is_success
    table.post(
        f"/v1/scenes/{scene}/imitations",
        {"character_id": bolt, "trait": "Agility", "power": "Wall Crawling"},
        table.other_player,
        status=200,
    )
    table.post(
        f"/v1/issues/{issue}/villainous-deed",
        {"villain_id": villain, "description": "a bomb"},
        status=200,
    )
    after = availability(table, scene, table.player)
    by_name = {c["name"]: c for c in after["characters"]}
    assert by_name["Nova"]["scene"]["decisive_moment"] == {
        "rule": "WCBH-15",
        "available": False,
        "used_by": [nova],
    }
    assert by_name["Bolt"]["scene"]["decisive_moment"]["available"] is False  # one hero's
    assert by_name["Dr. Null"]["scene"]["decisive_moment"]["available"] is True  # not a hero
    assert by_name["Nova"]["story"]["decisive_moment"]["available"] is False
    assert by_name["Bolt"]["story"]["decisive_moment"]["available"] is True
    assert by_name["Bolt"]["issue"] == {"resolve": start - 1, "starting_resolve": start}
    assert after["gm"]["adversity"] == {"issue": 1, "scene": None}
    assert after["gm"]["villainous_deed"]["available"] is False
    assert after["gm"]["villainous_deed"]["villain_id"] == villain


def test_availability_shows_the_last_gasp_and_the_scenes_pool_wcbh_19_21(table: Table) -> None:
    hero = spent_hero(table, table.player)
    scene = table.scene()
    table.post(
        f"/v1/scenes/{scene}/pools/open",
        {"pool": "adversity", "amount": 2, "reason": "finale"},
        status=200,
    )
    table.post(f"/v1/characters/{hero}/last-gasp", {"scene_id": scene}, table.player, status=200)
    seen = availability(table, scene)
    assert seen["gm"]["adversity"]["scene"] == 2
    (mine,) = seen["characters"]
    assert mine["scene"]["last_gasp"] == {"rule": "WCBH-19", "available": False, "used_by": [hero]}
    assert mine["scene"]["back_in_the_fight"]["available"] is True


def test_availability_needs_a_member_of_the_campaign(table: Table) -> None:
    scene = table.scene()
    assert table.client.get(f"/v1/scenes/{scene}/availability").status_code == 401
    foreign = table.client.get(f"/v1/scenes/{scene}/availability", headers=bearer(table.foreign))
    assert foreign.status_code == 404
    ok(
        table.client.get(
            f"/v1/scenes/{scene}/availability?min_position={table.position()}",
            headers=bearer(table.observer),
        )
    )
