"""What nWoD micro adds to the OpenAPI document: an example of each of its request bodies, by
operationId."""

from __future__ import annotations

from typing import Any

from domain.example_ids import HENCHMAN, HERO, VILLAIN

EXAMPLES: dict[str, dict[str, Any]] = {
    "nwod_initiative": {"character_id": HERO},
    "nwod_attack": {
        "attacker_id": HERO,
        "target_ids": [VILLAIN],
        "kind": "ranged",
        "maneuver": "standard",
        "range": "medium",
        "conditions": ["poor_light"],
    },
    "nwod_act": {"character_id": HERO, "maneuver": "take_cover", "cover": "partial"},
    "nwod_will_power": {"character_id": HERO, "boost": "defense", "points": 1},
    "nwod_end_turn": {"character_id": HERO},
    "nwod_override": {"character_id": HENCHMAN, "grant": "extra_action", "reason": "Adrenaline"},
    "nwod_take_out": {"character_id": HENCHMAN, "reason": "Knocked out cold"},
    "nwod_suppression_roll": {"character_id": HERO, "conditions": ["smoke"]},
    "nwod_roll": {"character_id": HERO, "affinity": "INT", "purpose": "Pick the lock"},
    "nwod_contest": {
        "sides": [
            {"character_id": HERO, "affinity": "ELG"},
            {"character_id": VILLAIN, "affinity": "INT"},
        ],
        "purpose": "Talk past the doorman",
    },
}
