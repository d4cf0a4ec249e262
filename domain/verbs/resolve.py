"""Resolve spends, last gasp, Adversity pools and the Decisive Moment's aftermath (WCBH-16..21)."""

from __future__ import annotations

from domain.verbs.base import Hooks


class ResolveCommands(Hooks):
    """Mixed into the Chronicle application."""
