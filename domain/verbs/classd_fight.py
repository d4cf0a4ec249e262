"""Class D Heroes combat: rounds, the heroes' and villains' turns, attacks, reactions (CD-8..CD-20)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class ClassDFightCommands(Hooks):
    """Mixed into the Chronicle application."""
