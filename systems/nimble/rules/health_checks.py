"""Nimble d20 saves and skill checks (NB-21, NB-24..NB-26): 1d20 + modifier against a DC.

Both read the modifier from the hero's sheet when the request leaves it out; the verbs of
systems/nimble/commands/health.py always write it into the request, so that the roll record holds
every number it uses.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    Name,
    Odds,
    RequestT,
    form_of,
    purpose_field,
)
from systems.nimble.rules.checks import D20, Steps, attack_number_field, keep
from systems.nimble.rules.encounter_checks import against_dc, dc_odds
from systems.nimble.rules.health import DC
from systems.nimble.rules.sheet import NimbleHero, NimbleMonster

Stat = Literal["STR", "DEX", "INT", "WIL"]
Modifier = Field(
    None,
    ge=-20,
    le=40,
    description="The modifier added to the d20; omit it to take the hero's sheet value (a GM's "
    "raw roll or a monster must give it; monsters default to +0). With a hero it must match the "
    "sheet.",
)
Difficulty = Field(DC, ge=1, le=40, description="The DC to reach (NB-21, NB-24..NB-26: 10).")


class SaveRequest(Steps):
    """A save: 1d20 + a stat against a DC (STR for Dying and Concentration, STR or DEX to
    escape a grapple)."""

    stat: Stat = Field(description="The stat saved with.")
    modifier: int | None = Modifier
    dc: int = Difficulty
    purpose: str = purpose_field("What the save is for.")


class SkillRequest(Steps):
    """A skill check: 1d20 + a skill against a DC (Might or Finesse to grapple, Stealth to
    hide)."""

    skill: Name = Field(description="The skill, as named on the sheet (e.g. Might, Stealth).")
    modifier: int | None = Modifier
    dc: int = Difficulty
    attack_number: int = attack_number_field(
        "For a grapple (an attack, NB-24): which attack of the turn it is; each after "
        "the first adds a step of disadvantage (NB-10).",
    )
    purpose: str = purpose_field("What the check is for.")


def save_modifier(req: SaveRequest, sheet: BaseModel | None) -> int:
    """The stat modifier: the hero's sheet value, else the request's (monsters default to +0)."""
    return _modifier(req.modifier, sheet, lambda hero: getattr(hero.stats, req.stat), "stat")


def skill_modifier(req: SkillRequest, sheet: BaseModel | None) -> int:
    """Ruling: a skill the sheet does not list counts +0."""

    def of_sheet(hero: NimbleHero) -> int:
        for name, value in hero.skills.items():
            if name.casefold() == req.skill.casefold():
                return value
        return 0

    return _modifier(req.modifier, sheet, of_sheet, "skill")


def _modifier(given: int | None, sheet: BaseModel | None, of_sheet: Any, what: str) -> int:
    if sheet is None:
        if given is None:
            raise InvalidInput(
                "a roll without a character needs an explicit modifier", field="request.modifier"
            )
        return given
    creature = form_of(sheet, NimbleHero, NimbleMonster)
    if isinstance(creature, NimbleMonster):
        return 0 if given is None else given
    value = int(of_sheet(creature))
    if given is not None and given != value:
        raise InvalidInput(
            f"the modifier is the sheet's {what}: {value}, not {given}",
            field="request.modifier",
            details={"sheet": value},
        )
    return value


@dataclass(frozen=True)
class _Throw:
    """The numbers of one d20 against the DC, and what its result names (the stat or skill)."""

    named: dict[str, str]
    modifier: int
    edge: int
    dc: int


class _D20Check(Check[RequestT]):
    """A save or a skill check (NB-11): one d20 against the DC, the same but for the numbers it
    reads from its request and the sheet (`_throw`)."""

    # both take the modifier from the sheet and let the roller declare the DC and the steps
    sheet_fields: ClassVar[tuple[str, ...]] = ("modifier",)
    modifier_fields: ClassVar[tuple[str, ...]] = ("dc", "advantage", "disadvantage")

    @abstractmethod
    def _throw(self, request: RequestT, sheet: BaseModel | None) -> _Throw: ...

    def roll(self, asked: Asked[RequestT], roller: Roller) -> CheckOutcome:
        throw = self._throw(asked.request, asked.sheet)
        rolled = roller.roll(D20, 1 + abs(throw.edge), label=self.name)
        natural = keep(rolled, throw.edge, 1, roller)[0].face
        return against_dc({**throw.named, "edge": throw.edge}, natural, throw.modifier, throw.dc)

    def odds(self, asked: Asked[RequestT], outcome: CheckOutcome) -> Odds:
        throw = self._throw(asked.request, asked.sheet)
        return dc_odds(throw.edge, throw.modifier, throw.dc, outcome.score)


class SaveCheck(_D20Check[SaveRequest]):
    name: ClassVar[str] = "save"
    description: ClassVar[str] = (
        "A save: 1d20 + the stat against the DC (10): STR while attacking Dying, STR to keep "
        "Concentration after a crit, STR or DEX to escape a grapple. Advantage (disadvantage) "
        "rolls one more d20 and keeps the highest (lowest). Score: the total."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-21", "NB-24", "NB-25", "NB-11")
    Request: ClassVar[type[BaseModel]] = SaveRequest

    def example(self) -> dict[str, Any]:
        return {"stat": "STR", "purpose": "Keep concentrating"}

    def _throw(self, request: SaveRequest, sheet: BaseModel | None) -> _Throw:
        edge = request.advantage - request.disadvantage
        return _Throw({"stat": request.stat}, save_modifier(request, sheet), edge, request.dc)


class SkillCheck(_D20Check[SkillRequest]):
    name: ClassVar[str] = "skill"
    description: ClassVar[str] = (
        "A skill check: 1d20 + the skill against the DC (10): Might or Finesse to grapple (an "
        "attack: hasty attacks add disadvantage), Stealth to hide. Score: the total."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-24", "NB-26", "NB-10", "NB-11")
    Request: ClassVar[type[BaseModel]] = SkillRequest

    def example(self) -> dict[str, Any]:
        return {"skill": "Might", "purpose": "Grab the goblin"}

    def _throw(self, request: SkillRequest, sheet: BaseModel | None) -> _Throw:
        return _Throw(
            {"skill": request.skill},
            skill_modifier(request, sheet),
            skill_edge(request),
            request.dc,
        )


def skill_edge(req: SkillRequest) -> int:
    """NB-10/NB-11: advantage minus disadvantage, hasty attacks included."""
    return req.advantage - req.disadvantage - (req.attack_number - 1)


HEALTH_CHECKS: dict[str, Check] = {c.name: c for c in (SaveCheck(), SkillCheck())}
