"""Signed receipts, heads and exports through the API and `chronicle verify`, on each backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from api.cli import main
from api.main import create_app
from api.settings import Settings
from domain import receipts
from domain.audit import GENESIS_HASH, record_hash, verify_export
from domain.signing import KEY_REFRESH
from tests.api.nwod_support import Firefight, thug
from tests.api.support import Table, bearer, ok
from tests.api.test_rolls import Dice
from tests.cli import chronicle
from tests.client import TestClient

ATTACKER = receipts.SigningKey.from_seed(b"\x07" * 32)


@pytest.fixture
def dice(table: Table) -> Dice:
    return Dice(table)


def _keys(client: TestClient) -> dict[str, Any]:
    return ok(client.get("/v1/signing-keys"))  # no token: published for anyone


def _signed_by_published_key(
    client: TestClient, statement: dict[str, Any], message: bytes | None = None
) -> bool:
    public = receipts.parse_keys(_keys(client))[statement["key_id"]]
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(
            bytes.fromhex(statement["signature"]), message or receipts.receipt_message(statement)
        )
    except InvalidSignature:
        return False
    return True


def _export(table: Table, path: Path) -> list[dict[str, Any]]:
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.gm)
    )
    assert response.status_code == 200, response.text
    path.write_bytes(response.content)
    return [json.loads(line) for line in response.text.splitlines()]


def _write(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


def _verify(*argv: Any) -> tuple[int, str]:
    ran = chronicle("verify", *argv)
    return ran.returncode, ran.stdout + ran.stderr


# ---- through the API ---------------------------------------------------------------------------


def test_a_roll_its_read_and_its_follow_up_carry_receipts_of_their_chain_place(
    dice: Dice,
) -> None:
    table = dice.table
    roll = dice.roll(table.player)
    follow = table.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        {"follow_up": "resolve_dice", "request": {"resolve": 1}},
        table.player,
    )
    for made in (roll, follow):
        receipt = made["receipt"]
        proof = made["proof"]
        assert (receipt["campaign_id"], receipt["roll_id"]) == (table.campaign_id, made["id"])
        assert (receipt["sequence"], receipt["hash"]) == (proof["sequence"], proof["hash"])
        assert _signed_by_published_key(table.client, receipt)
    assert table.get(f"/v1/rolls/{roll['id']}", table.observer)["receipt"] == roll["receipt"]
    assert follow["receipt"]["sequence"] == roll["receipt"]["sequence"] + 1


def test_the_helpers_rolls_of_an_assisted_roll_carry_receipts_also_when_replayed(
    client: TestClient,
) -> None:
    # the player's difficulty applies at once (player_modifiers: trusted), so the roll is made
    table = Table(client, settings={"player_modifiers": "trusted"})
    nova, bolt = table.character(table.player), table.character(table.player, "Bolt")
    body = {
        "character_id": nova,
        "request": {"trait": "Agility", "difficulty": 2, "purpose": "the leap"},
        "helpers": [{"character_id": bolt, "trait": "Agility"}],
    }
    path = f"/v1/scenes/{table.scene()}/assisted-rolls"
    headers = {**bearer(table.player), "Idempotency-Key": "leap-1"}
    first = ok(table.client.post(path, json=body, headers=headers), 201)
    [helper] = first["helpers"]
    read = table.get(f"/v1/rolls/{helper['roll_id']}")
    assert helper["receipt"] == read["receipt"] and _signed_by_published_key(
        table.client, helper["receipt"]
    )
    again = table.client.post(path, json=body, headers=headers)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first


@pytest.mark.store  # PostgreSQL's log has gaps and its own keyring rows
def test_every_roll_a_command_makes_has_its_receipt_in_the_answer(client: TestClient) -> None:
    # An nWoD contest rolls for every side but presents one roll: the others had no receipt.
    fight = Firefight(client)
    foe = fight.character("Goon", "villain", thug())
    body = {
        "sides": [
            {"character_id": fight.hero, "affinity": "ELG"},
            {"character_id": foe, "affinity": "INT"},
        ]
    }
    contest = fight.ok("contests", body)
    made = [side["roll_id"] for side in contest["outcome"]["sides"]]
    assert [r["roll_id"] for r in contest["receipts"]] == made
    for receipt in contest["receipts"]:
        roll = fight.t.get(f"/v1/rolls/{receipt['roll_id']}")
        assert receipt == roll["receipt"] and _signed_by_published_key(client, receipt)
    assert [r["sequence"] for r in contest["receipts"]] == [0, 1]


def test_a_follow_up_s_answer_holds_its_own_receipt_only_and_a_command_without_dice_none(
    dice: Dice,
) -> None:
    table = dice.table
    roll = dice.roll(table.player)
    assert roll["receipts"] == [roll["receipt"]]
    follow = table.post(
        f"/v1/rolls/{roll['id']}/follow-ups",
        {"follow_up": "resolve_dice", "request": {"resolve": 1}},
        table.player,
    )
    assert follow["receipts"] == [follow["receipt"]]  # the roll it follows was made before
    story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "Quiet"})
    assert story["receipts"] == []


def test_the_gm_s_approval_of_a_roll_request_carries_the_receipt_of_the_roll_it_made(
    dice: Dice,
) -> None:
    table = dice.table
    described = table.get(f"/v1/rulesets/{table.ruleset}")["checks"][0]
    pending = ok(dice.attempt(table.player, request=described["example"]), 202)
    assert pending["receipt"] is None  # nothing is rolled until the GM approves
    path = f"/v1/roll-requests/{pending['id']}/approve"
    headers = {**bearer(table.gm), "Idempotency-Key": "approve-1"}
    approved = ok(table.client.post(path, json={"modifiers": {}}, headers=headers))
    roll = table.get(f"/v1/rolls/{approved['result_id']}", table.player)
    assert approved["receipt"] == roll["receipt"] and approved["receipts"] == [roll["receipt"]]
    assert _signed_by_published_key(table.client, approved["receipt"])
    later = table.get(f"/v1/roll-requests/{pending['id']}", table.player)
    assert later["receipt"] == roll["receipt"]
    again = table.client.post(path, json={"modifiers": {}}, headers=headers)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == approved


def test_the_signed_head_is_the_chain_now_for_members_only(dice: Dice) -> None:
    table = dice.table
    empty = table.get(f"/v1/campaigns/{table.campaign_id}/head", table.observer)
    assert (empty["length"], empty["hash"]) == (0, GENESIS_HASH)
    rolls = [dice.roll(table.player) for _ in range(2)]
    head = table.get(f"/v1/campaigns/{table.campaign_id}/head", table.observer)
    assert (head["campaign_id"], head["length"]) == (table.campaign_id, 2)
    assert head["hash"] == rolls[-1]["proof"]["hash"]
    assert head["position"] >= rolls[-1]["position"]
    assert _signed_by_published_key(table.client, head, receipts.head_message(head))
    assert not _signed_by_published_key(
        table.client, {**head, "length": 1}, receipts.head_message({**head, "length": 1})
    )
    assert table.client.get(f"/v1/campaigns/{table.campaign_id}/head").status_code == 401
    foreign = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/head", headers=bearer(table.foreign)
    )
    assert foreign.status_code == 404


def test_the_published_keys_need_no_token_and_the_private_key_never_leaves_the_store(
    dice: Dice, tmp_path: Path
) -> None:
    table = dice.table
    [key] = _keys(table.client)["keys"]
    assert (key["algorithm"], key["active"]) == ("ed25519", True)
    assert key["key_id"] == receipts.key_id_of(bytes.fromhex(key["public_key"]))
    dice.roll()
    _export(table, tmp_path / "export.jsonl")
    exported = (tmp_path / "export.jsonl").read_text()
    events = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?after=0&limit=100&min_position={table.position()}"
    )
    for text in (exported, json.dumps(events)):
        assert "sealed_private_key" not in text and "SigningKeys" not in text


@pytest.mark.store  # the store is what it tests: on SQLite and PostgreSQL
def test_replicas_on_one_store_sign_with_the_same_key(settings: Settings) -> None:
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        assert _keys(one) == _keys(two) and len(_keys(one)["keys"]) == 1
        dice = Dice(Table(one))
        receipt = dice.roll()["receipt"]
        roll_id = receipt["roll_id"]
        assert (
            ok(two.get(f"/v1/rolls/{roll_id}", headers=bearer(dice.table.gm)))["receipt"] == receipt
        )


@pytest.mark.store  # PostgreSQL's log has gaps and its own keyring rows
def test_a_rotated_key_signs_new_receipts_and_old_receipts_still_verify(
    dice: Dice, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = dice.table
    old = dice.roll()["receipt"]
    store = ["--data-dir", str(settings.data_dir)]
    if settings.database_url:
        store += ["--database-url", settings.database_url]
    assert main(["keys", "rotate", *store]) == 0
    # The server reads the keyring for its signatures once a KEY_REFRESH: a rotation made by
    # another process (the command above) signs here once that has passed.
    app = table.client.app.state.chronicle  # type: ignore[attr-defined]
    now = app.clock()
    monkeypatch.setattr(app, "clock", lambda: now + KEY_REFRESH)
    new = dice.roll()["receipt"]
    published = _keys(table.client)
    assert [k["key_id"] for k in published["keys"]] == [old["key_id"], new["key_id"]]
    assert [k["active"] for k in published["keys"]] == [False, True]
    _export(table, tmp_path / "export.jsonl")
    kept = _write(tmp_path / "receipts.jsonl", [old, new])
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(published))
    code, out = _verify(tmp_path / "export.jsonl", "--receipts", kept, "--keys", keys)
    assert code == 0, out
    assert f"trusted keys from {keys}: {old['key_id']}, {new['key_id']}" in out
    assert "2 receipts checked" in out


# ---- chronicle verify on exports ---------------------------------------------------------------


def _rewrite_without(lines: list[dict[str, Any]], roll_id: str) -> list[dict[str, Any]]:
    """What someone holding the export could do: drop a roll, renumber the sequences and nonces
    after it, rehash the whole chain consistently and sign a trailer with a key of their own."""
    honest_trailer = lines[-1]
    gone = next(
        e["payload"]["record"]
        for e in lines
        if e["type"] == "Roll.Recorded" and e["payload"]["record"]["roll_id"] == roll_id
    )
    entries: list[dict[str, Any]] = []
    seen: dict[str, int] = {}  # originator → removed events so far (their later versions move up)
    for entry in lines[:-1]:
        payload = entry["payload"]
        if roll_id in (str(payload.get("roll_id")), str(payload.get("record", {}).get("roll_id"))):
            seen[entry["originator_id"]] = seen.get(entry["originator_id"], 0) + 1
            continue
        entry = json.loads(json.dumps(entry))
        entry["originator_version"] -= seen.get(entry["originator_id"], 0)
        entries.append(entry)
    records = [e["payload"]["record"] for e in entries if e["type"] == "Roll.Recorded"]
    renumbered = {}
    for record in records:
        if record["sequence"] > gone["sequence"]:
            record["sequence"] -= 1
        if record["scene_id"] == gone["scene_id"] and record["nonce"] > gone["nonce"]:
            record["nonce"] -= 1
            renumbered[record["roll_id"]] = record["nonce"]
    previous = GENESIS_HASH
    hashes = {}
    for record in sorted(records, key=lambda r: r["sequence"]):
        record["prev_hash"] = previous
        record["hash"] = previous = hashes[record["roll_id"]] = record_hash(record)
    for entry in entries:
        payload = entry["payload"]
        if entry["type"] == "RollChain.Linked":
            payload["hash"] = hashes[payload["roll_id"]]
            payload["sequence"] = next(
                r["sequence"] for r in records if r["roll_id"] == payload["roll_id"]
            )
        if entry["type"] == "Scene.RollMade" and payload["roll_id"] in renumbered:
            payload["nonce"] = renumbered[payload["roll_id"]]
    published = [
        *honest_trailer["keys"],
        {
            "key_id": ATTACKER.key_id,
            "algorithm": "ed25519",
            "public_key": ATTACKER.public_key.hex(),
        },
    ]
    trailer = receipts.sign_trailer(
        ATTACKER, honest_trailer["campaign_id"], entries, published, honest_trailer["signed_at"]
    )
    return [*entries, trailer]


@pytest.fixture
def played(dice: Dice, tmp_path: Path) -> dict[str, Any]:
    """Four rolls with their receipts kept, a head announced after them, the published keys and
    the export, all in files."""
    table = dice.table
    rolls = [dice.roll(table.player) for _ in range(4)]
    head = table.get(f"/v1/campaigns/{table.campaign_id}/head", table.player)
    (tmp_path / "head.json").write_text(json.dumps(head))
    (tmp_path / "keys.json").write_text(json.dumps(_keys(table.client)))
    lines = _export(table, tmp_path / "export.jsonl")
    return {
        "rolls": rolls,
        "lines": lines,
        "export": tmp_path / "export.jsonl",
        "receipts": _write(tmp_path / "receipts.jsonl", [r["receipt"] for r in rolls]),
        "head": tmp_path / "head.json",
        "keys": tmp_path / "keys.json",
    }


@pytest.mark.store  # PostgreSQL's log has gaps and its own keyring rows
def test_an_honest_export_verifies_with_its_receipts_head_and_published_keys(
    played: dict[str, Any],
) -> None:
    code, out = _verify(
        played["export"],
        "--receipts",
        played["receipts"],
        "--expect-head",
        played["head"],
        "--keys",
        played["keys"],
    )
    assert code == 0, out
    assert "4 receipts checked" in out and "OK" in out


def test_without_keys_verify_says_it_trusted_the_keys_the_export_names(
    played: dict[str, Any],
) -> None:
    code, out = _verify(played["export"])
    key_id = played["rolls"][0]["receipt"]["key_id"]
    assert code == 0, out
    assert f"trusted keys named by the export itself: {key_id} (not checked" in out


def test_a_consistent_rewrite_passes_the_chain_check_but_not_receipts_head_or_keys(
    played: dict[str, Any], tmp_path: Path
) -> None:
    dropped = played["rolls"][1]["id"]
    forged = _rewrite_without(played["lines"], dropped)
    assert verify_export(forged[:-1]).problems == []  # the unsigned chain cannot tell
    path = _write(tmp_path / "forged.jsonl", forged)
    code, out = _verify(path)
    assert code == 0 and ATTACKER.key_id in out  # only the export's own (forged) keys trusted
    code, out = _verify(path, "--receipts", played["receipts"])
    assert code == 1
    assert "RECEIPT_MISMATCH: sequence 1: sequence 1 of the export's chain is roll" in out
    assert "RECEIPT_MISSING: sequence 3" in out
    code, out = _verify(path, "--expect-head", played["head"])
    assert code == 1 and "HEAD_MISMATCH: sequence 3: the expected head covers 4 rolls" in out
    code, out = _verify(path, "--keys", played["keys"])
    assert code == 1 and f"signed with key {ATTACKER.key_id}, which is not a trusted key" in out


def test_a_truncated_export_fails_wherever_it_was_cut(
    played: dict[str, Any], tmp_path: Path
) -> None:
    raw = played["export"].read_bytes()
    line_ends = [i + 1 for i, byte in enumerate(raw) if byte == ord("\n")]
    cuts = {"trailer gone": line_ends[-2], "mid-line": line_ends[-3] + 7, "half": len(raw) // 2}
    for name, at in cuts.items():
        path = tmp_path / f"cut-{name}.jsonl"
        path.write_bytes(raw[:at])
        code, out = _verify(path)
        assert code == 1, name
        # a cut at a line's end loses the trailer; a cut inside a line leaves a broken last line
        expected = (
            "UNSIGNED: the export does not end with its signed ExportHead line"
            if raw[at - 1 : at] == b"\n"
            else "TRUNCATED: line"
        )
        assert expected in out, name


def test_a_line_added_after_the_trailer_or_a_re_serialised_export(
    played: dict[str, Any], tmp_path: Path
) -> None:
    lines = played["lines"]
    pretty = tmp_path / "pretty.jsonl"  # other spacing and key order: the digest holds
    pretty.write_text(
        "".join(
            json.dumps(dict(reversed(list(e.items()))), ensure_ascii=True) + "\n" for e in lines
        )
    )
    code, out = _verify(pretty, "--keys", played["keys"])
    assert code == 0, out
    appended = _write(tmp_path / "appended.jsonl", [*lines, {**lines[0], "position": 10**6}])
    code, out = _verify(appended, "--keys", played["keys"])
    assert code == 1 and "UNSIGNED" in out and "MISPLACED_TRAILER: line" in out


# ---- bad input files: exit 2 -------------------------------------------------------------------

RECEIPT = receipts.sign_receipt(
    ATTACKER,
    "6f1c2a9e-0b7d-4c3e-9a51-2d4e8f3b7c10",
    0,
    "0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a",
    "a" * 64,
)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("flag", "content", "message"),
    [
        ("--receipts", "{not json\n", "--receipts"),
        (
            "--receipts",
            json.dumps({**RECEIPT, "sequence": "one"}) + "\n",
            "receipt on line 1: sequence",
        ),
        (
            "--receipts",
            json.dumps({k: RECEIPT[k] for k in ("roll_id", "hash")}),
            "lacks campaign_id",
        ),
        ("--expect-head", "[]", "the head must be a JSON object"),
        ("--expect-head", "", "--expect-head"),
        ("--keys", json.dumps({"keys": [{"algorithm": "rsa"}]}), "key 0 is not an ed25519 key"),
        ("--keys", "\xff", "--keys"),
        # deeper than the JSON parser's recursion limit: a RecursionError, not a ValueError
        ("--receipts", DEEP + "\n", "--receipts"),
        ("--expect-head", DEEP, "nested too deeply"),
        ("--keys", DEEP, "nested too deeply"),
    ],
)
def test_a_bad_input_file_exits_2_naming_it(
    flag: str, content: str, message: str, tmp_path: Path
) -> None:
    export = _write(tmp_path / "export.jsonl", [{"type": "Campaign.Created"}])
    given = tmp_path / "given"
    given.write_text(content, encoding="latin-1" if flag == "--keys" else "utf-8")
    code, out = _verify(export, flag, given)
    assert code == 2, out
    assert message in out


def test_a_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    code, out = _verify(tmp_path / "nowhere.jsonl")
    assert code == 2 and "nowhere.jsonl" in out
    export = _write(tmp_path / "export.jsonl", [{"type": "Campaign.Created"}])
    code, out = _verify(export, "--receipts", tmp_path / "kept.jsonl")
    assert code == 2 and "kept.jsonl" in out
