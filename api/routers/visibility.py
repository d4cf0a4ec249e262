"""Visibility: the GM hides characters from the players and reveals its secret rolls
(docs/front-ends.md, "Visibility"); every read withholds what a reader may not see."""

from __future__ import annotations

from fastapi import APIRouter

from api.command_routes import CommandRoutes, Op
from api.deps import Commands
from api.errors import ERROR_RESPONSES
from api.presenters import roll_shown
from api.routing import OneHopRoute
from api.schemas import CampaignPublic, RollPublic, campaign_public
from domain.aggregates import Campaign
from domain.application import Chronicle, Outcome
from domain.visibility import VisibilityCommands

router = APIRouter(route_class=OneHopRoute, tags=["visibility"], responses=ERROR_RESPONSES)


def _visibility(app: Chronicle) -> VisibilityCommands:
    return app.visibility


def _campaign(outcome: Outcome, _: Commands) -> CampaignPublic:
    campaign = outcome.aggregate
    assert isinstance(campaign, Campaign)
    return campaign_public(campaign)


routes = CommandRoutes(router, _visibility)
routes.declare(
    Op(
        "/v1/characters/{character_id}/visibility",
        VisibilityCommands.set_character_visibility,
        """The GM hides a character from players and observers (`hidden: true`) or shows it again;
    the answer is the campaign with its `hidden_character_ids`. A hidden character is absent
    from every read of theirs: 404 as if it did not exist, left out of lists, views, the log, the
    stream, replays and the export, and its rolls are withheld.""",
        model=CampaignPublic,
        present=_campaign,
    ),
    Op(
        "/v1/rolls/{roll_id}/reveal",
        VisibilityCommands.reveal_roll,
        """The GM reveals a secret roll (`secret` on POST /v1/scenes/{scene_id}/rolls) and its
    follow-ups: from now on every member sees it whole.""",
        model=RollPublic,
        present=roll_shown,
    ),
)
