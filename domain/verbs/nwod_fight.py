"""nWoD micro firefights - initiative, two actions, maneuvers, weapons, armour, cover, ammunition, Will Power (NW-1..18)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class NwodFightCommands(Hooks):
    """Mixed into the Chronicle application."""
