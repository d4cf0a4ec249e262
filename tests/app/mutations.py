"""Exports as lists of entries, and single mutations of them that `chronicle verify` must catch.

One place for everything that reads or rewrites an export: `parse` / `serialise` (JSON Lines),
`roll_lines` (which lines hold roll records), and one function per kind of mutation. Each
mutation returns the mutated entries and a `Target`: the kinds of problem a verifier must report
and what the problem must name (the roll's id or chain sequence, or the 1-based line). Mutations
are generic: they pick any key of a roll record, so fields the audit adds later are covered too.
A signed last line `{"type": "ExportHead", ...}` (the receipts' work) is left alone: mutations act
on the lines before it and put it back at the end, as an attacker who cannot re-sign would.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.audit import Problem, record_hash

Entries = list[dict[str, Any]]
HEAD = "ExportHead"
ROLL = "Roll.Recorded"
LINK = "RollChain.Linked"
REVEALS = ("Scene.SeedRotated", "Scene.Closed")

# What a verifier reports for each mutation (docs/fair-dice.md names the kinds).
# A record whose format is edited can no longer be hashed or replayed: "unverifiable" (an edited
# rules version breaks the record's hash: "tampered").
TAMPERED = frozenset({"tampered", "unverifiable"})
# A dropped or cut line of any kind breaks the signed trailer (docs/receipts.md); the audit itself
# names what it can see of it (a roll, a link, a nonce record).
MISSING = frozenset({"missing", "truncated", "trailer_mismatch", "unsigned"})
MISORDERED = frozenset({"misordered"})
# An edited commitment: the reveal no longer hashes to it, and its rolls name one never published.
SEED = frozenset({"seed_mismatch", "unpublished"})
RECOMPUTED = frozenset(
    {
        "faces_mismatch",
        "result_mismatch",
        "score_mismatch",
        "costs_mismatch",
        "odds_mismatch",
        "nonce_mismatch",
        "seed_mismatch",
    }
)


@dataclass(frozen=True)
class Target:
    """What a verifier must say about a mutation: a problem of one of `kinds` that names one of
    `roll_ids` or `sequences`, or the 1-based `line` (None: any problem of those kinds will do)."""

    kinds: frozenset[str]
    roll_ids: frozenset[str] = field(default_factory=frozenset)
    sequences: frozenset[int] = field(default_factory=frozenset)
    line: int | None = None

    def named_by(self, problem: Problem) -> bool:
        if problem.kind not in self.kinds:
            return False
        if not (self.roll_ids or self.sequences or self.line):
            return True
        return (
            problem.roll_id in self.roll_ids
            or problem.sequence in self.sequences
            or (self.line is not None and getattr(problem, "line", None) == self.line)
        )


# ---- reading and writing ---------------------------------------------------------------------------


def parse(text: str | bytes) -> Entries:
    """An export file's lines as entries."""
    if isinstance(text, bytes):
        text = text.decode()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def serialise(entries: Iterable[dict[str, Any]]) -> str:
    """Entries as JSON Lines, written as the export endpoint writes them."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in entries)


def split_head(entries: Entries) -> tuple[Entries, Entries]:
    """The lines a mutation may touch, and the signed head line (if any) that it leaves alone."""
    if entries and entries[-1].get("type") == HEAD:
        return copy.deepcopy(entries[:-1]), [copy.deepcopy(entries[-1])]
    return copy.deepcopy(entries), []


def roll_lines(entries: Entries) -> list[int]:
    """Indexes of the lines that hold a roll record."""
    return [i for i, e in enumerate(entries) if e.get("type") == ROLL]


def record_of(entry: dict[str, Any]) -> dict[str, Any]:
    return entry["payload"]["record"]  # type: ignore[no-any-return]


def target_roll(entry: dict[str, Any], kinds: frozenset[str], line: int) -> Target:
    """A problem of `kinds` about the roll on this entry (1-based `line`)."""
    record = record_of(entry)
    sequence = record.get("sequence")
    return Target(
        kinds,
        frozenset({str(record.get("roll_id"))}),
        frozenset({sequence}) if isinstance(sequence, int) else frozenset(),
        line,
    )


# ---- changing one value ----------------------------------------------------------------------------


def leaf_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a scalar inside `value` (an empty dict or list counts as a leaf)."""
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in leaf_paths(v, (*prefix, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaf_paths(v, (*prefix, i))]
    return [prefix]


def changed(value: Any) -> Any:
    """A different value of the same JSON shape where there is one (None becomes 1)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value / 2 if value else 0.5
    if isinstance(value, str):
        return _changed_string(value)
    if isinstance(value, list):
        return [*value, 1]
    if isinstance(value, dict):
        return {**value, "tampered": 1}
    return 1


def _changed_string(value: str) -> str:
    if value and all(c in "0123456789abcdef-" for c in value):  # hex, UUIDs: still hex
        last = value[-1]
        swap = "0" if last != "0" else "1"
        return value[:-1] + swap if last != "-" else value + "0"
    return value + "!"


def set_path(container: Any, path: Sequence[Any], new: Any) -> None:
    for key in path[:-1]:
        container = container[key]
    container[path[-1]] = new


def get_path(container: Any, path: Sequence[Any]) -> Any:
    for key in path:
        container = container[key]
    return container


# ---- re-hashing (an attacker who rewrites the chain too) -------------------------------------------


def rechain(entries: Entries) -> None:
    """Recompute every record's prev_hash and hash, and the chain's links, in chain order: the
    unkeyed chain then agrees with the edit, and only recomputing the dice can catch it."""
    records = sorted(
        (record_of(e) for e in entries if e.get("type") == ROLL), key=lambda r: r["sequence"]
    )
    hashes: dict[str, str] = {}
    previous = "0" * 64
    for record in records:
        record["prev_hash"] = previous
        record["hash"] = previous = record_hash(record)
        hashes[str(record["roll_id"])] = previous
    for entry in entries:
        if entry.get("type") == LINK and entry["payload"]["roll_id"] in hashes:
            entry["payload"]["hash"] = hashes[entry["payload"]["roll_id"]]


# ---- the mutations ---------------------------------------------------------------------------------


def edit_record(entries: Entries, index: int, path: Sequence[Any]) -> tuple[Entries, Target]:
    """Change one value inside the roll record on line `index` (path: keys into the record)."""
    body, head = split_head(entries)
    before = target_roll(body[index], TAMPERED | MISORDERED, index + 1)
    record = record_of(body[index])
    set_path(record, path, changed(get_path(record, path)))
    after = target_roll(body[index], TAMPERED | MISORDERED, index + 1)
    # An edited roll_id or sequence may be reported under the old value or the new one; a record
    # under another roll_id is also, fairly, the linked roll missing.
    kinds = TAMPERED | MISORDERED | (MISSING if path[0] == "roll_id" else frozenset())
    roll_ids, sequences = before.roll_ids | after.roll_ids, before.sequences | after.sequences
    return body + head, Target(kinds, roll_ids, sequences, index + 1)


def edit_roll_payload(entries: Entries, index: int, path: Sequence[Any]) -> tuple[Entries, Target]:
    """Change a value the roll line carries beside its record (score, success, odds)."""
    body, head = split_head(entries)
    payload = body[index]["payload"]
    set_path(payload, path, changed(get_path(payload, path)))
    kinds = TAMPERED | RECOMPUTED | frozenset({"odds_mismatch"})
    return body + head, target_roll(body[index], kinds, index + 1)


def recompute_lie(entries: Entries, index: int, path: Sequence[Any]) -> tuple[Entries, Target]:
    """Change the record's faces, result or nonce and re-hash the chain to match."""
    body, head = split_head(entries)
    record = record_of(body[index])
    set_path(record, path, changed(get_path(record, path)))
    rechain(body)
    return body + head, target_roll(body[index], RECOMPUTED | TAMPERED, index + 1)


def set_nonce(entries: Entries, index: int, nonce: int, rehash: bool) -> tuple[Entries, Target]:
    """The record's nonce becomes `nonce` (another epoch's, or one never taken, e.g. 999)."""
    body, head = split_head(entries)
    record = record_of(body[index])
    record["nonce"] = nonce
    if rehash:
        rechain(body)
    return body + head, target_roll(body[index], RECOMPUTED | TAMPERED, index + 1)


def drop_line(entries: Entries, index: int) -> tuple[Entries, Target]:
    body, head = split_head(entries)
    dropped = body.pop(index)
    if dropped.get("type") == ROLL:
        return body + head, target_roll(dropped, MISSING, index + 1)
    if dropped.get("type") == LINK:
        payload = dropped["payload"]
        target = Target(MISSING, frozenset({payload["roll_id"]}), frozenset({payload["sequence"]}))
        return body + head, target
    return body + head, Target(MISSING)


# The lines besides the records that the proof of the dice rests on, with the keys that matter and
# what a change of each must be reported as.
PROOF_LINES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    LINK: (("sequence", "roll_id", "hash"), TAMPERED | MISSING | MISORDERED),
    "Scene.RollMade": (
        ("roll_id", "epoch", "nonce"),
        frozenset({"nonce_mismatch", "misordered"}) | MISSING,
    ),
    "Scene.Opened": (("seed_commitment",), SEED),
    "Scene.SeedRotated": (("new_commitment",), SEED),
}


