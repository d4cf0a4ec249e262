"""Fair rolls through the API: commit–reveal, proofs, access, verification and tampering; what the
store keeps (the chain, sealed seeds, exports, tampering behind the service) on each backend."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from api.main import create_app
from api.settings import Settings
from tests import tamper
from tests.api.support import Table, bearer, ok
from tests.cli import chronicle
from tests.client import TestClient


class Dice:
    """A table with a hero owned by the player, a scene, and the ruleset's first check."""

    def __init__(self, table: Table) -> None:
        self.table = table
        described = table.get(f"/v1/rulesets/{table.ruleset}")
        check = described["checks"][0]
        # what is rolled only: a player's situational modifiers would wait for the GM
        self.check = check["name"]
        self.example = {
            k: v for k, v in check["example"].items() if k not in check["modifier_fields"]
        }
        self.hero = table.character(table.player)
        self.scene = table.scene()

    def roll(self, token: str | None = None, status: int = 201, **extra: Any) -> Any:
        body = {"check": self.check, "request": self.example, "character_id": self.hero, **extra}
        return self.table.post(f"/v1/scenes/{self.scene}/rolls", body, token, status)

    def attempt(self, token: str | None = None, **extra: Any) -> Any:
        body = {"check": self.check, "request": self.example, "character_id": self.hero, **extra}
        path = f"/v1/scenes/{self.scene}/rolls"
        return self.table.client.post(path, json=body, headers=bearer(token or self.table.gm))

    def close(self) -> Any:
        return self.table.post(f"/v1/scenes/{self.scene}/close", status=200)


@pytest.fixture
def dice(table: Table) -> Dice:
    return Dice(table)


def test_a_roll_answers_every_face_its_result_odds_and_proof(dice: Dice) -> None:
    scene = dice.table.get(f"/v1/scenes/{dice.scene}")
    roll = dice.roll(dice.table.player, client_seed="my-luck")
    assert roll["proof"]["commitment"] == scene["seeds"][0]["commitment"]
    assert (roll["proof"]["client_seed"], roll["nonce"], roll["proof"]["seed"]) == (
        "my-luck",
        0,
        None,
    )
    assert roll["faces"] and all(1 <= f["face"] <= f["sides"] for f in roll["faces"])
    assert 0 < roll["odds"]["at_least"] <= 1
    assert roll["result"]
    fetched = dice.table.get(f"/v1/rolls/{roll['id']}")
    assert fetched == {**roll, "position": None, "receipts": []}  # both for command answers only


@pytest.mark.store
def test_rolls_in_a_scene_take_consecutive_nonces_and_chain_their_hashes(dice: Dice) -> None:
    rolls = [dice.roll() for _ in range(3)]
    assert [r["nonce"] for r in rolls] == [0, 1, 2]
    assert [r["proof"]["sequence"] for r in rolls] == [0, 1, 2]
    assert rolls[0]["proof"]["prev_hash"] == "0" * 64
    assert rolls[1]["proof"]["prev_hash"] == rolls[0]["proof"]["hash"]
    assert rolls[2]["proof"]["prev_hash"] == rolls[1]["proof"]["hash"]


def test_a_generated_client_seed_is_recorded(dice: Dice) -> None:
    first, second = dice.roll(), dice.roll()
    assert (
        first["proof"]["client_seed"]
        and first["proof"]["client_seed"] != second["proof"]["client_seed"]
    )


