"""Visibility through the API: GM-only characters and secret GM rolls are withheld from players
and observers on every read path (the OpenAPI's reads walked whole), shown whole to the GM, and
a secret roll's chain still verifies, before and after the GM reveals it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from domain import receipts
from domain.audit import parse_export
from tests.api.support import Table, bearer, ok, openapi_document
from tests.client import TestClient

VILLAIN = "Vesper the Unseen"
SECRET_SEED = "gm-secret-client-seed-7731"
PURPOSE = "Spot the ambush behind the curtain"


class Secrets:
    """A hero of the player's, a villain the GM hides, a scene with an open roll, a secret GM
    roll (its own client seed and purpose), and an open roll of the hidden villain."""

    def __init__(self, table: Table) -> None:
        self.table = table
        check = table.get(f"/v1/rulesets/{table.ruleset}")["checks"][0]
        self.check, self.example = check["name"], check["example"]
        self.hero = table.character(table.player)
        sheets = table.get(f"/v1/rulesets/{table.ruleset}")["example_sheets"]
        body = {"name": VILLAIN, "side": "villain", "sheet": sheets["villain"], "hidden": True}
        self.villain = table.post(f"/v1/campaigns/{table.campaign_id}/characters", body)["id"]
        self.scene = table.scene()
        fighters = {"character_ids": [self.hero, self.villain]}
        table.post(f"/v1/scenes/{self.scene}/combatants", fighters, status=200)
        self.open = self.roll(self.hero)
        self.secret = self.roll(self.hero, secret=True, client_seed=SECRET_SEED, purpose=PURPOSE)
        self.villains = self.roll(self.villain)
        self.mission = table.mission()

    def roll(self, character: str | None, purpose: str | None = None, **extra: Any) -> Any:
        request = {**self.example, **({"purpose": purpose} if purpose else {})}
        body = {"check": self.check, "request": request, "character_id": character, **extra}
        return self.table.post(f"/v1/scenes/{self.scene}/rolls", body)

    def read(self, path: str, token: str, **query: Any) -> Any:
        response = self.table.client.get(
            path, params={"min_position": self.table.position(), **query}, headers=bearer(token)
        )
        return response

    def reveal(self) -> Any:
        return self.table.post(f"/v1/rolls/{self.secret['id']}/reveal", status=200)

    def secrets(self) -> list[str]:
        """What no player's read may show: the villain (id and name), the secret roll's client
        seed and purpose, and the hidden villain's roll's client seed."""
        return [
            self.villain,
            VILLAIN,
            SECRET_SEED,
            PURPOSE,
            self.villains["proof"]["client_seed"],
        ]


@pytest.fixture
def world(table: Table) -> Secrets:
    return Secrets(table)


def test_a_secret_roll_is_chained_and_counted_but_its_contents_are_withheld(world: Secrets) -> None:
    seen = ok(world.read(f"/v1/rolls/{world.secret['id']}", world.table.player))
    assert seen["withheld"] is True
    assert (seen["check"], seen["faces"], seen["result"], seen["request"]) == (None,) * 4
    assert seen["character_id"] is None and seen["proof"]["client_seed"] is None
    assert seen["proof"]["sequence"] == world.secret["proof"]["sequence"] == 1
    assert seen["proof"]["hash"] == world.secret["proof"]["hash"]
    assert seen["proof"]["prev_hash"] == world.open["proof"]["hash"]
    assert seen["proof"]["commitment"] == world.secret["proof"]["commitment"]
    assert seen["receipt"] == world.secret["receipt"]  # the signed receipt stands for it
    whole = ok(world.read(f"/v1/rolls/{world.secret['id']}", world.table.gm))
    assert whole["withheld"] is False and whole["faces"] == world.secret["faces"]


# the views' lists and log, and the store's export, on each backend
@pytest.mark.store
def test_the_secret_roll_story_hidden_until_the_gm_reveals_it(world: Secrets) -> None:
    """The HTTP story of the browser test "a secret GM roll stays hidden from the player until
    revealed": the player's roll page, list, text and log show it withheld, then whole."""
    table, roll_id = world.table, world.secret["id"]
    before = ok(world.read(f"/v1/rolls/{roll_id}", table.player))
    rolls = ok(world.read(f"/v1/campaigns/{table.campaign_id}/rolls", table.player))["items"]
    text = world.read(f"/v1/rolls/{roll_id}/text", table.player).text
    assert before["withheld"] and [r["withheld"] for r in rolls] == [False, True, True]
    assert "withheld" in text and PURPOSE not in text
    revealed = world.reveal()
    assert revealed["faces"] == world.secret["faces"]
    after = ok(world.read(f"/v1/rolls/{roll_id}", table.player))
    assert after["withheld"] is False and after["faces"] == world.secret["faces"]
    assert after["version"] > before["version"]  # a held ETag no longer matches
    assert after["proof"]["client_seed"] == SECRET_SEED
    text = world.read(f"/v1/rolls/{roll_id}/text", table.player).text
    assert "withheld" not in text
    events = ok(world.read(f"/v1/campaigns/{table.campaign_id}/events", table.player))
    recorded = [e for e in events["items"] if e["originator_id"] == roll_id]
    assert recorded[0]["payload"]["record"]["client_seed"] == SECRET_SEED
    assert "Campaign.RollRevealed" in [e["type"] for e in events["items"]]


