"""The public proof page, GET /proof/{roll_id}: opt-in per campaign, no token, one 404 for
everything that is not a public roll, and no seed before the scene closes."""

from __future__ import annotations

import json
import re
from typing import Any
from uuid import uuid4

import pytest

from tests.api.support import Table, bearer, error_apart_from_its_request, ok

# The page reads the roll, its scene, campaign and character from the event store.
pytestmark = pytest.mark.store


def roll_in_open_scene(table: Table, name: str = "Nova") -> tuple[str, dict[str, Any]]:
    hero = table.character(table.player, name=name)
    scene = table.scene()
    body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility"}}
    return scene, dict(table.post(f"/v1/scenes/{scene}/rolls", body, table.player))


def set_public(table: Table, public: bool, token: str | None = None) -> Any:
    return table.client.put(
        f"/v1/campaigns/{table.campaign_id}/proof-pages",
        json={"public": public},
        headers=bearer(token or table.gm),
    )


def page(table: Table, roll_id: str) -> Any:
    return table.client.get(f"/proof/{roll_id}")  # no token


def data_of(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="proof-data">(.*?)</script>', html)
    assert found is not None, html
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_a_new_campaign_s_proof_pages_are_not_public(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    assert table.get(f"/v1/campaigns/{table.campaign_id}")["proof_pages_public"] is False
    assert page(table, roll["id"]).status_code == 404


def test_every_id_that_is_no_public_roll_gets_the_same_404(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    private = page(table, roll["id"])
    ok(set_public(table, True))
    others = [str(uuid4()), table.campaign_id, "not-an-id"]
    answers = [page(table, i) for i in others]
    assert [a.status_code for a in [private, *answers]] == [404] * 4
    bodies = [error_apart_from_its_request(a) for a in [private, *answers]]
    assert all(body == bodies[0] for body in bodies)


def test_the_gm_opens_the_proof_pages_and_anyone_reads_one_without_a_token(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    campaign = ok(set_public(table, True))
    assert campaign["proof_pages_public"] is True
    answer = page(table, roll["id"])
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    html = answer.text
    assert 'Nova</strong> rolled <span id="what">Agility check' in html
    assert roll["proof"]["commitment"] in html
    for face in roll["faces"]:
        assert f'<td class="face">{face["face"]}</td>' in html
    data = data_of(html)
    assert [f["face"] for f in data["faces"]] == [f["face"] for f in roll["faces"]]
    assert (
        data["nonce"] == str(roll["nonce"]) and data["client_seed"] == roll["proof"]["client_seed"]
    )


def test_no_seed_is_on_the_page_before_the_scene_closes_and_it_is_after(table: Table) -> None:
    scene, roll = roll_in_open_scene(table)
    ok(set_public(table, True))
    sealed = page(table, roll["id"]).text
    assert 'data-state="sealed"' in sealed and "still sealed" in sealed
    assert [e["seed"] for e in data_of(sealed)["epochs"]] == [None]
    table.post(f"/v1/scenes/{scene}/close", None, status=200)
    seed = table.get(f"/v1/rolls/{roll['id']}")["proof"]["seed"]
    assert seed is not None and seed not in sealed
    revealed = page(table, roll["id"]).text
    assert 'data-state="pending"' in revealed
    assert data_of(revealed)["epochs"] == [
        {"commitment": roll["proof"]["commitment"], "seed": seed}
    ]


def test_the_gm_closes_the_proof_pages_again(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    ok(set_public(table, True))
    assert ok(set_public(table, False))["proof_pages_public"] is False
    assert page(table, roll["id"]).status_code == 404


def test_only_the_gm_sets_the_proof_pages(table: Table) -> None:
    for token in (table.player, table.observer):
        answer = set_public(table, True, token)
        assert answer.status_code == 403, answer.text
    assert table.get(f"/v1/campaigns/{table.campaign_id}")["proof_pages_public"] is False


def test_a_setting_that_is_no_boolean_is_422_naming_public(table: Table) -> None:
    answer = table.client.put(
        f"/v1/campaigns/{table.campaign_id}/proof-pages",
        json={"public": "maybe"},
        headers=bearer(table.gm),
    )
    assert answer.status_code == 422
    assert "public" in answer.json()["error"]["field"]
    assert table.get(f"/v1/campaigns/{table.campaign_id}")["proof_pages_public"] is False


def test_names_are_escaped_on_the_page(table: Table) -> None:
    _, roll = roll_in_open_scene(table, name="<script>alert(1)</script>")
    ok(set_public(table, True))
    html = page(table, roll["id"]).text
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_roll_s_text_links_to_its_proof_page_once_the_pages_are_public(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    text = f"/v1/rolls/{roll['id']}/text"
    before = table.client.get(text, headers=bearer(table.player)).text
    assert before.endswith(f"proof: http://testserver/v1/rolls/{roll['id']}/verification")
    ok(set_public(table, True))
    after = table.client.get(text, headers=bearer(table.player)).text
    assert after.endswith(f"proof: http://testserver/proof/{roll['id']}")


def test_the_setting_is_recorded_in_the_campaign_s_log(table: Table) -> None:
    written = ok(set_public(table, True))
    log = f"/v1/campaigns/{table.campaign_id}/events?limit=1000&min_position={written['position']}"
    events = table.get(log)["items"]
    [entry] = [e for e in events if e["type"] == "Campaign.ProofPagesSet"]
    assert entry["payload"] == {"public": True}
    assert entry["actor"] == table.member_id(table.gm)


def test_the_page_s_script_and_stylesheet_come_from_this_server(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    ok(set_public(table, True))
    html = page(table, roll["id"]).text
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/proof/assets/") for s in sources), sources
    for source in sources:
        answer = table.client.get(source)
        assert answer.status_code == 200, source
    script = table.client.get("/proof/assets/proof.js")
    assert "javascript" in script.headers["content-type"]
    assert "HMAC" in script.text and not re.search(r"https?://", script.text)


def test_a_rotated_seed_opens_the_check_of_the_rolls_made_before_it(table: Table) -> None:
    scene, roll = roll_in_open_scene(table)
    ok(set_public(table, True))
    rotated = table.post(f"/v1/scenes/{scene}/seed/rotate", status=200)
    data = data_of(page(table, roll["id"]).text)
    [epoch] = [e for e in data["epochs"] if e["commitment"] == roll["proof"]["commitment"]]
    assert epoch["seed"] is not None and epoch["seed"] in json.dumps(rotated)
    assert [e["seed"] for e in data["epochs"] if e is not epoch] == [None]  # the new one: sealed


def test_a_follow_up_has_a_proof_page_of_its_own(table: Table) -> None:
    _, roll = roll_in_open_scene(table)
    ok(set_public(table, True))
    body = {"follow_up": "resolve_dice", "request": {"resolve": 1}}
    follow_up = table.post(f"/v1/rolls/{roll['id']}/follow-ups", body, table.player)
    html = page(table, follow_up["id"]).text
    assert "resolve dice (a follow-up of trait)" in html
    data = data_of(html)
    assert [f["face"] for f in data["faces"]] == [f["face"] for f in follow_up["faces"]]
    assert data["nonce"] == str(follow_up["nonce"]) != str(roll["nonce"])


def test_a_secret_gm_roll_has_no_public_page_until_the_gm_reveals_it(table: Table) -> None:
    scene, _ = roll_in_open_scene(table)
    villain = table.character(table.gm, name="Dr. Null")
    body = {"check": "trait", "character_id": villain, "request": {"trait": "Agility"}}
    secret = table.post(f"/v1/scenes/{scene}/rolls", {**body, "secret": True}, table.gm)
    ok(set_public(table, True))
    unknown = page(table, str(uuid4()))
    hidden = page(table, secret["id"])
    assert hidden.status_code == 404
    assert error_apart_from_its_request(hidden) == error_apart_from_its_request(unknown)
    table.post(f"/v1/rolls/{secret['id']}/reveal", status=200)
    shown = page(table, secret["id"])
    assert shown.status_code == 200
    assert data_of(shown.text)["faces"] == [
        {"index": f["index"], "sides": f["sides"], "face": f["face"]}
        for f in table.get(f"/v1/rolls/{secret['id']}")["faces"]
    ]
