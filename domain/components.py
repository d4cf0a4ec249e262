"""What every area of play builds on: the boundary hooks and the aggregates a command loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from pydantic import BaseModel

from domain.aggregates import Character, Issue, Scene, Story
from domain.commands import Actor
from domain.rolls import RollCommands
from domain.service import Service

A = TypeVar("A", bound=Aggregate)


@dataclass
class Sheeted:
    """A character with its parsed sheet: what a ruleset's fight verbs work with."""

    character: Character
    sheet: BaseModel

    @property
    def id(self) -> UUID:
        return self.character.id

    @property
    def key(self) -> str:
        return str(self.character.id)

    @property
    def name(self) -> str:
        return self.character.name

    def level(self, resource: str) -> int:
        return int(self.character.resources.get(resource, 0))


class Loaded:
    """The aggregates one command has loaded, by id, so that each is loaded and saved once."""

    def __init__(self, aggregates: dict[UUID, Aggregate] | None = None) -> None:
        self.aggregates: dict[UUID, Aggregate] = dict(aggregates or {})

    def get(self, app: Service, actor: Actor, cls: type[A], aggregate_id: UUID) -> A:
        found = self.aggregates.get(aggregate_id)
        if found is None:
            found = app.get(actor, cls, aggregate_id)
            self.aggregates[aggregate_id] = found
        assert isinstance(found, cls)
        return found

    def character(self, app: Service, actor: Actor, character_id: UUID) -> Character:
        return self.get(app, actor, Character, character_id)

    def touched(self, *already: Aggregate) -> list[Aggregate]:
        """The loaded aggregates with new events, except those the command saves anyway."""
        skip = {a.id for a in already}
        return [a for a in self.aggregates.values() if a.pending_events and a.id not in skip]


class Hooks(RollCommands):
    """Boundary hooks: the lifecycle verbs call them; each area's mixin overrides the ones it needs,
    calls ``super()`` and changes aggregates through ``loaded`` (they are saved with the command)."""

    def _issue_started(self, actor: Actor, issue: Issue, story: Story, loaded: Loaded) -> None:
        """A game Issue started (WCBH-17, WCBH-21)."""

    def _issue_ended(self, actor: Actor, issue: Issue, story: Story, loaded: Loaded) -> None:
        """A game Issue ended (its open scenes were closed first, each with `_scene_closed`)."""

    def _scene_opened(self, actor: Actor, scene: Scene, issue: Issue, loaded: Loaded) -> None:
        """A scene opened in a running game Issue."""

    def _scene_closed(self, actor: Actor, scene: Scene, issue: Issue, loaded: Loaded) -> None:
        """A scene closed (its seed is revealed and its effects have ended, WCBH-36)."""

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """A scene moved to its next page (`scene.page` is the new page); effects have ticked."""


def unused(*_: Any) -> None:
    """Nothing: keeps linters quiet about hook arguments an area does not use."""