def test_only_the_gm_rolls_in_secret_reveals_or_hides(world: Secrets) -> None:
    table = world.table
    body = {"check": world.check, "request": world.example, "secret": True}
    body["character_id"] = world.hero
    path = f"/v1/scenes/{world.scene}/rolls"
    tokens = (table.player, table.observer)  # the observer joins before the count
    before = table.position()
    for token in tokens:
        refused = table.client.post(path, json=body, headers=bearer(token))
        assert refused.status_code == 403 and refused.json()["error"]["field"] == "secret"
        reveal = table.client.post(f"/v1/rolls/{world.secret['id']}/reveal", headers=bearer(token))
        assert reveal.status_code == 403
        hide = table.client.post(
            f"/v1/characters/{world.hero}/visibility", json={"hidden": True}, headers=bearer(token)
        )
        assert hide.status_code == 403
    sheet = table.example_sheet
    created = table.client.post(
        f"/v1/campaigns/{table.campaign_id}/characters",
        json={"name": "Sneaky", "side": "hero", "sheet": sheet, "hidden": True},
        headers=bearer(table.player),
    )
    assert created.status_code == 403 and created.json()["error"]["field"] == "hidden"
    assert table.position() == before  # nothing written


def test_a_player_cannot_follow_up_a_secret_roll_of_its_own_hero(world: Secrets) -> None:
    """The GM may roll in secret for a player's hero; the follow-up's answer would show it."""
    follow = {"follow_up": "resolve_dice", "request": {"resolve": 1}}
    path = f"/v1/rolls/{world.secret['id']}/follow-ups"
    before = world.table.position()
    refused = world.table.client.post(path, json=follow, headers=bearer(world.table.player))
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "roll_id"
    assert world.table.position() == before


def test_revealing_a_roll_that_is_not_secret_is_a_conflict(world: Secrets) -> None:
    response = world.table.client.post(
        f"/v1/rolls/{world.open['id']}/reveal", headers=bearer(world.table.gm)
    )
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_withheld"


# the views' lists and log, and the store's export, on each backend
@pytest.mark.store
def test_a_hidden_character_is_absent_for_players_and_whole_for_the_gm(world: Secrets) -> None:
    table = world.table
    for token in (table.player, table.observer):
        missing = world.read(f"/v1/characters/{world.villain}", token)
        assert missing.status_code == 404
        listed = ok(world.read(f"/v1/campaigns/{table.campaign_id}/characters", token))
        assert [c["id"] for c in listed["items"]] == [world.hero]
        scene = ok(world.read(f"/v1/scenes/{world.scene}", token))
        assert scene["combatants"] == [world.hero]
        assert world.villain not in json.dumps(scene["order_of_action"])
        filtered = world.read(
            f"/v1/campaigns/{table.campaign_id}/rolls", token, character_id=world.villain
        )
        assert filtered.status_code == 422
    gm = ok(world.read(f"/v1/campaigns/{table.campaign_id}/characters", table.gm))
    assert {c["id"] for c in gm["items"]} == {world.hero, world.villain}
    campaign = ok(world.read(f"/v1/campaigns/{table.campaign_id}", table.gm))
    assert campaign["hidden_character_ids"] == [world.villain]
    assert campaign["withheld_roll_ids"] == [world.secret["id"]]


