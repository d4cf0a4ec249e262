"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from domain.components import OneAreaSystem
from systems.classd.commands.fight import Fight


class ClassD(OneAreaSystem):
    """Class D Heroes: its one area of play is the fight (`fight`, CD-8..CD-20); missions and
    their rests are shared (domain/missions.py)."""

    ruleset_id = "classd"
    area = Fight
    fight: Fight


SYSTEM = ClassD
