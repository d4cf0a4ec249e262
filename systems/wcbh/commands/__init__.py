"""The commands of this game system: SYSTEM is the component the application holds for it."""

from __future__ import annotations

from domain.components import GameSystem


class Wcbh(GameSystem):
    """Transitional: the commands are still mixins of the application (issue #14 moves them here)."""

    ruleset_id = "wcbh"


SYSTEM = Wcbh
