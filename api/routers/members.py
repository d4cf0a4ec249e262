"""Who the token is (`/v1/me`) and the campaign's members, listed."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from api.deps import ActorDep, AppDep
from api.errors import ERROR_RESPONSES
from api.paging import Page, next_after
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import MemberPublic, MePublic, me_public, member_public
from domain.aggregates import Campaign

router = APIRouter(route_class=OneHopRoute, tags=["campaigns"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


class MemberPage(Page):
    items: list[MemberPublic]


@reads.get("/v1/me", model=MePublic, operation_id="get_me")
def me(app: AppDep, actor: ActorDep) -> MePublic:
    """The token's member (id, name, role) and its campaign (id, name, ruleset)."""
    return me_public(app.get(actor, Campaign, actor.campaign_id), actor.member_id)


@reads.page("/v1/campaigns/{campaign_id}/members", model=MemberPage, operation_id="list_members")
def list_members(
    query: PageQuery,
    role: Annotated[
        Literal["gm", "player", "observer"] | None, Query(description="Only members of this role")
    ] = None,
) -> MemberPage:
    """The members in the order they joined (removed ones left out), with their tokens' state.

    From the campaign aggregate, which keeps the token state no view holds; the position each
    joined at comes from the views (a member the views have not reached yet waits for the next
    page or for `min_position`)."""
    campaign = query.get(Campaign)
    joined = query.views.store.joined(str(campaign.id))
    rows = sorted(
        (
            (joined[str(m.id)], m)
            for m in campaign.members.values()
            if str(m.id) in joined
            and joined[str(m.id)].created > query.after
            and (role is None or m.role == role)
        ),
        key=lambda pair: pair[0].created,
    )[: query.limit]
    return MemberPage(
        items=[member_public(m) for _, m in rows],
        next_after=next_after([listed for listed, _ in rows], query.limit),
    )
