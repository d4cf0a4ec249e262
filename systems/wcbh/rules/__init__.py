"""We Can Be Heroes (ruleset id ``wcbh``): superhero play-by-post with d6 pools and Resolve."""

from __future__ import annotations

from systems.wcbh.rules.ruleset import WcbhRuleset

RULESET = WcbhRuleset()

__all__ = ["RULESET", "WcbhRuleset"]
