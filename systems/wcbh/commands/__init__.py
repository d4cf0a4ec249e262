"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from domain.aggregates import Campaign, Character, Roll, Scene
from domain.commands import Actor
from domain.components import GameSystem, PageBoundary, SceneBoundary
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.base import Check
from systems.wcbh.commands.fight import Fight

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

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight,)

    @cached_property
    def rules(self) -> Ruleset:
        """Looked up once (the registry does not change while the application runs): a command
        asks for it several times. (GameSystem could hold it so for every system.)"""
        return get_ruleset(self.ruleset_id)

    # ---- boundaries: the fight's call comes last ------------------------------------------------

    def page_advanced(self, at: PageBoundary) -> None:
        self.fight.page_advanced(at)

    def scene_closed(self, at: SceneBoundary) -> None:
        self.fight.scene_closed(at)

    # ---- roll hooks: the fight's call comes last ------------------------------------------------

    def with_page_dice(
        self,
        scene: Scene,
        campaign: Campaign,
        check: Check,
        request: Mapping[str, Any],
        character: Character | None,
        *,
        action: bool = True,
    ) -> Mapping[str, Any]:
        return self.fight.with_page_dice(scene, check, request, character, action=action)

    def followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        return self.fight.followed_up(actor, scene, original, follow)


SYSTEM = Wcbh
