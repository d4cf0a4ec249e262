"""What each area of Nimble's commands builds on: its place in the system component."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.components import Part

if TYPE_CHECKING:
    from systems.nimble.commands import Nimble


class Area(Part):
    """One area of Nimble's commands (the encounter, its grapple, health), held by the system."""

    system: Nimble
