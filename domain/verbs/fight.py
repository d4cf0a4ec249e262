"""The page's actions and the attack maneuvers (WCBH-25, WCBH-40..47)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class FightCommands(Hooks):
    """Mixed into the Chronicle application."""
