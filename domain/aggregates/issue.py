"""Issue: a game Issue, one session of play inside a story; scenes open only while it runs."""

from __future__ import annotations

from typing import Any
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

    # ---- Resolve area (WCBH-21; systems/wcbh/commands/resolve.py) --------------------------------------

    @property
    def villainous_deed(self) -> dict[str, Any] | None:
        """WCBH-21: the main villain's villainous deed of this game Issue, once done."""
        return getattr(self, "_villainous_deed", None)

    def do_villainous_deed(self, villain_id: UUID, description: str, scene_id: UUID | None) -> None:
        """WCBH-21: once per game Issue the main villain's unstoppable deed (its 1 Adversity is
        spent in the same save, from this game Issue's pool or from `scene_id`'s own)."""
        if self.ended:
            raise Conflict("the game Issue has ended", code="issue_ended")
        done = self.villainous_deed
        if done is not None:
            raise Conflict(
                "the main villain's villainous deed is once per game Issue; it is done",
                code="villainous_deed_done",
                rule="WCBH-21",
                details={"villain_id": str(done["villain_id"])},
            )
        self._villainous_deed_done(villain_id, description, scene_id)

    @event("VillainousDeedDone")
    def _villainous_deed_done(
        self, villain_id: UUID, description: str, scene_id: UUID | None
    ) -> None:
        self._villainous_deed = {
            "villain_id": villain_id,
            "description": description,
            "scene_id": scene_id,
        }

    # ---- scene play (WCBH-38; systems/wcbh/commands/scene_play.py) ---------------------------------------

    @property
    def extended_effects(self) -> list[dict[str, str]]:
        """WCBH-38: effects extended with Resolve: {"character_id", "effect", "scene_id"} (the
        scene they were last extended in; they last to the end of the scene opened after it)."""
        return list(getattr(self, "_extended_effects", []))

    def scene_after(self, scene_id: UUID) -> UUID | None:
        """The scene opened next after `scene_id` in this game Issue, if any yet."""
        if scene_id not in self.scene_ids:
            return None
        later = self.scene_ids[self.scene_ids.index(scene_id) + 1 :]
        return later[0] if later else None

    def book_extension(self, character_id: UUID, effect: str, scene_id: UUID) -> None:
        """WCBH-38: an effect extended in `scene_id` lasts to the end of the next scene."""
        if self.ended:
            raise Conflict("the game Issue has ended", code="issue_ended")
        self._extension_booked(character_id, effect, scene_id)

    @event("EffectExtensionBooked")
    def _extension_booked(self, character_id: UUID, effect: str, scene_id: UUID) -> None:
        entry = {"character_id": str(character_id), "effect": effect, "scene_id": str(scene_id)}
        self._extended_effects = [
            e
            for e in self.extended_effects
            if (e["character_id"], e["effect"]) != (entry["character_id"], effect)
        ] + [entry]
