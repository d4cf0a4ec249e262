"""Nimble hit points, wounds, dying, temporary HP, grapple, concentration and cover (NB-20..26)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.aggregates import Character, Scene
from domain.commands import Actor
from domain.verbs.base import Hooks, Loaded


class NimbleHealthCommands(Hooks):
    """Mixed into the Chronicle application."""

    def _nimble_damage(
        self,
        actor: Actor,
        scene: Scene,
        target: Character,
        amount: int,
        *,
        critical: bool,
        roll_id: UUID | None,
        loaded: Loaded,
    ) -> dict[str, Any]:
        """THE CONTRACT between the Nimble encounter verbs and this module: apply `amount` damage
        from a hit (critical or not, made by roll `roll_id` in `scene`) to `target`: temporary HP
        first (NB-23), then HP; at 0 HP a Wound and Dying (NB-20); damage while Dying: 2 Wounds, 3 on
        a critical (NB-21); death at the campaign's maximum Wounds (NB-22); concentration ends at 0 HP
        and a critical calls for its STR save (NB-25). Changes `target` (already in `loaded`) and
        returns a summary for the response, e.g. {"damage", "temp_hp_absorbed", "hp", "wounds",
        "dying", "dead", "concentration": "kept"|"ended"|"save_needed"|None}.

        Minimal placeholder until the health area fills it in: HP only, floored at 0."""
        hp = target.resources.get("hp", 0)
        left = max(0, hp - amount)
        if left != hp:
            target.adjust("hp", left - hp, f"hit by roll {roll_id}")
        return {"damage": amount, "hp": left}
