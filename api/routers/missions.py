"""Missions (CD-21..25): one attempt at a goal, its counters (alarm, rival progress, the GM's own),
its rests, and its end."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal
from uuid import UUID

from eventsourcing.domain import Aggregate
from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from api.command_routes import CommandRoutes, Op
from api.deps import Commands
from api.errors import ERROR_RESPONSES
from api.paging import Listing, Page, where_of
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import ReceiptPublic, Written, read_off, receipt_public
from domain.aggregates import Campaign, Mission
from domain.application import Chronicle, Outcome
from domain.missions import Missions
from domain.requests import (
    MissionOutcome,
)

router = APIRouter(route_class=OneHopRoute, tags=["missions"], responses=ERROR_RESPONSES)

# The request bodies are in domain/requests.py: the missions' commands take them whole.
CounterName = Annotated[
    str,
    Path(
        min_length=1,
        max_length=40,
        description="alarm (CD-23), rival_progress (CD-24) or a counter the GM defined (CD-25)",
    ),
]


# ---- responses -----------------------------------------------------------------------------------


class ZonePublic(BaseModel):
    name: str
    start: int


class CounterEntry(BaseModel):
    kind: Literal["change", "zone"] = Field(description="A change of value, or a zone crossed")
    value: int = Field(description="The counter's value after it")
    change: int | None = Field(default=None, description="The change asked for")
    applied: int | None = Field(default=None, description="The change made, after clamping")
    clamped: bool | None = Field(default=None, description="Did clamping cut the change?")
    reason: str | None = None
    code: str | None = None
    from_zone: str | None = None
    to_zone: str | None = None


class CounterPublic(BaseModel):
    name: str
    label: str
    kind: Literal["alarm", "rival_progress", "custom"]
    rule: str = Field(description="CD-23 alarm, CD-24 rival progress, CD-25 the GM's own")
    value: int
    maximum: int
    zones: list[ZonePublic]
    zone: str | None = Field(description="The zone the value is in (null without zones)")
    history: list[CounterEntry]


class Restored(BaseModel):
    die: int = Field(description="The d6 rolled")
    before: int
    gain: int = Field(description="What came back, never above the maximum")
    after: int
    max: int


class RestParticipant(BaseModel):
    character_id: UUID
    name: str
    health: Restored
    will: Restored


class RestPublic(BaseModel):
    number: int = Field(description="1 for the mission's first rest")
    scene_id: UUID | None = Field(description="The scene whose dice rolled it (null: no dice)")
    roll_id: UUID | None = Field(description="The fair roll record (null without participants)")
    receipt: ReceiptPublic | None = Field(
        description="The roll's signed receipt (docs/receipts.md)"
    )
    participants: list[RestParticipant]


class MissionSummary(Written):
    """A mission in a list: its counters with their zones, without its rests' details."""

    id: UUID
    campaign_id: UUID
    title: str
    scene_id: UUID | None
    story_id: UUID | None
    status: Literal["active", "ended"]
    outcome: MissionOutcome | None
    counters: list[CounterPublic]
    rest_count: int


class MissionPublic(MissionSummary):
    # The whole mission: the summary's fields, its counters and rests described in full.
    counters: list[CounterPublic] = Field(description="alarm, rival_progress, then the GM's own")
    rest_count: int = Field(description="CD-22: rests taken so far")
    rests: list[RestPublic]


def mission_public(mission: Mission, made: Iterable[Aggregate] = ()) -> MissionPublic:
    """The mission; `made`: what the command saves, where its rest's new roll is found."""
    return read_off(
        MissionPublic,
        mission,
        counters=list(mission.counters.values()),
        rests=[
            RestPublic.model_validate(
                {**r, "receipt": receipt_public(r["roll_id"], made) if r.get("roll_id") else None}
            )
            for r in mission.rests
        ],
    )


def _mission(outcome: Outcome, _: Commands) -> MissionPublic:
    return mission_public(outcome.aggregate, outcome.saved)  # type: ignore[arg-type]


def _missions(app: Chronicle) -> Missions:
    return app.missions


routes = CommandRoutes(router, _missions, model=MissionPublic, present=_mission)


# ---- routes --------------------------------------------------------------------------------------


routes.declare(
    Op(
        "/v1/campaigns/{campaign_id}/missions",
        Missions.create_mission,
        "Start a mission (GM): alarm and rival progress at 0, no rests yet.",
        created=True,
    )
)


reads = ReadRoutes(router)
reads.one(
    "/v1/missions/{mission_id}",
    Mission,
    mission_public,
    model=MissionPublic,
    operation_id="get_mission",
    doc="The mission: its counters with their zones and history, its rests and its outcome.",
)


class MissionPage(Page):
    items: list[MissionSummary]


@reads.page("/v1/campaigns/{campaign_id}/missions", model=MissionPage, operation_id="list_missions")
def list_missions(
    query: PageQuery,
    status: Annotated[
        Literal["active", "ended"] | None,
        Query(description="Only those whose status is this (active, ended)"),
    ] = None,
) -> MissionPage:
    """The campaign's missions in the order they began, from the views."""
    campaign = query.get(Campaign)
    return query.page(MISSIONS, campaign.id, where_of(status=status))


def _mission_summary(doc: dict[str, Any]) -> MissionSummary:
    return MissionSummary.model_validate({**doc, "counters": list(doc["counters"].values())})


MISSIONS = Listing("mission", MissionPage, _mission_summary)


routes.declare(
    Op(
        "/v1/missions/{mission_id}/end",
        Missions.end_mission,
        "End the mission (GM), once: a mission has one attempt (CD-21).",
    ),
    Op(
        "/v1/missions/{mission_id}/counters",
        Missions.define_mission_counter,
        "Define a counter of the GM's own, e.g. the catastrophe counter (GM, CD-25).",
        name="define_counter",
        created=True,
    ),
    Op(
        "/v1/missions/{mission_id}/counters/{counter}",
        Missions.change_mission_counter,
        """Raise or lower a counter with a reason (GM): clamped to 0..maximum, a crossed zone
    recorded (CD-23); rival progress at 10 ends the mission as lost to rivals (CD-24).""",
        params={"counter": CounterName},
        name="change_counter",
    ),
    Op(
        "/v1/missions/{mission_id}/rests",
        Missions.rest_on_mission,
        """A rest (GM, CD-22): each participant gets 1d6 Health and 1d6 Will back (one fair roll in an
    open scene), never above its maxima; the mission's rest counter counts up.""",
        name="rest",
    ),
)
