"""The Nimble save and skill checks (NB-21, NB-24..26): d20 + modifier against DC 10."""

from __future__ import annotations

import pytest

from domain.dice import FairSource, Roller
from domain.errors import InvalidInput
from domain.rulesets import get_ruleset
from domain.rulesets.base import Asked

NIMBLE = get_ruleset("nimble")
SETTINGS = NIMBLE.parse_settings({})
HERO = NIMBLE.parse_sheet(NIMBLE.example_sheet(), SETTINGS, side="hero")


def roller(nonce: int) -> Roller:
    return Roller(FairSource(bytes(32), "seed", nonce))


@pytest.mark.parametrize("nonce", range(20))
def test_a_str_save_is_the_kept_d20_plus_str_against_10_nb_21(nonce: int) -> None:
    check = NIMBLE.checks["save"]
    request = check.parse({"stat": "STR", "advantage": 1})
    dice = roller(nonce)
    outcome = check.roll(Asked(request, HERO, SETTINGS), dice)
    faces = [f.face for f in dice.faces]
    assert len(faces) == 2 and outcome.result["natural"] == max(faces)
    assert outcome.score == max(faces) + 2
    assert outcome.success is (max(faces) + 2 >= 10)


def test_the_modifier_must_match_the_hero_s_sheet() -> None:
    check = NIMBLE.checks["skill"]
    with pytest.raises(InvalidInput) as error:
        check.roll(Asked(check.parse({"skill": "Might", "modifier": 9}), HERO, SETTINGS), roller(0))
    assert error.value.field == "request.modifier"


def test_a_raw_roll_needs_a_modifier() -> None:
    check = NIMBLE.checks["save"]
    with pytest.raises(InvalidInput):
        check.roll(Asked(check.parse({"stat": "DEX"}), None, SETTINGS), roller(0))


def test_a_hasty_grapple_rolls_with_disadvantage_nb_24() -> None:
    check = NIMBLE.checks["skill"]
    dice = roller(3)
    outcome = check.roll(
        Asked(check.parse({"skill": "Might", "attack_number": 2}), HERO, SETTINGS), dice
    )
    faces = [f.face for f in dice.faces]
    assert outcome.result["natural"] == min(faces) and outcome.result["edge"] == -1
    assert outcome.score == min(faces) + 4


def test_the_odds_are_exact() -> None:
    check = NIMBLE.checks["save"]
    request = check.parse({"stat": "STR"})
    outcome = check.roll(Asked(request, HERO, SETTINGS), roller(1))
    odds = check.odds(Asked(request, HERO, SETTINGS), outcome)
    assert odds.success == pytest.approx(13 / 20)  # natural 8+ with STR +2
