"""The audit misses nothing and never cries wolf: an honest export made through the API verifies;
each edit of it fails `chronicle verify` naming the line and the problem (docs/fair-dice.md)."""

from __future__ import annotations

import copy
import hashlib
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from api.main import create_app
from api.settings import Settings
from domain.audit import GENESIS_HASH, HASHED_FIELDS, record_hash, verify_export
from tests import tamper
from tests.api.support import Table, bearer
from tests.cli import chronicle
from tests.client import TestClient

Entries = list[dict[str, Any]]


class Play:
    """An honest WCBH campaign: help (WCBH-10), a follow-up (WCBH-20b), a seed rotation, a closed
    second scene, and a last roll in a scene still open (its seed unrevealed)."""

    def __init__(self, client: TestClient) -> None:
        # Players' modifiers apply at once here (player_modifiers: trusted): the approval flow has its
        # own tests (tests/api/test_numbers.py), exports included.
        table = self.table = Table(client, settings={"player_modifiers": "trusted"}).seated()
        self.nova = table.character(table.player)
        self.bolt = table.character(table.player, name="Bolt")
        self.scene_a = table.scene()
        self.paid = self.roll(self.scene_a, client_seed="lucky", resolve=1)  # nonce 0, costs
        self.server_seeded = self.roll(self.scene_a)  # nonce 1, the server's client seed
        helped = table.post(
            f"/v1/scenes/{self.scene_a}/assisted-rolls",
            {
                "character_id": self.nova,
                "request": {"trait": "Agility", "difficulty": 2, "purpose": "the leap"},
                "helpers": [{"character_id": self.bolt, "trait": "Strength"}],
            },
            table.player,
        )
        self.helped = helped["roll"]["id"]  # saved before its helper's roll, linked after it
        self.helper = helped["helpers"][0]["roll_id"]
        self.follow_up = table.post(
            f"/v1/rolls/{self.paid}/follow-ups",
            {"follow_up": "resolve_dice", "request": {"resolve": 1}, "client_seed": "lucky"},
            table.player,
        )["id"]
        table.post(f"/v1/scenes/{self.scene_a}/seed/rotate", status=200)
        self.rotated = self.roll(self.scene_a, client_seed="after rotation")
        table.post(f"/v1/scenes/{self.scene_a}/close", status=200)
        self.scene_b = table.scene()
        self.in_b = self.roll(self.scene_b, client_seed="b")
        table.post(f"/v1/scenes/{self.scene_b}/close", status=200)
        self.scene_c = table.scene()
        self.last = self.roll(self.scene_c, client_seed="last")  # the export's last save
        response = client.get(
            f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.observer)
        )
        assert response.status_code == 200
        lines = [json.loads(line) for line in response.text.splitlines()]
        # The signed trailer covers every line (docs/receipts.md); these tests edit the log and
        # check what the audit itself finds, so they verify the entries without it
        # (--allow-unsigned), as an export made before exports were signed.
        assert lines[-1]["type"] == "ExportHead"
        self.entries: Entries = lines[:-1]
        self.trailer = lines[-1]

    def roll(self, scene: str, client_seed: str | None = None, resolve: int = 0) -> str:
        request = {"trait": "Agility", "difficulty": 2, "resolve": resolve, "purpose": "jump"}
        body: dict[str, Any] = {"check": "trait", "character_id": self.nova, "request": request}
        if client_seed is not None:
            body["client_seed"] = client_seed
        return str(self.table.post(f"/v1/scenes/{scene}/rolls", body, self.table.player)["id"])


@pytest.fixture(scope="module")
def play(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Play]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("audit"))
    with TestClient(create_app(settings)) as client:
        yield Play(client)


def verify(entries: Entries, tmp_path: Path, *flags: str) -> tuple[int, str]:
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries))
    ran = chronicle("verify", path, "--allow-unsigned", *flags)
    return ran.returncode, ran.stdout