def test_a_character_shown_again_appears_with_its_history(world: Secrets) -> None:
    table = world.table
    shown = table.post(f"/v1/characters/{world.villain}/visibility", {"hidden": False}, status=200)
    assert shown["hidden_character_ids"] == []
    seen = ok(world.read(f"/v1/characters/{world.villain}", table.player))
    assert seen["name"] == VILLAIN
    roll = ok(world.read(f"/v1/rolls/{world.villains['id']}", table.player))
    assert roll["withheld"] is False and roll["character_id"] == world.villain
    table.post(f"/v1/characters/{world.villain}/visibility", {"hidden": True}, status=200)
    assert world.read(f"/v1/characters/{world.villain}", table.player).status_code == 404


# ---- every read path of the OpenAPI ------------------------------------------------------------

PARAM = re.compile(r"{(\w+)}")


def _reads() -> list[str]:
    return sorted(p for p, ops in openapi_document()["paths"].items() if "get" in ops)


def _filled(path: str, ids: dict[str, str]) -> str | None:
    """The path with each parameter named from the world, or None if one has no value here."""
    names = PARAM.findall(path)
    if any(n not in ids for n in names):
        return None
    return PARAM.sub(lambda m: ids[m.group(1)], path)


def _world_ids(world: Secrets, table: Table) -> dict[str, str]:
    scene = table.get(f"/v1/scenes/{world.scene}")
    # a webhook of the GM's (nothing listens there), so that its delivery log is walked too
    hook = {"url": "http://127.0.0.1:9/hook", "types": ["*"]}
    webhook = table.post(f"/v1/campaigns/{table.campaign_id}/webhooks", hook)
    return {
        "webhook_id": webhook["id"],
        "campaign_id": table.campaign_id,
        "character_id": world.hero,
        "scene_id": world.scene,
        "issue_id": scene["issue_id"],
        "story_id": scene["story_id"],
        "roll_id": world.secret["id"],
        "ruleset_id": table.ruleset,
        "mission_id": world.mission,
    }


def test_no_read_path_of_the_openapi_shows_a_player_what_the_gm_withholds(world: Secrets) -> None:
    """Every GET the OpenAPI lists, with the world's ids, as a player and as an observer: no
    answer names the hidden villain or shows the secret roll's contents. A new read path is
    walked too; one this world cannot fill must be named below, on purpose."""
    table = world.table
    ids = _world_ids(world, table)
    # reads this walk cannot fill from the world (ids of things it does not make)
    unfilled = {
        "/v1/roll-requests/{request_id}",
        "/v1/scenes/{scene_id}/chases/{chase_id}",
        "/v1/scenes/{scene_id}/contests/{contest_id}",
        "/v1/scenes/{scene_id}/group-checks/{group_id}",
    }
    walked = []
    for path in _reads():
        url = _filled(path, ids)
        if url is None:
            assert path in unfilled, f"the walk cannot fill {path}: give the world one"
            continue
        walked.append(path)
        for token in (table.player, table.observer):
            query = {"limit": 1} if path.endswith("/stream") else {}
            text = world.read(url, token, **query).text
            for secret in world.secrets():
                assert secret not in text, f"{path} shows {secret!r}: {text[:300]}"
        if "{character_id}" in path:  # the villain's own reads: as if it did not exist
            own = _filled(path, {**ids, "character_id": world.villain})
            assert own is not None
            assert world.read(own, table.player).status_code == 404, path
    assert "/v1/campaigns/{campaign_id}/events" in walked and len(walked) > 30


def test_the_gm_sees_everything_on_the_same_reads(world: Secrets) -> None:
    table = world.table
    events = ok(world.read(f"/v1/campaigns/{table.campaign_id}/events", table.gm))
    text = json.dumps(events)
    assert VILLAIN in text and SECRET_SEED in text
    replay = ok(world.read(f"/v1/scenes/{world.scene}/replay", table.gm))
    assert any(VILLAIN in s["text"] for s in replay["steps"])


