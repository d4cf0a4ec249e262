"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from pydantic import BaseModel

from domain.aggregates import Character, Scene
from domain.commands import Actor
from domain.components import GameSystem, IssueBoundary, PageBoundary, SceneBoundary
from systems.wcbh.commands.resolve import Resolve
from systems.wcbh.commands.scene_play import ScenePlay

if TYPE_CHECKING:
    from domain.application import Chronicle


class Wcbh(GameSystem):
    """We Can Be Heroes: its commands in areas of play (`play`, `resolve`), each told about the
    boundaries it cares for, in a fixed order."""

    ruleset_id = "wcbh"

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.play = ScenePlay(self)
        self.resolve = Resolve(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.play, self.resolve)

    # ---- boundaries: the Resolve area first, then scene play (the order of the former mixins) --

    def page_advanced(self, at: PageBoundary) -> None:
        self.resolve.page_advanced(at)  # WCBH-19: a last gasp's page is over
        self.play.page_advanced(at)  # WCBH-39: effects declared dropped are gone

    def scene_closed(self, at: SceneBoundary) -> None:
        self.resolve.scene_closed(at)  # WCBH-19: the unconscious come to
        self.play.scene_closed(at)  # WCBH-38: extended effects carry over or end

    def issue_ended(self, at: IssueBoundary) -> None:
        self.play.issue_ended(at)  # WCBH-38: every extended effect ends

    # ---- roll hooks ----------------------------------------------------------------------------

    def rolled(
        self, actor: Actor, scene: Scene, request: BaseModel, character: Character, roll_id: UUID
    ) -> list[Any]:
        """WCBH-16: a Decisive Moment roll may owe an Ability rank."""
        return [character] if self.resolve.rolled(scene, request, character, roll_id) else []


SYSTEM = Wcbh
