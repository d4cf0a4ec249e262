"""Campaigns and their members."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import WAIT, ActorDep, AnonymousCommandsDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import CampaignCreated, CampaignPublic, MemberCreated, TokenIssued, campaign_public
from domain.aggregates import Campaign
from domain.application import Outcome, TokenMinted
from domain.requests import CampaignCreate, MemberCreate, TokenRotate

router = APIRouter(prefix="/v1/campaigns", tags=["campaigns"], responses=ERROR_RESPONSES)


@router.post("", status_code=201, response_model=CampaignCreated, operation_id="create_campaign")
def create_campaign(
    body: CampaignCreate, app: AppDep, commands: AnonymousCommandsDep
) -> JSONResponse:
    """Create a campaign; needs no token. The answer carries the GM's token, shown once."""

    def present(outcome: Outcome) -> CampaignCreated:
        public = campaign_public(outcome.aggregate)  # type: ignore[arg-type]
        gm = outcome.result_as(TokenMinted)
        return CampaignCreated(**public.model_dump(), gm_member_id=gm.member_id, gm_token=gm.token)

    return commands.run(app.create_campaign, body, present=present, status_code=201)


@router.get(
    dependencies=WAIT,
    path="/{campaign_id}",
    response_model=CampaignPublic,
    operation_id="get_campaign",
)
def get_campaign(campaign_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    return respond(campaign_public(app.get(actor, Campaign, campaign_id)))


@router.post(
    "/{campaign_id}/members",
    status_code=201,
    response_model=MemberCreated,
    operation_id="add_member",
)
def add_member(
    campaign_id: UUID, body: MemberCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM adds a player or an observer; the answer carries its token, shown once."""

    def present(outcome: Outcome) -> MemberCreated:
        campaign: Campaign = outcome.aggregate  # type: ignore[assignment]
        minted = outcome.result_as(TokenMinted)
        member = campaign.members[minted.member_id]
        return MemberCreated(
            id=member.id,
            campaign_id=campaign.id,
            name=member.name,
            role=member.role,  # type: ignore[arg-type]
            token=minted.token,
            version=campaign.version,
        )

    return commands.run(app.add_member, campaign_id, body, present=present, status_code=201)


def _campaign(outcome: Outcome) -> CampaignPublic:
    return campaign_public(outcome.aggregate)  # type: ignore[arg-type]


@router.post(
    "/{campaign_id}/members/{member_id}/token",
    response_model=TokenIssued,
    operation_id="rotate_member_token",
)
def rotate_token(
    campaign_id: UUID,
    member_id: UUID,
    app: AppDep,
    commands: CommandsDep,
    body: TokenRotate | None = None,
) -> JSONResponse:
    """A new token for a member (the GM for anyone, a member for itself), shown once; the old
    token gets 401 from now on, on every replica."""

    def present(outcome: Outcome) -> TokenIssued:
        campaign: Campaign = outcome.aggregate  # type: ignore[assignment]
        minted = outcome.result_as(TokenMinted)
        member = campaign.members[minted.member_id]
        return TokenIssued(
            member_id=member.id,
            campaign_id=campaign.id,
            token=minted.token,
            token_expires_at=member.token_expires_at,
            version=campaign.version,
        )

    body = body or TokenRotate()  # no body: a token without expiry
    return commands.run(app.rotate_token, campaign_id, member_id, body, present=present)


@router.delete(
    "/{campaign_id}/members/{member_id}/token",
    response_model=CampaignPublic,
    operation_id="revoke_member_token",
)
def revoke_token(
    campaign_id: UUID, member_id: UUID, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM revokes a member's token: 401 at once, until the GM rotates it a new one."""
    return commands.run(app.revoke_token, campaign_id, member_id, present=_campaign)


@router.delete(
    "/{campaign_id}/members/{member_id}",
    response_model=CampaignPublic,
    operation_id="remove_member",
)
def remove_member(
    campaign_id: UUID, member_id: UUID, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """The GM removes a member (never itself): its token gets 401, its characters pass to the GM."""
    return commands.run(app.remove_member, campaign_id, member_id, present=_campaign)