def recorded(entries: Entries, roll_id: str) -> tuple[int, dict[str, Any]]:
    """The line of the roll's Roll.Recorded entry and that entry."""
    for index, entry in enumerate(entries):
        if entry["type"] == "Roll.Recorded" and entry["originator_id"] == roll_id:
            return index + 1, entry
    raise AssertionError(f"no Roll.Recorded of {roll_id}")


def line_of(entries: Entries, kind: str, originator: str) -> int:
    lines = [
        i + 1
        for i, e in enumerate(entries)
        if e["type"] == kind and originator in (e["originator_id"], e["payload"].get("scene_id"))
    ]
    assert lines, f"no {kind} of {originator}"
    return lines[-1]


def rehash(entries: Entries) -> None:
    """Rewrite the chain consistently after an edit, as a server rewriting its own records would:
    what is left to catch the edit is the recomputation, not the hashes."""
    records = {
        e["payload"]["record"]["roll_id"]: e["payload"]["record"]
        for e in entries
        if e["type"] == "Roll.Recorded"
    }
    previous = GENESIS_HASH
    for entry in entries:
        if entry["type"] == "RollChain.Linked" and entry["payload"]["roll_id"] in records:
            record = records[entry["payload"]["roll_id"]]
            record["prev_hash"] = previous
            record["hash"] = entry["payload"]["hash"] = previous = record_hash(record)


def problem_lines(out: str, kind: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(f"{kind}:")]


# ---- never crying wolf ---------------------------------------------------------------------------


def test_an_honest_export_with_help_follow_ups_and_rotation_verifies_wcbh_10(
    play: Play, tmp_path: Path
) -> None:
    linked = [e["payload"]["roll_id"] for e in play.entries if e["type"] == "RollChain.Linked"]
    # the helped roll is saved before its helper's roll, and linked after it
    assert recorded(play.entries, play.helped)[0] < recorded(play.entries, play.helper)[0]
    assert linked.index(play.helped) > linked.index(play.helper)

    code, out = verify(play.entries, tmp_path)

    assert code == 0, out
    assert "8 roll records, 7 recomputed from revealed seeds, 1 unverified" in out
    assert "OK: the chain is intact" in out and "UNVERIFIED: 1 roll(s) whose seed" in out
    [unverified] = problem_lines(out, "UNVERIFIED")
    assert f"line {recorded(play.entries, play.last)[0]}:" in unverified


def test_require_revealed_fails_on_a_roll_whose_seed_is_secret(play: Play, tmp_path: Path) -> None:
    code, out = verify(play.entries, tmp_path, "--require-revealed")

    assert code == 1
    assert problem_lines(out, "UNVERIFIED") and out.rstrip().endswith("FAILED")


def test_server_made_and_reused_client_seeds_are_warnings_not_failures(
    play: Play, tmp_path: Path
) -> None:
    code, out = verify(play.entries, tmp_path)

    warnings = problem_lines(out, "WARNING")
    assert code == 0
    server = [w for w in warnings if "SERVER_CLIENT_SEED" in w]
    assert {play.server_seeded} <= {w.split("roll ")[1].split(":")[0] for w in server}
    [reused] = [w for w in warnings if "CLIENT_SEED_REUSED" in w]
    assert play.follow_up in reused and play.paid in reused
    assert f"line {recorded(play.entries, play.follow_up)[0]}:" in reused


def test_the_signed_trailer_line_is_skipped(play: Play, tmp_path: Path) -> None:
    code, out = verify([*play.entries, play.trailer], tmp_path)

    assert code == 0, out
    assert "UNSIGNED" not in out


def as_format_1(entries: Entries) -> Entries:
    """The export as the service wrote it before format 2: records of the 21 hashed fields."""
    old = copy.deepcopy(entries)
    for entry in old:
        if entry["type"] == "Roll.Recorded":
            record = entry["payload"]["record"]
            for name in list(record):
                if name not in HASHED_FIELDS and name != "hash":
                    del record[name]
    rehash(old)
    return old


