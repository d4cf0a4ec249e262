"""Example sheets of the sides other than the hero's (the hero's is `WcbhRuleset.example_sheet`)."""

from __future__ import annotations

from typing import Any

OTHER_SIDES: dict[str, dict[str, Any]] = {
    "villain": {
        "kind": "character",
        "abilities": {
            "Agility": 4,
            "Strength": 3,
            "Stamina": 6,
            "Intelligence": 8,
            "Perception": 5,
            "Will": 7,
            "Leadership": 6,
        },
        "talents": {"Science": 9},
        "powers": {
            "Gravity Well": {
                "rank": 9,
                "can_attack": True,
                "can_affect_others": True,
                "description": "Pins everyone in a Close area to the ground (a special effect).",
            },
            "Force Armour": {"rank": 6, "can_defend": True, "description": "Hardened air."},
        },
        "perks": ["Orbital hideout"],
        "flaws": ["Cannot resist an audience"],
    },
    "opponent": {
        "kind": "character",
        "abilities": {
            "Agility": 5,
            "Strength": 4,
            "Stamina": 4,
            "Intelligence": 3,
            "Perception": 4,
            "Will": 3,
        },
        "talents": {"Firearms": 5},
        "powers": {},
        "flaws": ["Paid by the hour"],
    },
    "minion": {"kind": "minion", "threat": 3},
    "other": {
        "kind": "character",
        "abilities": {
            "Agility": 2,
            "Strength": 2,
            "Stamina": 3,
            "Intelligence": 4,
            "Perception": 3,
            "Will": 4,
            "Charisma": 3,
        },
        "talents": {"Journalism": 5},
        "perks": ["Press pass"],
    },
}
