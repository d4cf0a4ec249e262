"""The rulesets of the installed game systems (systems/): look one up by id to validate sheets and
compute derived stats. The shared shape of a ruleset is in `domain.rulesets.base`."""

from __future__ import annotations

import systems
from domain.errors import InvalidInput
from domain.rulesets.base import Ruleset, StatSpec

# Each installed system's rules (systems/<name>/rules), by ruleset id.
RULESETS: dict[str, Ruleset] = {rules.RULESET.id: rules.RULESET for rules in systems.parts("rules")}

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
