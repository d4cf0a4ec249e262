"""Campaigns and their members."""

from __future__ import annotations

from fastapi import APIRouter

from api.command_routes import CommandRoutes, Op, application
from api.deps import Commands
from api.errors import ERROR_RESPONSES
from api.presenters import shown
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import CampaignCreated, CampaignPublic, MemberCreated, TokenIssued, campaign_public
from domain.aggregates import Campaign
from domain.aggregates.campaign import Member
from domain.application import Chronicle, Outcome, TokenMinted

router = APIRouter(
    route_class=OneHopRoute, prefix="/v1/campaigns", tags=["campaigns"], responses=ERROR_RESPONSES
)


def _created(outcome: Outcome, _: Commands) -> CampaignCreated:
    public = campaign_public(outcome.aggregate)  # type: ignore[arg-type]
    gm = outcome.result_as(TokenMinted)
    return CampaignCreated(**public.model_dump(), gm_member_id=gm.member_id, gm_token=gm.token)


def _minted(outcome: Outcome) -> tuple[Campaign, Member, str]:
    """The campaign, the member whose token the command minted, and the token (shown once)."""
    campaign: Campaign = outcome.aggregate  # type: ignore[assignment]
    minted = outcome.result_as(TokenMinted)
    return campaign, campaign.members[minted.member_id], minted.token


def _member(outcome: Outcome, _: Commands) -> MemberCreated:
    campaign, member, token = _minted(outcome)
    return MemberCreated(
        id=member.id,
        campaign_id=campaign.id,
        name=member.name,
        role=member.role,  # type: ignore[arg-type]
        token=token,
        version=campaign.version,
    )


def _token(outcome: Outcome, _: Commands) -> TokenIssued:
    campaign, member, token = _minted(outcome)
    return TokenIssued(
        member_id=member.id,
        campaign_id=campaign.id,
        token=token,
        token_expires_at=member.token_expires_at,
        version=campaign.version,
    )


routes = CommandRoutes(router, application, model=CampaignPublic, present=shown(campaign_public))
routes.declare(
    Op(
        "",
        Chronicle.create_campaign,
        "Create a campaign; needs no token. The answer carries the GM's token, shown once.",
        model=CampaignCreated,
        present=_created,
        anonymous=True,
        created=True,
    )
)


ReadRoutes(router).one(
    "/{campaign_id}",
    Campaign,
    campaign_public,
    model=CampaignPublic,
    operation_id="get_campaign",
)


routes.declare(
    Op(
        "/{campaign_id}/members",
        Chronicle.add_member,
        "The GM adds a player or an observer; the answer carries its token, shown once.",
        model=MemberCreated,
        present=_member,
        created=True,
    ),
    Op(
        "/{campaign_id}/members/{member_id}/token",
        Chronicle.rotate_token,
        """A new token for a member (the GM for anyone, a member for itself), shown once; the old
    token gets 401 from now on, on every replica.""",
        operation_id="rotate_member_token",
        optional=True,  # no body: a token without expiry
        model=TokenIssued,
        present=_token,
    ),
    Op(
        "/{campaign_id}/members/{member_id}/token",
        Chronicle.revoke_token,
        "The GM revokes a member's token: 401 at once, until the GM rotates it a new one.",
        operation_id="revoke_member_token",
        method="DELETE",
    ),
    Op(
        "/{campaign_id}/members/{member_id}",
        Chronicle.remove_member,
        "The GM removes a member (never itself): its token gets 401, its characters pass to the GM.",
        method="DELETE",
    ),
)
