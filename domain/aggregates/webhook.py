"""Webhook: a campaign's outbound push of its log entries to a receiver's URL, signed with a secret
(docs/front-ends.md, "Webhooks")."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import Conflict


class Webhook(Aggregate):
    """Recorded by the GM: where to push, which entry types, and the sealed signing secret.

    The URL is kept out of the log entries that members read (domain/export.py SECRET_FIELDS): a
    chat service's webhook URL carries its own credential."""

    @event("Registered")
    def __init__(
        self,
        campaign_id: UUID,
        receiver_url: str,
        types: list[str],
        description: str | None,
        sealed_secret: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.receiver_url = receiver_url
        self.types = types
        self.description = description
        self.sealed_secret = sealed_secret
        self.removed = False

    @property
    def status(self) -> str:
        return "removed" if self.removed else "active"

    def remove(self) -> None:
        if self.removed:
            raise Conflict("this webhook was removed already", code="webhook_removed")
        self._removed()

    @event("Removed")
    def _removed(self) -> None:
        self.removed = True
