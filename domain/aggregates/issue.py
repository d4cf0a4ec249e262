"""Issue: a game Issue, one session of play inside a story; scenes open only while it runs."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import check_change, clean_title
from domain.errors import Conflict


class Issue(Aggregate):
    @event("Started")
    def __init__(
        self,
        campaign_id: UUID,
        story_id: UUID,
        title: str,
        number: int,
        pools: dict[str, int] | None = None,
    ) -> None:
        self.campaign_id = campaign_id
        self.story_id = story_id
        self.title = title
        self.number = number
        # The GM's pools for this game Issue, e.g. WCBH Adversity (WCBH-21).
        self.pools: dict[str, int] = dict(pools or {})
        self.ended = False
        self.open_scene_ids: list[UUID] = []
        self.scene_ids: list[UUID] = []

    @classmethod
    def start(
        cls,
        campaign_id: UUID,
        story_id: UUID,
        title: str,
        number: int,
        pools: dict[str, int] | None = None,
    ) -> Issue:
        return cls(
            campaign_id=campaign_id,
            story_id=story_id,
            title=clean_title(title, "title"),
            number=number,
            pools=pools or {},
        )

    def change_pool(self, pool: str, change: int, reason: str) -> None:
        """The GM gains or spends from a pool of this game Issue; never below zero (WCBH-21)."""
        check_change(self.pools, pool, change, owner="this game Issue", kind="pool", rule="WCBH-21")
        self._pool_changed(pool, change, reason)

    @event("PoolChanged")
    def _pool_changed(self, pool: str, change: int, reason: str) -> None:
        self.pools[pool] += change

    @property
    def status(self) -> str:
        return "ended" if self.ended else "running"

    def add_scene(self, scene_id: UUID) -> None:
        if self.ended:
            raise Conflict(
                "a scene opens only in a running game Issue; this one has ended", code="issue_ended"
            )
        self._scene_added(scene_id)

    @event("SceneAdded")
    def _scene_added(self, scene_id: UUID) -> None:
        self.scene_ids.append(scene_id)
        self.open_scene_ids.append(scene_id)

    def scene_closed(self, scene_id: UUID) -> None:
        if scene_id in self.open_scene_ids:
            self._scene_removed(scene_id)

    @event("SceneFinished")
    def _scene_removed(self, scene_id: UUID) -> None:
        self.open_scene_ids.remove(scene_id)

    def end(self) -> None:
        """End the game Issue; the application closes its open scenes in the same save."""
        if self.ended:
            raise Conflict("the game Issue has already ended", code="issue_ended")
        self._ended()

    @event("Ended")
    def _ended(self) -> None:
        self.ended = True
        self.open_scene_ids = []
