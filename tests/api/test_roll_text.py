"""GET /v1/rolls/{id}/text: the line a forum plugin or a chat bot posts for a roll."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from tests.api.support import Table, bearer, ok


def rolled(table: Table, **body: Any) -> dict[str, Any]:
    hero = table.character(table.player)
    scene = table.scene()
    body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility"}, **body}
    return dict(table.post(f"/v1/scenes/{scene}/rolls", body, table.player))


def text_of(table: Table, roll_id: str, query: str = "", token: str | None = None) -> Any:
    headers = bearer(token or table.player)
    return table.client.get(f"/v1/rolls/{roll_id}/text{query}", headers=headers)


def test_a_roll_s_text_is_its_plain_line_with_a_working_proof_link(table: Table) -> None:
    roll = rolled(table)
    response = text_of(table, roll["id"])
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    proof = f"http://testserver/v1/rolls/{roll['id']}/verification"
    faces = " ".join(str(f["face"]) for f in roll["faces"])
    assert response.text.startswith(f"Nova rolled Agility check — trait {faces} — ")
    assert response.text.endswith(f" — proof: {proof}")
    ok(table.client.get(proof, headers=bearer(table.player)))


def test_the_format_chooses_the_markup(table: Table) -> None:
    roll = rolled(table)
    assert text_of(table, roll["id"], "?format=markdown").text.startswith("**Nova** rolled ")
    assert text_of(table, roll["id"], "?format=bbcode").text.startswith("[b]Nova[/b] rolled ")


def test_an_unknown_format_is_422_naming_format(table: Table) -> None:
    response = text_of(table, rolled(table)["id"], "?format=html")
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "format"


def test_a_roll_without_a_character_names_the_member_who_rolled_it(table: Table) -> None:
    scene = table.scene()
    body = {"check": "trait", "request": {"pool": 3}}
    roll = table.post(f"/v1/scenes/{scene}/rolls", body)
    line = text_of(table, roll["id"]).text
    assert line.startswith("GM rolled trait: pool 3 — trait ")


def test_a_follow_up_reads_as_what_it_follows(table: Table) -> None:
    roll = rolled(table)
    body = {"follow_up": "resolve_dice", "request": {"resolve": 1}}
    follow_up = table.post(f"/v1/rolls/{roll['id']}/follow-ups", body, table.player)
    line = text_of(table, follow_up["id"]).text
    assert line.startswith("Nova rolled resolve dice (a follow-up of trait) — resolve ")


def test_an_unknown_roll_is_404_and_no_token_is_401(table: Table) -> None:
    assert text_of(table, str(uuid4())).status_code == 404
    roll = rolled(table)
    assert table.client.get(f"/v1/rolls/{roll['id']}/text").status_code == 401
