"""The test vectors of docs/fair-dice.md: they are the specification, so a change of algorithm fails here.

The values are copied from the output of docs/fair_dice_vectors.py; the reference verifier must agree too.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import io
import json
from pathlib import Path

import pytest

from domain import audit
from domain.dice import FairSource, Roller, commitment, derive_block
from domain.dice.source import message_prefix
from tests.unit.dice.reference_verifier import exploding_pool, recompute_faces

DOCS = Path(__file__).resolve().parents[3] / "docs"
SEED_A = bytes.fromhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
SEED_B = bytes.fromhex("2f5af99f5d02fd69cbbdf9606db99e9d5f9f867a44e12db3cdf56c898df753dd")
SEEDS = {"A": SEED_A, "B": SEED_B}

ALICE_MESSAGE = (
    "6368726f6e69636c652d646963652d763100000005616c69636500000000000000000000000000000000"
)
ALICE_BLOCK_0 = "8a4859a0480b5541097331547803e05bd2b0882146fac6204e4b5bfbbc1353aa"
ALICE_BLOCK_1 = "ecd383121932a8052b44cd837e73bb76ead1a34d6ae52c45b27e1a0bdb0dac69"
ALICE_WORDS = [
    2319997344,
    1208702273,
    158544212,
    2013519963,
    3534784545,
    1190839840,
    1313561595,
    3155383210,
]

# (seed, client seed, nonce, sides, count, faces)
FACES = [
    ("A", "", 0, 6, 10, [2, 4, 6, 3, 5, 1, 4, 2, 5, 1]),
    ("A", "", 0, 2, 10, [2, 2, 2, 1, 1, 1, 2, 2, 1, 1]),
    ("A", "alice", 0, 20, 6, [5, 14, 13, 4, 6, 1]),
    ("A", "alice", 1, 20, 6, [7, 3, 14, 4, 1, 1]),
    ("B", "dé ☃ 🎲", 7, 100, 5, [66, 52, 13, 91, 92]),
    ("B", "bob", 2**64 - 1, 1000, 4, [466, 235, 932, 754]),
    ("B", "bob", 12, 4, 12, [1, 1, 1, 1, 3, 2, 3, 3, 2, 2, 4, 4]),
    ("B", "bob", 12, 12, 5, [5, 1, 5, 1, 3]),
    (
        "B", "bob", 12, 3_000_000_000, 6,
        [845271845, 1177517009, 1281427359, 2792417970, 1159608539, 2262756115],
    ),
]  # fmt: skip

BIG_DIE_WORDS = [
    845271844,
    3989455524,
    1177517008,
    3545079588,
    1281427358,
    2792417969,
    1159608538,
    2262756114,
]
REJECTION_NONCE = 536070
REJECTION_BLOCK_0 = "649eb73798952bbccf654fb1a75acbdeffffff429237b404fcff8513f44b09dc"
REJECTION_BLOCK_1 = "53dee7cb61bdd1b132bae473c1a16f6472f6dc2fe579446350a7e97347d60287"
REJECTION_FACES = [192, 893, 250, 503, 101, 180, 429, 260]

# (index, face, exploded_from) of 3d6 exploding on 6: seed A, client seed "explode", nonce 111
EXPLOSION = [(0, 6, None), (1, 1, None), (2, 6, None), (3, 6, 0), (4, 3, 3), (5, 5, 2)]
# (index, face, kept, reroll_of) of 4d6, the 1s and 2s rerolled last first: seed A, "reroll", nonce 1
REROLL = [
    (0, 1, False, None), (1, 5, True, None), (2, 5, True, None), (3, 2, False, None),
    (4, 3, True, 3), (5, 2, True, 0),
]  # fmt: skip

RECORD_0 = (
    '{"campaign_id":"7f0c8a52-5d1e-4c3b-9a63-0b1f2e3d4c5a",'
    '"character_id":"5e6f7a8b-0000-4000-8000-0000000000c1","check":"trait",'
    '"client_seed":"alice",'
    '"commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",'
    '"costs":{},"faces":[{"exploded_from":null,"face":1,"index":0,"kept":true,"label":"trait",'
    '"reroll_of":null,"sides":6},{"exploded_from":null,"face":6,"index":1,"kept":true,'
    '"label":"trait","reroll_of":null,"sides":6},{"exploded_from":null,"face":3,"index":2,'
    '"kept":true,"label":"trait","reroll_of":null,"sides":6}],"follow_up":null,'
    '"follow_up_of":null,"nonce":0,'
    '"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000",'
    '"request":{"difficulty":2,"reason":"Ambush at the café","trait":"Agility"},'
    '"result":{"successes":1},"roll_id":"0d9e8f7a-0000-4000-8000-000000000001",'
    '"rolled_by":"9a8b7c6d-0000-4000-8000-0000000000f1","ruleset":"wcbh",'
    '"scene_id":"1b2c3d4e-0000-4000-8000-00000000000a","sequence":0,"settings":null,'
    '"sheet":{"abilities":{"Agility":3},"name":"Zoë"},"side":"hero"}'
)
RECORD_0_HASH = "6c90ae7f7342927d20dcb5472d584d92fe5e57e0ee5776716dc6c64dd375c1d1"
RECORD_1 = (
    '{"campaign_id":"7f0c8a52-5d1e-4c3b-9a63-0b1f2e3d4c5a",'
    '"character_id":"5e6f7a8b-0000-4000-8000-0000000000c1","check":"trait",'
    '"client_seed":"alice",'
    '"commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",'
    '"costs":{"resolve":1},"faces":[{"exploded_from":null,"face":5,"index":0,"kept":true,'
    '"label":"resolve","reroll_of":null,"sides":6}],"follow_up":"resolve_dice",'
    '"follow_up_of":"0d9e8f7a-0000-4000-8000-000000000001","nonce":1,'
    '"prev_hash":"6c90ae7f7342927d20dcb5472d584d92fe5e57e0ee5776716dc6c64dd375c1d1",'
    '"request":{"resolve":1},"result":{"successes":1},'
    '"roll_id":"0d9e8f7a-0000-4000-8000-000000000002",'
    '"rolled_by":"9a8b7c6d-0000-4000-8000-0000000000f1","ruleset":"wcbh",'
    '"scene_id":"1b2c3d4e-0000-4000-8000-00000000000a","sequence":1,"settings":null,'
    '"sheet":{"abilities":{"Agility":3},"name":"Zoë"},"side":"hero"}'
)
RECORD_1_HASH = "9c6f9925920c61668d37b03e49c11c199e0cad2dbc883890a1da5d5ebebc9d10"
RECORD_2 = (  # format 2: every field but `hash`, `modifiers` included
    '{"campaign_id":"7f0c8a52-5d1e-4c3b-9a63-0b1f2e3d4c5a","character_id":null,'
    '"check":"trait","client_seed":"bob","client_seed_by":"roller",'
    '"commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",'
    '"costs":{},"faces":[{"exploded_from":null,"face":2,"index":0,"kept":true,'
    '"label":"trait","reroll_of":null,"sides":6},{"exploded_from":null,"face":3,"index":1,'
    '"kept":true,"label":"trait","reroll_of":null,"sides":6}],"follow_up":null,'
    '"follow_up_of":null,"format":2,"modifiers":[{"dice":0,"source":"situation"}],'
    '"nonce":2,'
    '"prev_hash":"9c6f9925920c61668d37b03e49c11c199e0cad2dbc883890a1da5d5ebebc9d10",'
    '"request":{"difficulty":1,"pool":2,"trait":null},"result":{"successes":0},'
    '"roll_id":"0d9e8f7a-0000-4000-8000-000000000003",'
    '"rolled_by":"9a8b7c6d-0000-4000-8000-0000000000f1","rules_version":"1",'
    '"ruleset":"wcbh","scene_id":"1b2c3d4e-0000-4000-8000-00000000000a","score":0,'
    '"sequence":2,"settings":null,"sheet":null,"side":null,"success":false}'
)
RECORD_2_HASH = "c7f560bcce9dbc8aecb6a3c31047a707f2bde68651e2d6ccbb8635bc092549d0"


def words_of(block: bytes) -> list[int]:
    return [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]


def test_commitments_are_the_sha256_of_the_seeds() -> None:
    assert commitment(SEED_A) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment(SEED_B) == "c8ea1ae087082b3dd6c52bd2b6302c1b85c5394bb9d68d3bdde26b3c4d9f12ea"
    assert SEED_B == hashlib.sha256(b"chronicle fair dice vector B").digest()


def test_the_hmac_message_is_laid_out_byte_for_byte_as_documented() -> None:
    assert message_prefix("alice", 0) + (0).to_bytes(8, "big") == bytes.fromhex(ALICE_MESSAGE)


def test_the_first_blocks_and_their_words_match_the_vector() -> None:
    block = derive_block(SEED_A, "alice", 0, 0)

    assert block.hex() == ALICE_BLOCK_0
    assert (
        hmac.new(SEED_A, bytes.fromhex(ALICE_MESSAGE), hashlib.sha256).hexdigest() == ALICE_BLOCK_0
    )
    assert words_of(block) == ALICE_WORDS
    assert derive_block(SEED_A, "alice", 0, 1).hex() == ALICE_BLOCK_1


@pytest.mark.parametrize(("seed", "client", "nonce", "sides", "count", "faces"), FACES)
def test_the_source_gives_the_documented_faces(
    seed: str, client: str, nonce: int, sides: int, count: int, faces: list[int]
) -> None:
    source = FairSource(SEEDS[seed], client, nonce)
    assert [source.die(sides) for _ in range(count)] == faces
    assert recompute_faces(SEEDS[seed], client, nonce, [sides] * count) == faces


@pytest.mark.parametrize(("seed", "client", "nonce", "sides", "count", "faces"), FACES[:-1])
def test_the_roller_gives_the_documented_faces(
    seed: str, client: str, nonce: int, sides: int, count: int, faces: list[int]
) -> None:
    drawn = Roller(FairSource(SEEDS[seed], client, nonce)).roll(sides, count)
    assert [f.face for f in drawn] == faces


def test_words_at_or_above_the_limit_of_a_big_die_are_skipped() -> None:
    big = 3_000_000_000
    assert words_of(derive_block(SEED_B, "bob", 12, 0)) == BIG_DIE_WORDS
    kept = [w + 1 for w in BIG_DIE_WORDS if w < big]  # the limit of this die is the die itself
    assert FACES[-1][-1] == kept


def test_a_d1000_rejects_one_word_and_takes_the_next_block_for_its_last_die() -> None:
    block_0 = derive_block(SEED_A, "rejection", REJECTION_NONCE, 0)
    block_1 = derive_block(SEED_A, "rejection", REJECTION_NONCE, 1)
    limit = 2**32 - 2**32 % 1000
    assert (block_0.hex(), block_1.hex()) == (REJECTION_BLOCK_0, REJECTION_BLOCK_1)
    assert [i for i, w in enumerate(words_of(block_0)) if w >= limit] == [4]

    source = FairSource(SEED_A, "rejection", REJECTION_NONCE)

    assert [source.die(1000) for _ in range(8)] == REJECTION_FACES
    assert REJECTION_FACES[-1] == words_of(block_1)[0] % 1000 + 1
    assert recompute_faces(SEED_A, "rejection", REJECTION_NONCE, [1000] * 8) == REJECTION_FACES


def test_explosion_chains_follow_their_base_die_in_turn() -> None:
    drawn = Roller(FairSource(SEED_A, "explode", 111)).roll(6, 3, explodes=lambda face: face == 6)

    assert [(f.index, f.face, f.exploded_from) for f in drawn] == EXPLOSION
    verified, capped = exploding_pool(SEED_A, "explode", 111, 6, 3, lambda face: face == 6)
    assert [(i, d.face, d.exploded_from) for i, d in enumerate(verified)] == EXPLOSION
    assert not capped


def test_rerolls_are_drawn_in_the_order_given() -> None:
    roller = Roller(FairSource(SEED_A, "reroll", 1))
    low = [f for f in roller.roll(6, 4) if f.face <= 2]

    roller.reroll(reversed(low))

    assert [(f.index, f.face, f.kept, f.reroll_of) for f in roller.faces] == REROLL
    assert recompute_faces(SEED_A, "reroll", 1, [6] * 6) == [face for _, face, _, _ in REROLL]


HASHED_FIELDS = {
    "campaign_id", "scene_id", "roll_id", "sequence", "nonce", "commitment", "client_seed",
    "character_id", "side", "rolled_by", "ruleset", "settings", "sheet", "check", "follow_up",
    "request", "faces", "result", "follow_up_of", "costs", "prev_hash",
}  # fmt: skip


def canonical(record: dict[str, object]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize(
    ("content", "expected"), [(RECORD_0, RECORD_0_HASH), (RECORD_1, RECORD_1_HASH)]
)
def test_the_documented_records_are_canonical_and_hash_as_shown(
    content: str, expected: str
) -> None:
    record = json.loads(content)

    assert set(record) == HASHED_FIELDS
    assert canonical(record) == content.encode("utf-8")
    assert hashlib.sha256(content.encode("utf-8")).hexdigest() == expected


@pytest.mark.parametrize(
    ("content", "expected"), [(RECORD_0, RECORD_0_HASH), (RECORD_1, RECORD_1_HASH)]
)
def test_the_service_hashes_the_documented_fields_the_documented_way(
    content: str, expected: str
) -> None:
    record = {**json.loads(content), "hash": expected, "not_hashed": "anything"}

    assert set(audit.HASHED_FIELDS) == HASHED_FIELDS
    assert audit.canonical(record) == content.encode("utf-8")
    assert audit.record_hash(record) == expected


def test_the_documented_records_chain_and_carry_real_faces() -> None:
    first, second = json.loads(RECORD_0), json.loads(RECORD_1)

    assert (first["sequence"], first["prev_hash"]) == (0, "0" * 64)
    assert (second["sequence"], second["prev_hash"]) == (1, RECORD_0_HASH)
    assert [f["face"] for f in first["faces"]] == recompute_faces(SEED_A, "alice", 0, [6, 6, 6])
    assert [f["face"] for f in second["faces"]] == recompute_faces(SEED_A, "alice", 1, [6])


def test_a_format_2_record_hashes_every_field_but_its_hash_as_documented() -> None:
    record = json.loads(RECORD_2)
    assert (record["format"], record["prev_hash"]) == (2, RECORD_1_HASH)
    assert set(HASHED_FIELDS) < set(record) and "modifiers" in record

    assert canonical(record) == RECORD_2.encode("utf-8")
    assert hashlib.sha256(RECORD_2.encode("utf-8")).hexdigest() == RECORD_2_HASH
    assert audit.canonical({**record, "hash": RECORD_2_HASH}) == RECORD_2.encode("utf-8")
    assert audit.record_hash(record) == RECORD_2_HASH


def test_format_2_covers_a_field_the_verifier_does_not_know_and_format_1_does_not() -> None:
    new, old = json.loads(RECORD_2), json.loads(RECORD_1)
    new["modifiers"][0]["dice"] = 2
    old["modifiers"] = [{"source": "situation", "dice": 2}]

    assert audit.record_hash(new) != RECORD_2_HASH
    assert audit.record_hash(old) == RECORD_1_HASH


def test_a_record_format_the_verifier_does_not_know_cannot_be_hashed() -> None:
    with pytest.raises(audit.UnknownFormat, match="record format 3 is unknown"):
        audit.record_hash({**json.loads(RECORD_2), "format": 3})


def test_the_document_shows_what_the_vector_script_prints() -> None:
    spec = importlib.util.spec_from_file_location(
        "fair_dice_vectors", DOCS / "fair_dice_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    printed = io.StringIO()

    with contextlib.redirect_stdout(printed):
        script.main()

    assert (DOCS / "fair-dice.md").read_text(encoding="utf-8").endswith(printed.getvalue())
