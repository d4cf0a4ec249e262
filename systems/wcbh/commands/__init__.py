"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

from pydantic import BaseModel

from domain.aggregates import Character, Roll, Scene
from domain.commands import Actor
from domain.components import GameSystem, IssueBoundary, PageBoundary, SceneBoundary
from domain.rolls import CheckRoll
from domain.rulesets.base import Check
from systems.wcbh.commands.fight import Fight
from systems.wcbh.commands.resolve import Resolve
from systems.wcbh.commands.scene_play import ScenePlay
from systems.wcbh.rules.effects import defeating_effects

if TYPE_CHECKING:
    from domain.application import Chronicle


class Wcbh(GameSystem):
    """We Can Be Heroes: its areas of play, each a part holding its commands (`fight`, ...).

    Each boundary and roll hook calls the areas in one fixed order: Resolve first, then scene
    play, then the fight (the order the mixins' hooks ran in before issue #14)."""

    ruleset_id = "wcbh"

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.fight = Fight(self)
        self.play = ScenePlay(self)
        self.resolve = Resolve(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight, self.play, self.resolve)

    # ---- boundaries: Resolve first, then scene play, then the fight (the former mixins' order) --

    def page_advanced(self, at: PageBoundary) -> None:
        self.resolve.page_advanced(at)  # WCBH-19: a last gasp's page is over
        self.play.page_advanced(at)  # WCBH-39: effects declared dropped are gone
        self.fight.page_advanced(at)  # WCBH-40, 41: conditions to the end of a page end

    def scene_closed(self, at: SceneBoundary) -> None:
        self.resolve.scene_closed(at)  # WCBH-19: the unconscious come to
        self.play.scene_closed(at)  # WCBH-38: extended effects carry over or end
        self.fight.scene_closed(at)  # WCBH-40: a fight's conditions end with its scene

    def issue_ended(self, at: IssueBoundary) -> None:
        self.play.issue_ended(at)  # WCBH-38: every extended effect ends

    def resource_adjusted(self, character: Character, resource: str, reason: str) -> None:
        """WCBH-36 after the GM's harm: an effect whose pages now reach the Health left defeats
        the character for the rest of the scene (`Character.DefeatedByEffects`). The status itself
        follows Health through `WcbhRuleset.status_after` (WCBH-31)."""
        if resource != "health" or character.status != "active":
            return
        names = defeating_effects(character.effects, int(character.resources.get("health", 0)))
        if names:
            character.be_defeated_by_effects(names, None, None, "WCBH-36")

    # ---- roll hooks ----------------------------------------------------------------------------

    def rolled(
        self, actor: Actor, scene: Scene, request: BaseModel, character: Character, roll_id: UUID
    ) -> list[Any]:
        """WCBH-16: a Decisive Moment roll may owe an Ability rank."""
        return [character] if self.resolve.rolled(scene, request, character, roll_id) else []

    def with_page_dice(self, ask: CheckRoll, check: Check) -> Mapping[str, Any]:
        """WCBH-25, 41: the dice the fight's page adds to a character's roll."""
        return self.fight.with_page_dice(ask, check)

    def followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """WCBH-20b, 20c: Resolve on an attack decides its hit again."""
        return self.fight.followed_up(actor, scene, original, follow)


SYSTEM = Wcbh
