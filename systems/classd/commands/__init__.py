"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.components import GameSystem, PageBoundary
from systems.classd.commands.fight import Fight

if TYPE_CHECKING:
    from domain.application import Chronicle


class ClassD(GameSystem):
    """Class D Heroes: its one area of play is the fight (`fight`, CD-8..CD-20); missions and
    their rests are shared (domain/missions.py)."""

    ruleset_id = "classd"

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.fight = Fight(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight,)

    def page_advanced(self, at: PageBoundary) -> None:
        self.fight.round_started(at)


SYSTEM = ClassD
