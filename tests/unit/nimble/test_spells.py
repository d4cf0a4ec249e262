"""NB-12: a spell's mana comes from the sheet's tier; the caster only chooses extra mana, which the
sheet bounds (pure rules, no database)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.errors import InvalidInput
from systems.nimble.rules.examples import CASTER
from systems.nimble.rules.sheet import NimbleHero, NimbleMonster, NimbleSheet
from systems.nimble.rules.spells import attack_cast, spell_cast

MAGE = NimbleHero.model_validate(CASTER)
STAFF, FIRE_BOLT, ICE_LANCE = MAGE.attacks


def refused(call, *args):  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput) as caught:
        call(*args)
    assert caught.value.rule == "NB-12"
    return caught.value


def test_an_attack_costs_its_sheet_tier_a_cantrip_and_a_weapon_nothing() -> None:
    assert attack_cast(ICE_LANCE, None, 0).mana == 2
    assert attack_cast(ICE_LANCE, 2, 0).mana == 2  # naming the sheet's tier is a check
    assert attack_cast(FIRE_BOLT, None, 0).mana == 0  # a cantrip
    assert attack_cast(STAFF, None, 0).mana == 0 and attack_cast(STAFF, None, 0).details() == {}
    assert attack_cast(STAFF, 0, 0).mana == 0  # the old default spell_tier 0 still passes


def test_a_tier_other_than_the_sheet_s_is_refused_naming_the_field() -> None:
    error = refused(attack_cast, ICE_LANCE, 1, 0)  # cheaper than the sheet
    assert error.field == "spell_tier" and error.details == {"sheet": 2, "named": 1}
    assert refused(attack_cast, STAFF, 3, 0).field == "spell_tier"  # a weapon is no spell


def test_upcasting_is_bounded_by_the_sheet() -> None:
    assert attack_cast(ICE_LANCE, None, 2).mana == 4
    assert attack_cast(ICE_LANCE, None, 1).details() == {
        "spell_tier": 2,
        "extra_mana": 1,
        "mana": 3,
    }
    assert refused(attack_cast, ICE_LANCE, None, 3).field == "extra_mana"  # upcast 2
    assert refused(attack_cast, FIRE_BOLT, None, 1).field == "extra_mana"  # does not scale
    assert refused(attack_cast, STAFF, None, 1).field == "extra_mana"


def test_an_action_s_spell_and_mana_come_from_the_sheet() -> None:
    assert spell_cast(MAGE, None, 0, 0) is None
    ward = spell_cast(MAGE, "ward", 0, 0)
    assert ward is not None and ward.mana == 1 and ward.name == "Ward"
    lance = spell_cast(MAGE, "Ice lance", 4, 2)  # an attack spell cast by action
    assert lance is not None and lance.mana == 4
    assert refused(spell_cast, MAGE, None, 1, 0).field == "mana"  # mana without a spell
    assert refused(spell_cast, MAGE, "Ward", 3, 0).field == "mana"  # not what it costs
    assert refused(spell_cast, MAGE, "Staff", 0, 0).field == "spell"  # a weapon, not a spell
    assert refused(spell_cast, MAGE, "Ward", 0, 1).field == "extra_mana"


def test_old_sheets_without_tiers_load_as_no_spells() -> None:
    old = {
        "kind": "hero",
        "stats": {"STR": 0, "DEX": 0, "INT": 0, "WIL": 0},
        "max_hp": 5,
        "attacks": [{"name": "Club", "dice": "1d6"}],
    }
    hero = NimbleSheet.model_validate(old).root
    assert isinstance(hero, NimbleHero) and hero.spells == []
    assert hero.attacks[0].tier is None and hero.attacks[0].upcast == 0


def test_a_monster_s_attack_carries_no_tier_it_has_no_mana() -> None:
    rats = {"kind": "monster", "hp": 3, "attacks": [{"name": "Bite", "dice": "1d4", "tier": 1}]}
    with pytest.raises(ValidationError, match="no mana"):
        NimbleMonster.model_validate(rats)
