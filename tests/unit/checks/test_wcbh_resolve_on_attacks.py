"""Resolve after an attack, pure (WCBH-20b, 20c with WCBH-31, 33): scripted faces checked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from domain.dice.roller import Face
from domain.rulesets import RULESETS
from domain.rulesets.base import CheckOutcome, FollowUpRoll
from tests.unit.checks.support import scripted

RULES = RULESETS["wcbh"]
ATTACK = RULES.checks["attack"]
DICE = RULES.follow_ups["resolve_dice"]
REROLL = RULES.follow_ups["resolve_reroll"]
# Attack rank 3 against Agility 2 (active, beats half of Stamina 2): 3 attack dice, then 2 defence.
REQUEST = ATTACK.parse(
    {
        "attack_rank": 3,
        "defences": [
            {"name": "Agility", "rank": 2, "active": True},
            {"name": "Stamina", "rank": 2, "active": False},
        ],
        "target_health": 4,
        "target_id": "t",
    }
)


def first_roll(*faces: int) -> tuple[CheckOutcome, list[Face]]:
    roller = scripted(*faces)
    outcome = ATTACK.roll(REQUEST, None, RULES.parse_settings(None), roller)
    return outcome, [dataclasses.replace(f) for f in roller.faces]


def test_resolve_dice_add_to_the_attack_and_decide_the_hit_again_wcbh_20b_31() -> None:
    first, faces = first_roll(2, 1, 3, 4, 5)  # attack 1 success, defence 1: net 0, no damage
    assert (first.result["net"], first.result["damage"]) == (0, 0)
    outcome = DICE.apply(
        FollowUpRoll(REQUEST, faces, DICE.parse({"resolve": 2}), None, None), scripted(6, 4)
    )
    # attack 1 + 2 + 1 = 4 successes against 1: net 3, damage 3, Health 4 → 1
    assert (outcome.result["attack_successes"], outcome.result["defence_successes"]) == (4, 1)
    assert (outcome.result["damage"], outcome.result["health"], outcome.result["defeated"]) == (
        3,
        1,
        False,
    )
    assert outcome.score == 3 and outcome.success


def test_a_resolve_reroll_rerolls_the_attack_dice_not_the_defence_wcbh_20c() -> None:
    _, faces = first_roll(6, 6, 2, 1, 1)  # attack 5 against 0: net 5, defeated at Health 4
    roller = scripted(1, 3, 5)
    outcome = REROLL.apply(FollowUpRoll(REQUEST, faces, REROLL.parse({}), None, None), roller)
    assert [f.reroll_of for f in roller.faces] == [0, 1, 2]
    assert [f.kept for f in faces] == [False, False, False, True, True]
    assert (outcome.result["net"], outcome.result["health"], outcome.result["defeated"]) == (
        0,
        4,
        False,
    )


def test_resolve_dice_odds_are_given_the_attack_already_seen_wcbh_20b() -> None:
    assert DICE.odds is not None
    _, faces = first_roll(2, 1, 3, 4, 5)  # net 0: one more success hits
    outcome = DICE.apply(
        FollowUpRoll(REQUEST, faces, DICE.parse({"resolve": 1}), None, None), scripted(3)
    )
    odds = DICE.odds(FollowUpRoll(REQUEST, faces, DICE.parse({"resolve": 1}), None, None), outcome)
    assert odds.success == pytest.approx(3 / 6)  # the die shows 2, 4 or 6
    assert odds.at_least == pytest.approx(1.0)  # at least net 0 is sure


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"team": True}, "a team attack"),
        ({"effect": "Stunned"}, "an effect"),
        ({"redirect": True}, "a declared redirect"),
    ],
)
def test_resolve_on_an_attack_of_several_parties_is_refused_wcbh_20b(
    extra: dict[str, object], named: str
) -> None:
    request = ATTACK.parse({**REQUEST.model_dump(mode="json"), **extra})
    reason = DICE.allowed(request, first_roll(2, 1, 3, 4, 5)[0])
    assert reason is not None and named in reason
    assert REROLL.allowed(REQUEST, first_roll(2, 1, 3, 4, 5)[0]) is None
