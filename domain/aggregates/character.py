"""Character: a hero, villain or anyone else with a sheet that the campaign's ruleset validates."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import check_change, clean_title, not_enough
from domain.errors import InvalidInput

SIDES = ("hero", "villain", "opponent", "minion", "other")


class Character(Aggregate):
    @event("Created")
    def __init__(
        self,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: dict[str, Any],
        resources: dict[str, int] | None = None,
    ) -> None:
        self.campaign_id = campaign_id
        self.name = name
        self.side = side
        self.owner_member_id = owner_member_id
        self.sheet = sheet
        self.resources: dict[str, int] = dict(resources or {})
        self.status = "active"
        # Special effects (WCBH-35..38): name → {"pages", "whole_scene"}; they end with their scene.
        self.effects: dict[str, dict[str, Any]] = {}
        # Where and when damage last defeated the character (WCBH-31; back in the fight, WCBH-39).
        self.defeated_at: dict[str, Any] | None = None

    @classmethod
    def create(
        cls,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: dict[str, Any],
        resources: dict[str, int] | None = None,
    ) -> Character:
        check_side(side)
        return cls(
            campaign_id=campaign_id,
            name=clean_title(name, "name"),
            side=side,
            owner_member_id=owner_member_id,
            sheet=sheet,
            resources=resources or {},
        )

    def change_sheet(self, sheet: dict[str, Any]) -> None:
        """Replace the sheet (already validated by the campaign's ruleset)."""
        self._sheet_changed(sheet)

    @event("SheetChanged")
    def _sheet_changed(self, sheet: dict[str, Any]) -> None:
        self.sheet = sheet

    def spend(self, costs: dict[str, int], reason: str) -> None:
        """Spend resources (Resolve, Will, Will Power…); never below zero, all or nothing."""
        for name, amount in costs.items():
            have = self.resources.get(name, 0)
            if amount < 0:
                raise InvalidInput(f"cannot spend a negative amount of {name}", field=name)
            if amount > have:
                raise not_enough(self.name, "resource", name, have, amount)
        for name, amount in costs.items():
            if amount:
                self._spent(name, amount, reason)

    def refresh(self, levels: dict[str, int], boundary: str, boundary_id: UUID) -> None:
        """Restore resources at a boundary of play (a new game Issue restores Resolve, WCBH-17)."""
        self._refreshed(levels, boundary, boundary_id)

    @event("ResourcesRefreshed")
    def _refreshed(self, levels: dict[str, int], boundary: str, boundary_id: UUID) -> None:
        self.resources.update(levels)

    def adjust(self, resource: str, change: int, reason: str) -> None:
        """A GM's award or correction (Resolve awards, WCBH-18); never below zero."""
        check_change(self.resources, resource, change, owner=self.name, kind="resource")
        self._adjusted(resource, change, reason)

    @event("ResourceAdjusted")
    def _adjusted(self, resource: str, change: int, reason: str) -> None:
        self.resources[resource] += change

    def take_hit(
        self,
        health: int,
        defeated: bool,
        roll_id: UUID,
        scene_id: UUID | None = None,
        page: int | None = None,
    ) -> None:
        """WCBH-31/33: an attack left the character at `health`; at 0 it is defeated (in `scene_id`
        on `page`: back in the fight is possible on the next page, WCBH-39)."""
        self._hit(health, defeated, roll_id, scene_id, page)

    @event("Hit")
    def _hit(
        self,
        health: int,
        defeated: bool,
        roll_id: UUID,
        scene_id: UUID | None = None,
        page: int | None = None,
    ) -> None:
        self.resources["health"] = health
        if defeated:
            self.status = "defeated"
            self.defeated_at = {"scene_id": scene_id, "page": page}

    def apply_effect(self, name: str, pages: int, whole_scene: bool, scene_id: UUID) -> None:
        """WCBH-35/36: the effect's pages (added up); defeated by it for the rest of the scene."""
        self._effect_applied(name, pages, whole_scene, scene_id)

    @event("EffectApplied")
    def _effect_applied(self, name: str, pages: int, whole_scene: bool, scene_id: UUID) -> None:
        self.effects[name] = {"pages": pages, "whole_scene": whole_scene}
        if whole_scene:
            self.status = "defeated"

    def tick_effects(self, scene_id: UUID, page: int) -> None:
        """WCBH-35: a new page takes one page off each page-counted effect; at 0 it ends."""
        left = {
            name: effect if effect["whole_scene"] else {**effect, "pages": effect["pages"] - 1}
            for name, effect in self.effects.items()
        }
        left = {n: e for n, e in left.items() if e["whole_scene"] or e["pages"] > 0}
        if left != self.effects:
            self._effects_ticked(left, scene_id, page)

    @event("EffectsTicked")
    def _effects_ticked(self, effects: dict[str, Any], scene_id: UUID, page: int) -> None:
        self.effects = effects

    def end_scene_effects(self, scene_id: UUID) -> None:
        """WCBH-36: effects end with their scene; a character defeated only by an effect is back."""
        if self.effects:
            self._effects_ended(scene_id)

    @event("EffectsEnded")
    def _effects_ended(self, scene_id: UUID) -> None:
        self.effects = {}
        if self.status == "defeated" and self.resources.get("health", 1) > 0:
            self.status = "active"

    @event("ResourceSpent")
    def _spent(self, resource: str, amount: int, reason: str) -> None:
        self.resources[resource] = self.resources.get(resource, 0) - amount


def check_side(side: str) -> None:
    if side not in SIDES:
        raise InvalidInput(f"side must be one of {', '.join(SIDES)}, not {side!r}", field="side")
