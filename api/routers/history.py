"""History from the views: the campaign's log page by page, and replays of scenes, game Issues, stories."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from api.deps import ActorDep, AppDep, ViewsDep, position_query
from api.errors import ERROR_RESPONSES
from api.routing import OneHopRoute
from api.visibility import seen_by
from domain.aggregates import Campaign, Character, Issue, Scene, Story

router = APIRouter(route_class=OneHopRoute, tags=["history"], responses=ERROR_RESPONSES)


class LogEntry(BaseModel):
    position: int = Field(description="Log position; gaps are normal")
    type: str = Field(description="Aggregate.Event, e.g. Scene.PageAdvanced (see docs/events.md)")
    originator_id: str
    originator_version: int
    timestamp: str
    actor: str | None = Field(description="The member whose command wrote it")
    payload: dict[str, Any] = Field(description="The event's fields, secrets left out")
    text: str | None = Field(
        default=None,
        description="What happened, for people: the replay's step texts of this entry, one line "
        "each; null for bookkeeping entries whose story another entry tells, and for what is "
        "withheld from the reader",
    )


class LogPage(BaseModel):
    items: list[LogEntry]
    next_after: int | None = Field(description="Pass as `after` for the next page; null at the end")


class Step(BaseModel):
    position: int
    at: str
    type: str
    actor: str | None
    text: str = Field(description="What happened, for people")
    changes: dict[str, list[Any]] = Field(description="field → [before, after]")


class Replay(BaseModel):
    id: UUID
    steps: list[Step]


@router.get(
    "/v1/campaigns/{campaign_id}/events", response_model=LogPage, operation_id="campaign_events"
)
def events(
    campaign_id: UUID,
    app: AppDep,
    actor: ActorDep,
    views: ViewsDep,
    after: Annotated[int, position_query("Only entries after this position")] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> LogPage:
    """The campaign's log in order, paged; follow `next_after`."""
    campaign = app.get(actor, Campaign, campaign_id)
    items = views.store.log(str(campaign.id), after=after, limit=limit)
    seen = seen_by(app, actor)  # after the read (domain/visibility.py)
    return LogPage(
        items=[LogEntry.model_validate(i) for i in seen.entries(items)],
        next_after=items[-1]["position"] if len(items) == limit else None,
    )


@router.get("/v1/scenes/{scene_id}/replay", response_model=Replay, operation_id="replay_scene")
def replay_scene(scene_id: UUID, app: AppDep, actor: ActorDep, views: ViewsDep) -> Replay:
    """The scene step by step: what happened and what changed."""
    scene = app.get(actor, Scene, scene_id)
    steps = views.store.timeline("scene_id", str(scene.id))
    return Replay(id=scene.id, steps=seen_by(app, actor).steps(steps))  # type: ignore[arg-type]


@router.get("/v1/issues/{issue_id}/replay", response_model=Replay, operation_id="replay_issue")
def replay_issue(issue_id: UUID, app: AppDep, actor: ActorDep, views: ViewsDep) -> Replay:
    """The game Issue step by step, its scenes included."""
    issue = app.get(actor, Issue, issue_id)
    steps = views.store.timeline("issue_id", str(issue.id))
    return Replay(id=issue.id, steps=seen_by(app, actor).steps(steps))  # type: ignore[arg-type]


@router.get("/v1/stories/{story_id}/replay", response_model=Replay, operation_id="replay_story")
def replay_story(story_id: UUID, app: AppDep, actor: ActorDep, views: ViewsDep) -> Replay:
    """The story step by step, its game Issues and scenes included."""
    story = app.get(actor, Story, story_id)
    steps = views.store.timeline("story_id", str(story.id))
    return Replay(id=story.id, steps=seen_by(app, actor).steps(steps))  # type: ignore[arg-type]


@router.get(
    "/v1/characters/{character_id}/replay", response_model=Replay, operation_id="replay_character"
)
def replay_character(character_id: UUID, app: AppDep, actor: ActorDep, views: ViewsDep) -> Replay:
    """The character's history step by step: each change with who made it (`actor`) and why (sheet
    changes and their proposals carry their reason)."""
    character = app.get(actor, Character, character_id)
    steps = views.store.doc_timeline("character", str(character.id))
    return Replay(id=character.id, steps=seen_by(app, actor).steps(steps))  # type: ignore[arg-type]
