"""HTTP verb of systems/nimble/commands/grapple.py: a grapple inside the running Nimble encounter
(NB-24 with NB-7, NB-10, NB-15, NB-21). It answers the encounter view of systems/nimble/routes/encounter.py.
See systems/nimble/docs/encounters.md."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import CommandsDep
from api.errors import ERROR_RESPONSES
from api.schemas import Strict
from systems.nimble.routes.deps import NimbleDep
from systems.nimble.routes.encounter import BASE, NimbleEncounterPublic, Seed, Steps, _present

router = APIRouter(tags=["nimble"], responses=ERROR_RESPONSES)


class NimbleEncounterGrappleCreate(Strict):
    grappler_id: UUID = Field(description="Who grapples: on its own turn (NB-15), 1 action (NB-7).")
    target_id: UUID = Field(description="The creature grabbed (in the encounter).")
    size: str = Field(
        min_length=1,
        max_length=20,
        description="smaller, same or larger: the target's size against the grappler's; larger "
        "makes the grappler Mounted (NB-24).",
    )
    skill: str = Field(
        default="Might", min_length=1, max_length=20, description="Might or Finesse (NB-24)."
    )
    advantage: int = Steps
    disadvantage: int = Steps
    modifier: int | None = Field(
        default=None, ge=-20, le=40, description="Monsters only: the check's modifier (else +0)."
    )
    client_seed: str | None = Seed


@router.post(
    f"{BASE}/grapples",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_encounter_grapple",
)
def grapple(
    scene_id: UUID, body: NimbleEncounterGrappleCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: grapple in the encounter: 1 action and an attack (hasty attacks, NB-10), a Might or
    Finesse check DC 10; a Dying grappler first makes its STR save (NB-21)."""
    return commands.run(
        nimble.grapple.nimble_encounter_grapple,
        scene_id,
        body.grappler_id,
        body.target_id,
        body.size,
        skill=body.skill,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        modifier=body.modifier,
        client_seed=body.client_seed,
        present=_present(nimble),
        status_code=201,
    )
