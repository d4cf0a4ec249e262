"""What each area of Nimble's commands builds on: its place in the system component, and the
typed answers its commands give their presenters."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.application import Chronicle
    from systems.nimble.commands import Nimble


class Area:
    """One area of Nimble's commands (the encounter, its grapple, health), held by the system:
    it reaches the shared commands as `self.app` and the other areas through `self.system`."""

    def __init__(self, system: Nimble) -> None:
        self.system = system

    @property
    def app(self) -> Chronicle:
        return self.system.app
