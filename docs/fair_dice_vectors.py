"""Prints the test vectors of docs/fair-dice.md as Markdown, computed with domain.dice.

Run `python docs/fair_dice_vectors.py`; tests/unit/dice/test_vectors.py pins the same values.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from typing import Any

from domain.dice import Face, FairSource, Roller, commitment, derive_block
from domain.dice.source import SPACE, message_prefix

SEED_A = bytes(range(32))
SEED_B = hashlib.sha256(b"chronicle fair dice vector B").digest()

# (seed, client seed, nonce, sides, count): `count` dice of `sides` drawn one after another.
FACE_CASES: list[tuple[bytes, str, int, int, int]] = [
    (SEED_A, "", 0, 6, 10),
    (SEED_A, "", 0, 2, 10),
    (SEED_A, "alice", 0, 20, 6),
    (SEED_A, "alice", 1, 20, 6),
    (SEED_B, "dé ☃ 🎲", 7, 100, 5),
    (SEED_B, "bob", 2**64 - 1, 1000, 4),
    (SEED_B, "bob", 12, 4, 12),
    (SEED_B, "bob", 12, 12, 5),
    (SEED_B, "bob", 12, 3_000_000_000, 6),  # source level only: the roller allows 2..1000 sides
]
REJECTION_CLIENT = "rejection"
EXPLOSION_CLIENT = "explode"
REROLL_CLIENT = "reroll"
ZERO_HASH = "0" * 64


def faces(seed: bytes, client: str, nonce: int, sides: int, count: int) -> list[int]:
    source = FairSource(seed, client, nonce)
    return [source.die(sides) for _ in range(count)]


def words(block: bytes) -> tuple[int, ...]:
    return struct.unpack(">8I", block)


def limit(sides: int) -> int:
    return SPACE - SPACE % sides


def rejected(candidates: tuple[int, ...], sides: int) -> list[str]:
    return [str(i) for i, word in enumerate(candidates) if word >= limit(sides)]


def first_rejection(seed: bytes, client: str, sides: int) -> int:
    """The first nonce whose first block (counter 0) holds a word that a die of `sides` rejects."""
    fixed = message_prefix(client, 0)[:-8]  # the search varies only the nonce: ~500,000 of them
    top = limit(sides)
    nonce = 0
    while (
        max(words(hmac.digest(seed, fixed + nonce.to_bytes(8, "big") + bytes(8), "sha256"))) < top
    ):
        nonce += 1
    return nonce


def first_double_explosion(seed: bytes, client: str) -> tuple[int, list[Face]]:
    """The first nonce where 3d6 (explode on 6) gives die 1 a chain of two or more and another die one."""
    nonce = 0
    while True:
        drawn = Roller(FairSource(seed, client, nonce)).roll(6, 3, explodes=lambda face: face == 6)
        if _chain_length(drawn, 0) >= 2 and _chain_length(drawn, 1) + _chain_length(drawn, 2) >= 1:
            return nonce, drawn
        nonce += 1


def _chain_length(drawn: list[Face], base: int) -> int:
    length, current = 0, base
    while (child := next((f for f in drawn if f.exploded_from == current), None)) is not None:
        length, current = length + 1, child.index
    return length


def first_double_reroll(seed: bytes, client: str) -> tuple[int, Roller]:
    """The first nonce where 4d6 shows two or more dice of 1 or 2; those are rerolled, last first."""
    nonce = 0
    while True:
        roller = Roller(FairSource(seed, client, nonce))
        low = [f for f in roller.roll(6, 4) if f.face <= 2]
        if len(low) >= 2:
            roller.reroll(reversed(low))
            return nonce, roller
        nonce += 1


HASHED_FIELDS = (
    "campaign_id", "scene_id", "roll_id", "sequence", "nonce", "commitment", "client_seed",
    "character_id", "side", "rolled_by", "ruleset", "settings", "sheet", "check", "follow_up",
    "request", "faces", "result", "follow_up_of", "costs", "prev_hash",
)  # fmt: skip


def canonical(record: dict[str, Any]) -> bytes:
    content = {name: record.get(name) for name in HASHED_FIELDS}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_example() -> list[dict[str, Any]]:
    """A roll and its follow-up in one campaign, hash-chained; the values are illustrative, the rule is not."""
    first = Roller(FairSource(SEED_A, "alice", 0))
    first.roll(6, 3, label="trait")
    second = Roller(FairSource(SEED_A, "alice", 1))
    second.roll(6, 1, label="resolve")
    common = {
        "campaign_id": "7f0c8a52-5d1e-4c3b-9a63-0b1f2e3d4c5a",
        "scene_id": "1b2c3d4e-0000-4000-8000-00000000000a",
        "commitment": commitment(SEED_A),
        "client_seed": "alice",
        "character_id": "5e6f7a8b-0000-4000-8000-0000000000c1",
        "side": "hero",
        "rolled_by": "9a8b7c6d-0000-4000-8000-0000000000f1",
        "ruleset": "wcbh",
        "settings": None,
        "sheet": {"name": "Zoë", "abilities": {"Agility": 3}},
        "check": "trait",
    }
    records: list[dict[str, Any]] = [
        {
            **common,
            "roll_id": "0d9e8f7a-0000-4000-8000-000000000001",
            "sequence": 0,
            "nonce": 0,
            "follow_up": None,
            "request": {"trait": "Agility", "difficulty": 2, "reason": "Ambush at the café"},
            "faces": [f.to_json() for f in first.faces],
            "result": {"successes": sum(1 for f in first.kept() if f.face >= 5)},
            "follow_up_of": None,
            "costs": {},
            "prev_hash": ZERO_HASH,
        },
        {
            **common,
            "roll_id": "0d9e8f7a-0000-4000-8000-000000000002",
            "sequence": 1,
            "nonce": 1,
            "follow_up": "resolve_dice",
            "request": {"resolve": 1},
            "faces": [f.to_json() for f in second.faces],
            "result": {"successes": sum(1 for f in second.kept() if f.face >= 5)},
            "follow_up_of": "0d9e8f7a-0000-4000-8000-000000000001",
            "costs": {"resolve": 1},
            "prev_hash": "",
        },
    ]
    records[1]["prev_hash"] = hashlib.sha256(canonical(records[0])).hexdigest()
    return records


def format_2_example(previous: dict[str, Any]) -> dict[str, Any]:
    """A format-2 record following `previous`: every field but `hash` is hashed, including fields a
    verifier does not know (here `modifiers`)."""
    third = Roller(FairSource(SEED_A, "bob", 2))
    third.roll(6, 2, label="trait")
    successes = sum(1 for f in third.kept() if f.face >= 5)
    return {
        **{k: previous[k] for k in ("campaign_id", "scene_id", "commitment", "ruleset")},
        "format": 2,
        "rules_version": "1",
        "roll_id": "0d9e8f7a-0000-4000-8000-000000000003",
        "sequence": 2,
        "nonce": 2,
        "client_seed": "bob",
        "client_seed_by": "roller",
        "character_id": None,
        "side": None,
        "rolled_by": previous["rolled_by"],
        "settings": None,
        "sheet": None,
        "check": "trait",
        "follow_up": None,
        "request": {"pool": 2, "difficulty": 1, "trait": None},
        "faces": [f.to_json() for f in third.faces],
        "result": {"successes": successes},
        "score": successes,
        "success": successes >= 1,
        "follow_up_of": None,
        "costs": {},
        "modifiers": [{"source": "situation", "dice": 0}],
        "prev_hash": hashlib.sha256(canonical(previous)).hexdigest(),
    }


def canonical_2(record: dict[str, Any]) -> bytes:
    """Format 2: every field of the record except `hash`, encoded as format 1 is."""
    content = {k: v for k, v in record.items() if k != "hash"}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def face_rows(drawn: list[Face]) -> list[str]:
    rows = [
        "| index | sides | face | kept | exploded_from | reroll_of |",
        "|---|---|---|---|---|---|",
    ]
    for f in drawn:
        rows.append(
            f"| {f.index} | {f.sides} | {f.face} | {str(f.kept).lower()} "
            f"| {_or_dash(f.exploded_from)} | {_or_dash(f.reroll_of)} |"
        )
    return rows


def _or_dash(value: int | None) -> str:
    return "–" if value is None else str(value)


def main() -> None:
    out: list[str] = []
    out += ["### Seeds", "", f"- seed A = `{SEED_A.hex()}` (bytes 0x00..0x1f)"]
    out += [f"- seed B = `{SEED_B.hex()}` (SHA-256 of the ASCII `chronicle fair dice vector B`)"]
    out += [f"- commitment(seed A) = `{commitment(SEED_A)}`"]
    out += [f"- commitment(seed B) = `{commitment(SEED_B)}`", ""]

    message = message_prefix("alice", 0) + (0).to_bytes(8, "big")
    block = derive_block(SEED_A, "alice", 0, 0)
    out += ["### First block of seed A, client seed `alice`, nonce 0", ""]
    out += [
        f"- message ({len(message)} bytes) = `{message.hex()}`",
        f"- block (counter 0) = `{block.hex()}`",
    ]
    out += [f"- words = {', '.join(str(w) for w in words(block))}"]
    out += [f"- block (counter 1) = `{derive_block(SEED_A, 'alice', 0, 1).hex()}`", ""]

    out += [
        "### Faces",
        "",
        "| seed | client seed | nonce | sides | count | faces |",
        "|---|---|---|---|---|---|",
    ]
    for seed, client, nonce, sides, count in FACE_CASES:
        name = "A" if seed == SEED_A else "B"
        shown = ", ".join(str(f) for f in faces(seed, client, nonce, sides, count))
        shown_client = f"`{client}`" if client else "(empty)"
        out.append(f"| {name} | {shown_client} | {nonce} | {sides} | {count} | {shown} |")
    out += [
        "",
        "Rows with the same seed, client seed and nonce read the same words: a d2 face is",
        "(d6 face − 1) mod 2 + 1, a d4 face is (d12 face − 1) mod 4 + 1, and the big die shows word + 1",
        "but skips the words it rejects.",
        "",
    ]

    big = 3_000_000_000
    out += [f"### Rejection at source level: seed B, client seed `bob`, nonce 12, 6d{big}", ""]
    out += [f"- limit for d{big} = {limit(big)}"]
    big_words = words(derive_block(SEED_B, "bob", 12, 0))
    out += [f"- words of block 0 = {', '.join(str(w) for w in big_words)}"]
    out += [f"- rejected: words {', '.join(rejected(big_words, big))} of block 0"]
    shown = ", ".join(str(f) for f in faces(SEED_B, "bob", 12, big, 6))
    out += [f"- faces = {shown}", ""]

    nonce = first_rejection(SEED_A, REJECTION_CLIENT, 1000)
    block = derive_block(SEED_A, REJECTION_CLIENT, nonce, 0)
    out += [f"### Rejection: seed A, client seed `{REJECTION_CLIENT}`, nonce {nonce}, 8d1000", ""]
    out += [f"- limit for d1000 = {limit(1000)}", f"- block 0 = `{block.hex()}`"]
    out += [f"- words of block 0 = {', '.join(str(w) for w in words(block))}"]
    out += [f"- rejected: word {', '.join(rejected(words(block), 1000))} of block 0"]
    out += [f"- block 1 = `{derive_block(SEED_A, REJECTION_CLIENT, nonce, 1).hex()}`"]
    out += [
        f"- first word of block 1 = {words(derive_block(SEED_A, REJECTION_CLIENT, nonce, 1))[0]}"
    ]
    shown = ", ".join(str(f) for f in faces(SEED_A, REJECTION_CLIENT, nonce, 1000, 8))
    out += [f"- faces = {shown}", ""]

    nonce, drawn = first_double_explosion(SEED_A, EXPLOSION_CLIENT)
    out += [
        f"### Explosion: seed A, client seed `{EXPLOSION_CLIENT}`, nonce {nonce}, 3d6 exploding on 6",
        "",
    ]
    out += ["Each base die's whole chain comes before the next base die's chain.", ""]
    out += face_rows(drawn) + [""]

    nonce, roller = first_double_reroll(SEED_A, REROLL_CLIENT)
    out += [f"### Reroll: seed A, client seed `{REROLL_CLIENT}`, nonce {nonce}, 4d6", ""]
    out += [
        "The dice showing 1 or 2 are rerolled highest index first: rerolls follow the order given.",
        "",
    ]
    out += face_rows(roller.faces) + [""]

    out += ["### Hash chain", ""]
    out += [
        "A roll and its follow-up in one campaign (the values are illustrative; the encoding is not).",
        "",
    ]
    for record in chain_example():
        out += [f"Record {record['sequence']} canonical content:", "", "```json"]
        out += [canonical(record).decode("utf-8"), "```", ""]
        out += [f"hash = `{hashlib.sha256(canonical(record)).hexdigest()}`", ""]
    record = format_2_example(chain_example()[-1])
    out += ["### Hash of a format-2 record", ""]
    out += [
        "A GM's raw roll after the two records above (illustrative values), in format 2: every",
        "field but `hash` is hashed, `modifiers` included, though this verifier gives it no meaning.",
        "",
    ]
    out += [f"Record {record['sequence']} canonical content:", "", "```json"]
    out += [canonical_2(record).decode("utf-8"), "```", ""]
    out += [f"hash = `{hashlib.sha256(canonical_2(record)).hexdigest()}`", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
