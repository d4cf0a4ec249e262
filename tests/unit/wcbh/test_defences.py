"""The defences a target has (WCBH-28, 29): passive armour-type Powers beside Stamina, active ones
beside Agility, and what area attacks, charges, ambushes and redirects do with each kind
(WCBH-42..46). Pure: sheets parsed by the ruleset, scripted faces."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import Asked
from systems.wcbh.rules.attack import AreaAttackCheck, AttackCheck, defence_options
from systems.wcbh.rules.combat import Defence, best_defence
from systems.wcbh.rules.fight import defence_choices
from tests.unit.checks.support import scripted, sheet_and_settings

RULES = RULESETS["wcbh"]


def armoured(**powers: dict[str, Any]) -> dict[str, Any]:
    """The example sheet (Agility 5, Stamina 5) with the given Powers added."""
    sheet = copy.deepcopy(RULES.example_sheet())
    sheet["powers"].update(powers)
    return sheet


IRON_SKIN = {"rank": 8, "defence": "passive", "description": "armour"}
BLINK = {"rank": 7, "defence": "active", "description": "teleports out of the way"}


def options(sheet: dict[str, Any], chosen: list[str] | None = None) -> list[dict[str, Any]]:
    parsed, _ = sheet_and_settings("wcbh", sheet)
    return defence_options(parsed, chosen)


def as_defences(found: list[dict[str, Any]]) -> list[Defence]:
    return [Defence(o["name"], o["rank"], o["active"]) for o in found]


def test_an_armour_power_is_a_passive_defence_beside_stamina_wcbh_28() -> None:
    found = options(armoured(**{"Iron Skin": IRON_SKIN}))
    assert {(o["name"], o["active"]) for o in found} == {
        ("Stamina", False),
        ("Iron Skin", False),
        ("Agility", True),
    }


def test_an_armour_power_is_not_halved_against_lethal_attacks_as_stamina_is_wcbh_29() -> None:
    best = best_defence(as_defences(options(armoured(**{"Iron Skin": IRON_SKIN}))), lethal=True)
    assert (best.name, best.rank, best.active) == ("Iron Skin", 8, False)


def test_without_a_choice_the_target_has_agility_and_its_actively_defending_powers_wcbh_28() -> (
    None
):
    sheet = armoured(Blink=BLINK, Shield={"rank": 6, "can_defend": True})
    found = {o["name"]: o["active"] for o in options(sheet)}
    assert found == {"Stamina": False, "Agility": True, "Blink": True, "Shield": True}
    # the best of them counts (WCBH-28): Blink 7 over Agility 5 and half of Stamina 5
    assert best_defence(as_defences(options(sheet))).name == "Blink"


def test_the_targets_side_names_its_active_defences_and_the_passive_ones_stay_wcbh_28() -> None:
    found = options(armoured(**{"Iron Skin": IRON_SKIN}), ["Strength"])
    assert {(o["name"], o["active"]) for o in found} == {
        ("Stamina", False),
        ("Iron Skin", False),
        ("Strength", True),
    }


@pytest.mark.parametrize("name", ["Stamina", "iron skin"])
def test_a_passive_defence_named_as_an_active_one_is_refused_wcbh_28(name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        options(armoured(**{"Iron Skin": IRON_SKIN}), [name])
    assert (refused.value.field, refused.value.rule) == ("defences", "WCBH-28")


def test_a_defending_power_lowers_starting_resolve_whatever_its_kind_wcbh_17() -> None:
    limit = {"trait_limit": 10}
    for power in (IRON_SKIN, BLINK):
        parsed, settings = sheet_and_settings("wcbh", armoured(Armour=power), limit)
        # the example's best is Lightning Bolt 8; a defending Power of rank 9 lowers it to 2
        parsed9, _ = sheet_and_settings("wcbh", armoured(Armour={**power, "rank": 9}), limit)
        assert RULES.derived_stats(parsed, settings)["starting_resolve"] == 4
        assert RULES.derived_stats(parsed9, settings)["starting_resolve"] == 2


def test_an_area_attack_halves_a_dodge_but_meets_armour_at_full_rank_wcbh_43() -> None:
    found = options(armoured(**{"Iron Skin": IRON_SKIN}))
    request = {
        "attack_rank": 2,
        "targets": [{"target_id": "t", "defences": found, "health": 6}],
    }
    # attack 2 dice, then the defence: Iron Skin's 8 dice (a dodge would be Agility 5 halved to 3)
    outcome = AreaAttackCheck().roll(
        Asked(AreaAttackCheck.Request.model_validate(request), None, RULES.parse_settings(None)),
        scripted(2, 2, *[1] * 8),
    )
    target = outcome.result["targets"][0]
    assert (target["defence"], target["defence_rank"]) == ("Iron Skin", 8)
    assert target["skips_turn"] is False


def test_a_charge_on_armour_is_a_collision_for_the_charger_wcbh_44() -> None:
    found = options(armoured(**{"Iron Skin": IRON_SKIN}))
    charger = options(armoured(**{"Iron Skin": IRON_SKIN}), [])
    request = {
        "attack_rank": 4,
        "defences": found,
        "target_health": 6,
        "maneuver": "charge",
        "charger": {"defences": charger, "health": 6},
    }
    # attack 4 + 2 dice: 6 successes; Iron Skin's 8 dice: 1; the charger's Iron Skin 8 dice: 0
    faces = [2, 2, 2, 2, 2, 2, 2, *[1] * 7, *[1] * 8]
    outcome = AttackCheck().roll(
        Asked(AttackCheck.Request.model_validate(request), None, RULES.parse_settings(None)),
        scripted(*faces),
    )
    assert outcome.result["defence"] == "Iron Skin" and outcome.result["damage"] == 5
    # 6 successes against its own armour's 0, less the 5 it dealt: 1 (WCBH-44)
    collision = outcome.result["collision"]
    assert (collision["defence"], collision["damage"]) == ("Iron Skin", 1)


def test_an_ambush_leaves_armour_and_a_redirect_leaves_only_active_defences_wcbh_42_46() -> None:
    found = options(armoured(**{"Iron Skin": IRON_SKIN}))
    surprised = defence_choices(found, passive_only=True, redirect_declared=False)
    assert {o["name"] for o in surprised} == {"Stamina", "Iron Skin"}
    redirecting = defence_choices(found, passive_only=False, redirect_declared=True)
    assert [o["name"] for o in redirecting] == ["Agility"]
