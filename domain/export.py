"""A campaign's log as plain JSON entries, with secrets left out (for export, history and audit)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.aggregates import IdempotencyRecord

if TYPE_CHECKING:
    from domain.application import Chronicle

# Never leave the store: sealed seeds (unrevealed until their scene closes), token hashes (also of
# rotated tokens, Campaign.TokenRotated), Idempotency-Key hashes and the sealed private signing keys.
SECRET_FIELDS = frozenset(
    {
        "sealed_seed",
        "new_sealed_seed",
        "token_hash",
        "gm_token_hash",
        "key_hash",
        "sealed_private_key",
    }
)
PAGE = 500
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic")


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:  # most values: one set lookup (the views write an entry per event)
        return value
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def entry(position: int, event: Any) -> dict[str, Any]:
    payload = {
        k: _plain(v)
        for k, v in event.__dict__.items()
        if k not in ENVELOPE and k not in SECRET_FIELDS
    }
    return {
        "position": position,
        "type": type(event).__qualname__,
        "originator_id": str(event.originator_id),
        "originator_version": event.originator_version,
        "timestamp": event.timestamp.isoformat(),
        "actor": payload.pop("actor", None),  # the member whose command wrote it
        "payload": payload,
    }


def campaign_entries(app: Chronicle, campaign_id: UUID) -> Iterator[dict[str, Any]]:
    """Every event of the campaign's aggregates, in log order, read from the event store itself.

    A scan of the whole log (about 270k events/s on SQLite): an export must show what is stored now,
    not a derived copy, so that tampering with the store shows up in `chronicle verify`."""
    members: set[UUID] = {campaign_id}
    start = 1
    while True:
        notifications = app.recorder.select_notifications(start=start, limit=PAGE)
        for notification in notifications:
            event = app.mapper.to_domain_event(notification)
            originator = event.originator_id
            if originator not in members:
                if getattr(event, "campaign_id", None) != campaign_id:
                    continue
                members.add(originator)
            if isinstance(event, (IdempotencyRecord.Event,)):
                continue
            yield entry(notification.id, event)
        if len(notifications) < PAGE:
            return
        start = notifications[-1].id + 1


def signed_export(app: Chronicle, campaign_id: UUID) -> list[dict[str, Any]]:
    """The campaign's export as `GET /v1/campaigns/{id}/export` sends it: every entry, read fully
    first (so an error is an answer, not half a file), then the signed trailer covering them
    (docs/receipts.md)."""
    entries = list(campaign_entries(app, campaign_id))
    entries.append(app.signing.export_trailer(campaign_id, entries))
    return entries


def jsonl(entries: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    for item in entries:
        yield json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
