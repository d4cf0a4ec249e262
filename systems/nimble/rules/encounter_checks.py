"""Nimble encounter checks: Assess (a skill check, DC 10, NB-14) and Help's reroll of one die
(NB-19). Every number they use is in the request, so a record recomputes offline."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Roller
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    Name,
    Odds,
    RequestModel,
    purpose_field,
)
from systems.nimble.odds import kept_die
from systems.nimble.rules.checks import D20, Steps, keep

ASSESS_DC = 10


class AssessRequest(Steps):
    """Assess: 1d20 + the skill's modifier against DC 10 (NB-14)."""

    skill: Name = Field(description="The skill used to Assess (once per encounter each).")
    modifier: int = Field(ge=-10, le=30, description="The skill's modifier on the sheet.")
    option: Literal["question", "find_weakness", "anticipate_danger"] = Field(
        description="NB-14: ask the GM a question, find a weakness, or anticipate danger."
    )
    dc: int = Field(ASSESS_DC, ge=1, le=40, description="The difficulty (NB-14: 10).")
    purpose: str = purpose_field("What the hero looks at.")


def against_dc(result: dict[str, Any], natural: int, modifier: int, dc: int) -> CheckOutcome:
    """A kept d20 face plus the modifier against the DC: `result` with the numbers and the
    verdict added (scored by the total)."""
    total = natural + modifier
    success = total >= dc
    result = {
        **result,
        "natural": natural,
        "modifier": modifier,
        "total": total,
        "dc": dc,
        "success": success,
        "outcome": "success" if success else "failure",
    }
    return CheckOutcome(result, total, success)


def dc_odds(edge: int, modifier: int, dc: int, score: int) -> Odds:
    """Odds of a kept d20 plus the modifier meeting the DC, and of scoring at least `score`."""
    d20 = kept_die(D20, edge)
    return Odds(d20.at_least(dc - modifier), d20.at_least(score - modifier))


class AssessCheck(Check[AssessRequest]):
    name: ClassVar[str] = "assess"
    description: ClassVar[str] = (
        "Assess (NB-14): 1d20 + the skill's modifier against DC 10, with advantage or "
        "disadvantage. Score: the total; success at DC or more."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-14", "NB-11")
    Request: ClassVar[type[BaseModel]] = AssessRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/nimble/assessments"

    def example(self) -> dict[str, Any]:
        return {"skill": "Examination", "modifier": 2, "option": "find_weakness"}

    def roll(self, asked: Asked[AssessRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        edge = req.advantage - req.disadvantage
        natural = keep(roller.roll(D20, 1 + abs(edge), label="assess"), edge, 1, roller)[0].face
        result = {"skill": req.skill, "option": req.option, "edge": edge}
        return against_dc(result, natural, req.modifier, req.dc)

    def odds(self, asked: Asked[AssessRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        return dc_odds(req.advantage - req.disadvantage, req.modifier, req.dc, outcome.score)


class HelpRerollRequest(RequestModel):
    """Help (NB-19): an ally rerolls the kept d20 of a roll; the new face replaces it."""

    helped_roll_id: str = Field(max_length=64, description="The roll helped.")
    old_face: int = Field(ge=1, le=D20, description="The kept face rerolled.")
    modifier: int = Field(ge=-10, le=30, description="The helped roll's modifier.")
    dc: int = Field(ASSESS_DC, ge=1, le=40, description="The helped roll's difficulty.")
    purpose: str = purpose_field("How the helper justifies it.")


class HelpRerollCheck(Check[HelpRerollRequest]):
    name: ClassVar[str] = "help_reroll"
    description: ClassVar[str] = (
        "Help (NB-19): reroll one die of an ally's roll (the kept d20 of an Assess); the new "
        "face counts. Score: the new total; success at the DC or more."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-19",)
    Request: ClassVar[type[BaseModel]] = HelpRerollRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/nimble/help"

    def example(self) -> dict[str, Any]:
        return {"helped_roll_id": "roll-id", "old_face": 3, "modifier": 2}

    def roll(self, asked: Asked[HelpRerollRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        face = roller.roll(D20, 1, label="help")[0].face
        return against_dc({"old_face": req.old_face}, face, req.modifier, req.dc)

    def odds(self, asked: Asked[HelpRerollRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        return dc_odds(0, req.modifier, req.dc, outcome.score)  # the helper's die: a plain d20
