"""Class D Heroes rest (CD-22): 1d6 Health and 1d6 Will back to each participant, never above maxima.

Rolled by ``POST /v1/missions/{id}/rests`` as one fair roll for all participants; the request carries
every participant's levels and maxima, so the record recomputes offline from itself."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from domain.dice.odds import Distribution
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

SIDES = 6
MAX_PARTICIPANTS = 20


class Participant(RequestModel):
    """One resting character: its name (for the record) and its Health and Will before the rest."""

    name: Name = Field(description="Who rests (for people reading the record).")
    health: int = Field(ge=0, le=1000, description="Health before the rest.")
    health_max: int = Field(ge=0, le=1000, description="Maximum Health (CD-1).")
    will: int = Field(ge=0, le=1000, description="Will before the rest.")
    will_max: int = Field(ge=0, le=1000, description="Maximum Will (CD-1).")


class RestRequest(RequestModel):
    """A rest of one or more characters (CD-22)."""

    participants: list[Participant] = Field(
        min_length=1, max_length=MAX_PARTICIPANTS, description="Who rests, in order."
    )
    purpose: str = purpose_field()


def restore(before: int, maximum: int, die: int) -> dict[str, int]:
    """CD-22: the die's worth back, never above the maximum (and never below the level before)."""
    after = max(before, min(before + die, maximum))
    return {"die": die, "before": before, "gain": after - before, "after": after, "max": maximum}


class RestCheck(Check[RestRequest]):
    name: ClassVar[str] = "rest"
    description: ClassVar[str] = (
        "A rest during a mission: each participant gets 1d6 Health and 1d6 Will back, never above "
        "its maxima. Rolled by POST /v1/missions/{id}/rests (which also restores the levels and "
        "counts the mission's rests); rolling it directly only records the dice. Score: the sum "
        "of the dice."
    )
    rules: ClassVar[tuple[str, ...]] = ("CD-22",)
    Request: ClassVar[type[BaseModel]] = RestRequest
    verb: ClassVar[str | None] = "POST /v1/missions/{id}/rests"

    def example(self) -> dict[str, Any]:
        return {
            "participants": [
                {"name": "Nova", "health": 7, "health_max": 12, "will": 4, "will_max": 5}
            ],
            "purpose": "Rest in the server room",
        }

    def roll(self, asked: Asked[RestRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        rested = []
        total = 0
        for p in req.participants:
            health, will = roller.roll(SIDES, 2, label=p.name)
            total += health.face + will.face
            rested.append(
                {
                    "name": p.name,
                    "health": restore(p.health, p.health_max, health.face),
                    "will": restore(p.will, p.will_max, will.face),
                }
            )
        return CheckOutcome(
            {"participants": rested, "total": total, "outcome": "rested"}, total, None
        )

    def odds(self, asked: Asked[RestRequest], outcome: CheckOutcome) -> Odds:
        dice = 2 * len(asked.request.participants)
        return Odds(None, sum_of_d6(dice).at_least(outcome.score))


@lru_cache(maxsize=MAX_PARTICIPANTS)
def sum_of_d6(dice: int) -> Distribution:
    """The exact distribution of the sum of ``dice`` d6."""
    weights = {0: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for total, weight in weights.items():
            for face in range(1, SIDES + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + weight / SIDES
        weights = nxt
    assert math.isclose(math.fsum(weights.values()), 1.0)
    return Distribution.of(weights)


REST = RestCheck()

__all__ = ["REST", "Participant", "RestCheck", "RestRequest", "restore", "sum_of_d6"]
