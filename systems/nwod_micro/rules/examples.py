"""Example sheets of the sides other than the hero's (the hero's is `NwodRuleset.example_sheet`);
one form serves every side."""

from __future__ import annotations

from typing import Any

OTHER_SIDES: dict[str, dict[str, Any]] = {
    "villain": {
        "affinities": {"INT": 4, "ELG": 4, "VIO": 2},
        "health": 6,
        "will_power": 5,
        "defense": 1,
        "speed": 4,
        "merits": [{"name": "Bodyguards", "text": "Never goes anywhere alone."}],
        "weapons": [{"name": "Pistol", "damage_class": "common", "magazine": 15}],
        "protection": [{"name": "Tailored vest", "kind": "ARM", "rating": 1}],
    },
    "opponent": {
        "affinities": {"INT": 2, "ELG": 2, "VIO": 4},
        "health": 7,
        "will_power": 2,
        "defense": 2,
        "speed": 5,
        "weapons": [
            {"name": "Battle rifle", "damage_class": "military", "magazine": 20},
            {"name": "Combat knife", "damage_class": "common"},
        ],
        "protection": [
            {"name": "Plate carrier", "kind": "ARM", "rating": 3},
            {"name": "Riot shield", "kind": "SLD", "rating": 2},
        ],
    },
    "minion": {
        "affinities": {"INT": 1, "ELG": 1, "VIO": 3},
        "health": 4,
        "will_power": 0,
        "defense": 1,
        "speed": 5,
        "weapons": [{"name": "Submachine gun", "damage_class": "common", "magazine": 30}],
    },
    "other": {
        "affinities": {"INT": 3, "ELG": 2, "VIO": 1},
        "health": 5,
        "will_power": 1,
        "defense": 0,
        "speed": 5,
        "merits": [{"name": "Paramedic", "text": "Stops bleeding in one action."}],
    },
}
