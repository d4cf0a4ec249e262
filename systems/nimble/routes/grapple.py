"""HTTP verb of systems/nimble/commands/grapple.py: a grapple inside the running Nimble encounter
(NB-24 with NB-7, NB-10, NB-15, NB-21). It answers the encounter view of systems/nimble/routes/encounter.py.
See systems/nimble/docs/encounters.md."""

from __future__ import annotations

from fastapi import APIRouter

from api.command_routes import CommandRoutes, Op
from api.errors import ERROR_RESPONSES
from api.routing import OneHopRoute
from systems.nimble.commands.grapple import EncounterGrapple
from systems.nimble.routes.deps import encounter_grapple
from systems.nimble.routes.encounter import BASE, NimbleEncounterPublic, present

router = APIRouter(route_class=OneHopRoute, tags=["nimble"], responses=ERROR_RESPONSES)
routes = CommandRoutes(
    router, encounter_grapple, BASE, NimbleEncounterPublic, present, unprefixed="nimble_"
)
routes.declare(
    Op(
        "/grapples",
        EncounterGrapple.nimble_encounter_grapple,
        """NB-24: grapple in the encounter: 1 action and an attack (hasty attacks, NB-10), a Might or
    Finesse check DC 10; a Dying grappler first makes its STR save (NB-21).""",
        name="grapple",
        created=True,
        asks_gm=True,
    )
)
