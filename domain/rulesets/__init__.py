"""The registry of game systems: look one up by id to validate sheets and compute derived stats."""

from __future__ import annotations

from domain.errors import InvalidInput
from domain.rulesets import classd, nimble, nwod_micro, wcbh
from domain.rulesets.base import Ruleset, StatSpec

RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (wcbh.RULESET, classd.RULESET, nimble.RULESET, nwod_micro.RULESET)
}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, or ``InvalidInput`` naming the known ids."""
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise InvalidInput(
            f"unknown ruleset {ruleset_id!r}",
            field="ruleset",
            details={"known": list(RULESETS)},
        ) from None


__all__ = ["RULESETS", "Ruleset", "StatSpec", "get_ruleset"]
