"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from domain.components import OneAreaSystem
from systems.nwod_micro.commands.fight import Fight


class Nwod(OneAreaSystem):
    """nWoD micro (Achernar): its one area of play is the firefight (`fight`, NW-1..18)."""

    ruleset_id = "nwod-micro"
    area = Fight
    fight: Fight


SYSTEM = Nwod
