"""The service's dice agree with the independent verifier of tests/unit/dice/reference_verifier.py."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import FairSource, Roller, derive_block
from tests.unit.dice.reference_verifier import exploding_pool, hmac_block, recompute_faces

seeds = st.binary(min_size=32, max_size=32)
client_seeds = st.text(max_size=64)  # at most 4 bytes a character: always within the 256-byte limit
nonces = st.integers(0, 2**64 - 1)
sides = st.integers(2, 1000)


@given(seeds, client_seeds, nonces, st.integers(0, 2**64 - 1))
def test_blocks_match_the_documented_message_layout(
    seed: bytes, client: str, nonce: int, counter: int
) -> None:
    assert derive_block(seed, client, nonce, counter) == hmac_block(seed, client, nonce, counter)


@settings(max_examples=300)
@given(seeds, client_seeds, nonces, sides, st.integers(0, 40))
def test_a_pool_of_one_die_size_matches_the_verifier(
    seed: bytes, client: str, nonce: int, n: int, count: int
) -> None:
    roller = Roller(FairSource(seed, client, nonce))
    drawn = roller.roll(n, count)
    assert [f.face for f in drawn] == recompute_faces(seed, client, nonce, [n] * count)


@settings(max_examples=200)
@given(seeds, client_seeds, nonces, st.lists(sides, max_size=30))
def test_mixed_dice_in_draw_order_match_the_verifier(
    seed: bytes, client: str, nonce: int, sizes: list[int]
) -> None:
    roller = Roller(FairSource(seed, client, nonce))
    for n in sizes:
        roller.roll(n, 1)
    assert [f.face for f in roller.faces] == recompute_faces(seed, client, nonce, sizes)


@settings(max_examples=200)
@given(seeds, client_seeds, nonces, st.integers(2, 12), st.integers(0, 10), st.data())
def test_explosion_chains_match_the_verifier(
    seed: bytes, client: str, nonce: int, n: int, count: int, data: st.DataObject
) -> None:
    threshold = data.draw(st.integers(2, n), label="explode at or above")
    roller = Roller(FairSource(seed, client, nonce))

    drawn = roller.roll(n, count, explodes=lambda face: face >= threshold)

    expected, capped = exploding_pool(seed, client, nonce, n, count, lambda face: face >= threshold)
    assert [(f.face, f.exploded_from) for f in drawn] == [
        (d.face, d.exploded_from) for d in expected
    ]
    assert roller.explosions_capped == capped


@given(seeds, client_seeds, nonces, st.integers(2, 2**32), st.integers(0, 20))
def test_any_die_the_source_accepts_matches_the_verifier(
    seed: bytes, client: str, nonce: int, n: int, count: int
) -> None:
    source = FairSource(seed, client, nonce)
    assert [source.die(n) for _ in range(count)] == recompute_faces(
        seed, client, nonce, [n] * count
    )
