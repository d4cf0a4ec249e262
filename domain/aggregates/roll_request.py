"""RollRequest: a player's roll with situational modifiers, waiting for the GM (player_modifiers:
gm_approval); and the index of a scene's roll requests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import Conflict


@dataclass
class RollRequest(Aggregate, created_event_name="Requested"):
    """No dice are rolled until the GM approves; the approval rolls them as the player's roll.

    ``verb`` is the command the player sent and ``arguments`` its arguments (JSON), so that the
    approval runs exactly that command on the state of the moment, with the modifiers the GM let
    through. ``path`` is where the modifiers sit in ``arguments``, dotted ("body.request" for a
    check's request, "body" for a verb's own request model; requests recorded before the commands
    took their models whole say "request", or "" for a verb's own arguments)."""

    campaign_id: UUID
    scene_id: UUID
    character_id: UUID | None
    requested_by: UUID
    verb: str
    arguments: dict[str, Any]
    path: str
    modifiers: dict[str, Any]
    modifier_fields: list[str]
    # the GM's decision, none yet
    status: str = field(default="pending", init=False)
    decided_by: UUID | None = field(default=None, init=False)
    approved_modifiers: dict[str, Any] | None = field(default=None, init=False)
    result_id: UUID | None = field(default=None, init=False)
    note: str | None = field(default=None, init=False)

    def check_pending(self) -> None:
        if self.status != "pending":
            raise Conflict(
                f"this roll request is already {self.status}", code="roll_request_decided"
            )

    def approve(self, by: UUID, modifiers: dict[str, Any], result_id: UUID | None) -> None:
        """The GM let ``modifiers`` through (the player's, or changed); ``result_id`` is what the
        approved command recorded first (its roll)."""
        self.check_pending()
        self._approved(by, modifiers, result_id)

    @event("Approved")
    def _approved(self, by: UUID, modifiers: dict[str, Any], result_id: UUID | None) -> None:
        self.status = "approved"
        self.decided_by = by
        self.approved_modifiers = modifiers
        self.result_id = result_id

    def decline(self, by: UUID, note: str | None) -> None:
        self.check_pending()
        self._declined(by, note)

    @event("Declined")
    def _declined(self, by: UUID, note: str | None) -> None:
        self.status = "declined"
        self.decided_by = by
        self.note = note


class SceneRollRequests(Aggregate):
    """The roll requests of one scene, in the order they were made (for the GM's list)."""

    @staticmethod
    def create_id(scene_id: UUID) -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, f"chronicle:roll-requests:{scene_id}")

    @event("Started")
    def __init__(self, campaign_id: UUID, scene_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.scene_id = scene_id
        self.request_ids: list[UUID] = []

    @event("Listed")
    def add(self, request_id: UUID) -> None:
        self.request_ids.append(request_id)