def test_records_in_format_1_still_verify(play: Play, tmp_path: Path) -> None:
    old = as_format_1(play.entries)
    assert "format" not in recorded(old, play.paid)[1]["payload"]["record"]

    code, out = verify(old, tmp_path)

    assert code == 0, out
    assert "7 recomputed" in out


def test_a_format_1_record_is_replayed_under_rules_version_1_whatever_an_unhashed_field_says(
    play: Play, tmp_path: Path
) -> None:
    old = as_format_1(play.entries)
    recorded(old, play.paid)[1]["payload"]["record"]["rules_version"] = "99"  # outside its hash

    code, out = verify(old, tmp_path)

    assert code == 0, out
    assert "7 recomputed" in out


def _under_unknown_rules(play: Play, roll: str) -> tuple[Entries, int]:
    """The export with one roll's record claiming rules version 99 (re-hashed, as a newer server
    would have written it)."""
    entries = copy.deepcopy(play.entries)
    line, entry = recorded(entries, roll)
    entry["payload"]["record"]["rules_version"] = "99"
    rehash(entries)
    return entries, line


def test_a_rules_version_the_verifier_does_not_know_is_reported_as_such_not_tampered_or_fine(
    play: Play, tmp_path: Path
) -> None:
    entries, line = _under_unknown_rules(play, play.in_b)

    code, out = verify(entries, tmp_path)

    assert code == 3, out  # neither 0 (fine) nor 1 (tampered)
    [problem] = problem_lines(out, "UNKNOWN_RULES_VERSION")
    assert f"line {line}:" in problem
    assert "rules version 99 of ruleset wcbh is unknown to this verifier" in problem
    assert "FAILED" not in out and "\nOK" not in out
    assert out.splitlines()[-1].startswith("CANNOT TELL: nothing this verifier can check is wrong")
    assert "1 not recomputed (rules version unknown)" in out


def test_a_roll_under_unknown_rules_of_a_tampered_export_still_fails(
    play: Play, tmp_path: Path
) -> None:
    entries, _ = _under_unknown_rules(play, play.in_b)
    _, other = recorded(entries, play.rotated)
    other["payload"]["score"] += 1

    code, out = verify(entries, tmp_path)

    assert code == 1, out
    assert problem_lines(out, "SCORE_MISMATCH") and problem_lines(out, "UNKNOWN_RULES_VERSION")


def test_the_verification_endpoints_list_a_roll_under_unknown_rules_as_not_judged(
    play: Play,
) -> None:
    """GET /v1/rolls/{id}/verification and the campaign's give the same report: the roll is
    unverified (match null), the campaign not failed."""
    entries, _ = _under_unknown_rules(play, play.in_b)

    campaign = verify_export(entries).to_json()
    roll = verify_export(entries, only_roll=play.in_b).for_roll(play.in_b)

    assert campaign["intact"] is True and campaign["problems"] == []
    assert [u["kind"] for u in campaign["unverified"]].count("unknown_rules_version") == 1
    assert roll["chain"]["intact"] is True
    assert roll["recomputed"]["revealed"] is True and roll["recomputed"]["match"] is None
    assert [p["kind"] for p in roll["recomputed"]["problems"]] == ["unknown_rules_version"]
    # in a scene still open, the roll is both: its seed secret and its rules unknown
    open_entries, _ = _under_unknown_rules(play, play.last)
    kinds = sorted(p.kind for p in verify_export(open_entries).unverified)
    assert kinds == ["unknown_rules_version", "unverified"]


# ---- missing nothing -----------------------------------------------------------------------------


Edit = Callable[[Play, Entries], int]  # edits the entries, returns the line that shows it


def _record(play: Play, entries: Entries, roll: str) -> tuple[int, dict[str, Any]]:
    line, entry = recorded(entries, roll)
    return line, entry["payload"]["record"]


