"""The registry of game systems: look one up by id to validate sheets and compute derived stats."""

from __future__ import annotations

from domain.errors import InvalidInput
from domain.rulesets import classd, nimble, nwod_micro, wcbh
from domain.rulesets.base import Ruleset, StatSpec

RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (wcbh.RULESET, classd.RULESET, nimble.RULESET, nwod_micro.RULESET)
}

# (ruleset id, rules version) -> the logic that reads the dice of that version; a roll record names
# its version so that a verifier replays it with the rules it was rolled under (docs/fair-dice.md).
RULES_VERSIONS: dict[tuple[str, str], Ruleset] = {
    (ruleset.id, ruleset.rules_version): ruleset for ruleset in RULESETS.values()
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


def ruleset_version(ruleset_id: str, rules_version: str) -> Ruleset | None:
    """The logic of ``rules_version`` of the ruleset, or None if this code does not know it."""
    return RULES_VERSIONS.get((ruleset_id, rules_version))


__all__ = ["RULESETS", "RULES_VERSIONS", "Ruleset", "StatSpec", "get_ruleset", "ruleset_version"]