def test_a_players_replay_tells_a_withheld_roll_without_its_contents(world: Secrets) -> None:
    replay = ok(world.read(f"/v1/scenes/{world.scene}/replay", world.table.player))
    rolls = [s for s in replay["steps"] if s["type"] == "Roll.Recorded"]
    assert len(rolls) == 3  # counted like any other
    assert [s["changes"] == {} for s in rolls] == [False, True, True]
    assert all(VILLAIN not in s["text"] for s in replay["steps"])


# the views' lists and log, and the store's export, on each backend
@pytest.mark.store
def test_the_stream_withholds_from_players_what_the_events_api_withholds(world: Secrets) -> None:
    table = world.table
    events = ok(world.read(f"/v1/campaigns/{table.campaign_id}/events", table.player))["items"]
    streamed = world.read(
        f"/v1/campaigns/{table.campaign_id}/stream", table.player, limit=len(events)
    )
    data = [
        json.loads(line[6:]) for line in streamed.text.splitlines() if line.startswith("data: ")
    ]
    assert data == events
    assert all(world.villain not in json.dumps(e) for e in data)


# ---- verification ------------------------------------------------------------------------------


def _export(table: Table, token: str) -> Any:
    response = table.client.get(f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(token))
    assert response.status_code == 200, response.text
    lines = parse_export(response.text.splitlines(keepends=True))
    keys = receipts.parse_keys(ok(table.client.get("/v1/signing-keys")))
    return response.text, receipts.audit_export(lines, keys)


# the views' lists and log, and the store's export, on each backend
@pytest.mark.store
def test_a_players_export_verifies_with_the_secret_rolls_links_and_the_gms_checks_them_whole(
    world: Secrets,
) -> None:
    table = world.table
    table.post(f"/v1/scenes/{world.scene}/close", status=200)
    text, report = _export(table, table.player)
    assert all(secret not in text for secret in world.secrets())
    assert report.intact, [p.describe() for p in report.problems]
    assert report.rolls == 3 and report.recomputed == 1
    assert {p.roll_id for p in report.withheld} == {world.secret["id"], world.villains["id"]}
    _, whole = _export(table, table.gm)
    assert whole.intact and whole.recomputed == 3 and not whole.withheld
    world.reveal()
    table.post(f"/v1/characters/{world.villain}/visibility", {"hidden": False}, status=200)
    _, after = _export(table, table.player)
    assert after.intact and after.recomputed == 3 and not after.withheld


def test_a_players_check_of_a_withheld_roll_checks_its_chain_only(world: Secrets) -> None:
    table = world.table
    table.post(f"/v1/scenes/{world.scene}/close", status=200)
    check = ok(world.read(f"/v1/rolls/{world.secret['id']}/verification", table.player))
    assert check["chain"]["intact"] is True
    assert check["recomputed"]["match"] is None  # not judged: its contents are withheld
    gm = ok(world.read(f"/v1/rolls/{world.secret['id']}/verification", table.gm))
    assert gm["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_a_tampered_secret_roll_fails_the_players_chain_check(client: TestClient) -> None:
    """A withheld entry still carries its hash: change the hash the chain links and the player's
    check of the chain fails, though the player cannot see the contents."""
    table = Table(client)
    world = Secrets(table)
    text, _ = _export(table, table.player)
    edited = text.replace(world.secret["proof"]["hash"], "0" * 64, 1)
    lines = parse_export(edited.splitlines(keepends=True))
    report = receipts.audit_export(lines, receipts.parse_keys(ok(client.get("/v1/signing-keys"))))
    assert not report.intact


def test_a_players_read_is_authenticated_once_though_the_filter_needs_the_actor_first(
    world: Secrets, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = world.table.client.app.state.chronicle  # type: ignore[attr-defined]
    calls: list[str] = []
    real = app.authenticate

    def counted(token: str | None) -> Any:
        calls.append(token or "")
        return real(token)

    monkeypatch.setattr(app, "authenticate", counted)
    ok(
        world.table.client.get(
            f"/v1/rolls/{world.secret['id']}", headers=bearer(world.table.player)
        )
    )
    assert calls == [world.table.player]
