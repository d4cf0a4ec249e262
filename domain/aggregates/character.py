"""Character: a hero, villain or anyone else with a sheet that the campaign's ruleset validates."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
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
    ) -> None:
        self.campaign_id = campaign_id
        self.name = name
        self.side = side
        self.owner_member_id = owner_member_id
        self.sheet = sheet

    @classmethod
    def create(
        cls,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: dict[str, Any],
    ) -> Character:
        check_side(side)
        return cls(
            campaign_id=campaign_id,
            name=clean_title(name, "name"),
            side=side,
            owner_member_id=owner_member_id,
            sheet=sheet,
        )

    def change_sheet(self, sheet: dict[str, Any]) -> None:
        """Replace the sheet (already validated by the campaign's ruleset)."""
        self._sheet_changed(sheet)

    @event("SheetChanged")
    def _sheet_changed(self, sheet: dict[str, Any]) -> None:
        self.sheet = sheet


def check_side(side: str) -> None:
    if side not in SIDES:
        raise InvalidInput(f"side must be one of {', '.join(SIDES)}, not {side!r}", field="side")
