"""Achernar, nWoD micro (ruleset id ``nwod-micro``): three d10 Affinities, modern combat."""

from __future__ import annotations

from domain.rulesets.nwod_micro.ruleset import NwodMicroRuleset

RULESET = NwodMicroRuleset()

__all__ = ["RULESET", "NwodMicroRuleset"]
