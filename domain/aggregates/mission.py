"""Mission: one attempt at a goal (CD-21), with its counters (alarm CD-23, rival progress CD-24,
GM-defined counters CD-25) and its rests (CD-22); ended once with an outcome."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict, InvalidInput, NotFound

# CD-21: a mission has one attempt; it ends completed, failed, aborted (to resupply) or lost to rivals.
MISSION_OUTCOMES = ("completed", "failed", "aborted", "lost_to_rivals")

ALARM = "alarm"
RIVALS = "rival_progress"
# CD-23: 0-3 Green, 4-6 Yellow, 7-9 Red, 10 Critical.
ALARM_ZONES: tuple[tuple[str, int], ...] = (
    ("green", 0),
    ("yellow", 4),
    ("red", 7),
    ("critical", 10),
)
COUNTER_TOP = 10  # CD-23, CD-24: both counters run 0-10

# Known reasons (CD-23, CD-24), with the direction each one moves its counter (0: either way).
REASON_CODES: dict[str, dict[str, int]] = {
    ALARM: {
        "noise": 1,
        "escaped_witnesses": 1,
        "heroes_believed_beaten": -1,
        "heroes_losses": -1,
        "heroes_captured": -1,
        "rivals": 0,
    },
    RIVALS: {"rival_success": 1, "rival_failure": -1},
}
RULES = {ALARM: "CD-23", RIVALS: "CD-24"}
CUSTOM_RULE = "CD-25"

COUNTER_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_CUSTOM_COUNTERS = 20
MAX_MAXIMUM = 1000
MAX_ZONES = 10
MAX_ZONE_NAME = 40
MAX_CHANGE = 1000
MAX_REASON = 500


def zone_of(zones: Sequence[Mapping[str, Any]], value: int) -> str | None:
    """The zone a value is in: the last one that starts at or below it (None without zones)."""
    found = None
    for zone in zones:
        if zone["start"] <= value:
            found = zone["name"]
    return found


def _counter(
    name: str, label: str, kind: str, maximum: int, zones: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "name": name,
        "label": label,
        "kind": kind,
        "rule": RULES.get(name, CUSTOM_RULE),
        "value": 0,
        "maximum": maximum,
        "zones": zones,
        "zone": zone_of(zones, 0),
        "history": [],
    }


def initial_counters() -> dict[str, dict[str, Any]]:
    """Every mission starts with the alarm (CD-23) and rival progress (CD-24) at 0."""
    alarm_zones = [{"name": name, "start": start} for name, start in ALARM_ZONES]
    return {
        ALARM: _counter(ALARM, "Alarm", "alarm", COUNTER_TOP, alarm_zones),
        RIVALS: _counter(RIVALS, "Rival progress", "rival_progress", COUNTER_TOP, []),
    }


class Mission(Aggregate):
    @event("Created")
    def __init__(
        self, campaign_id: UUID, title: str, scene_id: UUID | None, story_id: UUID | None
    ) -> None:
        self.campaign_id = campaign_id
        self.title = title
        self.scene_id = scene_id
        self.story_id = story_id
        self.outcome: str | None = None
        self.counters: dict[str, dict[str, Any]] = initial_counters()
        self.rests: list[dict[str, Any]] = []

    @classmethod
    def create(
        cls, campaign_id: UUID, title: str, scene_id: UUID | None, story_id: UUID | None
    ) -> Mission:
        return cls(
            campaign_id=campaign_id,
            title=clean_title(title, "title"),
            scene_id=scene_id,
            story_id=story_id,
        )

    @property
    def status(self) -> str:
        return "active" if self.outcome is None else "ended"

    def check_active(self) -> None:
        """CD-21: an ended mission is over for good; nothing about it changes any more."""
        if self.outcome is not None:
            raise Conflict(
                f"the mission has already ended ({self.outcome}); a mission has one attempt",
                code="mission_ended",
                rule="CD-21",
            )

    def end(self, outcome: str) -> None:
        if outcome not in MISSION_OUTCOMES:
            raise InvalidInput(
                f"outcome must be one of {', '.join(MISSION_OUTCOMES)}, not {outcome!r}",
                field="outcome",
                rule="CD-21",
            )
        self.check_active()
        self._ended(outcome)

    @event("Ended")
    def _ended(self, outcome: str) -> None:
        self.outcome = outcome

    # ---- counters (CD-23, CD-24, CD-25) ----------------------------------------------------------

    def define_counter(
        self, name: str, label: str | None, maximum: int, zones: Sequence[Mapping[str, Any]]
    ) -> None:
        """CD-25: a GM-defined counter (the catastrophe counter, or any other) from 0 to its maximum."""
        self.check_active()
        name = _counter_name(name)
        if name in self.counters:
            raise Conflict(
                f"the mission already has a counter {name!r}",
                field="name",
                code="counter_exists",
                rule=CUSTOM_RULE,
            )
        if sum(1 for c in self.counters.values() if c["kind"] == "custom") >= MAX_CUSTOM_COUNTERS:
            raise Conflict(
                f"a mission has at most {MAX_CUSTOM_COUNTERS} counters of its own",
                field="name",
                code="too_many_counters",
                rule=CUSTOM_RULE,
            )
        text = name if label is None else _text(label, "label", 80, CUSTOM_RULE)
        if not _is_int(maximum) or not 1 <= maximum <= MAX_MAXIMUM:
            raise InvalidInput(
                f"maximum must be a whole number from 1 to {MAX_MAXIMUM}",
                field="maximum",
                rule=CUSTOM_RULE,
            )
        self._counter_defined(name, text, maximum, _zones(zones, maximum))

    @event("CounterDefined")
    def _counter_defined(
        self, name: str, label: str, maximum: int, zones: list[dict[str, Any]]
    ) -> None:
        self.counters[name] = _counter(name, label, "custom", maximum, copy.deepcopy(zones))

    def change_counter(self, name: str, change: int, reason: str, code: str | None) -> None:
        """Raise or lower a counter, clamped to 0..maximum (CD-23); a zone crossed is its own event;
        rival progress reaching its top ends the mission as lost to rivals (CD-24)."""
        self.check_active()
        counter = self.counters.get(name)
        if counter is None:
            raise NotFound(
                f"the mission has no counter {name!r}; it has: {', '.join(self.counters)}",
                field="counter",
                rule=CUSTOM_RULE,
            )
        rule = counter["rule"]
        if not _is_int(change) or change == 0 or abs(change) > MAX_CHANGE:
            raise InvalidInput(
                f"change must be a whole number from -{MAX_CHANGE} to {MAX_CHANGE}, not 0",
                field="change",
                rule=rule,
            )
        reason = _text(reason, "reason", MAX_REASON, rule)
        _check_code(name, code, change, rule)
        before = counter["value"]
        value = min(max(before + change, 0), counter["maximum"])
        self._counter_changed(name, change, value - before, value, reason, code)
        zone_before, zone_after = (
            zone_of(counter["zones"], before),
            zone_of(counter["zones"], value),
        )
        if zone_before != zone_after:
            self._zone_changed(name, zone_before, zone_after, value)
        if name == RIVALS and value >= counter["maximum"]:
            self._ended("lost_to_rivals")  # CD-24: the rivals complete the mission instead

    @event("CounterChanged")
    def _counter_changed(
        self, counter: str, change: int, applied: int, value: int, reason: str, code: str | None
    ) -> None:
        entry = self.counters[counter]
        entry["value"] = value
        entry["history"].append(
            {
                "kind": "change",
                "change": change,
                "applied": applied,
                "clamped": applied != change,
                "value": value,
                "reason": reason,
                "code": code,
            }
        )

    @event("ZoneChanged")
    def _zone_changed(
        self, counter: str, from_zone: str | None, to_zone: str | None, value: int
    ) -> None:
        entry = self.counters[counter]
        entry["zone"] = to_zone
        entry["history"].append(
            {"kind": "zone", "from_zone": from_zone, "to_zone": to_zone, "value": value}
        )

    # ---- rests (CD-22) ---------------------------------------------------------------------------

    @property
    def rest_count(self) -> int:
        return len(self.rests)

    def rest(
        self, scene_id: UUID | None, roll_id: UUID | None, participants: list[dict[str, Any]]
    ) -> None:
        """CD-22: a rest (its restored Health and Will already rolled); counts up the rest counter."""
        self.check_active()
        self._rested(self.rest_count + 1, scene_id, roll_id, participants)

    @event("Rested")
    def _rested(
        self,
        number: int,
        scene_id: UUID | None,
        roll_id: UUID | None,
        participants: list[dict[str, Any]],
    ) -> None:
        self.rests.append(
            {
                "number": number,
                "scene_id": scene_id,
                "roll_id": roll_id,
                "participants": copy.deepcopy(participants),
            }
        )


# ---- input checks ----------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, field: str, limit: int, rule: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(f"{field} must not be empty", field=field, rule=rule)
    if len(text) > limit:
        raise InvalidInput(f"{field} is longer than {limit} characters", field=field, rule=rule)
    return text


def _counter_name(name: Any) -> str:
    if not isinstance(name, str) or not COUNTER_NAME.match(name):
        raise InvalidInput(
            "name must be 1 to 40 lower-case letters, digits or underscores, starting with a "
            "letter (e.g. catastrophe)",
            field="name",
            rule=CUSTOM_RULE,
        )
    return name


def _zones(zones: Sequence[Mapping[str, Any]], maximum: int) -> list[dict[str, Any]]:
    """CD-25 (ruling): zones start at 0 and go up, each within 0..maximum, with unique names."""
    if len(zones) > MAX_ZONES:
        raise InvalidInput(
            f"a counter has at most {MAX_ZONES} zones", field="zones", rule=CUSTOM_RULE
        )
    clean: list[dict[str, Any]] = []
    for i, zone in enumerate(zones):
        name = _text(zone.get("name"), f"zones[{i}].name", MAX_ZONE_NAME, CUSTOM_RULE)
        start = zone.get("start")
        where = f"zones[{i}].start"
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= maximum:
            raise InvalidInput(
                f"{where} must be a whole number from 0 to the maximum {maximum}",
                field=where,
                rule=CUSTOM_RULE,
            )
        if i == 0 and start != 0:
            raise InvalidInput(
                "the first zone starts at 0, so that every value is in a zone",
                field=where,
                rule=CUSTOM_RULE,
            )
        if clean and start <= clean[-1]["start"]:
            raise InvalidInput(
                f"zones go up: {where} must be above {clean[-1]['start']}",
                field=where,
                rule=CUSTOM_RULE,
            )
        if any(z["name"].casefold() == name.casefold() for z in clean):
            raise InvalidInput(
                f"zone names are unique; {name!r} is used twice",
                field=f"zones[{i}].name",
                rule=CUSTOM_RULE,
            )
        clean.append({"name": name, "start": start})
    return clean


def _check_code(counter: str, code: str | None, change: int, rule: str) -> None:
    if code is None:
        return
    known = REASON_CODES.get(counter)
    if known is None:
        raise InvalidInput(
            "a counter of the GM's own has no reason codes: give only the reason text",
            field="code",
            rule=rule,
        )
    if code not in known:
        raise InvalidInput(
            f"code must be one of {', '.join(known)} for {counter}, not {code!r}",
            field="code",
            rule=rule,
            details={"known": list(known)},
        )
    direction = known[code]
    if direction and (change > 0) != (direction > 0):
        way = "raises" if direction > 0 else "lowers"
        raise InvalidInput(
            f"{code} {way} the {counter.replace('_', ' ')}, so change must be "
            f"{'positive' if direction > 0 else 'negative'}",
            field="change",
            rule=rule,
        )
