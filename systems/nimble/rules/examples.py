"""Example sheets of the sides other than the hero's (the hero's is `NimbleRuleset.example_sheet`):
a lone monster, and a group of identical monsters that takes one turn together (NB-3, NB-4)."""

from __future__ import annotations

from typing import Any

OTHER_SIDES: dict[str, dict[str, Any]] = {
    "villain": {
        "kind": "monster",
        "count": 1,
        "hp": 40,
        "armor": 2,
        "speed": 6,
        "attacks": [
            {"name": "Cleaver", "dice": "2d8+2"},
            {"name": "War cry", "dice": "2d6", "area": True, "description": "Everyone in reach 2."},
        ],
        "description": "The goblin chief: fights from the back until its guards fall.",
    },
    "opponent": {
        "kind": "monster",
        "count": 2,
        "hp": 12,
        "armor": 1,
        "speed": 6,
        "attacks": [{"name": "Spear", "dice": "1d8+1"}],
        "description": "Goblin guards.",
    },
    "minion": {
        "kind": "monster",
        "count": 4,
        "hp": 3,
        "speed": 8,
        "attacks": [{"name": "Bite", "dice": "1d4"}],
        "description": "Giant rats: a group of four that acts on one turn.",
    },
    "other": {
        "kind": "monster",
        "count": 1,
        "hp": 8,
        "speed": 8,
        "attacks": [{"name": "Kick", "dice": "1d6"}],
        "description": "A frightened mule: dangerous only when cornered.",
    },
}
