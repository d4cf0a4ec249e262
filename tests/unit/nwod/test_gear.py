"""Ammunition as the character's gear, pure (systems/nwod_micro/rules/gear.py, NW-16)."""

from __future__ import annotations

import pytest

from domain.errors import Conflict
from systems.nwod_micro.rules import gear
from systems.nwod_micro.rules.sheet import Weapon

RIFLE = Weapon(name="Rifle", damage_class="professional", magazine=30, spare_magazines=2)


def test_a_weapon_never_used_is_as_the_sheet_gives_it_full_with_its_spares_nw_16() -> None:
    assert gear.ammunition(None, RIFLE, None) == {
        "loaded": 30,
        "spare": 2,
        "magazine": 30,
        "sheet_spare": 2,
    }


def test_recorded_ammunition_is_what_the_weapon_has_not_a_full_magazine_nw_16() -> None:
    recorded = gear.fired(gear.ammunition(None, RIFLE, None), 25)
    assert gear.ammunition(recorded, RIFLE, None)["loaded"] == 5
    # the scene's own count does not override the character's gear
    assert gear.ammunition(recorded, RIFLE, 30)["loaded"] == 5


def test_a_fight_recorded_before_gear_counts_its_rounds_left_nw_16() -> None:
    assert gear.ammunition(None, RIFLE, 12)["loaded"] == 12


def test_a_sheet_change_of_the_weapons_magazines_equips_it_anew_nw_16() -> None:
    emptied = gear.fired(gear.ammunition(None, RIFLE, None), 30) | {"spare": 0}
    restocked = RIFLE.model_copy(update={"spare_magazines": 4})
    assert gear.ammunition(emptied, restocked, None) == {
        "loaded": 30,
        "spare": 4,
        "magazine": 30,
        "sheet_spare": 4,
    }


def test_a_reload_uses_a_spare_magazine_and_refills_nw_16() -> None:
    left = gear.fired(gear.ammunition(None, RIFLE, None), 20)
    after = gear.reloaded(left, "Vega", "Rifle")
    assert (after["loaded"], after["spare"]) == (30, 1)


def test_no_reload_without_a_spare_magazine_or_into_a_full_one_nw_16() -> None:
    empty = gear.fired(gear.ammunition(None, RIFLE, None), 30) | {"spare": 0}
    with pytest.raises(Conflict) as raised:
        gear.reloaded(empty, "Vega", "Rifle")
    assert (raised.value.code, raised.value.rule, raised.value.field) == (
        "no_spare_magazine",
        "NW-16",
        "weapon",
    )
    with pytest.raises(Conflict) as raised:
        gear.reloaded(gear.ammunition(None, RIFLE, None), "Vega", "Rifle")
    assert raised.value.code == "magazine_full"
