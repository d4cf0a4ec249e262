"""Which aggregate and event classes the domain can write, found by introspection.

The event catalogue (docs/event_catalogue.py) and the stored-topic guard (tests/unit/test_event_topics.py)
both need this list; one place keeps them agreeing.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

import domain.aggregates


def aggregate_classes() -> list[type[Aggregate]]:
    """Every aggregate class defined in the modules of the domain.aggregates package, by name."""
    found: dict[str, type[Aggregate]] = {}
    for info in pkgutil.iter_modules(domain.aggregates.__path__):
        module = importlib.import_module(f"domain.aggregates.{info.name}")
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, Aggregate)
                and value is not Aggregate
                and value.__module__ == module.__name__
            ):
                found[value.__qualname__] = value
    return [found[name] for name in sorted(found)]


def event_classes(cls: type[Aggregate]) -> list[type[Aggregate.Event]]:
    """The event classes an aggregate can write, in the order the class defines them.

    eventsourcing nests one class per @event on the aggregate, subclassing its `Event`. It also
    redefines the generic `Created` on every aggregate; that one is written only when the aggregate
    names no other created event (`@event("Recorded")` on `__init__`, or a dataclass aggregate's
    `created_event_name="Recorded"`), so `Created` events other than the one written are skipped.
    """
    created = [
        name
        for name, value in vars(cls).items()
        if inspect.isclass(value) and issubclass(value, Aggregate.Created) and name != "Created"
    ]
    created_name = created[0] if created else "Created"
    found = []
    for name, value in vars(cls).items():
        if not (inspect.isclass(value) and issubclass(value, cls.Event)) or value is cls.Event:
            continue
        if issubclass(value, Aggregate.Created) and name != created_name:
            continue
        found.append(value)
    return found


def stored_topics() -> list[str]:
    """The topics the event store writes today, sorted: each aggregate's (`originator_topic` of its
    created event) and each of its events' (the stored `topic`)."""
    topics = []
    for cls in aggregate_classes():
        topics.append(get_topic(cls))
        topics += [get_topic(event_cls) for event_cls in event_classes(cls)]
    return sorted(topics)
