"""How Nimble's routes reach its component (`app.system(Nimble)`, typed) and its areas of commands."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from api.deps import AppDep
from domain.application import Chronicle
from systems.nimble.commands import Nimble
from systems.nimble.commands.encounter import Encounter
from systems.nimble.commands.grapple import EncounterGrapple
from systems.nimble.commands.health import HealthArea


def nimble(app: AppDep) -> Nimble:
    return app.system(Nimble)


NimbleDep = Annotated[Nimble, Depends(nimble)]


def encounter(app: Chronicle) -> Encounter:
    return app.system(Nimble).encounter


def encounter_grapple(app: Chronicle) -> EncounterGrapple:
    return app.system(Nimble).grapple


def health(app: Chronicle) -> HealthArea:
    return app.system(Nimble).health