def revealed_seed_changed(play: Play, entries: Entries) -> int:
    line = line_of(entries, "Scene.Closed", play.scene_b)
    entries[line - 1]["payload"]["revealed_seed"] = "ab" * 32
    return line


def nonce(value: Callable[[int], int]) -> Edit:
    def edit(play: Play, entries: Entries) -> int:
        line, record = _record(play, entries, play.server_seeded)
        record["nonce"] = value(record["nonce"])
        rehash(entries)
        return line

    return edit


def scene_took(key: str, value: Any) -> Edit:
    """The scene's own account of the nonce it took (Scene.RollMade, outside the hash) edited to a
    value Python's == takes for the number: 1.0 or true for 1, false for epoch 0."""

    def edit(play: Play, entries: Entries) -> int:
        line, record = _record(play, entries, play.server_seeded)
        made = next(
            e["payload"]
            for e in entries
            if e["type"] == "Scene.RollMade" and e["payload"]["roll_id"] == play.server_seeded
        )
        assert (made["epoch"], made["nonce"]) == (0, 1) == (0, record["nonce"])
        assert made[key] == value and made[key] is not value
        made[key] = value
        return line

    return edit


def nonces_swapped(play: Play, entries: Entries) -> int:
    first_line, first = _record(play, entries, play.paid)
    _, second = _record(play, entries, play.server_seeded)
    first["nonce"], second["nonce"] = second["nonce"], first["nonce"]
    rehash(entries)
    return first_line


def made_after_reveal(play: Play, entries: Entries) -> int:
    """The roll after the rotation claims the revealed seed's commitment."""
    line, record = _record(play, entries, play.rotated)
    record["commitment"] = _record(play, entries, play.paid)[1]["commitment"]
    rehash(entries)
    return line


def commitment_never_published(play: Play, entries: Entries) -> int:
    line, record = _record(play, entries, play.in_b)
    record["commitment"] = hashlib.sha256(bytes(32)).hexdigest()
    rehash(entries)
    return line


def shown(name: str, change: Callable[[Any], Any]) -> Edit:
    """Edit what the roll shows beside its record (not hashed): score, success, odds."""

    def edit(play: Play, entries: Entries) -> int:
        line, entry = recorded(entries, play.paid)
        entry["payload"][name] = change(entry["payload"][name])
        return line

    return edit


