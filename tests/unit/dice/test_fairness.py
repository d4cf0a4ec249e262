"""The fair source is uniform and the roller keeps to its limits: chi-square fits, ranges, rejections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import repeat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import MAX_DICE, MAX_EXPLOSION_DEPTH, DiceLimitError, FairSource, Roller
from tests.unit.dice.chi_square import p_value_of_equal_counts

FACES_PER_DIE = 120_000
DICE_PER_ROLL = 10  # faces come from many nonces, as they do in play
P_FLOOR = 1e-4


def faces_from_many_rolls(sides: int) -> list[int]:
    seed = bytes([sides]) * 32
    faces: list[int] = []
    for nonce in range(FACES_PER_DIE // DICE_PER_ROLL):
        source = FairSource(seed, f"fairness-d{sides}", nonce)
        faces.extend(source.die(sides) for _ in range(DICE_PER_ROLL))
    return faces


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12, 20])
def test_each_face_comes_up_equally_often(sides: int) -> None:
    counts = Counter(faces_from_many_rolls(sides))

    assert sorted(counts) == list(range(1, sides + 1))
    assert p_value_of_equal_counts([counts[face] for face in range(1, sides + 1)]) > P_FLOOR


def test_consecutive_d6_faces_are_independent() -> None:
    faces = faces_from_many_rolls(6)
    pairs = Counter(zip(faces[::2], faces[1::2], strict=True))

    observed = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]

    assert p_value_of_equal_counts(observed) > P_FLOOR


@settings(max_examples=300)
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 2**64 - 1),
    st.integers(2, 1000),
    st.integers(1, 50),
)
def test_no_face_is_ever_out_of_range(seed: bytes, nonce: int, sides: int, count: int) -> None:
    drawn = Roller(FairSource(seed, "range", nonce)).roll(sides, count)
    assert all(1 <= f.face <= sides for f in drawn)


class ScriptedWords(FairSource):
    """A fair source whose words are given: shows which ones a die takes and which it skips."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(bytes(32), "", 0)
        self._script: Iterator[int] = iter(words)

    def _word(self) -> int:
        return next(self._script)


def test_a_word_at_or_above_the_limit_is_skipped() -> None:
    limit = 2**32 - 2**32 % 6  # 4294967292: the last four words would favour faces 1 to 4
    source = ScriptedWords([limit, 2**32 - 1, limit - 1, 7])

    assert source.die(6) == (limit - 1) % 6 + 1 == 6
    assert source.die(6) == 7 % 6 + 1


def test_a_word_just_below_the_limit_is_taken() -> None:
    limit = 2**32 - 2**32 % 1000
    assert ScriptedWords([limit - 1]).die(1000) == 1000
    assert ScriptedWords([limit, 0]).die(1000) == 1


def test_a_die_with_more_sides_than_words_is_refused_rather_than_looping() -> None:
    with pytest.raises(ValueError, match="sides"):
        FairSource(bytes(32), "", 0).die(2**32 + 1)


class ScriptedFaces:
    """Stands in for a fair source: its dice show the given faces, whatever their size."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = iter(faces)

    def die(self, sides: int) -> int:
        return next(self._faces)


def roller_of(faces: Iterable[int]) -> Roller:
    return Roller(ScriptedFaces(faces))  # type: ignore[arg-type]


def test_a_pool_larger_than_the_limit_is_refused_before_any_die_is_drawn() -> None:
    roller = roller_of(repeat(6))

    with pytest.raises(DiceLimitError, match=f"at most {MAX_DICE}") as refused:
        roller.roll(6, MAX_DICE + 1)

    assert (refused.value.field, refused.value.details) == ("pool", {"limit": MAX_DICE})
    assert roller.faces == []


def test_the_pool_limit_counts_every_die_of_the_roll() -> None:
    roller = roller_of(repeat(1))
    roller.roll(6, MAX_DICE - 1)

    with pytest.raises(DiceLimitError, match="at most"):
        roller.roll(6, 2)


@pytest.mark.parametrize("sides", [0, 1, 1001])
def test_dice_outside_2_to_1000_sides_are_refused(sides: int) -> None:
    with pytest.raises(DiceLimitError, match="sides") as refused:
        roller_of(repeat(1)).roll(sides, 1)
    assert refused.value.field == "sides"


def test_a_negative_pool_is_refused() -> None:
    with pytest.raises(DiceLimitError, match="fewer than 0"):
        roller_of(repeat(1)).roll(6, -1)


def test_an_explosion_chain_stops_at_the_cap_and_says_so() -> None:
    roller = roller_of(repeat(6))

    drawn = roller.roll(6, 1, explodes=lambda face: face == 6)

    assert len(drawn) == 1 + MAX_EXPLOSION_DEPTH
    assert [f.exploded_from for f in drawn] == [None, *range(MAX_EXPLOSION_DEPTH)]
    assert roller.explosions_capped


def test_a_chain_below_the_cap_is_not_marked_capped() -> None:
    roller = roller_of([6] * MAX_EXPLOSION_DEPTH + [1])

    drawn = roller.roll(6, 1, explodes=lambda face: face == 6)

    assert len(drawn) == 1 + MAX_EXPLOSION_DEPTH
    assert not roller.explosions_capped


def test_dice_that_explode_on_every_face_are_refused() -> None:
    with pytest.raises(DiceLimitError, match="every face") as refused:
        roller_of(repeat(6)).roll(6, 2, explodes=lambda face: face >= 1)
    assert refused.value.field == "explode"


def test_rerolls_that_explode_on_every_face_are_refused_before_any_die_changes() -> None:
    roller = roller_of(repeat(3))
    pool = roller.roll(6, 2)

    with pytest.raises(DiceLimitError, match="every face"):
        roller.reroll(pool, explodes=lambda face: True)

    assert all(f.kept for f in pool) and len(roller.faces) == 2


def test_rerolls_and_drops_keep_every_face() -> None:
    roller = Roller(FairSource(bytes(32), "keep", 0))
    pool = roller.roll(6, 4, label="base")

    replacements = roller.reroll(pool[:2])
    roller.drop([pool[3]])

    assert [f.index for f in roller.faces] == list(range(6))
    assert [f.kept for f in roller.faces] == [False, False, True, False, True, True]
    assert [f.reroll_of for f in replacements] == [0, 1]
    assert all(f.label == "base" for f in roller.faces)
    assert roller.kept("base") == [pool[2], *replacements]
