"""Webhooks (GM only): register a campaign's outbound pushes, list and remove them, and read each
one's delivery log (docs/front-ends.md, "Webhooks")."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, AppDep, Commands
from api.errors import ERROR_RESPONSES
from api.paging import After, Limit, Listing, Page
from api.read_routes import PageQuery, ReadRoutes
from api.routing import OneHopRoute
from api.schemas import Written
from domain.aggregates import Campaign, Webhook
from domain.application import Actor, Outcome
from domain.errors import Forbidden
from domain.webhooks import Webhooks, WebhookSecret
from projections.webhooks import Outbox

router = APIRouter(route_class=OneHopRoute, tags=["webhooks"], responses=ERROR_RESPONSES)


class WebhookPublic(Written):
    id: UUID
    campaign_id: UUID
    url: str
    types: list[str] = Field(description="The entry types pushed (`Roll.Recorded`, `Scene.*`, `*`)")
    description: str | None
    status: Literal["active", "removed"]


class WebhookCreated(WebhookPublic):
    secret: str = Field(
        description="The signing secret, shown once: verify X-Chronicle-Signature with it"
    )


class WebhookPage(Page):
    items: list[WebhookPublic]


class WebhookDeliveryAttempt(BaseModel):
    n: int = Field(description="1 for the first attempt")
    at: str = Field(description="When it was made (UTC)")
    status_code: int | None = Field(description="The receiver's HTTP status; null: no answer")
    error: str | None = Field(description="Why there was no answer (refused, timed out...)")


class WebhookDelivery(BaseModel):
    id: UUID = Field(description="Sent as X-Chronicle-Delivery: the same on every retry")
    position: int = Field(description="The log entry's position")
    type: str = Field(description="The log entry's type")
    state: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: str | None = Field(description="When it is tried next (pending only)")
    created_at: str
    attempt_log: list[WebhookDeliveryAttempt]


class WebhookDeliveryPage(Page):
    items: list[WebhookDelivery]


def webhook_public(webhook: Webhook) -> dict[str, Any]:
    return {
        "id": webhook.id,
        "campaign_id": webhook.campaign_id,
        "url": webhook.receiver_url,
        "types": webhook.types,
        "description": webhook.description,
        "status": webhook.status,
        "version": webhook.version,
    }


def _created(outcome: Outcome, _: Commands) -> WebhookCreated:
    secret = outcome.result_as(WebhookSecret).secret
    return WebhookCreated(**webhook_public(outcome.aggregate), secret=secret)  # type: ignore[arg-type]


def _removed(outcome: Outcome, _: Commands) -> WebhookPublic:
    return WebhookPublic(**webhook_public(outcome.aggregate))  # type: ignore[arg-type]


routes = CommandRoutes(router, Webhooks, model=WebhookPublic, present=_removed)
routes.declare(
    Op(
        "/v1/campaigns/{campaign_id}/webhooks",
        Webhooks.register_webhook,
        """Push the campaign's new log entries of the types wanted to a URL (GM): each a signed
    POST, retried with backoff. The answer carries the signing secret, shown once.""",
        created=True,
        model=WebhookCreated,
        present=_created,
    ),
    Op(
        "/v1/webhooks/{webhook_id}",
        Webhooks.remove_webhook,
        "Stop a webhook (GM): nothing more is pushed; its delivery log stays readable.",
        method="DELETE",
    ),
)


def _gm(actor: Actor) -> None:
    if not actor.is_gm:
        raise Forbidden(f"only the GM may read webhooks; your role is {actor.role}")


def _webhook_item(doc: dict[str, Any]) -> WebhookPublic:
    return WebhookPublic.model_validate(doc)  # the document's URL, never its sealed secret


WEBHOOKS = Listing("webhook", WebhookPage, _webhook_item)
reads = ReadRoutes(router)


@reads.page("/v1/campaigns/{campaign_id}/webhooks", model=WebhookPage, operation_id="list_webhooks")
def list_webhooks(query: PageQuery) -> WebhookPage:
    """The campaign's webhooks in the order they were registered, removed ones too (GM)."""
    campaign = query.get(Campaign)
    _gm(query.actor)
    return query.page(WEBHOOKS, campaign.id, {})


@router.get(
    "/v1/webhooks/{webhook_id}/deliveries",
    response_model=WebhookDeliveryPage,
    operation_id="list_webhook_deliveries",
)
def list_deliveries(
    webhook_id: UUID,
    request: Request,
    app: AppDep,
    actor: ActorDep,
    after: After = 0,
    limit: Limit = 100,
) -> WebhookDeliveryPage:
    """The webhook's deliveries in log order (GM): each with its attempts, their status codes and
    times, and when it is tried next. `after` is a log position, as on every list."""
    webhook = app.get(actor, Webhook, webhook_id)
    _gm(actor)
    outbox: Outbox = request.app.state.outbox
    rows = outbox.deliveries(str(webhook.id), after, limit)
    return WebhookDeliveryPage(
        items=[WebhookDelivery.model_validate(r) for r in rows],
        next_after=rows[-1]["position"] if len(rows) == limit else None,
    )
