"""Story: a complete adventure made of game Issues, of which at most one runs at a time (WCBH-1)."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict


class Story(Aggregate):
    @event("Started")
    def __init__(self, campaign_id: UUID, title: str) -> None:
        self.campaign_id = campaign_id
        self.title = title
        self.completed = False
        self.running_issue_id: UUID | None = None
        self.issue_ids: list[UUID] = []
        self.uses: dict[str, list[UUID]] = {}  # once-per-story uses: key → characters

    @classmethod
    def start(cls, campaign_id: UUID, title: str) -> Story:
        return cls(campaign_id=campaign_id, title=clean_title(title, "title"))

    @property
    def status(self) -> str:
        return "completed" if self.completed else "running"

    def begin_issue(self, issue_id: UUID) -> None:
        """Note that a game Issue started; only one may run at a time."""
        self._check_running()
        self._check_no_issue_running(" in this story; end it first")
        self._issue_began(issue_id)

    @event("GameIssueBegan")
    def _issue_began(self, issue_id: UUID) -> None:
        self.running_issue_id = issue_id
        self.issue_ids.append(issue_id)

    def finish_issue(self, issue_id: UUID) -> None:
        if self.running_issue_id == issue_id:
            self._issue_finished(issue_id)

    @event("GameIssueFinished")
    def _issue_finished(self, issue_id: UUID) -> None:
        self.running_issue_id = None

    def use_once(self, key: str, character_id: UUID, rule: str) -> None:
        """A use each character may make once per story (a Decisive Moment, WCBH-15)."""
        if character_id in self.uses.get(key, []):
            raise Conflict(
                f"this character has already used its {key.replace('_', ' ')} in this story",
                code="once_per_story",
                rule=rule,
                details={"use": key},
            )
        self._used_once(key, character_id)

    @event("OnceUsed")
    def _used_once(self, key: str, character_id: UUID) -> None:
        self.uses.setdefault(key, []).append(character_id)

    def complete(self) -> None:
        self._check_running()
        self._check_no_issue_running("; end it before completing")
        self._completed()

    @event("Completed")
    def _completed(self) -> None:
        self.completed = True

    def _check_no_issue_running(self, then: str) -> None:
        """One game Issue at a time: `then` ends the refusal (what to do about it)."""
        if self.running_issue_id is not None:
            raise Conflict(
                f"game Issue {self.running_issue_id} is still running{then}",
                code="issue_running",
                details={"running_issue_id": str(self.running_issue_id)},
            )

    def _check_running(self) -> None:
        if self.completed:
            raise Conflict("the story is completed", code="story_completed")
