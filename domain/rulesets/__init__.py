"""The rulesets of the installed game systems (systems/): look one up by id to validate sheets and
compute derived stats. The shared shape of a ruleset is in `domain.rulesets.base`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property

import systems
from domain.errors import InvalidInput
from domain.rulesets.base import Ruleset, StatSpec


class _Installed(Mapping[str, Ruleset]):
    """Each installed system's rules (systems/<name>/rules), by ruleset id, loaded at first use:
    a system's rules import `domain.rulesets.base`, so loading them while this package starts
    would be circular whenever a system's rules are imported first."""

    @cached_property
    def _by_id(self) -> dict[str, Ruleset]:
        return {rules.RULESET.id: rules.RULESET for rules in systems.parts("rules")}

    @cached_property
    def versions(self) -> dict[tuple[str, str], Ruleset]:
        """(ruleset id, rules version) -> the logic that reads the dice of that version; a roll
        record names its version so that a verifier replays it with the rules it was rolled
        under (docs/fair-dice.md)."""
        return versions_of(systems.parts("rules"))

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        return self._by_id[ruleset_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


RULESETS = _Installed()


def versions_of(parts: Iterable[object]) -> dict[tuple[str, str], Ruleset]:
    """Every rules version the systems' rules packages know: each one's current `RULESET` and the
    older versions it keeps in `RETIRED` (a tuple of rulesets), so that rolls recorded before a
    change of the rules are still replayed with the logic they were rolled under."""
    found: dict[tuple[str, str], Ruleset] = {}
    for rules in parts:
        current: Ruleset = rules.RULESET  # type: ignore[attr-defined]
        for ruleset in (*getattr(rules, "RETIRED", ()), current):
            found[(ruleset.id, ruleset.rules_version)] = ruleset
    return found


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
    return RULESETS.versions.get((ruleset_id, rules_version))


__all__ = ["RULESETS", "Ruleset", "StatSpec", "get_ruleset", "ruleset_version", "versions_of"]