@pytest.mark.store
def test_closing_the_scene_reveals_the_seed_that_recomputes_every_roll(dice: Dice) -> None:
    rolls = [dice.roll() for _ in range(3)]
    unrevealed = dice.table.get(f"/v1/rolls/{rolls[0]['id']}/verification")
    assert unrevealed["chain"]["intact"] and unrevealed["recomputed"]["revealed"] is False
    dice.close()
    seed = dice.table.get(f"/v1/rolls/{rolls[0]['id']}")["proof"]["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == rolls[0]["proof"]["commitment"]
    for roll in rolls:
        verification = dice.table.get(f"/v1/rolls/{roll['id']}/verification")
        assert verification["chain"]["intact"] is True
        assert verification["recomputed"] == {"revealed": True, "match": True, "problems": []}


def test_a_roll_in_a_closed_scene_is_a_conflict(dice: Dice) -> None:
    dice.close()
    response = dice.attempt()
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "scene_closed"


def test_who_may_roll_for_whom(dice: Dice) -> None:
    table = dice.table
    assert dice.attempt(table.player).status_code == 201  # its own character
    assert dice.attempt(table.other_player).status_code == 403  # someone else's
    assert dice.attempt(table.observer).status_code == 403
    assert dice.attempt(table.gm).status_code == 201  # the GM rolls for anyone
    raw = {"character_id": None}
    assert dice.attempt(table.player, **raw).status_code == 403  # raw pools are the GM's
    assert dice.attempt(table.foreign).status_code == 404


def test_an_unknown_check_and_a_bad_request_are_refused_naming_the_field(dice: Dice) -> None:
    before = dice.table.position()
    unknown = dice.attempt(check="juggling")
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "check"
    bad = dice.attempt(request={"no_such_field": 1})
    assert bad.status_code == 422 and bad.json()["error"]["field"].startswith("request")
    long_seed = dice.attempt(client_seed="x" * 500)
    assert long_seed.status_code == 422 and long_seed.json()["error"]["field"] == "client_seed"
    wide_seed = dice.attempt(client_seed="🎲" * 100)  # 100 characters, 400 bytes of UTF-8
    assert wide_seed.status_code == 422 and wide_seed.json()["error"]["field"] == "client_seed"
    assert dice.table.position() == before


@pytest.mark.store
def test_rotating_the_seed_reveals_the_old_one_and_starts_new_nonces(dice: Dice) -> None:
    before = dice.roll()
    scene = dice.table.post(f"/v1/scenes/{dice.scene}/seed/rotate", status=200)
    assert (
        scene["seeds"][0]["revealed_seed"] is not None
        and scene["seeds"][1]["revealed_seed"] is None
    )
    after = dice.roll()
    assert after["nonce"] == 0 and after["proof"]["commitment"] == scene["seeds"][1]["commitment"]
    verified = dice.table.get(f"/v1/rolls/{before['id']}/verification")
    assert verified["recomputed"]["match"] is True
    assert (
        dice.table.get(f"/v1/rolls/{after['id']}/verification")["recomputed"]["revealed"] is False
    )
    denied = dice.table.client.post(
        f"/v1/scenes/{dice.scene}/seed/rotate", headers=bearer(dice.table.player)
    )
    assert denied.status_code == 403


def test_the_luck_report_counts_rolls_and_tests_them_against_fair_dice(dice: Dice) -> None:
    for _ in range(12):
        dice.roll()
    report = dice.table.get(f"/v1/characters/{dice.hero}/luck")
    assert report["rolls"] == 12
    assert 0 <= report["p_value"] <= 1 and 0 <= report["mean_percentile"] <= 100
    assert dice.table.get(f"/v1/campaigns/{dice.table.campaign_id}/luck")["rolls"] == 12


def _export(dice: Dice, path: Path) -> Path:
    response = dice.table.client.get(
        f"/v1/campaigns/{dice.table.campaign_id}/export", headers=bearer(dice.table.observer)
    )
    assert response.status_code == 200
    path.write_bytes(response.content)
    return path


@pytest.mark.store
def test_an_export_verifies_offline_and_a_tampered_export_fails_naming_the_record(
    dice: Dice, tmp_path: Path
) -> None:
    rolls = [dice.roll() for _ in range(3)]
    dice.close()
    path = _export(dice, tmp_path / "campaign.jsonl")
    good = chronicle("verify", path)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "3 roll records, 3 recomputed" in good.stdout
    lines = path.read_text().splitlines()
    edited = []
    for line in lines:
        entry = json.loads(line)
        if (
            entry["type"] == "Roll.Recorded"
            and entry["payload"]["record"]["roll_id"] == rolls[1]["id"]
        ):
            entry["payload"]["record"]["faces"][0]["face"] = (
                7 - entry["payload"]["record"]["faces"][0]["face"]
            )
        edited.append(json.dumps(entry))
    (tmp_path / "edited.jsonl").write_text("\n".join(edited) + "\n")
    bad = chronicle("verify", tmp_path / "edited.jsonl")
    assert bad.returncode == 1
    assert "TAMPERED: sequence 1" in bad.stdout
    dropped = [
        line for line in lines if rolls[2]["id"] not in line or '"Roll.Recorded"' not in line
    ]
    (tmp_path / "dropped.jsonl").write_text("\n".join(dropped) + "\n")
    missing = chronicle("verify", tmp_path / "dropped.jsonl")
    assert missing.returncode == 1 and "MISSING: sequence 2" in missing.stdout


def _tampered(settings: Settings, change: Any, tmp_path: Path) -> tuple[dict[str, Any], str]:
    """Roll three times, close, change the store behind the service, restart; then ask both the
    verification endpoint (about the first roll) and `chronicle verify` on a fresh export."""
    with TestClient(create_app(settings)) as client:
        dice = Dice(Table(client))
        rolls = [dice.roll() for _ in range(3)]
        dice.close()
        gm = dice.table.gm
    change([r["id"] for r in rolls])
    with TestClient(create_app(settings)) as client:
        report = ok(client.get(f"/v1/rolls/{rolls[0]['id']}/verification", headers=bearer(gm)))
        export = client.get(f"/v1/campaigns/{dice.table.campaign_id}/export", headers=bearer(gm))
    (tmp_path / "export.jsonl").write_bytes(export.content)
    offline = chronicle("verify", tmp_path / "export.jsonl")
    assert offline.returncode == 1, offline.stdout
    return report, offline.stdout


@pytest.mark.store
def test_editing_a_stored_roll_s_faces_is_detected(settings: Settings, tmp_path: Path) -> None:
    def change(ids: list[str]) -> None:
        tamper.edit_record(
            settings, ids[1], lambda r: r["faces"][0].update(face=r["faces"][0]["face"] % 6 + 1)
        )

    report, offline = _tampered(settings, change, tmp_path)
    assert report["chain"]["intact"] is False
    assert ("tampered", 1) in [(p["kind"], p["sequence"]) for p in report["chain"]["problems"]]
    assert "TAMPERED: sequence 1" in offline


@pytest.mark.store
def test_deleting_a_stored_roll_is_detected(settings: Settings, tmp_path: Path) -> None:
    report, offline = _tampered(
        settings, lambda ids: tamper.delete_roll(settings, ids[1]), tmp_path
    )
    assert ("missing", 1) in [(p["kind"], p["sequence"]) for p in report["chain"]["problems"]]
    assert "MISSING: sequence 1" in offline


@pytest.mark.store
def test_swapping_two_stored_rolls_is_detected(settings: Settings, tmp_path: Path) -> None:
    report, offline = _tampered(
        settings, lambda ids: tamper.swap_rolls(settings, ids[1], ids[2]), tmp_path
    )
    kinds = {(p["kind"], p["sequence"]) for p in report["chain"]["problems"]}
    assert ("misordered", 1) in kinds and ("misordered", 2) in kinds
    assert "MISORDERED: sequence 1" in offline


@pytest.mark.store
def test_an_unrevealed_seed_survives_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        dice = Dice(Table(client))
        before = dice.roll()
    with TestClient(create_app(settings)) as client:
        dice.table.client = client
        after = dice.roll()
        assert (after["nonce"], after["proof"]["commitment"]) == (1, before["proof"]["commitment"])
        dice.close()
        for roll in (before, after):
            verification = dice.table.get(f"/v1/rolls/{roll['id']}/verification")
            assert verification["recomputed"]["match"] is True


@pytest.mark.store
def test_an_unrevealed_seed_appears_in_no_response_and_no_log_line(
    dice: Dice, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = dice.table
    bodies: list[str] = []
    original_request = table.client.request

    def recording(*args: Any, **kwargs: Any) -> Any:
        response = original_request(*args, **kwargs)
        bodies.append(response.text + json.dumps(dict(response.headers)))
        return response

    table.client.request = recording  # type: ignore[method-assign]
    app = table.client.app.state.chronicle  # type: ignore[attr-defined]
    scene_aggregate = app.repository.get(__import__("uuid").UUID(dice.scene))
    secret = app.sealer.unseal(scene_aggregate.epoch.sealed_seed)
    # A scripted session: rolls, reads, errors, verification, luck, export.
    roll = dice.roll(table.player)
    dice.attempt(table.other_player)
    dice.attempt(check="nope")
    for path in (
        f"/v1/rolls/{roll['id']}",
        f"/v1/rolls/{roll['id']}/verification",
        f"/v1/scenes/{dice.scene}",
        f"/v1/characters/{dice.hero}/luck",
        f"/v1/campaigns/{table.campaign_id}/luck",
        f"/v1/campaigns/{table.campaign_id}/export",
        f"/v1/issues/{table.get(f'/v1/scenes/{dice.scene}')['issue_id']}",
    ):
        table.client.request("GET", path, headers=bearer(table.gm))
    assert len(bodies) >= 10
    for text in bodies + [r.getMessage() for r in caplog.records]:
        assert secret not in text and secret.upper() not in text
    # once revealed, it is there for everyone
    dice.close()
    assert table.get(f"/v1/scenes/{dice.scene}")["seeds"][0]["revealed_seed"] == secret


@pytest.mark.parametrize("ruleset", ["wcbh", "classd", "nimble", "nwod-micro"])
def test_every_check_of_every_ruleset_rolls_and_recomputes_once_revealed(
    client: TestClient, ruleset: str
) -> None:
    table = Table(client, ruleset)
    hero = table.character(table.player)
    scene = table.scene()
    checks = table.get(f"/v1/rulesets/{ruleset}")["checks"]
    assert checks, f"{ruleset} lists no checks"
    rolls = [
        table.post(
            f"/v1/scenes/{scene}/rolls",
            {"check": check["name"], "request": check["example"], "character_id": hero},
            table.gm,  # the GM rolls any check with any numbers; players' are in test_numbers.py
        )
        for check in checks
    ]
    for roll in rolls:
        assert roll["faces"] and roll["result"]
        assert roll["odds"]["at_least"] is not None and 0 < roll["odds"]["at_least"] <= 1
    table.post(f"/v1/scenes/{scene}/close", status=200)
    for roll in rolls:
        verification = table.get(f"/v1/rolls/{roll['id']}/verification")
        assert verification["recomputed"] == {"revealed": True, "match": True, "problems": []}
