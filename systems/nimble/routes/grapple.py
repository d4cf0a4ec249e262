"""HTTP verb of systems/nimble/commands/grapple.py: a grapple inside the running Nimble encounter
(NB-24 with NB-7, NB-10, NB-15, NB-21). It answers the encounter view of systems/nimble/routes/encounter.py.
See systems/nimble/docs/encounters.md."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import ASKS_GM, CommandsDep
from api.errors import ERROR_RESPONSES
from systems.nimble.requests import NimbleEncounterGrappleCreate
from systems.nimble.routes.deps import NimbleDep
from systems.nimble.routes.encounter import BASE, NimbleEncounterPublic, _present

router = APIRouter(tags=["nimble"], responses=ERROR_RESPONSES)


@router.post(
    f"{BASE}/grapples",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_encounter_grapple",
    responses=ASKS_GM,
)
def grapple(
    scene_id: UUID, body: NimbleEncounterGrappleCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: grapple in the encounter: 1 action and an attack (hasty attacks, NB-10), a Might or
    Finesse check DC 10; a Dying grappler first makes its STR save (NB-21)."""
    return commands.run(
        nimble.grapple.nimble_encounter_grapple,
        scene_id,
        body,
        present=_present(nimble),
        status_code=201,
    )
