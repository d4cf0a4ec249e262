"""An example of each request body of the shared operations (lifecycle, rolls, missions), by
operationId; each game system keeps its own in systems/<name>/openapi.py. api/openapi.py puts
them in the OpenAPI document; tests/unit/test_request_examples.py validates each one."""

from __future__ import annotations

from typing import Any

from domain.example_ids import HERO, PLAYER, SIDEKICK
from domain.rulesets import get_ruleset

# The example campaign plays We Can Be Heroes: its roll is the ruleset's own trait example.
TRAIT = get_ruleset("wcbh").checks["trait"].example()

EXAMPLES: dict[str, dict[str, Any]] = {
    "create_campaign": {"name": "Night City Knights", "ruleset": "wcbh", "gm_name": "Sam"},
    "add_member": {"name": "Bo", "role": "player"},
    "rotate_member_token": {"expires_in": 2_592_000},
    "create_character": {
        "name": "Quicksilver Kate",
        "side": "hero",
        "sheet": get_ruleset("wcbh").example_sheet(),
        "owner_member_id": PLAYER,
    },
    "adjust_character_resource": {
        "resource": "resolve",
        "change": 1,
        "reason": "Saved the mayor",
    },
    "replace_character_sheet": {
        "sheet": get_ruleset("wcbh").example_sheet(),
        "reason": "Levelled up after the story",
    },
    "approve_sheet_change": {"note": "Fits the story"},
    "set_character_visibility": {"hidden": True},
    "set_proof_pages": {"public": True},
    "decline_sheet_change": {"note": "Too strong for now"},
    "start_story": {"title": "The Null Protocol"},
    "start_issue": {"title": "#1: Lights Out"},
    "open_scene": {"title": "Rooftop chase"},
    "change_issue_pool": {"pool": "adversity", "change": -1, "reason": "Dr. Null's trap"},
    "join_fight": {"character_ids": [HERO, SIDEKICK]},
    "act_first": {"character_id": HERO},
    "create_mission": {"title": "Break into the vault"},
    "end_mission": {"outcome": "completed"},
    "define_mission_counter": {
        "name": "catastrophe",
        "label": "Catastrophe",
        "maximum": 6,
        "zones": [{"name": "calm", "start": 0}, {"name": "collapse", "start": 4}],
    },
    "change_mission_counter": {"change": 1, "reason": "The dam cracks"},
    "rest_on_mission": {},
    "roll": {"check": "trait", "request": TRAIT, "character_id": HERO, "client_seed": "k8-rooftop"},
    "approve_roll_request": {"modifiers": {"modifier": 1}},
    "decline_roll_request": {"note": "No help from the crowd here"},
    "follow_up_roll": {"follow_up": "resolve_dice", "request": {"resolve": 1}},
    "register_webhook": {
        "url": "https://forum.example.org/chronicle/hook",
        "types": ["Roll.Recorded", "Scene.*"],
        "description": "the forum's dice thread",
    },
}
