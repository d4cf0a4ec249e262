"""Characters and their sheets."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import CharacterCreate, CharacterPublic, SheetReplace, character_public
from domain.aggregates import Campaign, Character
from domain.application import Chronicle, Outcome

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
        body.name,
        body.side,
        body.owner_member_id,
        body.sheet,
        present=_presenter(app, campaign_id),
        status_code=201,
    )


@router.get(
    "/v1/characters/{character_id}", response_model=CharacterPublic, operation_id="get_character"
)
def get_character(character_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    character = app.get(actor, Character, character_id)
    return respond(character_public(character, app.get(actor, Campaign, character.campaign_id)))


@router.put(
    "/v1/characters/{character_id}/sheet",
    response_model=CharacterPublic,
    operation_id="replace_character_sheet",
)
def replace_sheet(
    character_id: UUID, body: SheetReplace, app: AppDep, actor: ActorDep, commands: CommandsDep
) -> JSONResponse:
    """Replace the sheet (the GM, or the owning player); the ruleset validates it."""
    return commands.run(
        app.change_sheet,
        character_id,
        body.sheet,
        present=_presenter(app, actor.campaign_id),
    )
