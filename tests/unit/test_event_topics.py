"""Every topic the event store has written still resolves, so that old logs keep loading.

eventsourcing stores each event with the topic of its class (`module:Class.Event`) and each created
event with the topic of its aggregate (`originator_topic`); replaying a log resolves them back to
classes. Moving or renaming an aggregate or an event class therefore breaks every old log, silently,
until the first replay. `event_topics.txt` beside this file lists every topic written so far, one a
line. It was generated, and is brought up to date after new events are added, with one command run
from the repository root:

    .venv/bin/python -m tests.unit.test_event_topics --write

which adds the topics of today's aggregates and events (`domain.aggregates._catalogue.stored_topics`)
to the file, sorted. It never removes a topic: a topic once written stays in old logs for good.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.utils import TopicError, resolve_topic

from domain.aggregates import Campaign
from domain.aggregates._catalogue import stored_topics

TOPICS = Path(__file__).with_name("event_topics.txt")
REGENERATE = ".venv/bin/python -m tests.unit.test_event_topics --write"


def listed() -> list[str]:
    """The topics of event_topics.txt (blank lines and `#` comments skipped)."""
    lines = (line.strip() for line in TOPICS.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def unresolved(topics: list[str]) -> dict[str, str]:
    """The topics that do not resolve to an aggregate or event class, with the reason."""
    problems = {}
    for topic in topics:
        try:
            found = resolve_topic(topic)
        except TopicError as error:
            problems[topic] = str(error)
            continue
        if not (inspect.isclass(found) and issubclass(found, (Aggregate, Aggregate.Event))):
            problems[topic] = f"resolves to {found!r}, which is no aggregate or event class"
    return problems


def test_every_stored_topic_still_resolves_to_an_aggregate_or_event_class() -> None:
    problems = unresolved(listed())
    assert not problems, (
        "Old logs hold these topics, and they no longer resolve, so those logs cannot be loaded:\n"
        + "\n".join(f"  {topic}: {why}" for topic, why in problems.items())
        + "\nKeep the class under its old module and name, or register the old topic for the moved "
        "class with eventsourcing.utils.register_topic(old_topic, NewClass) in "
        "domain/aggregates/__init__.py. Do not delete the line from tests/unit/event_topics.txt."
    )


def test_every_event_class_of_the_domain_is_in_the_list() -> None:
    new = sorted(set(stored_topics()) - set(listed()))
    assert not new, (
        "These aggregate or event classes are not in tests/unit/event_topics.txt yet:\n"
        + "\n".join(f"  {topic}" for topic in new)
        + f"\nIf they are meant to be written to the log, add them with `{REGENERATE}` (from the "
        "repository root) and commit the file: from then on moving or renaming them fails this test."
    )


def test_the_topics_a_real_save_writes_are_the_ones_the_list_holds() -> None:
    # Guards the list's own format: what an eventsourcing store writes is what we compare with.
    app = Application[UUID](env={"PERSISTENCE_MODULE": "eventsourcing.popo"})  # in memory
    campaign = Campaign.create(
        campaign_id=uuid4(),
        name="Night City",
        ruleset="wcbh",
        settings={},
        gm_member_id=uuid4(),
        gm_name="Ana",
        gm_token_hash="0" * 64,
    )
    app.save(campaign)
    stored = app.recorder.select_events(campaign.id)
    created = app.mapper.to_domain_event(stored[0])
    written = {*(s.topic for s in stored), created.originator_topic}  # type: ignore[attr-defined]
    assert written == {
        "domain.aggregates.campaign:Campaign",
        "domain.aggregates.campaign:Campaign.Created",
    }
    assert written <= set(listed())


def write() -> list[str]:
    """Add today's topics to event_topics.txt, keeping every topic it already lists; the new ones."""
    known = listed() if TOPICS.exists() else []
    new = sorted(set(stored_topics()) - set(known))
    header = (
        "# Every event and aggregate topic the event store has written; old logs hold them for good.\n"
        f"# Checked by tests/unit/test_event_topics.py. Add new ones with: {REGENERATE}\n"
    )
    TOPICS.write_text(header + "".join(f"{t}\n" for t in sorted({*known, *new})))
    return new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Add today's event topics to event_topics.txt.")
    parser.add_argument("--write", action="store_true", help="update tests/unit/event_topics.txt")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 2
    new = write()
    print("\n".join(f"added {topic}" for topic in new) or "event_topics.txt was up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
