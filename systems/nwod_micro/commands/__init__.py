"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.components import GameSystem, PageBoundary
from systems.nwod_micro.commands.fight import Fight

if TYPE_CHECKING:
    from domain.application import Chronicle


class Nwod(GameSystem):
    """nWoD micro (Achernar): its one area of play is the firefight (`fight`, NW-1..18)."""

    ruleset_id = "nwod-micro"

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.fight = Fight(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight,)

    def page_advanced(self, at: PageBoundary) -> None:
        self.fight.page_advanced(at)


SYSTEM = Nwod
