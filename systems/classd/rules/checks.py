"""Class D Heroes checks: 2d6 + stat against a difficulty (CD-2..CD-5) and the Will reroll of an
ordinary failure (CD-6)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Face, Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    FollowUp,
    FollowUpRoll,
    Odds,
    RequestModel,
    form_of,
    named_or_given,
    purpose_field,
    request_as,
)
from systems.classd.odds import classd_critical, classd_succeeds, classd_success, classd_total
from systems.classd.rules.sheet import ClassdSheet, stat_field

SIDES = 6
KEPT = 2  # CD-2, CD-5: two dice are added, however many are rolled
MAX_EDGE = 10
DIFFICULTIES: dict[str, int] = {
    # CD-2
    "fairly_easy": 6,
    "medium": 8,
    "hard": 10,
    "very_hard": 12,
    "at_the_limit": 15,
}
TARGET_BASE = 5  # CD-4: acting on someone is 5 + their matching stat

DifficultyName = Literal["fairly_easy", "medium", "hard", "very_hard", "at_the_limit"]


class StatRequest(RequestModel):
    """A check: 2d6 + stat against a difficulty, with advantages and disadvantages."""

    stat: Literal["might", "speed", "spirit"] | None = Field(
        None, description="The stat added to 2d6 (CD-1, CD-7); omit with `stat_value` for raw."
    )
    stat_value: int | None = stat_field(
        "Explicit stat for a GM's raw roll without a character; not with `stat`.", None
    )
    difficulty: int | None = Field(
        None,
        ge=0,
        le=50,
        description="An explicit difficulty (CD-2). Give exactly one of "
        "`difficulty`, `difficulty_name`, `target_stat`.",
    )
    difficulty_name: DifficultyName | None = Field(
        None,
        description="CD-2: fairly_easy 6, medium 8, hard 10, very_hard 12, at_the_limit 15.",
    )
    target_stat: int | None = stat_field(
        "Acting on a hero or villain: difficulty 5 + the target's matching stat (CD-4, CD-10).",
        None,
    )
    advantage: int = Field(
        0, ge=0, le=MAX_EDGE, description="Advantages: +1d6 each, keep the best two (CD-5)."
    )
    disadvantage: int = Field(
        0,
        ge=0,
        le=MAX_EDGE,
        description="Disadvantages: +1d6 each, keep the worst two; each cancels an advantage "
        "(CD-5).",
    )
    purpose: str = purpose_field()

    @property
    def edge(self) -> int:
        """CD-5: net advantage (> 0) or disadvantage (< 0) after cancelling one for one."""
        return self.advantage - self.disadvantage


class StatCheck(Check[StatRequest]):
    name: ClassVar[str] = "stat"
    description: ClassVar[str] = (
        "Roll 2d6 + Might, Speed or Spirit against a difficulty (a named one, or 5 + the "
        "target's stat); double 6 is a critical success, double 1 a critical failure; each net "
        "advantage (disadvantage) adds a d6 and keeps the best (worst) two. Score: the total."
    )
    rules: ClassVar[tuple[str, ...]] = ("CD-2", "CD-3", "CD-4", "CD-5")
    Request: ClassVar[type[BaseModel]] = StatRequest
    sheet_fields: ClassVar[tuple[str, ...]] = ("stat_value",)
    modifier_fields: ClassVar[tuple[str, ...]] = (
        "difficulty",
        "difficulty_name",
        "target_stat",
        "advantage",
        "disadvantage",
    )

    def example(self) -> dict[str, Any]:
        return {"stat": "speed", "target_stat": 2, "advantage": 1, "purpose": "Ranged attack"}

    def roll(self, asked: Asked[StatRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        stat, value = stat_value(req, asked.sheet)
        difficulty = difficulty_of(req)
        faces = roller.roll(SIDES, KEPT + abs(req.edge), label="check")
        keep(faces, req.edge, roller)
        return evaluate(req, stat, value, difficulty, faces)

    def odds(self, asked: Asked[StatRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        _, value = stat_value(req, asked.sheet)
        success = classd_success(req.edge, value, difficulty_of(req))
        return Odds(success, classd_total(req.edge).at_least(outcome.score - value))


def keep(faces: list[Face], edge: int, roller: Roller) -> None:
    """CD-5: keep the best two under advantage, the worst two under disadvantage (leftmost of
    equal faces first), and drop the rest."""
    ranked = sorted(faces, key=lambda f: (-f.face if edge >= 0 else f.face, f.index))
    roller.drop(ranked[KEPT:])


def stat_value(req: StatRequest, sheet: BaseModel | None) -> tuple[str | None, int]:
    return named_or_given(
        req.stat,
        req.stat_value,
        sheet,
        lambda sheet, stat: getattr(form_of(sheet, ClassdSheet), stat),
        fields=("stat", "stat_value"),
        named="stat",
    )


def difficulty_of(req: StatRequest) -> int:
    given = [
        name
        for name in ("difficulty", "difficulty_name", "target_stat")
        if getattr(req, name) is not None
    ]
    if len(given) != 1:
        raise InvalidInput(
            "give exactly one of difficulty, difficulty_name, target_stat",
            field=f"request.{given[1] if given else 'difficulty'}",
            rule="CD-2",
        )
    if req.difficulty_name is not None:
        return DIFFICULTIES[req.difficulty_name]
    if req.target_stat is not None:
        return TARGET_BASE + req.target_stat
    assert req.difficulty is not None
    return req.difficulty


def evaluate(
    req: StatRequest, stat: str | None, value: int, difficulty: int, faces: list[Face]
) -> CheckOutcome:
    kept = [f.face for f in faces if f.kept]
    low, high = sorted(kept)
    total = low + high + value
    critical = classd_critical(low, high)
    success = classd_succeeds((low, high), total, difficulty)
    outcome = ("success" if success else "failure") if critical is None else f"critical_{critical}"
    names = [name for name, number in DIFFICULTIES.items() if number == difficulty]
    result = {
        "stat": stat,
        "stat_value": value,
        "dice": len(faces),
        "edge": req.edge,
        "kept": kept,
        "natural": low + high,
        "total": total,
        "difficulty": difficulty,
        "difficulty_name": names[0] if names else None,
        "net": total - difficulty,
        "critical": critical,
        "outcome": outcome,
        "success": success,
    }
    return CheckOutcome(result, total, success)


# -- follow-up ---------------------------------------------------------------------------------


class WillRerollRequest(RequestModel):
    """1 Will rerolls an ordinary failure (CD-6)."""


def _allowed_will_reroll(original: BaseModel, outcome: CheckOutcome) -> str | None:
    if type(original) is not StatRequest:
        # The combat rolls (systems/classd/rules/fight.py) reroll inside their own record.
        return "a combat roll's Will rerolls are declared with its `will_rerolls` (CD-6)"
    kind = outcome.result.get("outcome")
    if kind == "critical_failure":
        return "a critical failure can never be rerolled (CD-6)"
    if kind != "failure":
        return "only ordinary failures may be rerolled (CD-6)"
    return None


def _apply_will_reroll(roll: FollowUpRoll, roller: Roller) -> CheckOutcome:
    req = request_as(roll.original, StatRequest)
    stat, value = stat_value(req, roll.sheet)
    # The check's dice are the last ones drawn: every reroll replaces all of them.
    current = roll.faces[-(KEPT + abs(req.edge)) :]
    new = roller.reroll(current)
    keep(new, req.edge, roller)
    return evaluate(req, stat, value, difficulty_of(req), new)


def _odds_will_reroll(roll: FollowUpRoll, outcome: CheckOutcome) -> Odds:
    check = StatCheck()
    return check.odds(check.asked(roll.original, roll.sheet, roll.settings), outcome)


WILL_REROLL = FollowUp(
    name="will_reroll",
    description="Spend 1 Will to reroll an ordinary (not critical) failure: the whole check "
    "again, same stat, difficulty and advantages; repeatable while Will lasts. Odds are those "
    "of the fresh check.",
    rules=("CD-6",),
    Request=WillRerollRequest,
    cost=lambda request: {"will": 1},
    apply=_apply_will_reroll,
    allowed=_allowed_will_reroll,
    odds=_odds_will_reroll,
)

CHECKS: dict[str, Check] = {StatCheck.name: StatCheck()}
FOLLOW_UPS: dict[str, FollowUp] = {WILL_REROLL.name: WILL_REROLL}

__all__ = [
    "CHECKS",
    "DIFFICULTIES",
    "FOLLOW_UPS",
    "WILL_REROLL",
    "StatCheck",
    "StatRequest",
    "WillRerollRequest",
]
