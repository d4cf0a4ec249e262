"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.components import GameSystem, PageBoundary, SceneBoundary
from systems.nimble.commands.encounter import Encounter
from systems.nimble.commands.grapple import EncounterGrapple
from systems.nimble.commands.health import HealthArea

if TYPE_CHECKING:
    from domain.application import Chronicle


class Nimble(GameSystem):
    """Nimble (2nd edition): its encounters (NB-1..19), a grapple inside one (NB-24) and its
    health, conditions and Concentration (NB-20..26), each an area of commands."""

    ruleset_id = "nimble"

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.encounter = Encounter(self)
        self.grapple = EncounterGrapple(self)
        self.health = HealthArea(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.encounter, self.grapple, self.health)

    def page_advanced(self, at: PageBoundary) -> None:
        self.encounter.page_advanced(at)

    def scene_closed(self, at: SceneBoundary) -> None:
        # The health area first: the order the areas had as mixins of the application.
        self.health.scene_closed(at)
        self.encounter.scene_closed(at)


SYSTEM = Nimble
