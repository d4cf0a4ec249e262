"""What Class D adds to the OpenAPI document: an example of each of its request bodies, by
operationId."""

from __future__ import annotations

from typing import Any

from domain.example_ids import HERO, SIDEKICK, VILLAIN

EXAMPLES: dict[str, dict[str, Any]] = {
    "classd_attack": {
        "attacker_id": HERO,
        "target_id": VILLAIN,
        "attack_type": "ranged",
        "advantage": 1,
        "purpose": "Shoot out the ropes",
    },
    "classd_villain_attack": {"villain_id": VILLAIN, "hero_id": HERO, "attack_type": "melee"},
    "classd_act": {"character_id": HERO, "action": "item", "feature": "Smoke Bomb"},
    "classd_retreat": {"hero_id": HERO, "pursuer_ids": [VILLAIN], "covering_ids": [SIDEKICK]},
    "classd_stop": {"hero_id": HERO, "villain_id": VILLAIN},
    "classd_move": {"hero_id": HERO, "edge": "high_ground", "stat": "speed"},
    "classd_hostage_shield": {"villain_id": VILLAIN, "hostage": "The mayor"},
    "classd_end_fight": {"reason": "The villains fled"},
    "classd_grant_action": {"character_id": SIDEKICK, "reason": "Inspired by the speech"},
    "classd_capture": {"hero_id": HERO, "reason": "Caught in the net"},
}
