"""WCBH-35: an effect attack works "помимо урона" (besides damage): the same net successes deal
the damage and give the effect; WCBH-36 then reads the Health the damage left (issue #15)."""

from __future__ import annotations

from typing import Any

from domain.rulesets import RULESETS
from domain.rulesets.base import Asked
from systems.wcbh.rules.attack import AttackCheck
from systems.wcbh.rules.effects import Effect, effect_besides_damage
from tests.unit.checks.support import scripted

DEFENCES = [{"name": "Agility", "rank": 1, "active": True}]


def stun(health: int, faces: list[int], **more: Any) -> dict[str, Any]:
    """An 8-dice Stun against one die of defence, with the faces given (attack first)."""
    request = {
        "attack_rank": 8,
        "defences": DEFENCES,
        "target_health": health,
        "effect": "Stun",
        "besides_damage": True,
        **more,
    }
    check = AttackCheck()
    outcome = check.roll(
        Asked(check.Request.model_validate(request), None, RULES.parse_settings(None)),
        scripted(*faces),
    )
    return outcome.result


RULES = RULESETS["wcbh"]
THREE_NET = [2, 2, 2, 1, 1, 1, 1, 1, 3]  # 3 successes against a 3: net 3
ONE_NET = [2, 1, 1, 1, 1, 1, 1, 1, 3]


def test_an_effect_attack_deals_its_damage_and_gives_its_effect_wcbh_35() -> None:
    result = stun(10, THREE_NET)
    assert (result["damage"], result["health"]) == (3, 7)
    assert (result["effect"], result["effect_pages"]) == ("Stun", 2)  # ceil(3 / 2)
    assert not result["defeated"] and not result["whole_scene"]


def test_the_effect_defeats_when_it_lasts_the_health_the_damage_left_wcbh_36() -> None:
    # 5 Health - 3 damage = 2 left; 2 pages of Stun reach it: defeated by the effect
    result = stun(5, THREE_NET)
    assert (result["health"], result["effect_pages"]) == (2, 2)
    assert result["whole_scene"] and result["defeated"] and not result["defeated_by_damage"]


def test_damage_that_defeats_is_a_defeat_by_damage_and_the_effect_runs_its_pages_wcbh_39() -> None:
    result = stun(3, THREE_NET)
    assert result["health"] == 0 and result["defeated_by_damage"] and result["defeated"]
    assert (result["effect_pages"], result["whole_scene"]) == (2, False)


def test_durations_still_add_up_with_the_damage_wcbh_35() -> None:
    result = stun(10, ONE_NET, effect_pages_before=2)
    assert (result["damage"], result["effect_pages"]) == (1, 3)


def test_attack_rolls_recorded_before_the_ruling_still_give_the_effect_instead() -> None:
    # besides_damage absent: how attacks were read before issue #15, so their records verify
    result = stun(10, THREE_NET, besides_damage=False)
    assert (result["damage"], result["health"], result["effect_pages"]) == (0, 10, 2)


def test_effect_besides_damage_checks_wcbh_36_only_while_health_is_left() -> None:
    assert effect_besides_damage(None, "Stun", 3, 2) == Effect("Stun", 2, whole_scene=True)
    assert effect_besides_damage(None, "Stun", 3, 0) == Effect("Stun", 2)
    assert effect_besides_damage(None, "Stun", 0, 4) is None
