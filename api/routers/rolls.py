"""Rolls: fair, verifiable, tamper-evident (docs/fair-dice.md); the audit, the export and the luck report."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, StreamingResponse

from api import roll_text
from api.command_routes import CommandRoutes, Op, application
from api.deps import ActorDep, AppDep, Commands
from api.errors import ERROR_RESPONSES
from api.openapi import text_body
from api.paging import Page, next_after
from api.presenters import roll_shown, scene_shown
from api.proof_page import proof_link
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import (
    CampaignVerification,
    LuckReport,
    RollPublic,
    RollRequestList,
    RollRequestPublic,
    ScenePublic,
    Verification,
    roll_public,
    roll_public_of,
    roll_request_public,
)
from api.visibility import roll_seen, seen_by
from domain.aggregates import Campaign, Character, Roll, RollRequest, Scene
from domain.application import Actor, Chronicle, Outcome
from domain.export import jsonl, signed_export
from domain.luck import RollLuck, report
from domain.proofs import what_was_rolled, who_rolled
from domain.visibility import WITHHELD_TEXT

router = APIRouter(route_class=OneHopRoute, tags=["rolls"], responses=ERROR_RESPONSES)


routes = CommandRoutes(router, application)
reads = ReadRoutes(router)
routes.declare(
    Op(
        "/v1/scenes/{scene_id}/rolls",
        Chronicle.roll,
        """Roll a check of the campaign's ruleset in an open scene (the GM for anyone or a raw pool;
    a player for its own characters: it names what is rolled, the sheet gives the numbers, and
    its situational modifiers follow the campaign's `player_modifiers`, 202 when they wait for
    the GM).""",
        model=RollPublic,
        present=roll_shown,
        created=True,
        asks_gm=True,
    )
)


def _request(outcome: Outcome, _: Commands) -> RollRequestPublic:
    request = outcome.aggregate
    assert isinstance(request, RollRequest)
    return roll_request_public(request, outcome.saved)


@reads.get(
    "/v1/scenes/{scene_id}/roll-requests",
    model=RollRequestList,
    operation_id="list_roll_requests",
)
def list_roll_requests(scene_id: UUID, app: AppDep, actor: ActorDep) -> RollRequestList:
    """The scene's roll requests, oldest first: pending ones wait for the GM's decision."""
    return RollRequestList(
        items=[roll_request_public(r) for r in app.roll_requests(actor, scene_id)]
    )


reads.one(
    "/v1/roll-requests/{request_id}",
    RollRequest,
    roll_request_public,
    model=RollRequestPublic,
    operation_id="get_roll_request",
)


routes.declare(
    Op(
        "/v1/roll-requests/{request_id}/approve",
        Chronicle.approve_roll_request,
        """The GM approves (optionally changing `modifiers`): the player's command runs now, as the
    player's roll with its client seed; `result_id` is the roll it made.""",
    ),
    Op(
        "/v1/roll-requests/{request_id}/decline",
        Chronicle.decline_roll_request,
        "The GM declines: nothing is rolled.",
    ),
    model=RollRequestPublic,
    present=_request,
)


def _roll(roll: Roll, app: Chronicle, actor: Actor) -> RollPublic:
    public = roll_public(roll, app.repository.get(roll.scene_id))
    return roll_seen(public, roll.record, seen_by(app, actor))


reads.one(
    "/v1/rolls/{roll_id}", Roll, _roll, model=RollPublic, operation_id="get_roll", reads_more=True
)


@reads.get(
    "/v1/rolls/{roll_id}/text",
    operation_id="get_roll_text",
    **text_body(
        "text/plain",
        "The roll's line: who rolled what, the faces with their marks, the result, the odds "
        "and the proof link (docs/front-ends.md)",
    ),
)
def get_roll_text(
    roll_id: UUID,
    request: Request,
    app: AppDep,
    actor: ActorDep,
    format: Annotated[
        roll_text.Format, Query(description="The markup of the line: plain, markdown or bbcode")
    ] = "plain",
) -> PlainTextResponse:
    """The line a forum plugin or a chat bot posts for a roll (the members' read of the roll)."""
    roll = app.get(actor, Roll, roll_id)
    record = roll.record
    campaign: Campaign = app.repository.get(roll.campaign_id)
    if seen_by(app, actor).withholds(record):
        # the same words in every format: no markup to add to what is not shown
        return PlainTextResponse(f"{WITHHELD_TEXT} (roll #{record['sequence']} of the chain)")
    who = who_rolled(app.repository, campaign, record)
    proof = proof_link(str(request.base_url), campaign, roll)
    text = roll_text.roll_text(record, roll.odds, who, what_was_rolled(campaign, record), proof)
    return PlainTextResponse(roll_text.RENDERERS[format](text))


class RollPage(Page):
    items: list[RollPublic]