def in_record(roll: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    """Edit the record and rewrite the chain consistently."""

    def edit(play: Play, entries: Entries) -> int:
        line, record = _record(play, entries, getattr(play, roll))
        change(record)
        rehash(entries)
        return line

    return edit


def cut_last(count: int) -> Edit:
    """Cut the last lines off: the last roll's save is Roll.Recorded, RollChain.Linked,
    Scene.RollMade."""

    def edit(play: Play, entries: Entries) -> int:
        line, _ = recorded(entries, play.last)
        assert [e["type"] for e in entries[line - 1 :]] == [
            "Roll.Recorded",
            "RollChain.Linked",
            "Scene.RollMade",
        ]
        del entries[len(entries) - count :]
        return line

    return edit


def unknown_format(play: Play, entries: Entries) -> int:
    """A format this verifier cannot hash (so the chain cannot be rewritten around it either)."""
    line, record = _record(play, entries, play.in_b)
    record["format"] = 3
    return line


def record_cut(play: Play, entries: Entries) -> int:
    """The last roll's record cut out: its link (the next line) has no record."""
    line, _ = recorded(entries, play.last)
    del entries[line - 1]
    return line


def reveal_cut(play: Play, entries: Entries) -> int:
    del entries[line_of(entries, "Scene.Closed", play.scene_b) - 1]
    return line_of(entries, "Issue.SceneFinished", play.scene_b)


def scene_cut(play: Play, entries: Entries) -> int:
    del entries[line_of(entries, "Scene.Opened", play.scene_b) - 1]
    return recorded(entries, play.in_b)[0]


def member_cut(play: Play, entries: Entries) -> int:
    """A member's joining cut out of the campaign's history: no roll check reads it, but the
    campaign's next event comes a version too late."""
    first = next(i for i, e in enumerate(entries) if e["type"] == "Campaign.MemberJoined")
    campaign = entries[first]["originator_id"]
    del entries[first]
    return (
        next(i for i in range(first, len(entries)) if entries[i]["originator_id"] == campaign) + 1
    )


def issue_start_cut(play: Play, entries: Entries) -> int:
    """A game Issue's first event cut out: no roll check reads it, and no earlier event of the
    Issue shows the gap, but its next event is version 2 of an aggregate the export never began."""
    first = next(i for i, e in enumerate(entries) if e["type"] == "Issue.Started")
    issue = entries[first]["originator_id"]
    del entries[first]
    return next(i for i in range(first, len(entries)) if entries[i]["originator_id"] == issue) + 1


def _faces(record: dict[str, Any]) -> None:
    record["faces"][0]["face"] = record["faces"][0]["face"] % 6 + 1


def _sheet(record: dict[str, Any]) -> None:
    record["sheet"]["abilities"]["Agility"] += 1


EDITS: dict[str, tuple[Edit, str]] = {
    "a revealed seed changed": (revealed_seed_changed, "SEED_MISMATCH"),
    "a nonce changed": (nonce(lambda n: n + 1), "NONCE_MISMATCH"),
    "a nonce reused": (nonce(lambda n: n - 1), "NONCE_MISMATCH"),
    "a nonce set to 999": (nonce(lambda n: 999), "NONCE_MISMATCH"),
    "two nonces swapped": (nonces_swapped, "NONCE_MISMATCH"),
    "the scene's nonce 1 as 1.0": (scene_took("nonce", 1.0), "NONCE_MISMATCH"),
    "the scene's nonce 1 as true": (scene_took("nonce", True), "NONCE_MISMATCH"),
    "the scene's seed epoch 0 as false": (scene_took("epoch", False), "NONCE_MISMATCH"),
    "the record's nonce 1 as 1.0": (
        in_record("server_seeded", lambda r: r.update(nonce=1.0)),
        "NONCE_MISMATCH",
    ),
    "a record without its rules version": (
        in_record("paid", lambda r: r.pop("rules_version")),
        "UNVERIFIABLE",
    ),
    "a roll on a revealed seed": (made_after_reveal, "AFTER_REVEAL"),
    "a commitment never published": (commitment_never_published, "UNPUBLISHED"),
    "the score shown": (shown("score", lambda s: s + 1), "SCORE_MISMATCH"),
    "the success shown": (shown("success", lambda s: not s), "RESULT_MISMATCH"),
    "the odds shown": (
        shown("odds", lambda o: {**o, "at_least": o["at_least"] + 1e-6}),
        "ODDS_MISMATCH",
    ),
    "the costs zeroed": (in_record("paid", lambda r: r.update(costs={})), "COSTS_MISMATCH"),
    "the record's score": (
        in_record("paid", lambda r: r.update(score=r["score"] + 1)),
        "SCORE_MISMATCH",
    ),
    "a face": (in_record("paid", _faces), "FACES_MISMATCH"),
    "the result": (
        in_record("paid", lambda r: r["result"].update(successes=r["result"]["successes"] + 1)),
        "RESULT_MISMATCH",
    ),
    "the request": (
        in_record("paid", lambda r: r["request"].update(trait="Will")),
        "FACES_MISMATCH",
    ),
    "the sheet snapshot": (in_record("paid", _sheet), "SHEET_MISMATCH"),
    "the side": (in_record("paid", lambda r: r.update(side="villain")), "SHEET_MISMATCH"),
    "the settings snapshot": (
        in_record("paid", lambda r: r.update(settings={"trait_limit": 12})),
        "SETTINGS_MISMATCH",
    ),
    "the ruleset": (in_record("paid", lambda r: r.update(ruleset="classd")), "SETTINGS_MISMATCH"),
    "the last roll's scene nonce cut off": (cut_last(1), "MISSING"),
    "the last roll's link cut off": (cut_last(2), "MISSING"),
    "the last roll's record cut out": (record_cut, "MISSING"),
    "a record format the verifier does not know": (unknown_format, "UNVERIFIABLE"),
    "a scene's reveal cut out": (reveal_cut, "MISSING"),
    "a scene's opening cut out": (scene_cut, "UNPUBLISHED"),
    "an event cut from the middle of an aggregate's history": (member_cut, "MISSING"),
    "an aggregate's first event cut off": (issue_start_cut, "MISSING"),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_export_fails_naming_the_line_and_the_problem(
    play: Play, tmp_path: Path, name: str
) -> None:
    edit, kind = EDITS[name]
    entries = copy.deepcopy(play.entries)
    line = edit(play, entries)

    code, out = verify(entries, tmp_path)

    assert code == 1, out
    named = [p for p in problem_lines(out, kind) if f"line {line}:" in p]
    assert named, f"no {kind} on line {line}:\n{out}"


def test_a_tampered_export_fails_through_verify_export_too(play: Play) -> None:
    entries = copy.deepcopy(play.entries)
    line = revealed_seed_changed(play, entries)

    report = verify_export(entries)

    assert not report.intact
    assert ("seed_mismatch", line) in [(p.kind, p.line) for p in report.problems]


# Infinity and fractions: JSON an export may hold (Python reads 1e400 as infinity), no whole number.
JUNK: list[Any] = [None, 5, "x", [], {}, True, float("inf"), 1.5, -(10**30)]


def junk_edits(entries: Entries, index: int, path: tuple[str, ...]) -> Iterator[Entries]:
    """Copies of the entries with one field of entry `index` (at `path`) replaced by junk."""
    container = entries[index]
    for step in path:
        container = container[step]
    for name in list(container):
        for junk in JUNK:
            if container[name] == junk:
                continue
            edited = copy.deepcopy(entries)
            target = edited[index]
            for step in path:
                target = target[step]
            target[name] = junk
            yield edited


def test_junk_in_any_field_of_a_roll_fails_and_is_never_raised(play: Play) -> None:
    line, _ = recorded(play.entries, play.paid)
    tried = 0
    for path in (("payload",), ("payload", "record")):
        for edited in junk_edits(play.entries, line - 1, path):
            assert not verify_export(edited).intact
            tried += 1
    assert tried > 100


def test_junk_in_the_scene_chain_and_character_entries_is_never_raised(play: Play) -> None:
    kinds = (
        "Scene.Opened",
        "Scene.Closed",
        "Scene.RollMade",
        "RollChain.Linked",
        "Character.Created",
    )
    tried = 0
    for kind in kinds:
        index = next(i for i, e in enumerate(play.entries) if e["type"] == kind)
        for path in ((), ("payload",)):
            for edited in junk_edits(play.entries, index, path):
                report = verify_export(edited)
                assert report.rolls == 8 or not report.intact
                tried += 1
    assert tried > 100


# ---- unusable input: exit code 2 -------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "the export is empty"),
        ('{"type": "Scene.Opened"}\nnot json\n', "line 2 is not JSON"),
        ('{"type": "Scene.Opened"}\n[1, 2]\n', "line 2 is not a JSON object"),
        ('{"type": "Scene.Opened"}\n' + "[" * 100_000 + "]" * 100_000 + "\n", "line 2 is nested"),
    ],
)
def test_unusable_input_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)

    assert main(["verify", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_text_that_is_not_utf_8_exits_2_naming_its_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    source: str,
) -> None:
    content = b'{"type": "Scene.Opened"}\n{"name": "\xff"}\n'
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(content)
    if source == "stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(content)))

    assert main(["verify", "-" if source == "stdin" else str(path)]) == 2
    assert "line 2 is not UTF-8 text" in capsys.readouterr().err


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nowhere.jsonl")]) == 2
    assert "nowhere.jsonl" in capsys.readouterr().err


def test_a_dash_reads_standard_input(
    play: Play, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "".join(json.dumps(e) + "\n" for e in [*play.entries, play.trailer])
    monkeypatch.setattr("sys.stdin", io.StringIO(text))

    assert main(["verify", "-"]) == 0
    assert "8 roll records" in capsys.readouterr().out


# ---- the live store: the campaign's report and each roll's ------------------------------------


@pytest.mark.store  # the store is what it tests: on SQLite and PostgreSQL
def test_the_campaign_verification_is_the_export_s_report(
    settings: Settings, tmp_path: Path
) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        hero = table.character(table.player)
        scene = table.scene()
        body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility"}}
        rolls = [table.post(f"/v1/scenes/{scene}/rolls", body, table.player)["id"] for _ in "ab"]
        report = table.get(f"/v1/campaigns/{table.campaign_id}/verification", table.observer)
        assert (report["intact"], report["rolls"], report["recomputed"]) == (True, 2, 0)
        assert {p["roll_id"] for p in report["unverified"]} == set(rolls)
        assert {p["kind"] for p in report["warnings"]} == {"server_client_seed"}
        table.post(f"/v1/scenes/{scene}/close", status=200)
        closed = table.get(f"/v1/campaigns/{table.campaign_id}/verification")
        assert (closed["intact"], closed["recomputed"], closed["unverified"]) == (True, 2, [])
        gm, campaign = table.gm, table.campaign_id

    def odds_off(state: dict[str, Any]) -> None:
        state["odds"]["at_least"] = 0.999

    tamper.edit_state(settings, rolls[1], odds_off)
    with TestClient(create_app(settings)) as client:
        report = client.get(f"/v1/campaigns/{campaign}/verification", headers=bearer(gm)).json()
        edited = client.get(f"/v1/rolls/{rolls[1]}/verification", headers=bearer(gm)).json()
        other = client.get(f"/v1/rolls/{rolls[0]}/verification", headers=bearer(gm)).json()
    assert report["intact"] is False
    assert [(p["kind"], p["roll_id"]) for p in report["problems"]] == [("odds_mismatch", rolls[1])]
    assert report["problems"][0]["line"] is not None
    assert edited["recomputed"]["match"] is False
    assert [p["kind"] for p in edited["recomputed"]["problems"]] == ["odds_mismatch"]
    assert other["recomputed"] == {"revealed": True, "match": True, "problems": []}
    assert other["chain"]["intact"] is True


def test_an_ended_game_issue_shows_its_scene_s_cut_off_reveal(tmp_path: Path) -> None:
    """Ending a game Issue closes its open scenes in the same save, after the Issue.Ended: cutting
    the export's tail at the Scene.Closed leaves the Issue.Ended to show it."""
    with TestClient(create_app(Settings(data_dir=tmp_path))) as client:
        table = Table(client)
        hero = table.character(table.player)
        issue = table.issue()
        scene = table.scene(issue)
        body = {"check": "trait", "character_id": hero, "request": {"trait": "Agility"}}
        table.post(f"/v1/scenes/{scene}/rolls", {**body, "client_seed": "x"}, table.player)
        table.post(f"/v1/issues/{issue}/end", status=200)
        export = client.get(f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.gm))
    entries = [json.loads(line) for line in export.text.splitlines()]
    assert verify(entries, tmp_path)[0] == 0
    closed = line_of(entries, "Scene.Closed", scene)
    ended = line_of(entries, "Issue.Ended", issue)
    assert ended < closed

    code, out = verify(entries[: closed - 1], tmp_path)

    assert code == 1
    assert [p for p in problem_lines(out, "MISSING") if f"line {ended}:" in p and scene in p]


def test_another_campaign_s_verification_is_not_found(play: Play) -> None:
    table = play.table
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/verification", headers=bearer(table.foreign)
    )

    assert response.status_code == 404
    assert response.json()["error"]["code"]
