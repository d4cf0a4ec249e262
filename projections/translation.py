"""`Translation`: what one event changes in the views. Shared by the views projection
(projections/views.py) and the view translations of each game system (systems/<name>/views.py)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from domain.aggregates.scene import scene_state
from domain.rulesets import get_ruleset
from projections.store import Changes, Doc, ViewTransaction


class Translation:
    """What one event changes: the documents it touches, its log entry and its timeline steps."""

    def __init__(self, view: ViewTransaction, event: Any, position: int) -> None:
        self.view = view
        self.event = event
        self.position = position
        self.aggregate, self.name = _names(type(event))
        self.id = str(event.originator_id)
        self.changes = Changes(at=iso(event.timestamp))
        self._saved: dict[tuple[str, str], dict[str, Any]] = {}

    def load(self, kind: str, doc_id: str) -> dict[str, Any]:
        """A copy of a document to change: as this event saved it, else as the page holds it."""
        saved = self._saved.get((kind, doc_id))
        found = copy.deepcopy(saved) if saved is not None else self.view.doc(kind, doc_id)
        if found is None:
            raise LookupError(f"no {kind} view {doc_id} for event {self.aggregate}.{self.name}")
        return found

    def new(self, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """A created event's document (nothing before it): its id, its campaign, then `fields`."""
        return {}, {"id": self.id, "campaign_id": str(self.event.campaign_id), **fields}

    def edit(self, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The event's own document as it was (for the step's changes) and a copy to change."""
        return self.load(kind, self.id), self.load(kind, self.id)

    def record(
        self, kind: str, doc: dict[str, Any], before: dict[str, Any], text: str | None
    ) -> None:
        """Save the event's own document, in its campaign, and tell the change if it has words
        (bookkeeping events have none: another event tells what happened)."""
        self.save(kind, doc)
        self.changes.campaign_id = doc["campaign_id"]
        if text:
            self.step(text, before, doc)

    def save(self, kind: str, doc: dict[str, Any], ref: str | None = None) -> None:
        doc["version"] = (
            self.event.originator_version if doc["id"] == self.id else doc.get("version")
        )
        self._saved[(kind, doc["id"])] = doc
        self.changes.docs = [d for d in self.changes.docs if (d.kind, d.id) != (kind, doc["id"])]
        self.changes.docs.append(Doc(kind, doc["id"], doc["campaign_id"], doc, ref))

    def step(
        self, text: str, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None
    ) -> None:
        self.changes.steps.append(
            {
                "position": self.position,
                "at": self.changes.at,
                "type": f"{self.aggregate}.{self.name}",
                "actor": getattr(self.event, "actor", None),
                "text": text,
                "changes": diff(before or {}, after or {}),
            }
        )


def in_scene(t: Translation, scene_id: Any) -> None:
    """A character's event that happens in a scene is also told in that scene's replay."""
    scene_doc = t.load("scene", str(scene_id))
    t.changes.scopes = {
        "story_id": scene_doc["story_id"],
        "issue_id": scene_doc["issue_id"],
        "scene_id": scene_doc["id"],
    }


def refresh_derived(t: Translation, doc: dict[str, Any]) -> None:
    """A character's derived stats and resource limits after its sheet changed (current levels
    kept); the views projection and the systems' translations both need it."""
    campaign_doc = t.load("campaign", doc["campaign_id"])
    rules = get_ruleset(campaign_doc["ruleset"])
    settings = rules.parse_settings(campaign_doc["settings"])
    sheet = rules.parse_sheet(doc["sheet"], settings, side=doc["side"])
    doc["derived"] = rules.derived_stats(sheet, settings)
    levels = {name: spec["current"] for name, spec in doc.get("resources", {}).items()}
    doc["resources"] = {
        name: {**spec, "current": levels.get(name, spec["start"])}
        for name, spec in rules.resources(sheet, settings).items()
    }


_NAMES: dict[type, tuple[str, str]] = {}


def _names(event_class: type) -> tuple[str, str]:
    """An event class's aggregate and event names ("Scene", "PageAdvanced"), worked out once."""
    names = _NAMES.get(event_class)
    if names is None:
        aggregate, name = event_class.__qualname__.split(".", 1)
        names = _NAMES[event_class] = (aggregate, name)
    return names


def iso(moment: datetime) -> str:
    """A fixed-width UTC timestamp, so that text order is time order (for as_of queries)."""
    if moment.tzinfo is not UTC:  # the log's timestamps are UTC already
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    changed = {}
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old != new and key != "version":
            changed[key] = [old, new]
    return changed


# A game system's translation of one of its events: changes `doc` (the view of the event's
# aggregate) and returns the step's text. systems/<name>/views.py lists its own in TRANSLATIONS,
# by (view kind, event name): ("character", "HealthChanged"), ("scene", "...")...
SystemTranslation = Callable[[Translation, dict[str, Any]], str]


def system_state(t: Translation, doc: dict[str, Any], ruleset: str, area_name: str) -> str:
    """One change of a system's state on the scene (`Scene.StateChanged`, or an event a system
    wrote before it), applied to the view's doc with the very function the Scene aggregate
    applies; told with the actor's name when the change has one."""
    e = t.event
    area = scene_state(ruleset, area_name)
    doc[area.view_key] = area.apply(doc.get(area.view_key), e.page, e.change, e.details)
    who = e.details.get("character_id")
    name = str(t.load("character", str(who))["name"]) if who else ""
    return area.describe(e.change, e.details, name)
