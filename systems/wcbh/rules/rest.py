"""Days of rest on a scene (WCBH-34): the recovery check may be made again "every 24 hours after
rest" (каждые сутки после отдыха), at difficulty 1 after a whole day of nothing but rest. The
service keeps no clock: the GM records the days that pass. A system state of the scene
(`Scene.state("wcbh", "rest")`): pure, applied alike by the Scene aggregate and the scene's view.

Raw: ``{"days": {character_id: [{"whole": bool, "reason": str, "used": bool}, ...]}}``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import Conflict

DAY = "rest_day"  # details: character_ids, whole, reason
DAY_USED = "rest_day_used"  # details: character_id, index


class RestState:
    view_key = "wcbh_rest"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        return copy.deepcopy({"days": (raw or {}).get("days", {})})

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        new = self.state_of(raw, page)
        if change == DAY:
            for character_id in details["character_ids"]:
                new["days"].setdefault(str(character_id), []).append(
                    {"whole": bool(details["whole"]), "reason": details["reason"], "used": False}
                )
        elif change == DAY_USED:
            new["days"][str(details["character_id"])][int(details["index"])]["used"] = True
        return new

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        if change == DAY:
            kind = "a whole day of nothing but rest" if details["whole"] else "a day after rest"
            return (
                f"{kind} passes for {len(details['character_ids'])} ({details['reason']}; WCBH-34)"
            )
        return f"{name} recovers after a day of rest (WCBH-34)"


REST = RestState()


def day_to_use(
    days: Sequence[Mapping[str, Any]], *, whole: bool, recovered_here: bool, name: str
) -> int | None:
    """WCBH-34: which recorded day of rest a recovery check spends (its index), or None for the
    check "after the fight" (once per character per scene, ruling). A check at difficulty 1
    (``whole``) needs an unspent whole day of rest; another check in the same scene needs an
    unspent day of rest of either kind."""
    if not whole and not recovered_here:
        return None
    for index, day in enumerate(days):
        if not day["used"] and (day["whole"] or not whole):
            return index
    what = "whole day of nothing but rest" if whole else "day of rest since its last check"
    raise Conflict(
        f"{name} has no {what} that the GM recorded in this scene (POST .../rest-days)",
        field="rested_whole_day" if whole else "character_id",
        code="no_rest_day",
        rule="WCBH-34",
    )
