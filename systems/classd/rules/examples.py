"""Example sheets of the sides other than the hero's (the hero's is `ClassdRuleset.example_sheet`):
a villain of each rank (CD-17)."""

from __future__ import annotations

from typing import Any

OTHER_SIDES: dict[str, dict[str, Any]] = {
    "villain": {
        "might": 4,
        "speed": 3,
        "spirit": 5,
        "health": 20,
        "will": 8,
        "rank": "boss",
        "powers": [
            {
                "name": "Mind Spike",
                "description": "A psychic lance.",
                "attack": "mental",
                "damage": 2,
            }
        ],
        "gear": [{"name": "Shock baton", "attack": "melee", "damage": 1}],
    },
    "opponent": {
        "might": 3,
        "speed": 3,
        "spirit": 1,
        "health": 10,
        "will": 2,
        "rank": "henchman",
        "gear": [
            {"name": "Taser pistol", "attack": "ranged", "damage": 1},
            {"name": "Brass knuckles", "attack": "melee", "damage": 1},
        ],
    },
    "minion": {
        "might": 2,
        "speed": 2,
        "spirit": 0,
        "health": 4,
        "will": 0,
        "rank": "minion",
        "gear": [{"name": "Crowbar", "attack": "melee"}],
    },
    "other": {
        "might": 0,
        "speed": 1,
        "spirit": 3,
        "health": 5,
        "will": 3,
        "rank": None,
        "gear": [{"name": "Janitor's keys", "description": "Opens every service door."}],
    },
}
