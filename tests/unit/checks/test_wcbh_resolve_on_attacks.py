"""Resolve after an attack, pure (WCBH-20b, 20c with WCBH-31, 33): scripted faces checked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from domain.dice.roller import Face
from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, CheckOutcome, FollowUpRoll
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
    outcome = ATTACK.roll(Asked(REQUEST, None, RULES.parse_settings(None)), roller)
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


# ---- Resolve and the Decisive Moment before the roll (issue #15: attacks refused both) ----------


def attack_with(faces: tuple[int, ...], **fields: object) -> tuple[CheckOutcome, list[Face]]:
    request = ATTACK.parse({**REQUEST.model_dump(mode="json"), **fields})
    roller = scripted(*faces)
    outcome = ATTACK.roll(Asked(request, None, RULES.parse_settings(None)), roller)
    return outcome, roller.faces


def test_an_attacks_decisive_moment_explodes_the_attackers_sixes_only_wcbh_13() -> None:
    faces = (6, 1, 1, 1, 6, 1)  # attack 6, 1, 1 and the 6's extra die; defence 6 does not explode
    outcome, rolled = attack_with(decisive_moment=True, effort="physical", faces=faces)
    assert [(f.label, f.face, f.exploded_from) for f in rolled] == [
        ("attack", 6, None),
        ("attack", 1, None),
        ("attack", 1, None),
        ("attack", 1, 0),
        ("defence", 6, None),
        ("defence", 1, None),
    ]
    assert (outcome.result["attack_successes"], outcome.result["defence_successes"]) == (2, 2)


def test_resolve_before_an_attack_buys_a_die_each_three_in_a_decisive_moment_wcbh_20b_13() -> None:
    plain, rolled = attack_with(resolve=2, faces=(1, 1, 1, 4, 4, 1, 1))
    assert [f.label for f in rolled].count("resolve") == 2
    assert plain.result["attack_successes"] == 2
    assert ATTACK.cost(ATTACK.parse({**REQUEST.model_dump(mode="json"), "resolve": 2})) == {
        "resolve": 2
    }
    moment, rolled = attack_with(
        resolve=1, decisive_moment=True, effort="mental", faces=(1, 1, 1, 2, 2, 2, 1, 1)
    )
    assert [f.label for f in rolled].count("resolve") == 3
    assert moment.result["attack_successes"] == 3


def test_the_targets_resolve_buys_defence_dice_that_count_against_the_hit_wcbh_20b() -> None:
    # attack 2 (4, 4, 1) against Agility 2 (1, 1) + 2 Resolve dice (2, 6): 3 successes, no hit
    outcome, rolled = attack_with(defence_resolve=2, faces=(4, 4, 1, 1, 1, 2, 6))
    assert [f.label for f in rolled][-2:] == ["defence_resolve", "defence_resolve"]
    assert (outcome.result["defence_successes"], outcome.result["damage"]) == (3, 0)
    # paid by the target, not by the attacker (the command spends it)
    request = ATTACK.parse({**REQUEST.model_dump(mode="json"), "defence_resolve": 2})
    assert ATTACK.cost(request) == {"resolve": 0}


def test_resolve_dice_after_a_decisive_moment_attack_are_three_each_and_explode_wcbh_13() -> None:
    request = ATTACK.parse(
        {**REQUEST.model_dump(mode="json"), "decisive_moment": True, "effort": "physical"}
    )
    roller = scripted(1, 1, 1, 1, 1)  # attack 0, defence 0
    ATTACK.roll(Asked(request, None, RULES.parse_settings(None)), roller)
    faces = [dataclasses.replace(f) for f in roller.faces]
    more = scripted(6, 1, 1, 2)  # 3 dice; the 6 explodes into the fourth
    asked = FollowUpRoll(
        request, faces, DICE.parse({"resolve": 1}), None, RULES.parse_settings(None)
    )
    outcome = DICE.apply(asked, more)
    assert [f.label for f in more.faces] == ["resolve"] * 4
    assert outcome.result["attack_successes"] == 3  # 6 → 2, the exploded 2 → 1


def test_a_decisive_moment_attack_names_its_effort_and_is_limited_wcbh_15_16() -> None:
    moment = ATTACK.parse({**REQUEST.model_dump(mode="json"), "decisive_moment": True})
    with pytest.raises(InvalidInput) as refused:
        ATTACK.once(moment, "hero")
    assert (refused.value.field, refused.value.rule) == ("effort", "WCBH-16")
    named = ATTACK.parse({**moment.model_dump(mode="json"), "effort": "physical"})
    assert [(o.scope, o.key) for o in ATTACK.once(named, "hero")] == [
        ("story", "decisive_moment"),
        ("scene", "decisive_moment"),
    ]
    assert ATTACK.once(REQUEST, "hero") == []
