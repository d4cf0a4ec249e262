"""Access control: every endpoint × {no token, GM, owning player, other player, observer, foreign GM}."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.api.support import Table, bearer

ROLES = ("none", "foreign", "observer", "other_player", "owner", "gm")  # the GM goes last: it succeeds


@dataclass(frozen=True)
class Case:
    method: str
    path: Callable[[Table], str]
    body: Callable[[Table], Any]
    expect: dict[str, int]


def reads(ok: int = 200) -> dict[str, int]:
    return {"none": 401, "foreign": 404, "observer": ok, "other_player": ok, "owner": ok, "gm": ok}


def gm_only(ok: int) -> dict[str, int]:
    return {"none": 401, "foreign": 404, "observer": 403, "other_player": 403, "owner": 403, "gm": ok}


def owner_and_gm(ok: int) -> dict[str, int]:
    return {"none": 401, "foreign": 404, "observer": 403, "other_player": 403, "owner": ok, "gm": ok}


def no_body(_: Table) -> None:
    return None


CASES: dict[str, Case] = {
    "get campaign": Case("GET", lambda t: f"/v1/campaigns/{t.campaign_id}", no_body, reads()),
    "add member": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/members",
        lambda t: {"name": "Ed", "role": "player"},
        gm_only(201),
    ),
    "create character for the owner": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/characters",
        lambda t: {
            "name": "Nova",
            "side": "hero",
            "owner_member_id": t.player_id,
            "sheet": t.example_sheet,
        },
        owner_and_gm(201),
    ),
    "get character": Case("GET", lambda t: f"/v1/characters/{t.character(t.player)}", no_body, reads()),
    "replace sheet": Case(
        "PUT",
        lambda t: f"/v1/characters/{t.character(t.player)}/sheet",
        lambda t: {"sheet": t.example_sheet},
        owner_and_gm(200),
    ),
    "start story": Case(
        "POST", lambda t: f"/v1/campaigns/{t.campaign_id}/stories", lambda t: {"title": "S"}, gm_only(201)
    ),
    "get story": Case("GET", lambda t: f"/v1/stories/{t.story()}", no_body, reads()),
    "complete story": Case("POST", lambda t: f"/v1/stories/{t.story()}/complete", no_body, gm_only(200)),
    "start game issue": Case(
        "POST", lambda t: f"/v1/stories/{t.story()}/issues", lambda t: {"title": "I"}, gm_only(201)
    ),
    "get game issue": Case("GET", lambda t: f"/v1/issues/{t.issue()}", no_body, reads()),
    "end game issue": Case("POST", lambda t: f"/v1/issues/{t.issue()}/end", no_body, gm_only(200)),
    "open scene": Case(
        "POST", lambda t: f"/v1/issues/{t.issue()}/scenes", lambda t: {"title": "Sc"}, gm_only(201)
    ),
    "get scene": Case("GET", lambda t: f"/v1/scenes/{t.scene()}", no_body, reads()),
    "advance page": Case("POST", lambda t: f"/v1/scenes/{t.scene()}/pages", no_body, gm_only(200)),
    "close scene": Case("POST", lambda t: f"/v1/scenes/{t.scene()}/close", no_body, gm_only(200)),
    "create mission": Case(
        "POST", lambda t: f"/v1/campaigns/{t.campaign_id}/missions", lambda t: {"title": "M"}, gm_only(201)
    ),
    "get mission": Case("GET", lambda t: f"/v1/missions/{t.mission()}", no_body, reads()),
    "end mission": Case(
        "POST", lambda t: f"/v1/missions/{t.mission()}/end", lambda t: {"outcome": "failed"}, gm_only(200)
    ),
}


def token_of(table: Table, role: str) -> dict[str, str]:
    tokens = {
        "none": None,
        "foreign": table.foreign,
        "observer": table.observer,
        "other_player": table.other_player,
        "owner": table.player,
        "gm": table.gm,
    }
    token = tokens[role]
    return bearer(token) if token else {}


@pytest.mark.parametrize("name", list(CASES))
def test_each_role_gets_exactly_its_status(table: Table, name: str) -> None:
    case = CASES[name]
    path, body = case.path(table), case.body(table)
    seen = {}
    for role in ROLES:
        before = table.position()
        response = table.client.request(case.method, path, json=body, headers=token_of(table, role))
        seen[role] = response.status_code
        if response.status_code >= 400:
            assert "error" in response.json(), response.text
            assert table.position() == before, f"{role} was refused but something was written"
    assert seen == case.expect


def test_a_token_with_a_wrong_secret_is_unauthenticated(table: Table) -> None:
    forged = table.gm[:-4] + ("AAAA" if not table.gm.endswith("AAAA") else "BBBB")
    response = table.client.get(f"/v1/campaigns/{table.campaign_id}", headers=bearer(forged))
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"


@pytest.mark.parametrize("header", ["Bearer", "Basic abc", "Bearer not-a-token", "Bearer chr_x_y_z"])
def test_malformed_authorization_is_unauthenticated(table: Table, header: str) -> None:
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}", headers={"Authorization": header}
    )
    assert response.status_code == 401


def test_creating_a_campaign_and_reading_rulesets_need_no_token(table: Table) -> None:
    assert table.client.post("/v1/campaigns", json={"name": "A", "ruleset": "nimble"}).status_code == 201
    assert table.client.get("/v1/rulesets").status_code == 200
    assert table.client.get("/health").status_code == 200


def test_a_player_cannot_create_a_character_for_another_player(table: Table) -> None:
    body = {
        "name": "Nova",
        "side": "hero",
        "owner_member_id": table.member_id(table.other_player),
        "sheet": table.example_sheet,
    }
    response = table.client.post(
        f"/v1/campaigns/{table.campaign_id}/characters", json=body, headers=bearer(table.player)
    )
    assert response.status_code == 403


def test_a_player_s_character_defaults_to_its_own(table: Table) -> None:
    character_id = table.character(table.player)
    assert table.get(f"/v1/characters/{character_id}")["owner_member_id"] == table.player_id


def test_authentication_comes_before_waiting_for_min_position(table: Table) -> None:
    story_id = table.story()
    position = table.position()
    response = table.client.get(f"/v1/stories/{story_id}?min_position={position}")
    assert response.status_code == 401
