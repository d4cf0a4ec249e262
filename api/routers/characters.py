"""Characters and their sheets."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from api.command_routes import CommandRoutes, Op, application
from api.deps import (
    NOT_MODIFIED,
    ActorDep,
    AppDep,
    ViewsDep,
    position_query,
    respond,
)
from api.errors import ERROR_RESPONSES
from api.paging import Listing, Page, where_of
from api.presenters import character_shown
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import CharacterPublic, character_public
from domain.aggregates import Campaign, Character
from domain.application import Chronicle, Outcome, SheetProposed
from domain.errors import InvalidInput, NotFound
from domain.requests import (
    Side,
)
from projections.translation import iso

router = APIRouter(route_class=OneHopRoute, tags=["characters"], responses=ERROR_RESPONSES)


routes = CommandRoutes(router, application, model=CharacterPublic, present=character_shown)
reads = ReadRoutes(router)


routes.declare(
    Op(
        "/v1/campaigns/{campaign_id}/characters",
        Chronicle.create_character,
        "The GM creates any character; a player creates characters it owns.",
        created=True,
    )
)


class CharacterPage(Page):
    items: list[CharacterPublic]


CHARACTERS = Listing("character", CharacterPage, CharacterPublic.model_validate)


@reads.page(
    "/v1/campaigns/{campaign_id}/characters", model=CharacterPage, operation_id="list_characters"
)
def list_characters(
    query: PageQuery,
    side: Annotated[Side | None, Query(description="Only characters of this side")] = None,
    owner: Annotated[
        UUID | None,
        Query(description="Only this member's characters; the GM's id lists the GM's own"),
    ] = None,
) -> CharacterPage:
    """The campaign's characters in the order they were created, from the views (the same
    document `as_of` reads: a whole list costs one query, not one replay per character)."""
    campaign = query.get(Campaign)
    where = where_of(side=side)
    if owner is not None:
        where["owner_member_id"] = _owned_by(campaign, owner)
    return query.page(CHARACTERS, campaign.id, where)


def _owned_by(campaign: Campaign, member_id: UUID) -> list[str | None]:
    """The owners the filter matches: the member, and for the GM its characters without owner
    (`owner_member_id` null is "the GM's character")."""
    member = campaign.members.get(member_id)
    if member is None:
        raise InvalidInput("owner names no member of this campaign", field="owner")
    return [str(member_id), None] if member.role == "gm" else [str(member_id)]


@reads.get(
    "/v1/characters/{character_id}",
    model=CharacterPublic,
    operation_id="get_character",
    responses=NOT_MODIFIED,
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


routes.declare(
    Op(
        "/v1/characters/{character_id}/resources",
        Chronicle.adjust_resource,
        "The GM awards or takes a resource with a reason (Resolve awards, WCBH-18).",
        operation_id="adjust_character_resource",
    )
)


def _proposed(outcome: Outcome) -> int:
    """A player's change that waits for the GM is 202."""
    return 202 if isinstance(outcome.result, SheetProposed) else 200


routes.declare(
    Op(
        "/v1/characters/{character_id}/sheet",
        Chronicle.change_sheet,
        """Replace the sheet (the GM at any time; the owning player under the campaign's
    `player_sheet_changes`). The ruleset validates it; current resources are kept (lowered to a
    smaller maximum, never refilled). A player's change that needs the GM's approval is 202: it
    waits in `sheet_changes` as pending.""",
        operation_id="replace_character_sheet",
        name="replace_sheet",
        method="PUT",
        status=_proposed,
        responses={
            202: {
                "model": CharacterPublic,
                "description": "A player's change awaits the GM's approval (in `sheet_changes`)",
            }
        },
    )
)


# One verb behind two paths: the decision is the path's last word (the body, a note, is optional).
SHEET_DECISIONS = {
    "approve": (
        True,
        "The GM approves a player's pending sheet change: the sheet changes now (resources kept).",
    ),
    "decline": (False, "The GM declines a player's pending sheet change, with a note."),
}
for decision, (approved, decision_doc) in SHEET_DECISIONS.items():
    routes.declare(
        Op(
            f"/v1/characters/{{character_id}}/sheet-changes/{{change_id}}/{decision}",
            Chronicle.decide_sheet_change,
            decision_doc,
            operation_id=f"{decision}_sheet_change",
            name=f"{decision}_sheet_change",
            fixed=(approved,),
            optional=True,
        )
    )
