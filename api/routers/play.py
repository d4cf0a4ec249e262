"""Stories, game Issues and scenes: the time structure of play (WCBH-1)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from api.command_routes import CommandRoutes, Op, application
from api.errors import ERROR_RESPONSES
from api.paging import Listing, Page, where_of
from api.presenters import issue_shown, scene_shown, shown
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import (
    IssuePublic,
    SceneHead,
    ScenePublic,
    StoryPublic,
    issue_public,
    scene_public,
    story_public,
)
from domain.aggregates import Campaign, Issue, Scene, Story
from domain.application import Actor, Chronicle

router = APIRouter(route_class=OneHopRoute, tags=["play"], responses=ERROR_RESPONSES)


# ---- lists, from the views (one query a page instead of one replay per item) -------------------


class StoryPage(Page):
    items: list[StoryPublic]


STORIES = Listing("story", StoryPage, StoryPublic.model_validate)


class IssuePage(Page):
    items: list[IssuePublic]


ISSUES = Listing("issue", IssuePage, IssuePublic.model_validate)


class SceneSummary(SceneHead):
    """A scene in a list: what a front end shows before it opens it (GET /v1/scenes/{id})."""

    page: int
    version: int


class ScenePage(Page):
    items: list[SceneSummary]


SCENES = Listing("scene", ScenePage, SceneSummary.model_validate)


def _status(*values: str) -> object:
    return Query(description=f"Only those whose status is this ({', '.join(values)})")


reads = ReadRoutes(router)


@reads.page("/v1/campaigns/{campaign_id}/stories", model=StoryPage, operation_id="list_stories")
def list_stories(
    query: PageQuery,
    status: Annotated[
        Literal["running", "completed"] | None, _status("running", "completed")
    ] = None,
) -> StoryPage:
    """The campaign's stories in the order they started."""
    campaign = query.get(Campaign)
    return query.page(STORIES, campaign.id, where_of(status=status))


@reads.page("/v1/stories/{story_id}/issues", model=IssuePage, operation_id="list_issues")
def list_issues(
    query: PageQuery,
    status: Annotated[Literal["running", "ended"] | None, _status("running", "ended")] = None,
) -> IssuePage:
    """The story's game Issues in order (#1, #2…)."""
    story = query.get(Story)
    return query.page(ISSUES, story.campaign_id, where_of(story_id=str(story.id), status=status))


@reads.page("/v1/issues/{issue_id}/scenes", model=ScenePage, operation_id="list_scenes")
def list_scenes(
    query: PageQuery,
    status: Annotated[Literal["open", "closed"] | None, _status("open", "closed")] = None,
) -> ScenePage:
    """The game Issue's scenes in the order they opened."""
    issue = query.get(Issue)
    return query.page(SCENES, issue.campaign_id, where_of(issue_id=str(issue.id), status=status))


routes = CommandRoutes(router, application)
routes.declare(
    Op(
        "/v1/campaigns/{campaign_id}/stories",
        Chronicle.start_story,
        model=StoryPublic,
        present=shown(story_public),
        created=True,
    )
)


reads.one(
    "/v1/stories/{story_id}", Story, story_public, model=StoryPublic, operation_id="get_story"
)


routes.declare(
    Op(
        "/v1/stories/{story_id}/complete",
        Chronicle.complete_story,
        "Complete the story; its game Issue must have ended.",
        model=StoryPublic,
        present=shown(story_public),
    ),
    Op(
        "/v1/stories/{story_id}/issues",
        Chronicle.start_issue,
        "Start a game Issue (a session of play); only one runs per story.",
        model=IssuePublic,
        present=issue_shown,
        created=True,
    ),
)


reads.one("/v1/issues/{issue_id}", Issue, issue_public, model=IssuePublic, operation_id="get_issue")


routes.declare(
    Op(
        "/v1/issues/{issue_id}/pools",
        Chronicle.change_pool,
        "The GM gains or spends from a pool of the game Issue (Adversity, WCBH-21).",
        operation_id="change_issue_pool",
        model=IssuePublic,
        present=issue_shown,
    ),
    Op(
        "/v1/issues/{issue_id}/end",
        Chronicle.end_issue,
        "End the game Issue; its open scenes close with it.",
        model=IssuePublic,
        present=issue_shown,
    ),
    Op(
        "/v1/issues/{issue_id}/scenes",
        Chronicle.open_scene,
        "Open a scene; only in a running game Issue.",
        model=ScenePublic,
        present=scene_shown,
        created=True,
    ),
)


def _scene(scene: Scene, app: Chronicle, actor: Actor) -> ScenePublic:
    return scene_public(scene, app.order_of_action(actor, scene))


reads.one(
    "/v1/scenes/{scene_id}",
    Scene,
    _scene,
    model=ScenePublic,
    operation_id="get_scene",
    reads_more=True,
)


routes.declare(
    Op("/v1/scenes/{scene_id}/pages", Chronicle.advance_page, "Advance to the next page (round)."),
    Op(
        "/v1/scenes/{scene_id}/combatants",
        Chronicle.join_fight,
        "The GM puts characters into the scene's fight; the scene then shows its order of action.",
    ),
    Op(
        "/v1/scenes/{scene_id}/act-first",
        Chronicle.act_first,
        "1 Resolve: the character acts first every page from now on (WCBH-24).",
    ),
    Op("/v1/scenes/{scene_id}/close", Chronicle.close_scene),
    model=ScenePublic,
    present=scene_shown,
)