def proof_lines(entries: Entries) -> list[int]:
    return [i for i, e in enumerate(entries) if e.get("type") in PROOF_LINES]


def edit_proof_line(entries: Entries, index: int, key: str) -> tuple[Entries, Target]:
    """Change `key` of a chain link, a scene's nonce record (`Scene.RollMade`) or a seed commitment."""
    body, head = split_head(entries)
    payload = body[index]["payload"]
    payload[key] = changed(payload[key])
    _, kinds = PROOF_LINES[body[index]["type"]]
    # A link or nonce record names its roll (and a link its sequence), before or after the edit.
    values = (entries[index]["payload"], payload)
    roll_ids = frozenset(str(v["roll_id"]) for v in values if "roll_id" in v)
    sequences = frozenset(v["sequence"] for v in values if isinstance(v.get("sequence"), int))
    if roll_ids:
        return body + head, Target(kinds, roll_ids, sequences)
    # An edited commitment shows where its seed is revealed (the reveal no longer hashes to it) and
    # in the rolls made on it (never published): any line of those will do.
    return body + head, Target(kinds)


def swap_lines(entries: Entries, first: int, second: int) -> tuple[Entries, Target]:
    """Two lines trade places (each with its own log position)."""
    body, head = split_head(entries)
    body[first], body[second] = body[second], body[first]
    return body + head, Target(MISORDERED)


