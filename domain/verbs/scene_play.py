"""Help, group checks, contests, chases, recovery and what happens to effects (WCBH-10..14, 27, 34, 37..39)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class ScenePlayCommands(Hooks):
    """Mixed into the Chronicle application."""