@reads.page("/v1/campaigns/{campaign_id}/rolls", model=RollPage, operation_id="list_rolls")
def list_rolls(
    query: PageQuery,
    scene_id: Annotated[UUID | None, Query(description="Only the rolls of this scene")] = None,
    character_id: Annotated[
        UUID | None, Query(description="Only the rolls made for this character")
    ] = None,
) -> RollPage:
    """The campaign's rolls in chain order (follow-ups included), each with its proof, receipt
    and time; from the views, the seeds from their scenes' views."""
    app, actor, views = query.app, query.actor, query.views
    campaign = query.get(Campaign)
    where = {}
    if scene_id is not None:
        where["scene_id"] = [str(app.named(actor, Scene, scene_id, "scene_id").id)]
    character = None
    if character_id is not None:
        character = str(app.named(actor, Character, character_id, "character_id").id)
    rows = views.store.listed(
        "roll", str(campaign.id), after=query.after, limit=query.limit, where=where, ref=character
    )
    seeds: dict[str, str | None] = {}
    for scene in {r.doc["scene_id"] for r in rows}:
        for epoch in (views.store.doc("scene", scene) or {}).get("seeds", []):
            seeds[epoch["commitment"]] = epoch["revealed_seed"]
    seen = seen_by(app, actor)
    items = [
        roll_seen(
            roll_public_of(r.doc["record"], r.doc["odds"], r.doc["version"], seeds, r.at),
            r.doc["record"],
            seen,
        )
        for r in rows
    ]
    return RollPage(items=items, next_after=next_after(rows, query.limit))


routes.declare(
    Op(
        "/v1/rolls/{roll_id}/follow-ups",
        Chronicle.follow_up,
        "A follow-up linked to a roll (Resolve dice, rerolls…); what it costs is spent in the same save.",
        operation_id="follow_up_roll",
        model=RollPublic,
        present=roll_shown,
        created=True,
    )
)


@reads.get(
    "/v1/rolls/{roll_id}/verification",
    model=Verification,
    operation_id="verify_roll",
)
def verify(roll_id: UUID, app: AppDep, actor: ActorDep) -> Verification:
    """Is the campaign's roll chain intact, and (once the seed is revealed) do the faces recompute?"""
    return Verification.model_validate(app.verify_roll(actor, roll_id))


@reads.get(
    "/v1/campaigns/{campaign_id}/verification",
    model=CampaignVerification,
    operation_id="verify_campaign",
)
def verify_campaign(campaign_id: UUID, app: AppDep, actor: ActorDep) -> CampaignVerification:
    """The whole campaign's audit, as `chronicle verify` would report its export right now."""
    return CampaignVerification.model_validate(app.verify_campaign(actor, campaign_id))


routes.declare(
    Op(
        "/v1/scenes/{scene_id}/seed/rotate",
        Chronicle.rotate_seed,
        "Reveal the scene's current seed and commit to a new one (GM).",
        model=ScenePublic,
        present=scene_shown,
    )
)


@reads.get(
    "/v1/campaigns/{campaign_id}/export",
    operation_id="export_campaign",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}, "description": "JSON Lines"}},
)
def export(campaign_id: UUID, app: AppDep, actor: ActorDep) -> StreamingResponse:
    """The whole campaign log as JSON Lines, secrets left out (check it offline: `chronicle verify`).

    Read from the event store itself, not from the views: an audit must see what is stored now."""
    app.get(actor, Campaign, campaign_id)  # 404 unless it is the actor's campaign
    entries = signed_export(app, actor)
    return StreamingResponse(jsonl(iter(entries)), media_type="application/x-ndjson")


def _luck(app: Chronicle, actor: Actor, character_id: UUID | None) -> LuckReport:
    _, rolls = app.campaign_rolls(actor.campaign_id)
    seen = seen_by(app, actor)
    values = []
    for roll in rolls:
        if roll is None or seen.withholds(roll.record):
            continue
        if character_id is not None and roll.record.get("character_id") != str(character_id):
            continue
        odds: dict[str, Any] = roll.odds
        if odds.get("at_least") is None or odds.get("above") is None:
            continue
        values.append(RollLuck(odds["at_least"], odds["above"], roll.record["hash"]))
    return LuckReport.model_validate(report(values))


@reads.get(
    "/v1/characters/{character_id}/luck",
    model=LuckReport,
    operation_id="character_luck",
)
def character_luck(character_id: UUID, app: AppDep, actor: ActorDep) -> LuckReport:
    """Are this character's dice cursed? Its rolls against their exact distributions."""
    character = app.get(actor, Character, character_id)
    return _luck(app, actor, character.id)


@reads.get(
    "/v1/campaigns/{campaign_id}/luck",
    model=LuckReport,
    operation_id="campaign_luck",
)
def campaign_luck(campaign_id: UUID, app: AppDep, actor: ActorDep) -> LuckReport:
    app.get(actor, Campaign, campaign_id)  # 404 unless it is the actor's campaign
    return _luck(app, actor, None)
