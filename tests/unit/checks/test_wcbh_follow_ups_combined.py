"""Both sides' Resolve after an attack, combined in order (WCBH-20b, 20c; issue #15), pure:
scripted faces checked by hand."""

from __future__ import annotations

import dataclasses

from domain.dice.roller import Face
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, EarlierFollowUp, FollowUp, FollowUpRoll, faces_after
from tests.unit.checks.support import scripted

RULES = RULESETS["wcbh"]
ATTACK = RULES.checks["attack"]
DICE = RULES.follow_ups["resolve_dice"]
REROLL = RULES.follow_ups["resolve_reroll"]
SETTINGS = RULES.parse_settings(None)
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


def first_faces(*faces: int) -> list[Face]:
    roller = scripted(*faces)
    ATTACK.roll(Asked(REQUEST, None, SETTINGS), roller)
    return [dataclasses.replace(f) for f in roller.faces]


def made(follow: FollowUp, request: dict[str, object], *faces: int) -> EarlierFollowUp:
    """An earlier follow-up as its record has it: its request and the faces it drew."""
    roller = scripted(*faces)
    parsed = follow.parse(request)
    follow.apply(FollowUpRoll(REQUEST, first_faces(2, 1, 3, 4, 5), parsed, None, SETTINGS), roller)
    return EarlierFollowUp(follow, parsed, roller.faces, None, SETTINGS)


def test_the_defence_buys_dice_after_the_roll_and_the_hit_is_decided_again_wcbh_20b() -> None:
    faces = first_faces(6, 4, 1, 2, 1)  # attack 3 against defence 1: net 2, Health 4 → 2
    request = DICE.parse({"resolve": 2, "side": "defence"})
    roller = scripted(6, 3)
    outcome = DICE.apply(FollowUpRoll(REQUEST, faces, request, None, SETTINGS), roller)
    assert [f.label for f in roller.faces] == ["defence_resolve"] * 2
    # defence 1 + 2 + 0 = 3 against 3: net 0, no damage
    assert (outcome.result["defence_successes"], outcome.result["net"]) == (3, 0)
    assert (outcome.result["damage"], outcome.result["health"]) == (0, 4)


def test_a_later_follow_up_reads_the_dice_the_earlier_ones_left_wcbh_20b_20c() -> None:
    # the original: attack 2, 1, 3 (1 success), defence 4, 5 (1 success): net 0
    earlier = [
        made(DICE, {"resolve": 2}, 6, 4),  # the attacker's 2 dice: attack 4
        made(DICE, {"resolve": 1, "side": "defence"}, 2),  # the defence's: defence 2
    ]
    state = faces_after(REQUEST, first_faces(2, 1, 3, 4, 5), earlier)
    assert [f.index for f in state] == list(range(8))
    assert [f.label for f in state[5:]] == ["resolve", "resolve", "defence_resolve"]
    # the defence rerolls all its dice, the one it bought too; the attacker's dice stay
    roller = scripted(6, 6, 4)
    request = REROLL.parse({"side": "defence"})
    asked = FollowUpRoll(REQUEST, state, request, None, SETTINGS)
    outcome = REROLL.apply(asked, roller)
    assert [f.reroll_of for f in roller.faces] == [3, 4, 7]
    assert (outcome.result["attack_successes"], outcome.result["defence_successes"]) == (4, 5)
    assert (outcome.result["net"], outcome.result["damage"]) == (-1, 0)
    assert REROLL.odds is not None
    odds = REROLL.odds(asked, outcome)
    assert odds.success is not None and 0 < odds.success < 1


def test_an_attackers_reroll_after_a_reroll_rerolls_the_replacements_wcbh_20c() -> None:
    earlier = [made(REROLL, {}, 2, 2, 2)]  # the attacker's first reroll: 3 successes
    state = faces_after(REQUEST, first_faces(2, 1, 3, 4, 5), earlier)
    roller = scripted(1, 1, 1)
    outcome = REROLL.apply(FollowUpRoll(REQUEST, state, REROLL.parse({}), None, SETTINGS), roller)
    assert [f.reroll_of for f in roller.faces] == [5, 6, 7]  # the replacements, not dice 0..2
    assert outcome.result["attack_successes"] == 0
