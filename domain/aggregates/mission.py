"""Mission: one attempt at a goal in a campaign, ended once with an outcome (CD-21)."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict, InvalidInput

# CD-21: a mission has one attempt; it ends completed, failed, aborted (to resupply) or lost to rivals.
MISSION_OUTCOMES = ("completed", "failed", "aborted", "lost_to_rivals")


class Mission(Aggregate):
    @event("Created")
    def __init__(
        self, campaign_id: UUID, title: str, scene_id: UUID | None, story_id: UUID | None
    ) -> None:
        self.campaign_id = campaign_id
        self.title = title
        self.scene_id = scene_id
        self.story_id = story_id
        self.outcome: str | None = None

    @classmethod
    def create(
        cls, campaign_id: UUID, title: str, scene_id: UUID | None, story_id: UUID | None
    ) -> Mission:
        return cls(
            campaign_id=campaign_id,
            title=clean_title(title, "title"),
            scene_id=scene_id,
            story_id=story_id,
        )

    @property
    def status(self) -> str:
        return "active" if self.outcome is None else "ended"

    def end(self, outcome: str) -> None:
        if outcome not in MISSION_OUTCOMES:
            raise InvalidInput(
                f"outcome must be one of {', '.join(MISSION_OUTCOMES)}, not {outcome!r}",
                field="outcome",
            )
        if self.outcome is not None:
            raise Conflict(
                f"the mission has already ended ({self.outcome}); a mission has one attempt",
                code="mission_ended",
                rule="CD-21",
            )
        self._ended(outcome)

    @event("Ended")
    def _ended(self, outcome: str) -> None:
        self.outcome = outcome
