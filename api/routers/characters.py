"""Characters and their sheets."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from api.deps import (
    WAIT,
    ActorDep,
    AppDep,
    Commands,
    CommandsDep,
    ViewsDep,
    position_query,
    respond,
)
from api.errors import ERROR_RESPONSES
from api.schemas import CharacterPublic, character_public
from domain.aggregates import Campaign, Character
from domain.application import Chronicle, Outcome, SheetProposed
from domain.errors import InvalidInput, NotFound
from domain.requests import CharacterCreate, ResourceChange, SheetChangeDecision, SheetReplace
from projections.translation import iso

router = APIRouter(tags=["characters"], responses=ERROR_RESPONSES)


def _presenter(app: Chronicle, campaign_id: UUID):  # type: ignore[no-untyped-def]
    def present(outcome: Outcome) -> CharacterPublic:
        campaign: Campaign = app.repository.get(campaign_id)
        return character_public(outcome.aggregate, campaign)  # type: ignore[arg-type]

    return present


@router.post(
    "/v1/campaigns/{campaign_id}/characters",
    status_code=201,
    response_model=CharacterPublic,
    operation_id="create_character",
)
def create_character(
    campaign_id: UUID, body: CharacterCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM creates any character; a player creates characters it owns."""
    return commands.run(
        app.create_character,
        campaign_id,
        body,
        present=_presenter(app, campaign_id),
        status_code=201,
    )


@router.get(
    dependencies=WAIT,
    path="/v1/characters/{character_id}",
    response_model=CharacterPublic,
    operation_id="get_character",
)
def get_character(
    character_id: UUID,
    app: AppDep,
    actor: ActorDep,
    views: ViewsDep,
    at_position: Annotated[
        int | None, position_query("The character as it was at this log position")
    ] = None,
    as_of: Annotated[
        datetime | None, Query(description="The character as it was at this time (ISO 8601)")
    ] = None,
) -> JSONResponse:
    """The character now, or as it was at a log position or a moment (from the views)."""
    character = app.get(actor, Character, character_id)
    if at_position is None and as_of is None:
        return respond(character_public(character, app.get(actor, Campaign, character.campaign_id)))
    if as_of is not None and as_of.tzinfo is None:
        raise InvalidInput("as_of needs a time zone, e.g. 2026-11-29T20:00:00Z", field="as_of")
    doc = views.store.version_at(
        "character",
        str(character.id),
        position=at_position,
        at=iso(as_of) if as_of is not None else None,
    )
    if doc is None:
        raise NotFound(
            "the character did not exist yet then",
            field="at_position" if at_position is not None else "as_of",
        )
    return respond(CharacterPublic.model_validate(doc))


@router.post(
    "/v1/characters/{character_id}/resources",
    response_model=CharacterPublic,
    operation_id="adjust_character_resource",
)
def adjust_resource(
    character_id: UUID, body: ResourceChange, app: AppDep, actor: ActorDep, commands: CommandsDep
) -> JSONResponse:
    """The GM awards or takes a resource with a reason (Resolve awards, WCBH-18)."""
    return commands.run(
        app.adjust_resource, character_id, body, present=_presenter(app, actor.campaign_id)
    )


@router.put(
    "/v1/characters/{character_id}/sheet",
    response_model=CharacterPublic,
    operation_id="replace_character_sheet",
    responses={
        202: {
            "model": CharacterPublic,
            "description": "A player's change awaits the GM's approval (in `sheet_changes`)",
        }
    },
)
def replace_sheet(
    character_id: UUID, body: SheetReplace, app: AppDep, actor: ActorDep, commands: CommandsDep
) -> JSONResponse:
    """Replace the sheet (the GM at any time; the owning player under the campaign's
    `player_sheet_changes`). The ruleset validates it; current resources are kept (lowered to a
    smaller maximum, never refilled). A player's change that needs the GM's approval is 202: it
    waits in `sheet_changes` as pending."""

    def status(outcome: Outcome) -> int:
        return 202 if isinstance(outcome.result, SheetProposed) else 200

    return commands.run(
        app.change_sheet,
        character_id,
        body,
        present=_presenter(app, actor.campaign_id),
        status_code=status,
    )


def _decide(
    approve: bool,
    character_id: UUID,
    change_id: UUID,
    body: SheetChangeDecision | None,
    app: Chronicle,
    campaign_id: UUID,
    commands: Commands,
) -> JSONResponse:
    return commands.run(
        app.decide_sheet_change,
        character_id,
        change_id,
        approve,
        body or SheetChangeDecision(),  # no body: no note
        present=_presenter(app, campaign_id),
    )


@router.post(
    "/v1/characters/{character_id}/sheet-changes/{change_id}/approve",
    response_model=CharacterPublic,
    operation_id="approve_sheet_change",
)
def approve_sheet_change(
    character_id: UUID,
    change_id: UUID,
    app: AppDep,
    actor: ActorDep,
    commands: CommandsDep,
    body: SheetChangeDecision | None = None,
) -> JSONResponse:
    """The GM approves a player's pending sheet change: the sheet changes now (resources kept)."""
    return _decide(True, character_id, change_id, body, app, actor.campaign_id, commands)


@router.post(
    "/v1/characters/{character_id}/sheet-changes/{change_id}/decline",
    response_model=CharacterPublic,
    operation_id="decline_sheet_change",
)
def decline_sheet_change(
    character_id: UUID,
    change_id: UUID,
    app: AppDep,
    actor: ActorDep,
    commands: CommandsDep,
    body: SheetChangeDecision | None = None,
) -> JSONResponse:
    """The GM declines a player's pending sheet change, with a note."""
    return _decide(False, character_id, change_id, body, app, actor.campaign_id, commands)
