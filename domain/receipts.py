"""Signed receipts, chain heads and export trailers, pure: Ed25519 over domain-separated messages.

A receipt commits to one roll and, through the hash chain, to every roll before it; a head commits to
the chain at a length; the export trailer commits to every entry of an export. docs/receipts.md
specifies every byte; `chronicle verify` runs the checks below offline.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from domain.audit import EXPORT_HEAD, GENESIS_HASH, Problem, Report, verify_export

ALGORITHM = "ed25519"
# Domain separation: a signature made for one kind of statement never verifies as another.
RECEIPT_TAG = "chronicle-receipt-v1"
HEAD_TAG = "chronicle-head-v1"
EXPORT_TAG = "chronicle-export-v1"

RECEIPT_FIELDS = ("campaign_id", "sequence", "roll_id", "hash", "key_id", "signature")
HEAD_FIELDS = ("campaign_id", "length", "hash", "position", "key_id", "signature", "signed_at")
TRAILER_FIELDS = (
    "campaign_id",
    "entries",
    "position",
    "length",
    "hash",
    "digest",
    "key_id",
    "signature",
    "signed_at",
)
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_HEX128 = re.compile(r"^[0-9a-f]{128}$")
_KEY_ID = re.compile(r"^[0-9a-f]{16}$")
_SIGNED_AT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


class BadStatement(ValueError):
    """A receipt, head, trailer or key list that does not have the documented shape."""


# ---- keys --------------------------------------------------------------------------------------


def key_id_of(public_key: bytes) -> str:
    """The key id: the first 16 hex digits of SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


@dataclass(frozen=True)
class SigningKey:
    """A private Ed25519 key with its id; signatures are deterministic (RFC 8032)."""

    private: Ed25519PrivateKey

    @classmethod
    def from_seed(cls, seed: bytes) -> SigningKey:
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @property
    def seed(self) -> bytes:
        return self.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    @property
    def public_key(self) -> bytes:
        return self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def key_id(self) -> str:
        return key_id_of(self.public_key)

    def sign(self, message: bytes) -> str:
        return self.private.sign(message).hex()


# Trusted public keys: key id → raw 32-byte public key.
PublicKeys = Mapping[str, bytes]


def parse_keys(document: Any) -> dict[str, bytes]:
    """The keys as GET /v1/signing-keys serves them: {"keys": [{"key_id", "algorithm",
    "public_key", ...}]}; each key id must be the one its public key gives."""
    if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise BadStatement(
            'the keys must be a JSON object {"keys": [...]} as /v1/signing-keys serves'
        )
    keys: dict[str, bytes] = {}
    for index, item in enumerate(document["keys"]):
        if not isinstance(item, dict) or item.get("algorithm") != ALGORITHM:
            raise BadStatement(f"key {index} is not an {ALGORITHM} key with key_id and public_key")
        public = item.get("public_key")
        if not isinstance(public, str) or not _HEX64.match(public):
            raise BadStatement(f"key {index}: public_key must be 64 lowercase hex digits")
        raw = bytes.fromhex(public)
        if item.get("key_id") != key_id_of(raw):
            raise BadStatement(f"key {index}: key_id {item.get('key_id')!r} is not its key's id")
        keys[key_id_of(raw)] = raw
    return keys


def _signature_problem(
    keys: PublicKeys, statement: Mapping[str, Any], message: bytes, what: str
) -> str | None:
    """Why the statement's signature does not hold, or None if it does."""
    public = keys.get(str(statement.get("key_id")))
    if public is None:
        return f"{what} is signed with key {statement.get('key_id')}, which is not a trusted key"
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(
            bytes.fromhex(str(statement["signature"])), message
        )
    except (InvalidSignature, ValueError):
        return f"the signature of {what} is not valid for key {statement['key_id']}"
    return None


# ---- messages ----------------------------------------------------------------------------------


def _uuid(value: Any, name: str) -> str:
    try:
        if isinstance(value, str) and str(UUID(value)) == value:
            return value
    except ValueError:
        pass
    raise BadStatement(f"{name} must be a UUID in lowercase 8-4-4-4-12 form")


