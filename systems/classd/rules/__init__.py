"""Class D Heroes (ruleset id ``classd``): student superheroes, 2d6 + stat, building missions."""

from __future__ import annotations

from systems.classd.rules.ruleset import ClassdRuleset

RULESET = ClassdRuleset()

__all__ = ["RULESET", "ClassdRuleset"]
