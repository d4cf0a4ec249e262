"""Example sheets of the sides other than the hero's (the hero's is `NimbleRuleset.example_sheet`):
a lone monster, and a group of identical monsters that takes one turn together (NB-3, NB-4); and a
spell-casting hero (`CASTER`) whose spells carry their tiers (NB-12)."""

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

CASTER: dict[str, Any] = {
    "kind": "hero",
    "stats": {"STR": -1, "DEX": 1, "INT": 3, "WIL": 1},
    "skills": {"Arcana": 5, "Stealth": 1},
    "max_hp": 16,
    "speed": 6,
    "mana": 4,
    "attacks": [
        {"name": "Staff", "dice": "1d6-1"},
        {"name": "Fire bolt", "dice": "1d10", "tier": 0, "description": "A cantrip: no mana."},
        {
            "name": "Ice lance",
            "dice": "2d8",
            "tier": 2,
            "upcast": 2,
            "description": "Range 8. Each extra mana (up to 2): the target is Slowed 1 more round.",
        },
    ],
    "spells": [{"name": "Ward", "tier": 1, "description": "An ally's next hit is 3 less."}],
}
"""NB-12: a spell-casting hero: a cantrip (tier 0, free), an attack spell of tier 2 that takes up
to 2 extra mana, and a tier 1 spell cast with an action (no attack roll)."""
