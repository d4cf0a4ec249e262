"""Stories, game Issues and scenes: the time structure of play (WCBH-1)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import (
    IssuePublic,
    ScenePublic,
    StoryPublic,
    issue_public,
    scene_public,
    story_public,
)
from domain.aggregates import Issue, Scene, Story
from domain.application import Chronicle, Outcome
from domain.commands import Actor
from domain.requests import (
    ActFirst,
    CombatantsJoin,
    IssueCreate,
    PoolChange,
    SceneCreate,
    StoryCreate,
)

router = APIRouter(tags=["play"], responses=ERROR_RESPONSES)


def _story(outcome: Outcome) -> StoryPublic:
    return story_public(outcome.aggregate)  # type: ignore[arg-type]


def _issue(outcome: Outcome) -> IssuePublic:
    return issue_public(outcome.aggregate)  # type: ignore[arg-type]


def _scene(app: Chronicle, actor: Actor | None) -> Callable[[Outcome], ScenePublic]:
    def present(outcome: Outcome) -> ScenePublic:
        scene: Scene = outcome.aggregate  # type: ignore[assignment]
        order = app.order_of_action(actor, scene) if actor is not None else None
        return scene_public(scene, order)

    return present


@router.post(
    "/v1/campaigns/{campaign_id}/stories",
    status_code=201,
    response_model=StoryPublic,
    operation_id="start_story",
)
def start_story(
    campaign_id: UUID, body: StoryCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    return commands.run(app.start_story, campaign_id, body, present=_story, status_code=201)


@router.get(
    dependencies=WAIT,
    path="/v1/stories/{story_id}",
    response_model=StoryPublic,
    operation_id="get_story",
)
def get_story(story_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    return respond(story_public(app.get(actor, Story, story_id)))


@router.post(
    "/v1/stories/{story_id}/complete", response_model=StoryPublic, operation_id="complete_story"
)
def complete_story(story_id: UUID, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """Complete the story; its game Issue must have ended."""
    return commands.run(app.complete_story, story_id, present=_story)


@router.post(
    "/v1/stories/{story_id}/issues",
    status_code=201,
    response_model=IssuePublic,
    operation_id="start_issue",
)
def start_issue(
    story_id: UUID, body: IssueCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """Start a game Issue (a session of play); only one runs per story."""
    return commands.run(app.start_issue, story_id, body, present=_issue, status_code=201)


@router.get(
    dependencies=WAIT,
    path="/v1/issues/{issue_id}",
    response_model=IssuePublic,
    operation_id="get_issue",
)
def get_issue(issue_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    return respond(issue_public(app.get(actor, Issue, issue_id)))


@router.post(
    "/v1/issues/{issue_id}/pools", response_model=IssuePublic, operation_id="change_issue_pool"
)
def change_pool(
    issue_id: UUID, body: PoolChange, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM gains or spends from a pool of the game Issue (Adversity, WCBH-21)."""
    return commands.run(app.change_pool, issue_id, body, present=_issue)


@router.post("/v1/issues/{issue_id}/end", response_model=IssuePublic, operation_id="end_issue")
def end_issue(issue_id: UUID, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """End the game Issue; its open scenes close with it."""
    return commands.run(app.end_issue, issue_id, present=_issue)


@router.post(
    "/v1/issues/{issue_id}/scenes",
    status_code=201,
    response_model=ScenePublic,
    operation_id="open_scene",
)
def open_scene(
    issue_id: UUID, body: SceneCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """Open a scene; only in a running game Issue."""
    return commands.run(
        app.open_scene, issue_id, body, present=_scene(app, commands.actor), status_code=201
    )


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}",
    response_model=ScenePublic,
    operation_id="get_scene",
)
def get_scene(scene_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    scene = app.get(actor, Scene, scene_id)
    return respond(scene_public(scene, app.order_of_action(actor, scene)))


@router.post("/v1/scenes/{scene_id}/pages", response_model=ScenePublic, operation_id="advance_page")
def advance_page(scene_id: UUID, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """Advance to the next page (round)."""
    return commands.run(app.advance_page, scene_id, present=_scene(app, commands.actor))


@router.post(
    "/v1/scenes/{scene_id}/combatants", response_model=ScenePublic, operation_id="join_fight"
)
def join_fight(
    scene_id: UUID, body: CombatantsJoin, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM puts characters into the scene's fight; the scene then shows its order of action."""
    return commands.run(app.join_fight, scene_id, body, present=_scene(app, commands.actor))


@router.post(
    "/v1/scenes/{scene_id}/act-first", response_model=ScenePublic, operation_id="act_first"
)
def act_first(scene_id: UUID, body: ActFirst, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """1 Resolve: the character acts first every page from now on (WCBH-24)."""
    return commands.run(app.act_first, scene_id, body, present=_scene(app, commands.actor))


@router.post("/v1/scenes/{scene_id}/close", response_model=ScenePublic, operation_id="close_scene")
def close_scene(scene_id: UUID, app: AppDep, commands: CommandsDep) -> JSONResponse:
    return commands.run(app.close_scene, scene_id, present=_scene(app, commands.actor))