def truncate(entries: Entries, keep: int) -> tuple[Entries, Target]:
    """Only the first `keep` lines are left (then the head, if any)."""
    body, head = split_head(entries)
    return body[:keep] + head, Target(MISSING)


def change_revealed_seed(entries: Entries, index: int) -> tuple[Entries, Target]:
    """Another 32-byte seed where a scene's seed was revealed (line `index`)."""
    body, head = split_head(entries)
    payload = body[index]["payload"]
    payload["revealed_seed"] = _changed_string(payload["revealed_seed"])
    return body + head, Target(SEED)


# ---- where a mutation can go -----------------------------------------------------------------------


def reveal_lines(entries: Entries) -> list[int]:
    return [i for i, e in enumerate(entries) if e.get("type") in REVEALS]


def revealed_roll_lines(entries: Entries) -> list[int]:
    """Roll lines whose scene seed the export reveals (they recompute)."""
    import hashlib

    revealed = {
        hashlib.sha256(bytes.fromhex(entries[i]["payload"]["revealed_seed"])).hexdigest()
        for i in reveal_lines(entries)
    }
    return [i for i in roll_lines(entries) if record_of(entries[i])["commitment"] in revealed]


def droppable_lines(entries: Entries) -> list[int]:
    """Lines whose loss shows: roll records and chain links, and any line a later line of the same
    aggregate follows (its version numbers then skip one). The last event of an aggregate can go
    unnoticed without a signed head: that is `truncate`'s case."""
    body, _ = split_head(entries)
    later: set[str] = set()
    found: list[int] = []
    for index in range(len(body) - 1, -1, -1):
        entry = body[index]
        origin = str(entry.get("originator_id"))
        if entry.get("type") in (ROLL, LINK) or origin in later:
            found.append(index)
        later.add(origin)
    return sorted(found)


def other_epoch_nonces(entries: Entries, index: int) -> list[int]:
    """Nonces that rolls of other epochs (other commitments) took, but this epoch did not."""
    record = record_of(entries[index])
    own = {
        record_of(entries[i])["nonce"]
        for i in roll_lines(entries)
        if record_of(entries[i])["commitment"] == record["commitment"]
    }
    return sorted(
        {
            record_of(entries[i])["nonce"]
            for i in roll_lines(entries)
            if record_of(entries[i])["commitment"] != record["commitment"]
        }
        - own
    )
