"""Nimble encounters - initiative, turns, the three actions, attacks, reactions (NB-1..19)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class NimbleEncounterCommands(Hooks):
    """Mixed into the Chronicle application."""
