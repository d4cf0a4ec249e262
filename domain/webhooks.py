"""Webhooks: the GM registers and removes a campaign's outbound pushes; the pushes are signed with
HMAC-SHA256 (delivered by projections/webhooks.py, documented in docs/front-ends.md)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit
from uuid import UUID

from pydantic import Field, field_validator

from domain.aggregates import Campaign, Webhook
from domain.aggregates._catalogue import aggregate_classes, event_classes
from domain.commands import CommandContext, Component, Outcome, command
from domain.requests import Strict

SECRET_PREFIX = "whsec_"
SIGNATURE_HEADER = "X-Chronicle-Signature"
MAX_URL = 2000
MAX_TYPES = 100


def entry_types() -> set[str]:
    """Every `type` a log entry can have (`Scene.PageAdvanced`...), and `Scene.*` for each
    aggregate: what a webhook may ask for."""
    found = {"*"}
    for cls in aggregate_classes():
        found.add(f"{cls.__qualname__}.*")
        found.update(f"{cls.__qualname__}.{e.__name__}" for e in event_classes(cls))
    return found


ENTRY_TYPES = frozenset(entry_types())


class WebhookCreate(Strict):
    url: str = Field(
        max_length=MAX_URL,
        description="Where each entry is POSTed: an absolute http:// or https:// URL",
        examples=["https://forum.example.org/chronicle/hook"],
    )
    types: list[str] = Field(
        min_length=1,
        max_length=MAX_TYPES,
        description="The entry types wanted: `Roll.Recorded`, `Scene.*` (every type of one "
        "aggregate) or `*` (everything)",
        examples=[["Roll.Recorded", "Scene.Closed"]],
    )
    description: str | None = Field(default=None, max_length=200)

    @field_validator("url")
    @classmethod
    def _absolute_http(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an absolute http:// or https:// URL with a host")
        if any(c.isspace() for c in value) or parts.fragment:
            raise ValueError("must hold no spaces and no #fragment")
        return value

    @field_validator("types")
    @classmethod
    def _known_types(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - ENTRY_TYPES)
        if unknown:
            raise ValueError(f"unknown entry types {unknown} (see docs/events.md)")
        return sorted(set(value))


@dataclass(frozen=True)
class WebhookSecret:
    """The new webhook's signing secret, shown once."""

    secret: str


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=<hex>` of HMAC-SHA256(secret, timestamp + "." + body): the timestamp is signed
    too, so a receiver that refuses old timestamps refuses replays."""
    signed = timestamp.encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def wanted(types: list[str], entry_type: str) -> bool:
    aggregate = entry_type.split(".", 1)[0]
    return "*" in types or entry_type in types or f"{aggregate}.*" in types


class Webhooks(Component):
    """The webhooks' commands (GM only): a component the API builds over the application."""

    @command
    def register_webhook(
        self, ctx: CommandContext, campaign_id: UUID, body: WebhookCreate
    ) -> Outcome:
        app = self.app
        campaign = app._gm_target(ctx, Campaign, campaign_id)
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        sealed = app.sealer.seal(secret)
        webhook = Webhook(campaign.id, body.url, body.types, body.description, sealed)
        return app._commit(ctx, webhook, result=WebhookSecret(secret))

    @command
    def remove_webhook(self, ctx: CommandContext, webhook_id: UUID) -> Outcome:
        app = self.app
        webhook = app._gm_target(ctx, Webhook, webhook_id)
        webhook.remove()
        return app._commit(ctx, webhook)
