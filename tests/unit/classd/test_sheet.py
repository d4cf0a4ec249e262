"""Class D sheets for combat: attack gear and powers with damage modifiers (CD-1, CD-10, CD-11)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset

CLASSD = get_ruleset("classd")
SETTINGS = CLASSD.parse_settings(None)
HERO = {"might": 1, "speed": 2, "spirit": 3, "health": 10, "will": 2}


def test_gear_and_powers_say_their_attack_type_and_damage_cd_10_cd_11() -> None:
    sheet = CLASSD.parse_sheet(
        HERO | {"gear": [{"name": "Sling", "attack": "ranged", "damage": 1}]}, SETTINGS, side="hero"
    )
    gear = sheet.gear[0]  # type: ignore[attr-defined]
    assert (gear.attack, gear.damage) == ("ranged", 1)
    plain = CLASSD.parse_sheet(HERO | {"gear": [{"name": "Rope"}]}, SETTINGS, side="hero")
    assert (plain.gear[0].attack, plain.gear[0].damage) == (None, 0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "feature", [{"name": "X", "attack": "psychic"}, {"name": "X", "damage": -1}]
)
def test_unknown_attack_types_and_negative_damage_are_refused_cd_1(
    feature: dict[str, object],
) -> None:
    with pytest.raises(InvalidInput):
        CLASSD.parse_sheet(HERO | {"powers": [feature]}, SETTINGS, side="hero")
