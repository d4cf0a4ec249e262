"""HTTP verbs of systems/wcbh/commands/ground.py: the fight's ground of We Can Be Heroes, ranges and
moves (WCBH-26), cover and sizes (WCBH-30); systems/wcbh/docs/fight.md."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, AppDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import Written
from domain.aggregates import Scene
from domain.application import Outcome
from systems.wcbh.commands import Wcbh
from systems.wcbh.commands.fight import ground_of
from systems.wcbh.commands.ground import Ground
from systems.wcbh.routes.fight import PageStatePublic, _page

router = APIRouter(route_class=OneHopRoute, tags=["fight"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


class GroundPublic(Written):
    scene_id: UUID
    ranges: dict[str, dict[str, Any]] = Field(
        description="By pair ('<id>|<id>', sorted): the range class and a move under way "
        "(`moving`: by, to, since_page), WCBH-26"
    )
    situations: dict[str, dict[str, Any]] = Field(
        description="By character id: cover (0..3) and size the GM set, WCBH-30"
    )


def _shown(scene: Scene) -> GroundPublic:
    return GroundPublic(scene_id=scene.id, **ground_of(scene), version=scene.version)


def _present(outcome: Outcome, commands: Commands) -> GroundPublic:
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    return _shown(scene)


class RestDaysPublic(Written):
    scene_id: UUID
    days: dict[str, list[dict[str, Any]]] = Field(
        description="By character id, the days of rest the GM recorded in this scene: `whole` "
        "(nothing but rest: difficulty 1), `reason`, `used` by a recovery check (WCBH-34)"
    )


def _rest_days(outcome: Outcome, commands: Commands) -> RestDaysPublic:
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    days = scene.state("wcbh", "rest")["days"]
    return RestDaysPublic(scene_id=scene.id, days=days, version=scene.version)


routes = CommandRoutes(router, lambda app: app.system(Wcbh).ground, "/v1/scenes/{scene_id}")

routes.declare(
    Op(
        "/ranges",
        Ground.set_range,
        """WCBH-26 (GM): the range class between two characters: close, far, extreme or beyond.
    Grapples, charges and bashes need the foe within Close.""",
    ),
    Op(
        "/situations",
        Ground.set_situation,
        """WCBH-30 (GM): a character's cover or poor visibility (0..3 dice off attacks on it) and
    its size (attacks on a bigger target +1 or +3, on a smaller -1 or -3).""",
    ),
    model=GroundPublic,
    present=_present,
)
routes.declare(
    Op(
        "/range-moves",
        Ground.move_range,
        """WCBH-25, 26: the character's one move of the page towards or away from another: one
    range class in two pages (under way after the first), or one with a movement Power of rank 6+.""",
    ),
    model=PageStatePublic,
    present=_page,
)
routes.declare(
    Op(
        "/rest-days",
        Ground.pass_rest_days,
        """WCBH-34 (GM): a day passes for these characters after rest (or of nothing but rest):
    each may make one more recovery check (POST .../recoveries) for it.""",
    ),
    model=RestDaysPublic,
    present=_rest_days,
)


@reads.get("/v1/scenes/{scene_id}/ground", operation_id="get_ground", model=GroundPublic, etag=True)
def get_ground(scene_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    """The scene's ground: the ranges between characters and their cover and sizes (WCBH-26,
    30)."""
    return respond(_shown(app.get(actor, Scene, scene_id)))
