"""Receipts, heads and export trailers, pure: the pinned test vectors of docs/receipts.md and the checks."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID, uuid5

import pytest

from domain import receipts
from domain.audit import GENESIS_HASH, record_hash

# The vectors of docs/receipts.md: a key from the seed 00 01 02 … 1f.
SEED = bytes(range(32))
KEY = receipts.SigningKey.from_seed(SEED)
CAMPAIGN = "6f1c2a9e-0b7d-4c3e-9a51-2d4e8f3b7c10"
ROLL = "0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a"
HASH = hashlib.sha256(b"chronicle").hexdigest()
AT = "2026-12-01T10:00:00Z"
PUBLIC_KEY = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
KEY_ID = "56475aa75463474c"
RECEIPT_SIGNATURE = (
    "79bbdb1cdd18f3dc1c0e88ed1bf7b728988ce5690078ea4e64c70738b5ddb742"
    "1f7e7044c0c5e81e579db2a5b59addd08501b1c61c6e774147bc7e751ebca20b"
)
HEAD_SIGNATURE = (
    "2f45f63754f29053c0b1dd41330011f7b495f4bdaa10a824b0ea209543baecda"
    "138c0e1e158f4c3a59e7498615009ebd2273c0062409a8fe3e4ec30b93ff8d08"
)
VECTOR_ENTRIES = [
    {"position": 3, "type": "Campaign.Created", "payload": {"name": "Ré"}},
    {"position": 5, "type": "Campaign.MemberJoined", "payload": {"odds": 0.25}},
]
DIGEST = "97d021040826a6a08fb0c30a36e6be41778d6f430d1a5fc71e276f8bf78eaa99"
TRAILER_SIGNATURE = (
    "61bdb4e995e6110bcdc1b124deb2f433868e9de8e67006d033bba15ce34fcdd5"
    "39a8ae651211ebbe667a6239824815311a2de0e929e1cc249d2450a82e796f09"
)
PUBLISHED = [{"key_id": KEY_ID, "algorithm": "ed25519", "public_key": PUBLIC_KEY}]
TRUSTED = {KEY_ID: bytes.fromhex(PUBLIC_KEY)}


def test_the_fixed_seed_gives_the_documented_key_and_key_id() -> None:
    assert KEY.public_key.hex() == PUBLIC_KEY
    assert KEY.key_id == KEY_ID == hashlib.sha256(bytes.fromhex(PUBLIC_KEY)).hexdigest()[:16]


def test_the_receipt_vector_encodes_and_signs_as_documented() -> None:
    receipt = receipts.sign_receipt(KEY, CAMPAIGN, 41, ROLL, HASH)
    assert receipts.receipt_message(receipt) == (
        f"chronicle-receipt-v1\n{CAMPAIGN}\n41\n{ROLL}\n{HASH}".encode()
    )
    assert receipt == {
        "campaign_id": CAMPAIGN,
        "sequence": 41,
        "roll_id": ROLL,
        "hash": HASH,
        "key_id": KEY_ID,
        "signature": RECEIPT_SIGNATURE,
    }


def test_the_head_vector_encodes_and_signs_as_documented() -> None:
    head = receipts.sign_head(KEY, CAMPAIGN, 42, HASH, 1234, AT)
    assert receipts.head_message(head) == (
        f"chronicle-head-v1\n{CAMPAIGN}\n42\n{HASH}\n1234\n{AT}".encode()
    )
    assert head["signature"] == HEAD_SIGNATURE
    assert list(head) == list(receipts.HEAD_FIELDS)


def test_the_export_vector_digests_canonical_entries_and_signs_as_documented() -> None:
    assert receipts.canonical_entry(VECTOR_ENTRIES[0]) == (
        '{"payload":{"name":"Ré"},"position":3,"type":"Campaign.Created"}'.encode()
    )
    trailer = receipts.sign_trailer(KEY, CAMPAIGN, VECTOR_ENTRIES, PUBLISHED, AT)
    assert trailer["digest"] == DIGEST
    assert receipts.trailer_message(trailer) == (
        f"chronicle-export-v1\n{CAMPAIGN}\n2\n5\n0\n{GENESIS_HASH}\n{DIGEST}\n{AT}".encode()
    )
    assert trailer["signature"] == TRAILER_SIGNATURE
    assert trailer["keys"] == PUBLISHED


def test_a_receipt_signature_does_not_verify_as_a_head_of_the_same_numbers() -> None:
    receipt = receipts.sign_receipt(KEY, CAMPAIGN, 41, ROLL, HASH)
    head = {
        **receipts.sign_head(KEY, CAMPAIGN, 41, HASH, 0, AT),
        "signature": receipt["signature"],
    }
    assert "bad_signature" in _kinds(receipts.check_expected_head([], head, TRUSTED))


def test_the_digest_survives_re_serialising_the_json() -> None:
    reserialised = [
        json.loads(json.dumps(dict(reversed(list(e.items()))), indent=3, ensure_ascii=True))
        for e in VECTOR_ENTRIES
    ]
    assert receipts.entries_digest(reserialised) == DIGEST


# ---- checks on a small synthetic chain ---------------------------------------------------------


def _chain(rolls: int, campaign: str = CAMPAIGN) -> list[dict[str, Any]]:
    """Log entries of `rolls` chained roll records, as an export has them."""
    entries: list[dict[str, Any]] = [{"position": 1, "type": "Campaign.Created", "payload": {}}]
    previous = GENESIS_HASH
    for sequence in range(rolls):
        roll_id = str(uuid5(UUID(campaign), str(sequence)))
        record = {
            "campaign_id": campaign,
            "roll_id": roll_id,
            "sequence": sequence,
            "prev_hash": previous,
        }
        record["hash"] = previous = record_hash(record)
        position = len(entries) + 1
        entries.append(
            {"position": position, "type": "Roll.Recorded", "payload": {"record": record}}
        )
        link = {"sequence": sequence, "roll_id": roll_id, "hash": record["hash"]}
        entries.append({"position": position + 1, "type": "RollChain.Linked", "payload": link})
    return entries


def _receipt(entries: list[dict[str, Any]], sequence: int) -> dict[str, Any]:
    link = next(
        e["payload"]
        for e in entries
        if e["type"] == "RollChain.Linked" and e["payload"]["sequence"] == sequence
    )
    return receipts.sign_receipt(KEY, CAMPAIGN, sequence, link["roll_id"], link["hash"])


def _kinds(problems: list[Any]) -> list[str]:
    return [p.kind for p in problems]


def test_an_intact_signed_export_has_no_problem() -> None:
    entries = _chain(3)
    trailer = receipts.sign_trailer(KEY, CAMPAIGN, entries, PUBLISHED, AT)
    assert receipts.check_export_head(entries, trailer, TRUSTED) == []
    assert (trailer["length"], trailer["hash"]) == (3, entries[-1]["payload"]["hash"])


def test_an_export_without_its_trailer_is_reported_unsigned() -> None:
    assert _kinds(receipts.check_export_head(_chain(2), None, TRUSTED)) == ["unsigned"]


def test_dropping_or_changing_an_entry_under_a_trailer_breaks_it() -> None:
    entries = _chain(3)
    trailer = receipts.sign_trailer(KEY, CAMPAIGN, entries, PUBLISHED, AT)
    dropped = receipts.check_export_head(entries[:-2], trailer, TRUSTED)
    assert set(_kinds(dropped)) == {"trailer_mismatch"}
    assert any("digest" in p.message for p in dropped) and any(
        "entries" in p.message for p in dropped
    )
    changed = [*entries[:2], {**entries[2], "actor": "someone else"}, *entries[3:]]
    assert [
        p.message.split(",")[0] for p in receipts.check_export_head(changed, trailer, TRUSTED)
    ] == [f"the ExportHead signs digest {trailer['digest']}"]


def test_a_trailer_by_an_untrusted_key_or_with_a_forged_signature_fails() -> None:
    entries = _chain(1)
    other = receipts.SigningKey.from_seed(bytes(32))
    by_other = receipts.sign_trailer(other, CAMPAIGN, entries, PUBLISHED, AT)
    assert _kinds(receipts.check_export_head(entries, by_other, TRUSTED)) == ["bad_signature"]
    forged = {
        **receipts.sign_trailer(KEY, CAMPAIGN, entries, PUBLISHED, AT),
        "signed_at": AT[:-3] + "01Z",
    }
    assert _kinds(receipts.check_export_head(entries, forged, TRUSTED)) == ["bad_signature"]


def test_a_trailer_that_is_not_the_last_line_is_reported() -> None:
    entries = _chain(1)
    trailer = receipts.sign_trailer(KEY, CAMPAIGN, entries, PUBLISHED, AT)
    extra = {"position": 99, "type": "Campaign.MemberJoined", "payload": {}}
    found, last, problems = receipts.split_export([*entries, trailer, extra])
    assert last is None and found == [*entries, extra]
    assert _kinds(problems) == ["misplaced_trailer"]


def test_kept_receipts_match_the_chain_they_were_given_for() -> None:
    entries = _chain(3)
    kept = [_receipt(entries, 0), _receipt(entries, 2)]
    assert receipts.check_receipts(entries, kept, TRUSTED) == []


def test_a_receipt_catches_a_rewritten_and_a_shortened_chain() -> None:
    honest = _chain(3)
    kept = _receipt(honest, 1)
    rewritten = _chain(3, campaign=CAMPAIGN)  # same shape, other roll at sequence 1
    for entry in rewritten:
        if entry["type"] == "Roll.Recorded" and entry["payload"]["record"]["sequence"] == 1:
            entry["payload"]["record"]["roll_id"] = str(uuid5(UUID(CAMPAIGN), "forged"))
    rewritten_link = [e for e in rewritten if e["type"] == "RollChain.Linked"][1]
    rewritten_link["payload"]["hash"] = "ab" * 32
    mismatch = receipts.check_receipts(rewritten, [kept], TRUSTED)
    assert _kinds(mismatch) == ["receipt_mismatch", "receipt_mismatch"]
    assert mismatch[0].sequence == 1 and mismatch[0].roll_id == kept["roll_id"]
    assert _kinds(receipts.check_receipts(honest[:3], [kept], TRUSTED)) == ["receipt_missing"]


def test_a_receipt_with_a_changed_field_fails_its_signature() -> None:
    entries = _chain(2)
    kept = {**_receipt(entries, 0), "sequence": 1}
    assert "bad_signature" in _kinds(receipts.check_receipts(entries, [kept], TRUSTED))


def test_an_expected_head_must_be_in_the_export_s_chain() -> None:
    entries = _chain(3)
    head = receipts.sign_head(KEY, CAMPAIGN, 2, entries[4]["payload"]["hash"], 5, AT)
    assert receipts.check_expected_head(entries, head, TRUSTED) == []
    longer = receipts.sign_head(KEY, CAMPAIGN, 4, HASH, 9, AT)
    assert _kinds(receipts.check_expected_head(entries, longer, TRUSTED)) == ["head_mismatch"]
    other = receipts.sign_head(KEY, CAMPAIGN, 2, HASH, 5, AT)
    assert _kinds(receipts.check_expected_head(entries, other, TRUSTED)) == ["head_mismatch"]
    empty = receipts.sign_head(KEY, CAMPAIGN, 0, GENESIS_HASH, 1, AT)
    assert receipts.check_expected_head(entries, empty, TRUSTED) == []


def test_published_keys_must_have_the_key_id_of_their_key() -> None:
    assert receipts.parse_keys({"keys": [{**PUBLISHED[0], "active": True}]}) == TRUSTED
    with pytest.raises(receipts.BadStatement, match="key_id"):
        receipts.parse_keys({"keys": [{**PUBLISHED[0], "key_id": "0" * 16}]})
    with pytest.raises(receipts.BadStatement, match="keys"):
        receipts.parse_keys([PUBLISHED[0]])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"sequence": -1}, "sequence"),
        ({"sequence": True}, "sequence"),
        ({"roll_id": ROLL.upper()}, "roll_id"),
        ({"hash": HASH[:-1]}, "hash"),
        ({"signature": "zz"}, "signature"),
    ],
)
def test_a_malformed_receipt_is_refused_naming_the_field(
    change: dict[str, Any], reason: str
) -> None:
    receipt = {**receipts.sign_receipt(KEY, CAMPAIGN, 41, ROLL, HASH), **change}
    with pytest.raises(receipts.BadStatement, match=reason):
        receipts.parse_receipt(receipt)


def test_a_receipt_lacking_a_field_is_refused_naming_it() -> None:
    receipt = receipts.sign_receipt(KEY, CAMPAIGN, 41, ROLL, HASH)
    del receipt["hash"]
    with pytest.raises(receipts.BadStatement, match="lacks hash"):
        receipts.parse_receipt(receipt)


def test_docs_receipts_md_shows_the_pinned_vectors() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "receipts.md").read_text()
    pinned = [PUBLIC_KEY, KEY_ID, RECEIPT_SIGNATURE, HEAD_SIGNATURE, DIGEST, TRAILER_SIGNATURE]
    assert [value for value in pinned if value not in doc] == []
    messages = [
        receipts.receipt_message(receipts.sign_receipt(KEY, CAMPAIGN, 41, ROLL, HASH)),
        receipts.head_message(receipts.sign_head(KEY, CAMPAIGN, 42, HASH, 1234, AT)),
        receipts.trailer_message(
            receipts.sign_trailer(KEY, CAMPAIGN, VECTOR_ENTRIES, PUBLISHED, AT)
        ),
    ]
    shown = [m.decode().replace("\n", "⏎") for m in messages]
    assert [m for m in shown if f"`{m}`" not in doc] == []


def test_the_receipt_checks_are_pure_so_a_verifier_needs_no_service() -> None:
    code = (
        "import sys, domain.receipts; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'eventsourcing', 'fastapi', 'api', 'projections', 'psycopg'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
