"""Scene: one location, event or task inside a running game Issue, played page by page (WCBH-1)."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict


class Scene(Aggregate):
    @event("Opened")
    def __init__(self, campaign_id: UUID, story_id: UUID, issue_id: UUID, title: str) -> None:
        self.campaign_id = campaign_id
        self.story_id = story_id
        self.issue_id = issue_id
        self.title = title
        self.page = 1
        self.closed = False

    @classmethod
    def open(cls, campaign_id: UUID, story_id: UUID, issue_id: UUID, title: str) -> Scene:
        return cls(
            campaign_id=campaign_id, story_id=story_id, issue_id=issue_id, title=clean_title(title, "title")
        )

    @property
    def status(self) -> str:
        return "closed" if self.closed else "open"

    def advance_page(self) -> None:
        """Start the next page (a round, in systems that say round)."""
        self._check_open()
        self._page_advanced(self.page + 1)

    @event("PageAdvanced")
    def _page_advanced(self, page: int) -> None:
        self.page = page

    def close(self) -> None:
        self._check_open()
        self._closed()

    @event("Closed")
    def _closed(self) -> None:
        self.closed = True

    def _check_open(self) -> None:
        if self.closed:
            raise Conflict("the scene is closed", code="scene_closed")