def _count(value: Any, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadStatement(f"{name} must be a whole number, 0 or more")
    return str(value)


def _match(value: Any, pattern: re.Pattern[str], name: str, form: str) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        raise BadStatement(f"{name} must be {form}")
    return value


def _hex64(value: Any, name: str) -> str:
    return _match(value, _HEX64, name, "64 lowercase hex digits")


def _moment(value: Any, name: str) -> str:
    return _match(value, _SIGNED_AT, name, "YYYY-MM-DDTHH:MM:SSZ")


# How each field of a signed message is written; a field has one form in every message.
_FORMS: dict[str, Callable[[Any, str], str]] = {
    "campaign_id": _uuid,
    "roll_id": _uuid,
    "sequence": _count,
    "length": _count,
    "position": _count,
    "entries": _count,
    "hash": _hex64,
    "digest": _hex64,
    "signed_at": _moment,
}


def _message(tag: str, statement: Mapping[str, Any], names: Iterable[str]) -> bytes:
    fields = [_FORMS[name](statement.get(name), name) for name in names]
    # Every field is validated to a form without newlines, so the lines cannot run into each other.
    return "\n".join([tag, *fields]).encode("ascii")


def receipt_message(statement: Mapping[str, Any]) -> bytes:
    return _message(RECEIPT_TAG, statement, ("campaign_id", "sequence", "roll_id", "hash"))


def head_message(statement: Mapping[str, Any]) -> bytes:
    names = ("campaign_id", "length", "hash", "position", "signed_at")
    return _message(HEAD_TAG, statement, names)


def trailer_message(statement: Mapping[str, Any]) -> bytes:
    names = ("campaign_id", "entries", "position", "length", "hash", "digest", "signed_at")
    return _message(EXPORT_TAG, statement, names)


def _signed(key: SigningKey, statement: dict[str, Any], message: bytes) -> dict[str, Any]:
    return {**statement, "key_id": key.key_id, "signature": key.sign(message)}


def sign_receipt(
    key: SigningKey, campaign_id: str, sequence: int, roll_id: str, hash: str
) -> dict[str, Any]:
    statement = {"campaign_id": campaign_id, "sequence": sequence, "roll_id": roll_id, "hash": hash}
    return _signed(key, statement, receipt_message(statement))


def sign_head(
    key: SigningKey, campaign_id: str, length: int, hash: str, position: int, signed_at: str
) -> dict[str, Any]:
    statement = {
        "campaign_id": campaign_id,
        "length": length,
        "hash": hash,
        "position": position,
        "signed_at": signed_at,
    }
    signed = _signed(key, statement, head_message(statement))
    return {k: signed[k] for k in HEAD_FIELDS}


# ---- exports -----------------------------------------------------------------------------------


def canonical_entry(entry: Mapping[str, Any]) -> bytes:
    """One entry as the digest reads it: keys sorted, no spaces, UTF-8, so re-serialising the JSON
    (other spacing, key order or escapes) does not change it."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def entries_digest(entries: Iterable[Mapping[str, Any]]) -> str:
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(canonical_entry(entry) + b"\n")
    return digest.hexdigest()


def _payloads(entries: Iterable[Mapping[str, Any]], type_: str) -> Iterator[Mapping[str, Any]]:
    """The payloads of the export's entries of one event type (malformed ones passed over)."""
    for entry in entries:
        payload = entry.get("payload")
        if entry.get("type") == type_ and isinstance(payload, dict):
            yield payload


def _links(entries: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    """The chain as the export tells it: sequence → the RollChain.Linked payload."""
    links: dict[int, Mapping[str, Any]] = {}
    for payload in _payloads(entries, "RollChain.Linked"):
        sequence = payload.get("sequence")
        if isinstance(sequence, int) and sequence not in links:
            links[sequence] = payload
    return links


def _records(entries: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    records: dict[str, Mapping[str, Any]] = {}
    for payload in _payloads(entries, "Roll.Recorded"):
        record = payload.get("record")
        if isinstance(record, dict):
            records[str(record.get("roll_id"))] = record
    return records


def chain_head(entries: Sequence[Mapping[str, Any]]) -> tuple[int, str]:
    """(length, hash) of the chain the export's RollChain.Linked entries tell (0 and the genesis
    hash when there are none)."""
    links = _links(entries)
    if not links:
        return 0, GENESIS_HASH
    last = max(links)
    return last + 1, str(links[last].get("hash"))


def _last_position(entries: Sequence[Mapping[str, Any]]) -> Any:
    return entries[-1].get("position") if entries else 0


def sign_trailer(
    key: SigningKey,
    campaign_id: str,
    entries: Sequence[Mapping[str, Any]],
    published: Sequence[Mapping[str, Any]],
    signed_at: str,
) -> dict[str, Any]:
    """The export's last line: what it covers, signed, and the published keys (for a verifier that
    was given none; the trusted list should come from GET /v1/signing-keys)."""
    length, head = chain_head(entries)
    statement = {
        "campaign_id": campaign_id,
        "entries": len(entries),
        "position": _last_position(entries),
        "length": length,
        "hash": head,
        "digest": entries_digest(entries),
        "signed_at": signed_at,
    }
    signed = _signed(key, statement, trailer_message(statement))
    return {
        "type": EXPORT_HEAD,
        **{k: signed[k] for k in TRAILER_FIELDS},
        "keys": [{k: item[k] for k in ("key_id", "algorithm", "public_key")} for item in published],
    }


def split_export(
    lines: Sequence[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], Mapping[str, Any] | None, list[Problem]]:
    """The log entries and the trailer (the last line, if it is one); a trailer anywhere else means
    lines were added after the signed end."""
    problems = [
        Problem("misplaced_trailer", f"line {index + 1} is an ExportHead but not the last line")
        for index, line in enumerate(lines[:-1])
        if line.get("type") == EXPORT_HEAD
    ]
    entries = [line for line in lines if line.get("type") != EXPORT_HEAD]
    trailer = lines[-1] if lines and lines[-1].get("type") == EXPORT_HEAD else None
    return entries, trailer, problems


def audit_export(
    lines: Sequence[Mapping[str, Any]],
    keys: PublicKeys | None = None,
    *,
    require_revealed: bool = False,
    allow_unsigned: bool = False,
) -> Report:
    """The whole offline check of an export: the audit of its log (docs/fair-dice.md), then its
    signed trailer (a cut or an edit anywhere breaks it). ``keys`` None trusts the keys the trailer
    names. ``allow_unsigned``: an export with no trailer at all (made before exports were signed) is
    a warning, not a failure; a trailer that is there must still match."""
    report = verify_export(lines, require_revealed=require_revealed)
    entries, trailer, problems = split_export(lines)
    trusted = trailer_keys(trailer) if keys is None else keys
    problems += check_export_head(entries, trailer, trusted)
    unsigned = [p for p in problems if p.kind == "unsigned"] if allow_unsigned else []
    report.warnings.extend(unsigned)
    report.problems.extend(p for p in problems if p not in unsigned)
    return report


def trailer_keys(trailer: Mapping[str, Any] | None) -> dict[str, bytes]:
    """The keys an export names itself (trusted only when no --keys are given)."""
    if trailer is None:
        return {}
    try:
        return parse_keys({"keys": trailer.get("keys")})
    except BadStatement:
        return {}


def check_export_head(
    entries: Sequence[Mapping[str, Any]], trailer: Mapping[str, Any] | None, keys: PublicKeys
) -> list[Problem]:
    """Does the signed trailer cover exactly these entries? A cut-off export loses its trailer."""
    if trailer is None:
        return [
            Problem(
                "unsigned",
                "the export does not end with its signed ExportHead line: it was cut off, "
                "or it was not made by Chronicle",
            )
        ]
    try:
        message = trailer_message(trailer)
        _match(trailer.get("signature"), _HEX128, "signature", "128 lowercase hex digits")
    except BadStatement as exc:
        return [Problem("bad_trailer", f"the ExportHead line is malformed: {exc}")]
    problems: list[Problem] = []
    reason = _signature_problem(keys, trailer, message, "the ExportHead")
    if reason is not None:
        problems.append(Problem("bad_signature", reason))
    length, head = chain_head(entries)
    actual = {
        "entries": len(entries),
        "position": _last_position(entries),
        "length": length,
        "hash": head,
        "digest": entries_digest(entries),
    }
    for name, value in actual.items():
        if trailer[name] != value:
            problems.append(
                Problem(
                    "trailer_mismatch",
                    f"the ExportHead signs {name} {trailer[name]}, the export has {value}: "
                    "entries were removed, added or changed after it was signed",
                )
            )
    return problems


# ---- receipts and announced heads --------------------------------------------------------------


def _statement(
    item: Any, fields: Sequence[str], message: Callable[[Mapping[str, Any]], bytes], what: str
) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise BadStatement(f"{what} must be a JSON object")
    missing = [name for name in fields if name not in item]
    if missing:
        raise BadStatement(f"{what} lacks {', '.join(missing)}")
    try:
        _match(item["key_id"], _KEY_ID, "key_id", "16 lowercase hex digits")
        _match(item["signature"], _HEX128, "signature", "128 lowercase hex digits")
        message(item)
    except BadStatement as exc:
        raise BadStatement(f"{what}: {exc}") from None
    return item


def parse_receipt(item: Any, what: str = "the receipt") -> dict[str, Any]:
    """A kept receipt, from a file: an object with the documented fields (extra fields ignored)."""
    return _statement(item, RECEIPT_FIELDS, receipt_message, what)


def parse_head(item: Any, what: str = "the head") -> dict[str, Any]:
    """A head announced by GET /v1/campaigns/{id}/head, from a file."""
    return _statement(item, HEAD_FIELDS, head_message, what)


def check_receipts(
    entries: Sequence[Mapping[str, Any]],
    receipts: Sequence[Mapping[str, Any]],
    keys: PublicKeys,
) -> list[Problem]:
    """Every kept receipt (checked by parse_receipt) has its roll in the export unaltered: same
    sequence, roll id and hash."""
    links, records = _links(entries), _records(entries)
    problems: list[Problem] = []
    for receipt in receipts:
        sequence, roll_id = int(receipt["sequence"]), str(receipt["roll_id"])
        reason = _signature_problem(keys, receipt, receipt_message(receipt), f"receipt {roll_id}")
        if reason is not None:
            problems.append(Problem("bad_signature", reason, sequence=sequence, roll_id=roll_id))
        problems.extend(_receipt_in_export(receipt, links, records))
    return problems


def _receipt_in_export(
    receipt: Mapping[str, Any],
    links: Mapping[int, Mapping[str, Any]],
    records: Mapping[str, Mapping[str, Any]],
) -> list[Problem]:
    sequence, roll_id, hash = int(receipt["sequence"]), str(receipt["roll_id"]), receipt["hash"]
    link = links.get(sequence)
    if link is None:
        return [
            Problem(
                "receipt_missing",
                f"the export's chain has no roll at sequence {sequence}, where the receipt puts "
                f"roll {roll_id}: the chain was cut short or rewritten",
                sequence=sequence,
                roll_id=roll_id,
            )
        ]
    problems = []
    if (str(link.get("roll_id")), link.get("hash")) != (roll_id, hash):
        problems.append(
            Problem(
                "receipt_mismatch",
                f"sequence {sequence} of the export's chain is roll {link.get('roll_id')} with "
                f"hash {link.get('hash')}; the receipt says roll {roll_id} with hash {hash}: "
                "the chain was rewritten",
                sequence=sequence,
                roll_id=roll_id,
            )
        )
    record = records.get(roll_id)
    if record is None or (record.get("sequence"), record.get("hash")) != (sequence, hash):
        problems.append(
            Problem(
                "receipt_mismatch",
                f"the export has no record of roll {roll_id} with sequence {sequence} and the "
                "receipt's hash: it was removed or changed",
                sequence=sequence,
                roll_id=roll_id,
            )
        )
    elif record.get("campaign_id") != receipt["campaign_id"]:
        problems.append(
            Problem(
                "receipt_mismatch",
                f"the receipt is for campaign {receipt['campaign_id']}, the roll is of "
                f"campaign {record.get('campaign_id')}",
                sequence=sequence,
                roll_id=roll_id,
            )
        )
    return problems


def check_expected_head(
    entries: Sequence[Mapping[str, Any]], head: Mapping[str, Any], keys: PublicKeys
) -> list[Problem]:
    """A head announced earlier (checked by parse_head) is in the export's chain: at that length
    the chain has that hash."""
    problems: list[Problem] = []
    length, hash = int(head["length"]), str(head["hash"])
    reason = _signature_problem(keys, head, head_message(head), "the expected head")
    if reason is not None:
        problems.append(Problem("bad_signature", reason))
    if length == 0:
        if hash != GENESIS_HASH:
            problems.append(
                Problem("head_mismatch", "a head of length 0 must have the genesis hash")
            )
        return problems
    link = _links(entries).get(length - 1)
    if link is None:
        problems.append(
            Problem(
                "head_mismatch",
                f"the expected head covers {length} rolls, the export's chain is shorter: it was "
                "cut short or rewritten",
                sequence=length - 1,
            )
        )
    elif link.get("hash") != hash:
        problems.append(
            Problem(
                "head_mismatch",
                f"at length {length} the export's chain has hash {link.get('hash')}, the expected "
                f"head says {hash}: the chain was rewritten",
                sequence=length - 1,
                roll_id=str(link.get("roll_id")),
            )
        )
    else:
        record = _records(entries).get(str(link.get("roll_id")))
        if record is not None and record.get("campaign_id") != head["campaign_id"]:
            problems.append(
                Problem(
                    "head_mismatch",
                    f"the expected head is of campaign {head['campaign_id']}, the export of "
                    f"campaign {record.get('campaign_id')}",
                )
            )
    return problems
