"""Bad input gets a clear 4xx in one JSON shape, naming the field; never a 500; nothing is written."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.api.support import Table, bearer


def refused(table: Table, method: str, path: str, status: int, **kwargs: Any) -> dict[str, Any]:
    before = table.position()
    headers = {**bearer(table.gm), **kwargs.pop("headers", {})}
    response = table.client.request(method, path, headers=headers, **kwargs)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] and error["message"]
    assert table.position() == before, "a refused request wrote something"
    return error  # type: ignore[no-any-return]


def test_an_unknown_ruleset_is_refused_naming_the_field(table: Table) -> None:
    error = refused(table, "POST", "/v1/campaigns", 422, json={"name": "X", "ruleset": "dnd5e"})
    assert error["field"] == "ruleset"


def test_bad_ruleset_settings_are_refused_naming_the_setting(table: Table) -> None:
    error = refused(
        table,
        "POST",
        "/v1/campaigns",
        422,
        json={"name": "X", "ruleset": "wcbh", "settings": {"trait_limit": -3}},
    )
    assert error["field"].startswith("settings.trait_limit")


def test_a_sheet_missing_a_trait_is_refused_naming_it(table: Table) -> None:
    sheet = copy.deepcopy(table.example_sheet)
    del sheet["abilities"]["Stamina"]
    error = refused(
        table,
        "POST",
        f"/v1/campaigns/{table.campaign_id}/characters",
        422,
        json={"name": "Nova", "side": "hero", "sheet": sheet},
    )
    assert "Stamina" in error["field"] or "Stamina" in error["message"]
    assert error["field"].startswith("sheet")


def test_a_negative_rank_is_refused_naming_the_trait(table: Table) -> None:
    sheet = copy.deepcopy(table.example_sheet)
    sheet["abilities"]["Strength"] = -1
    error = refused(
        table,
        "POST",
        f"/v1/campaigns/{table.campaign_id}/characters",
        422,
        json={"name": "Nova", "side": "hero", "sheet": sheet},
    )
    assert error["field"] == "sheet.abilities.Strength"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"side": "hero", "sheet": {}}, "name"),
        ({"name": "N", "side": "sidekick", "sheet": {}}, "side"),
        ({"name": "N", "side": "hero"}, "sheet"),
        ({"name": "", "side": "hero", "sheet": {}}, "name"),
        ({"name": "N", "side": "hero", "sheet": {}, "colour": "red"}, "colour"),
        (
            {"name": "N", "side": "hero", "sheet": {}, "owner_member_id": "nobody"},
            "owner_member_id",
        ),
    ],
)
def test_a_malformed_character_names_the_field(
    table: Table, body: dict[str, Any], field: str
) -> None:
    error = refused(table, "POST", f"/v1/campaigns/{table.campaign_id}/characters", 422, json=body)
    assert error["field"] == field


def test_an_owner_who_is_an_observer_is_refused(table: Table) -> None:
    body = {
        "name": "N",
        "side": "hero",
        "sheet": table.example_sheet,
        "owner_member_id": table.member_id(table.observer),
    }
    error = refused(table, "POST", f"/v1/campaigns/{table.campaign_id}/characters", 422, json=body)
    assert error["field"] == "owner_member_id"


def test_a_title_of_only_spaces_is_refused(table: Table) -> None:
    error = refused(
        table, "POST", f"/v1/campaigns/{table.campaign_id}/stories", 422, json={"title": "   "}
    )
    assert error["field"] == "title"


def test_malformed_json_is_400(table: Table) -> None:
    error = refused(
        table,
        "POST",
        f"/v1/campaigns/{table.campaign_id}/stories",
        400,
        content=b'{"title": "unterminated',
        headers={"Content-Type": "application/json"},
    )
    assert error["code"] == "malformed_json"


def test_an_oversized_body_is_413(table: Table) -> None:
    huge = {"title": "x" * 2_000_000}
    error = refused(table, "POST", f"/v1/campaigns/{table.campaign_id}/stories", 413, json=huge)
    assert error["code"] == "body_too_large"


def test_a_mission_linked_to_a_scene_of_another_campaign_is_refused(table: Table) -> None:
    other = Table(table.client)
    error = refused(
        table,
        "POST",
        f"/v1/campaigns/{table.campaign_id}/missions",
        422,
        json={"title": "M", "scene_id": other.scene()},
    )
    assert error["field"] == "scene_id"


def test_a_path_id_that_is_not_a_uuid_is_refused_naming_it(table: Table) -> None:
    error = refused(table, "GET", "/v1/scenes/not-a-uuid", 422)
    assert error["field"] == "scene_id"


def test_an_id_of_the_wrong_kind_is_not_found(table: Table) -> None:
    story_id = table.story()
    error = refused(table, "GET", f"/v1/scenes/{story_id}", 404)
    assert error["code"] == "not_found"


def test_unknown_routes_and_methods_answer_in_the_error_shape(table: Table) -> None:
    assert refused(table, "GET", "/v1/nowhere", 404)["code"] == "not_found"
    assert refused(table, "DELETE", f"/v1/campaigns/{table.campaign_id}", 405)["code"] == (
        "method_not_allowed"
    )


def test_an_unknown_ruleset_description_is_404(table: Table) -> None:
    assert refused(table, "GET", "/v1/rulesets/dnd5e", 404)["field"] == "ruleset_id"


def test_closing_a_closed_scene_is_a_conflict_not_a_server_error(table: Table) -> None:
    scene = table.scene()
    table.post(f"/v1/scenes/{scene}/close", status=200)
    before = table.position()
    response = table.client.post(f"/v1/scenes/{scene}/close", headers=bearer(table.gm))
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "scene_closed"
    assert table.position() == before
