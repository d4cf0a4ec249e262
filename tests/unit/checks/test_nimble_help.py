"""Help on a held attack (NB-19): rerolling one die gives what a fresh roll with the new face in
the old one's place would give (NB-9, NB-11, NB-14), scripted against the attack check itself."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.dice.roller import Face
from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked, FollowUpRoll
from systems.nimble.rules.checks import HELP_DIE
from tests.unit.checks.support import scripted, sheet_and_settings

ATTACK = RULESETS["nimble"].checks["attack"]
_, SETTINGS = sheet_and_settings("nimble")


def helped(request: dict[str, Any], faces: list[int], die: int, new: list[int]) -> dict[str, Any]:
    """The attack rolled with ``faces``, then Help rerolls ``die`` and draws ``new``."""
    parsed = ATTACK.parse(request)
    first = scripted(*faces)
    ATTACK.roll(Asked(parsed, None, SETTINGS), first)
    copies = [Face(**f.to_json()) for f in copy.deepcopy(first.faces)]  # type: ignore[arg-type]
    help_request = HELP_DIE.parse({"die": die})
    outcome = HELP_DIE.apply(
        FollowUpRoll(parsed, copies, help_request, None, SETTINGS), scripted(*new)
    )
    return outcome.result


def fresh(request: dict[str, Any], *faces: int) -> dict[str, Any]:
    return ATTACK.roll(Asked(ATTACK.parse(request), None, SETTINGS), scripted(*faces)).result


@pytest.mark.parametrize(
    ("request_", "faces", "die", "new", "same_as"),
    [
        # NB-11 advantage: [3, 5] keeps 5; the 5 rerolled to 1: [3, 1] keeps 3, a hit for 3.
        ({"dice": "1d8", "advantage": 1}, [3, 5], 1, [1], [3, 1]),
        # NB-11 disadvantage: [6, 2] keeps 2; the 2 rerolled to 8: [6, 8] keeps 6, not a crit.
        ({"dice": "1d8", "disadvantage": 1}, [6, 2], 1, [8], [6, 8]),
        # a dropped die rerolled to the maximum is kept, leads and crits (its chain rolls anew).
        ({"dice": "1d8", "advantage": 1}, [2, 5], 0, [8, 3], [8, 5, 3]),
        # another term's die: the Primary die stays.
        ({"dice": "2d6+1d4+1"}, [4, 5, 3], 2, [1], [4, 5, 1]),
        # NB-9: the Primary die rerolled: its crit chain goes with it.
        ({"dice": "1d6"}, [6, 3], 0, [2], [2]),
        # a new Primary die crits and explodes on its own.
        ({"dice": "1d6+1"}, [3], 0, [6, 6, 4], [6, 6, 4]),
        # a die beside a critical Primary die: the chain stays.
        ({"dice": "2d6"}, [6, 4, 2], 1, [5], [6, 5, 2]),
        # NB-14: a found weakness's +1 counts for the new Primary die too.
        ({"dice": "1d6", "primary_shift": 1}, [2], 0, [5, 3], [5, 3]),
    ],
)
def test_help_gives_what_a_fresh_roll_with_the_new_face_gives_nb_19(
    request_: dict[str, Any], faces: list[int], die: int, new: list[int], same_as: list[int]
) -> None:
    assert helped(request_, faces, die, new) == fresh(request_, *same_as)


def test_help_rerolls_no_die_a_critical_hit_set_off_nb_19() -> None:
    with pytest.raises(InvalidInput) as refused:
        helped({"dice": "1d6"}, [6, 3], 1, [2])
    assert refused.value.field == "request.die" and refused.value.rule == "NB-19"
    with pytest.raises(InvalidInput):
        helped({"dice": "1d6"}, [4], 5, [2])
