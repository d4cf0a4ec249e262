"""What We Can Be Heroes adds to the OpenAPI document: an example of each of its request bodies
(by operationId), and the check whose request model types each body's open `request` field."""

from __future__ import annotations

from typing import Any

from domain.example_ids import HENCHMAN, HERO, ROLL, SCENE, SIDEKICK, VILLAIN

TRAIT = {"trait": "Agility", "difficulty": 2, "purpose": "Leap across the rooftops"}

# (body schema, field) -> the (ruleset, check) whose request the field is (api/check_schemas.py)
TYPED_REQUESTS = {
    ("AssistedRollCreate", "request"): ("wcbh", "trait"),
    ("PlayRollCreate", "request"): ("wcbh", "trait"),
    ("ChaseCheckCreate", "request"): ("wcbh", "trait"),
    ("ShakeOffCreate", "request"): ("wcbh", "trait"),
}

EXAMPLES: dict[str, dict[str, Any]] = {
    "give_resolve": {"receiver_id": SIDEKICK, "scene_id": SCENE, "purpose": "You can do this!"},
    "ask_luck": {"scene_id": SCENE, "detail": "The getaway car has the keys in it"},
    "decide_luck": {"approve": True, "note": "Lucky you: it is idling"},
    "imitate_power": {"character_id": HERO, "trait": "Mimicry", "power": "Flight"},
    "last_gasp": {"scene_id": SCENE},
    "open_scene_pool": {"pool": "adversity", "amount": 2, "reason": "The bank is guarded"},
    "change_scene_pool": {"pool": "adversity", "change": -1, "reason": "Alarm tripped"},
    "villainous_deed": {
        "villain_id": VILLAIN,
        "description": "Dr. Null blacks out the city",
        "scene_id": SCENE,
    },
    "lose_ability": {"roll_id": ROLL, "ability": "Flight"},
    "restore_ability": {"ability": "Flight", "reason": "A night's rest"},
    "assisted_roll": {
        "character_id": HERO,
        "request": TRAIT,
        "helpers": [{"character_id": SIDEKICK, "trait": "Agility"}],
    },
    "open_group_check": {
        "participants": [HERO, SIDEKICK],
        "difficulty": 1,
        "purpose": "Sneak past the guards",
    },
    "group_check_roll": {"character_id": HERO, "request": {"trait": "Stealth"}},
    "hand_over_successes": {"giver_id": HERO, "receiver_id": SIDEKICK, "successes": 1},
    "start_contest": {"first_id": HERO, "second_id": VILLAIN, "rolls": 3, "purpose": "Arm wrestle"},
    "contest_roll": {"character_id": HERO, "request": {"trait": "Strength"}},
    "start_chase": {"pairs": [{"pursuer_id": HERO, "target_id": VILLAIN}], "range": "far"},
    "chase_check": {"character_id": HERO, "request": {"trait": "Agility"}},
    "recover_health": {"character_id": HERO, "rested_whole_day": True},
    "shake_off_effect": {"character_id": HERO, "effect": "Dazed", "request": {"trait": "Will"}},
    "extend_effect": {"character_id": VILLAIN, "target_id": HERO, "effect": "Dazed"},
    "back_in_the_fight": {"character_id": HERO, "use": "come_back"},
    "declare_actions": {"character_id": HERO, "actions": 2},
    "move": {"character_id": HERO},
    "rule_effect": {
        "character_id": HERO,
        "effect": "Entangled",
        "may_act": True,
        "reason": "Webbed to the wall",
    },
    "pass_turn": {"character_id": HERO},
    "delay_action": {"character_id": HERO, "moment": "When the villain opens the vault"},
    "moment_came": {"moment": "When the villain opens the vault"},
    "override_order": {"character_id": SIDEKICK, "reason": "She was already running"},
    "attack": {
        "attacker_id": HERO,
        "target_id": VILLAIN,
        "trait": "Lightning",
        "purpose": "Lightning Bolt at Dr. Null",
    },
    "grapple": {"attacker_id": HERO, "target_id": HENCHMAN, "trait": "Strength", "aim": "hold"},
    "maneuver": {"attacker_id": HERO, "target_id": VILLAIN, "maneuver": "taunt"},
    "ambush": {
        "ambushers": [{"character_id": HERO, "trait": "Stealth"}],
        "target_ids": [HENCHMAN],
    },
    "area_attack": {
        "attacker_id": HERO,
        "trait": "Lightning",
        "targets": [{"target_id": VILLAIN}, {"target_id": HENCHMAN}],
    },
    "team_attack": {
        "target_id": VILLAIN,
        "attackers": [
            {"attacker_id": HERO, "trait": "Lightning"},
            {"attacker_id": SIDEKICK, "trait": "Fighting"},
        ],
    },
    "knockback": {"target_id": VILLAIN, "hits_object": "weaker"},
    "redirect": {"at_id": HENCHMAN},
    "set_range": {
        "first_id": HERO,
        "second_id": VILLAIN,
        "range": "far",
        "reason": "Across the plaza",
    },
    "move_range": {"character_id": HERO, "other_id": VILLAIN, "to": "close"},
    "set_situation": {"character_id": HERO, "cover": 1, "size": "same", "reason": "Behind a car"},
    "pass_rest_days": {
        "character_ids": [HERO, SIDEKICK],
        "whole_day": True,
        "reason": "A week off",
    },
}
