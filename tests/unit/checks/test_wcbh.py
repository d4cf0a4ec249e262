"""We Can Be Heroes trait checks and Resolve follow-ups, with scripted faces checked by hand."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.dice.roller import Face
from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome, FollowUpRoll
from tests.unit.checks.support import scripted, sheet_and_settings

RULES = RULESETS["wcbh"]
TRAIT = RULES.checks["trait"]
SHEET, SETTINGS = sheet_and_settings("wcbh")


def roll(request: dict[str, Any], *faces: int, settings: Any = SETTINGS) -> CheckOutcome:
    return TRAIT.roll(Asked(TRAIT.parse(request), SHEET, settings), scripted(*faces))


def test_two_and_four_are_one_success_six_is_two_wcbh_7() -> None:
    outcome = roll({"pool": 6}, 1, 2, 3, 4, 5, 6)
    assert outcome.result["successes"] == 4
    assert outcome.score == 4


def test_the_trait_rank_is_the_number_of_dice_wcbh_7() -> None:
    roller = scripted(2, 2, 2, 2, 2)
    outcome = TRAIT.roll(Asked(TRAIT.parse({"trait": "agility"}), SHEET, SETTINGS), roller)
    assert len(roller.faces) == 5  # Agility 5
    assert outcome.result["rank"] == 5
    assert outcome.result["trait"] == "agility"


def test_talents_and_powers_are_rolled_by_name_wcbh_7() -> None:
    assert roll({"trait": "Stealth"}, 1, 1, 1, 1).result["rank"] == 4
    assert roll({"trait": "Lightning Bolt"}, *[1] * 8).result["rank"] == 8


def test_net_is_successes_minus_difficulty_with_its_name_wcbh_8() -> None:
    result = roll({"pool": 3, "difficulty": 2}, 6, 4, 1).result
    assert (result["successes"], result["net"], result["difficulty_name"]) == (3, 1, "Hard")


@pytest.mark.parametrize(
    ("difficulty", "name"),
    [
        (0, "Easy"),
        (1, "Average"),
        (5, "Inhuman"),
        (6, "Superhuman"),
        (8, "Superhuman"),
        (9, "Legendary"),
        (11, "Legendary"),
        (12, "Epic"),
        (40, "Epic"),
    ],
)
def test_difficulty_names_follow_the_scale_wcbh_8(difficulty: int, name: str) -> None:
    assert roll({"pool": 1, "difficulty": difficulty}, 1).result["difficulty_name"] == name


@pytest.mark.parametrize(
    ("faces", "outcome", "narrator", "embellishment", "success"),
    [
        ((1, 1, 1), "opponent_narrates", "opponent", None, False),  # net -2
        ((2, 1, 1), "opponent_narrates_hero_embellishes", "opponent", "hero", False),  # -1
        ((6, 1, 1), "opponent_narrates_hero_embellishes", "opponent", "hero", False),  # 0
        ((6, 2, 1), "hero_narrates_opponent_embellishes", "hero", "opponent", True),  # 1
        ((6, 6, 1), "hero_narrates_opponent_embellishes", "hero", "opponent", True),  # 2
        ((6, 6, 2), "hero_narrates", "hero", None, True),  # 3
    ],
)
def test_outcome_bands_of_the_player_table_wcbh_9(
    faces: tuple[int, ...], outcome: str, narrator: str, embellishment: str | None, success: bool
) -> None:
    result = roll({"pool": 3, "difficulty": 2}, *faces)
    assert result.result["outcome"] == outcome
    assert result.result["narrator"] == narrator
    assert result.result["embellishment"] == embellishment
    assert result.success is success


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [
        ((1, 1, 1), "total_failure"),
        ((6, 1, 1), "failure_with_positive_detail"),
        ((6, 2, 1), "success_with_problem"),
        ((6, 6, 2), "success"),
    ],
)
def test_outcome_bands_of_the_gm_table_wcbh_9(faces: tuple[int, ...], outcome: str) -> None:
    settings = RULES.parse_settings({"narration_table": "gm"})
    result = roll({"pool": 3, "difficulty": 2}, *faces, settings=settings).result
    assert (result["outcome"], result["narrator"]) == (outcome, "gm")


def test_every_six_explodes_in_a_decisive_moment_and_chains_wcbh_13() -> None:
    # 6 -> 6 -> 3 chain on the first die; 4 on the second: 2 + 2 + 0 + 1 = 5 successes.
    roller = scripted(6, 4, 6, 3)
    outcome = TRAIT.roll(
        Asked(TRAIT.parse({"pool": 2, "decisive_moment": True}), None, SETTINGS), roller
    )
    assert [f.face for f in roller.faces] == [6, 4, 6, 3]
    assert [f.exploded_from for f in roller.faces] == [None, None, 0, 2]
    assert outcome.result["successes"] == 5
    assert outcome.result["exploded"] == 2


def test_sixes_do_not_explode_outside_a_decisive_moment_wcbh_13() -> None:
    roller = scripted(6, 6)
    assert roll({"pool": 2}, 6, 6).result["successes"] == 4
    TRAIT.roll(Asked(TRAIT.parse({"pool": 2}), None, SETTINGS), roller)
    assert len(roller.faces) == 2


def test_resolve_before_the_roll_buys_one_die_each_wcbh_20b() -> None:
    roller = scripted(1, 1, 1, 2, 2)
    request = TRAIT.parse({"pool": 3, "resolve": 2})
    outcome = TRAIT.roll(Asked(request, None, SETTINGS), roller)
    assert [f.label for f in roller.faces] == ["trait"] * 3 + ["resolve"] * 2
    assert outcome.result["successes"] == 2
    assert TRAIT.cost(request) == {"resolve": 2}


def test_resolve_gives_three_dice_in_a_decisive_moment_wcbh_13() -> None:
    roller = scripted(1, 1, 2, 2, 2)
    outcome = TRAIT.roll(
        Asked(TRAIT.parse({"pool": 2, "resolve": 1, "decisive_moment": True}), None, SETTINGS),
        roller,
    )
    assert [f.label for f in roller.faces] == ["trait"] * 2 + ["resolve"] * 3
    assert outcome.result["dice"] == 5


def test_a_pool_modified_to_zero_or_less_rolls_no_dice_ruling() -> None:
    roller = scripted()
    outcome = TRAIT.roll(
        Asked(TRAIT.parse({"pool": 2, "modifier": -4, "difficulty": 1}), None, SETTINGS), roller
    )
    assert roller.faces == []
    assert (outcome.result["successes"], outcome.result["net"]) == (0, -1)


def test_resolve_dice_still_add_to_a_pool_below_zero_ruling() -> None:
    roller = scripted(6)
    outcome = TRAIT.roll(
        Asked(TRAIT.parse({"pool": 2, "modifier": -4, "resolve": 1}), None, SETTINGS), roller
    )
    assert outcome.result["successes"] == 2


def test_a_raw_roll_needs_a_pool_not_a_trait() -> None:
    with pytest.raises(InvalidInput) as caught:
        TRAIT.roll(Asked(TRAIT.parse({"trait": "Agility"}), None, SETTINGS), scripted())
    assert caught.value.field == "request.trait"


def test_a_trait_the_sheet_lacks_is_invalid_input() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"trait": "Telekinesis"})
    assert caught.value.field == "request.trait"
    assert "Agility" in caught.value.details["known"]


def test_trait_and_pool_together_are_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        roll({"trait": "Agility", "pool": 3})
    assert caught.value.field == "request.pool"


def test_a_minion_rolls_its_threat_rank_wcbh_3() -> None:
    minion, settings = sheet_and_settings("wcbh", {"kind": "minion", "threat": 2}, side="minion")
    outcome = TRAIT.roll(Asked(TRAIT.parse({}), minion, settings), scripted(4, 6))
    assert (outcome.result["trait"], outcome.result["successes"]) == ("threat", 3)


def test_unknown_request_keys_are_invalid_input_on_the_check_path() -> None:
    with pytest.raises(InvalidInput) as caught:
        TRAIT.parse({"pool": 2, "dice": 3})
    assert caught.value.field == "request.dice"


# -- follow-ups --------------------------------------------------------------------------------


def copies(faces: list[Face]) -> list[Face]:
    return [dataclasses.replace(f) for f in faces]


def test_resolve_dice_add_after_seeing_the_roll_wcbh_20b() -> None:
    follow = RULES.follow_ups["resolve_dice"]
    request = TRAIT.parse({"pool": 2, "difficulty": 2})
    first = scripted(2, 1)
    TRAIT.roll(Asked(request, None, SETTINGS), first)
    extra = follow.parse({"resolve": 2})
    added = scripted(6, 3)
    outcome = follow.apply(FollowUpRoll(request, copies(first.faces), extra, None, SETTINGS), added)
    assert [f.label for f in added.faces] == ["resolve", "resolve"]
    assert (outcome.result["successes"], outcome.result["net"], outcome.success) == (3, 1, True)
    assert follow.cost(extra) == {"resolve": 2}


def test_resolve_dice_after_the_roll_are_three_each_and_explode_in_a_decisive_moment_wcbh_13() -> (
    None
):
    follow = RULES.follow_ups["resolve_dice"]
    request = TRAIT.parse({"pool": 1, "decisive_moment": True})
    first = scripted(1)
    TRAIT.roll(Asked(request, None, SETTINGS), first)
    added = scripted(1, 6, 2, 1)
    outcome = follow.apply(
        FollowUpRoll(request, copies(first.faces), follow.parse({"resolve": 1}), None, SETTINGS),
        added,
    )
    assert [f.exploded_from for f in added.faces] == [None, None, None, 1]
    assert outcome.result["successes"] == 3


def test_resolve_reroll_rerolls_every_die_including_resolve_dice_wcbh_20c() -> None:
    follow = RULES.follow_ups["resolve_reroll"]
    request = TRAIT.parse({"pool": 2, "resolve": 1, "difficulty": 1})
    first = scripted(1, 3, 5)
    TRAIT.roll(Asked(request, None, SETTINGS), first)
    old = copies(first.faces)
    again = scripted(2, 4, 6)
    outcome = follow.apply(FollowUpRoll(request, old, follow.parse({}), None, SETTINGS), again)
    assert [f.kept for f in old] == [False, False, False]
    assert [f.reroll_of for f in again.faces] == [0, 1, 2]
    assert [f.label for f in again.faces] == ["trait", "trait", "resolve"]
    assert (outcome.result["successes"], outcome.result["net"]) == (4, 3)
    assert follow.cost(follow.parse({})) == {"resolve": 1}


def test_resolve_reroll_drops_old_explosions_and_explodes_anew_wcbh_20c() -> None:
    follow = RULES.follow_ups["resolve_reroll"]
    request = TRAIT.parse({"pool": 1, "decisive_moment": True})
    first = scripted(6, 2)
    TRAIT.roll(Asked(request, None, SETTINGS), first)
    old = copies(first.faces)
    again = scripted(6, 6, 1)
    outcome = follow.apply(FollowUpRoll(request, old, follow.parse({}), None, SETTINGS), again)
    assert [f.kept for f in old] == [False, False]
    assert outcome.result["successes"] == 4
    assert outcome.result["dice"] == 1


def test_resolve_dice_odds_are_given_the_roll_already_seen_wcbh_20b() -> None:
    follow = RULES.follow_ups["resolve_dice"]
    assert follow.odds is not None
    request = TRAIT.parse({"pool": 2, "difficulty": 2})
    first = scripted(2, 1)
    TRAIT.roll(Asked(request, None, SETTINGS), first)
    faces = copies(first.faces)
    extra = follow.parse({"resolve": 1})
    outcome = follow.apply(FollowUpRoll(request, faces, extra, None, SETTINGS), scripted(4))
    odds = follow.odds(FollowUpRoll(request, faces, extra, None, SETTINGS), outcome)
    # One success so far, difficulty 2: one more die must bring at least 2: only a 6 does.
    assert odds.success == pytest.approx(1 / 6)
    assert odds.at_least == pytest.approx(1 / 2)  # score 2 needs >= 1 more: 2, 4 or 6
