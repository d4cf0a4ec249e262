"""Achernar, nWoD micro (ruleset id ``nwod-micro``): three d10 Affinities, modern combat."""

from __future__ import annotations

from systems.nwod_micro.rules.ruleset import NwodMicroRuleset

RULESET = NwodMicroRuleset()

__all__ = ["RULESET", "NwodMicroRuleset"]
