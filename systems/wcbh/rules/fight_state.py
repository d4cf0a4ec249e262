"""The fight's state on a scene (WCBH-25, 45, 46): each character's page state, by page, and what
followed each attack roll (a knockback or a redirect). A system state of the scene
(`Scene.state("wcbh", "fight")`, Ruleset.scene_states): pure, applied alike by the Scene aggregate
and the scene's view.

Raw: ``{"pages": {page: {character_id: state}}, "follow_ups": {roll_id: entry}}``; a page's states
are set on it or (a lost turn) on the next; those of pages gone by are dropped.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

PAGE_STATE = "page_state"  # details: character_id, page, state, what (the change in words)
FOLLOWED_UP = "attack_followed_up"  # details: roll_id, kind, character_id, details


class FightState:
    """The fight as a system state of the scene (`Scene.state("wcbh", "fight")`)."""

    view_key = "wcbh_fight"

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        """The page's states and the next page's (by character id), and the attack follow-ups."""
        raw = raw or {}
        pages = raw.get("pages", {})
        return copy.deepcopy(
            {
                "page": pages.get(str(page), {}),
                "next_page": pages.get(str(page + 1), {}),
                "follow_ups": raw.get("follow_ups", {}),
            }
        )

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The state after one change made on `page` (refuses nothing: the commands checked)."""
        new: dict[str, Any] = copy.deepcopy(dict(raw or {}))
        pages = {p: s for p, s in new.get("pages", {}).items() if int(p) >= page}
        follow_ups = new.get("follow_ups", {})
        if change == PAGE_STATE:
            at = pages.setdefault(str(details["page"]), {})
            at[str(details["character_id"])] = copy.deepcopy(dict(details["state"]))
        elif change == FOLLOWED_UP:
            follow_ups[str(details["roll_id"])] = {
                "kind": details["kind"],
                "character_id": str(details["character_id"]),
                "page": page,
                **copy.deepcopy(dict(details["details"])),
            }
        return {"pages": pages, "follow_ups": follow_ups}

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        """The change in words, for the scene's replay."""
        if change == PAGE_STATE:
            return f"{name}, page {details['page']}: {details['what']}"
        kind = details["kind"]
        what = "knocks the target back" if kind == "knockback" else "redirects the attack"
        return f"{name} spends 1 Resolve and {what}"


FIGHT = FightState()
