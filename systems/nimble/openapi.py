"""What Nimble adds to the OpenAPI document: an example of each of its request bodies, by
operationId."""

from __future__ import annotations

from typing import Any

from domain.example_ids import HENCHMAN, HERO, ROLL, SCENE, SIDEKICK, VILLAIN

EXAMPLES: dict[str, dict[str, Any]] = {
    "nimble_start": {"order": [HERO, SIDEKICK, VILLAIN], "party": "advantage"},
    "nimble_end_turn": {"character_id": HERO},
    "nimble_swap": {"first_id": HERO, "second_id": SIDEKICK},
    "nimble_grant": {"character_id": SIDEKICK, "actions": 1, "reason": "Haste"},
    "nimble_act": {"character_id": HERO, "action": "Cast a spell", "spell": "Fire Bolt"},
    "nimble_move": {"character_id": HERO, "squares": 6, "difficult": 2},
    "nimble_attack": {
        "attacker_id": HERO,
        "target_id": VILLAIN,
        "attack": "Longsword",
        "purpose": "Strike the goblin chief",
    },
    "nimble_resolve_attack": {"defend": True},
    "nimble_assess": {
        "character_id": HERO,
        "skill": "Examination",
        "option": "find_weakness",
        "target_id": VILLAIN,
    },
    "nimble_help": {"helper_id": SIDEKICK, "roll_id": ROLL},
    "nimble_encounter_grapple": {"grappler_id": HERO, "target_id": HENCHMAN, "size": "same"},
    "nimble_deal_damage": {"scene_id": SCENE, "amount": 7},
    "nimble_heal": {"amount": 5, "reason": "Healing potion"},
    "nimble_grant_temp_hp": {"amount": 4, "keep": "higher", "reason": "Shield of Faith"},
    "nimble_dying_save": {"scene_id": SCENE},
    "nimble_grapple": {"scene_id": SCENE, "target_id": HENCHMAN, "size": "same", "skill": "Might"},
    "nimble_release": {"scene_id": SCENE},
    "nimble_escape": {"scene_id": SCENE, "stat": "DEX", "condition": "grappled"},
    "nimble_restrain": {"scene_id": SCENE, "by": "Goblin net"},
    "nimble_concentrate": {"scene_id": SCENE, "effect": "Bless"},
    "nimble_end_concentration": {"scene_id": SCENE},
    "nimble_concentration_save": {"scene_id": SCENE},
    "nimble_take_cover": {"scene_id": SCENE, "level": "partial"},
    "nimble_hide": {"scene_id": SCENE, "advantage": 1},
}
