"""The dependency Nimble's routes reach its component through (`app.system(Nimble)`, typed)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from api.deps import AppDep
from systems.nimble.commands import Nimble


def nimble(app: AppDep) -> Nimble:
    return app.system(Nimble)


NimbleDep = Annotated[Nimble, Depends(nimble)]
