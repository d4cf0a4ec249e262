"""Missions and their counters: alarm, rival progress, custom counters, rests (CD-21..25)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class MissionCommands(Hooks):
    """Mixed into the Chronicle application."""
