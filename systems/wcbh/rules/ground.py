"""The fight's ground on a scene (WCBH-26, 30): the range class between two characters, moves that
change it, and each character's cover and size, which the GM sets ("по усмотрению Мастера") and
attacks read. A system state of the scene (`Scene.state("wcbh", "ground")`): pure, applied alike
by the Scene aggregate and the scene's view.

Raw: ``{"ranges": {"<id>|<id>": {"range": r, "moving": {"by", "to", "since_page"} | None}},
"situations": {character_id: {"cover", "size", "reason"}}}`` (a pair's ids sorted).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from domain.errors import Conflict, InvalidInput
from systems.wcbh.rules.combat import SIZE_MODIFIERS
from systems.wcbh.rules.movement import FAST_MOVEMENT_RANK, RANGES

RANGE = "range"  # details: first_id, second_id, range, moving, what
SITUATION = "situation"  # details: character_id, cover, size, reason
SIZES = ("tenth", "half", "same", "double", "tenfold")
"""WCBH-30: a character's size against an ordinary person's, smallest first."""
CONTACT = "close"
"""WCBH-26, 40, 44: grabbing, charging into or bashing with a foe needs it within Close."""


def pair_key(first: str, second: str) -> str:
    return "|".join(sorted((str(first), str(second))))


class GroundState:
    """Ranges and situations as a system state of the scene."""

    view_key = "wcbh_ground"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        raw = raw or {}
        return copy.deepcopy(
            {"ranges": raw.get("ranges", {}), "situations": raw.get("situations", {})}
        )

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        new = self.state_of(raw, page)
        if change == RANGE:
            key = pair_key(details["first_id"], details["second_id"])
            new["ranges"][key] = {
                "range": details["range"],
                "moving": copy.deepcopy(details.get("moving")),
            }
        elif change == SITUATION:
            new["situations"][str(details["character_id"])] = {
                "cover": details["cover"],
                "size": details["size"],
                "reason": details["reason"],
            }
        return new

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        if change == SITUATION:
            return (
                f"{name}: cover {details['cover']}, size {details['size']} "
                f"({details['reason']}; WCBH-30)"
            )
        return f"{name}: {details['what']} (WCBH-26)"


GROUND = GroundState()


# ---- WCBH-30: cover and size --------------------------------------------------------------------


def situation_dice(situations: Mapping[str, Mapping[str, Any]], attacker: str, target: str) -> int:
    """WCBH-30: dice on an attack from the target's cover or poor visibility (−1..−3) and its size
    against the attacker's. Ruling: sizes are classes against an ordinary person (a tenth, half,
    the same, double, tenfold); the attack reads the target's class counted from the attacker's,
    one class apart ±1, two or more ±3 (a giant attacking a person: the person is a tenth)."""
    at = situations.get(str(target), {})
    own = situations.get(str(attacker), {})
    steps = SIZES.index(at.get("size", "same")) - SIZES.index(own.get("size", "same"))
    relative = SIZES[SIZES.index("same") + max(-2, min(2, steps))]
    return SIZE_MODIFIERS[relative] - int(at.get("cover", 0))


# ---- WCBH-26: ranges and moves --------------------------------------------------------------------


def check_range(range_: str, field: str = "range") -> None:
    if range_ not in RANGES:
        raise InvalidInput(f"range is one of {', '.join(RANGES)}", field=field, rule="WCBH-26")


def check_contact(ranges: Mapping[str, Mapping[str, Any]], a: str, b: str, what: str) -> None:
    """WCBH-26: a grab, a charge or a bash reaches a foe within Close (the page's move covers
    Close). A pair whose range the GM never set is not checked (the table keeps it)."""
    found = ranges.get(pair_key(a, b))
    if found is not None and found["range"] != CONTACT:
        raise Conflict(
            f"{what} needs the foe within Close; it is at {found['range']} range",
            field="target_id",
            code="out_of_reach",
            rule="WCBH-26",
            details={"range": found["range"]},
        )


def move(
    ranges: Mapping[str, Mapping[str, Any]],
    mover: str,
    other: str,
    to: str,
    *,
    movement_rank: int | None,
    page: int,
) -> dict[str, Any]:
    """WCBH-26: a move that changes the range class to ``other`` by one: two Pages (it is under
    way after the first), or one with a movement Power of rank 6+. The pair's new entry."""
    check_range(to, "to")
    found = ranges.get(pair_key(mover, other))
    if found is None:
        raise Conflict(
            "the GM has not set the range between these two (POST .../ranges)",
            field="other_id",
            code="no_range",
            rule="WCBH-26",
        )
    step = RANGES.index(to) - RANGES.index(found["range"])
    if abs(step) != 1:
        raise InvalidInput(
            f"a move changes the range one class at a time: from {found['range']} to "
            f"{RANGES[RANGES.index(found['range']) - 1] if RANGES.index(found['range']) else '-'}"
            f" or the next",
            field="to",
            rule="WCBH-26",
        )
    fast = movement_rank is not None and movement_rank >= FAST_MOVEMENT_RANK
    moving = found.get("moving")
    under_way = (
        moving is not None
        and moving["by"] == mover
        and moving["to"] == to
        and moving["since_page"] < page
    )
    if fast or under_way:
        return {"range": to, "moving": None}
    return {"range": found["range"], "moving": {"by": mover, "to": to, "since_page": page}}
