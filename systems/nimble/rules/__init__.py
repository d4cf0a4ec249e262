"""Nimble 2nd edition (ruleset id ``nimble``): d20 initiative, three actions, attack dice."""

from __future__ import annotations

from systems.nimble.rules.ruleset import NimbleRuleset

RULESET = NimbleRuleset()

__all__ = ["RULESET", "NimbleRuleset"]
