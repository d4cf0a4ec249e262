"""Missions (CD-21): one attempt at a goal, ended once with an outcome."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import MissionCreate, MissionEnd, MissionPublic, mission_public
from domain.aggregates import Mission
from domain.application import Outcome

router = APIRouter(tags=["missions"], responses=ERROR_RESPONSES)


def _mission(outcome: Outcome) -> MissionPublic:
    return mission_public(outcome.aggregate)  # type: ignore[arg-type]


@router.post(
    "/v1/campaigns/{campaign_id}/missions",
    status_code=201,
    response_model=MissionPublic,
    operation_id="create_mission",
)
def create_mission(
    campaign_id: UUID, body: MissionCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    return commands.run(
        app.create_mission,
        campaign_id,
        body.title,
        body.scene_id,
        body.story_id,
        present=_mission,
        status_code=201,
    )


@router.get(
    dependencies=WAIT,
    path="/v1/missions/{mission_id}",
    response_model=MissionPublic,
    operation_id="get_mission",
)
def get_mission(mission_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    return respond(mission_public(app.get(actor, Mission, mission_id)))


@router.post(
    "/v1/missions/{mission_id}/end", response_model=MissionPublic, operation_id="end_mission"
)
def end_mission(
    mission_id: UUID, body: MissionEnd, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    return commands.run(app.end_mission, mission_id, body.outcome, present=_mission)
