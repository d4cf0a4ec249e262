"""Given events → command → new events: the shape of every aggregate test."""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate

A = TypeVar("A", bound=Aggregate)
# Events recorded so far per aggregate id, so that given() can be applied again after a command.
HISTORY: dict[UUID, list[Any]] = {}


def given(aggregate: A) -> A:
    """Rebuild the aggregate from all its events so far, as a repository would, with none pending."""
    events = [*HISTORY.get(aggregate.id, []), *aggregate.collect_events()]
    rebuilt: Any = None
    for event in events:
        rebuilt = event.mutate(rebuilt)
    HISTORY[aggregate.id] = events
    return rebuilt  # type: ignore[no-any-return]


def new_events(aggregate: Aggregate) -> list[tuple[str, dict[str, Any]]]:
    """The events a command produced: (type name, the payload fields of the event)."""
    skip = {"originator_id", "originator_version", "timestamp", "originator_topic"}
    return [
        (type(e).__name__, {k: v for k, v in e.__dict__.items() if k not in skip})
        for e in aggregate.collect_events()
    ]
