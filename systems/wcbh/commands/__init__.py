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
from domain.rulesets.base import Check, unwrap
from systems.wcbh.commands.fight import Fight
from systems.wcbh.commands.ground import Ground
from systems.wcbh.commands.resolve import Resolve
from systems.wcbh.commands.scene_play import ScenePlay
from systems.wcbh.rules.effects import defeating_effects
from systems.wcbh.rules.resolve import check_power_use, check_uses_left
from systems.wcbh.rules.sheet import limited_power

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
        self.ground = Ground(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight, self.play, self.resolve, self.ground)

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
        """WCBH-25, 41: the dice the fight's page adds to a character's roll; WCBH-2: the use of a
        limited Power it spends."""
        request = self.fight.with_page_dice(ask, check)
        return self._with_power_use(ask, check, request)

    def _with_power_use(
        self, ask: CheckRoll, check: Check, request: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """WCBH-2: a character's roll of a Power with uses per game Issue spends one (the check's
        cost), refused before any dice when none is left. A check whose request names its `trait`
        gets `power_use` from the sheet (a client may omit it or send the same value); the fight's
        commands fill it for attacks, whose requests carry ranks, not names."""
        if (
            ask.character is None
            or not isinstance(request, Mapping)
            or "power_use" not in check.Request.model_fields
        ):
            return request
        used = request.get("power_use")
        if isinstance(request.get("trait"), str):
            used = limited_power(unwrap(self._sheet(ask)), request["trait"])
            check_power_use(request.get("power_use", used), used)
        left = int(ask.character.resources.get(used, 0)) if isinstance(used, str) else 0
        check_uses_left(ask.character.name, used if isinstance(used, str) else None, left)
        return {**request, "power_use": used}

    def _sheet(self, ask: CheckRoll) -> BaseModel:
        if ask.sheet is not None:
            return ask.sheet
        assert ask.character is not None
        settings = self.rules.parse_settings(ask.campaign.settings)
        return self.rules.parse_sheet(ask.character.sheet, settings, side=ask.character.side)

    def followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """WCBH-20b, 20c: Resolve on an attack decides its hit again."""
        return self.fight.followed_up(actor, scene, original, follow)


SYSTEM = Wcbh
