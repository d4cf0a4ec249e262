"""A campaign's log as plain JSON entries, with secrets left out (for export, history and audit)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.aggregates import IdempotencyRecord
from domain.commands import Actor
from domain.visibility import Visibility

if TYPE_CHECKING:
    from domain.application import Chronicle

# Never leave the store: sealed seeds (unrevealed until their scene closes), token hashes (also of
# rotated tokens, Campaign.TokenRotated), Idempotency-Key hashes, the sealed private signing keys, and
# a webhook's sealed secret and its URL (a chat service's webhook URL is itself a credential).
SECRET_FIELDS = frozenset(
    {
        "sealed_seed",
        "new_sealed_seed",
        "token_hash",
        "gm_token_hash",
        "key_hash",
        "sealed_private_key",
        "sealed_secret",
        "receiver_url",
    }
)
PAGE = 500
UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
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


def ids_in(value: Any) -> set[str]:
    """Every id (UUID text) a plain JSON value holds, as a key, a value or inside a text."""
    if isinstance(value, str):
        return set(UUID_TEXT.findall(value))
    if isinstance(value, dict):
        return {i for k, v in value.items() for i in ids_in(k) | ids_in(v)}
    if isinstance(value, list):
        return {i for v in value for i in ids_in(v)}
    return set()


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


# Told the last log position read after each page, for a long export's progress.
Progress = Callable[[int], None]


def campaign_entries(
    app: Chronicle, campaign_id: UUID, progress: Progress | None = None
) -> Iterator[dict[str, Any]]:
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
        if progress is not None and notifications:
            progress(notifications[-1].id)
        if len(notifications) < PAGE:
            return
        start = notifications[-1].id + 1


def signed_export(
    app: Chronicle, actor: Actor, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """The campaign's export as `GET /v1/campaigns/{id}/export` sends it to `actor`: every entry
    it may see (domain/visibility.py), read fully first (so an error is an answer, not half a
    file), then the signed trailer covering them (docs/receipts.md)."""
    campaign_id = actor.campaign_id
    read = list(campaign_entries(app, campaign_id, progress))
    # the campaign after the entries: it knows every hide and secret roll they hold
    entries = Visibility.of(app.campaign_of(actor), actor).entries(read)
    entries.append(app.signing.export_trailer(campaign_id, entries))
    return entries


def jsonl(entries: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    for item in entries:
        yield json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
