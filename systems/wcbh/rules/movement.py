"""Ranges, movement and chases in We Can Be Heroes (WCBH-26, WCBH-27)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from systems.wcbh.rules.pools import PoolRoll, halve, roll_pool

__all__ = [
    "CHASE_RANGES",
    "CHASE_WIN_BONUS",
    "FAST_MOVEMENT_RANK",
    "RANGES",
    "ChaseRound",
    "ChaseState",
    "chase_dice",
    "pages_to_move",
    "resolve_chase",
    "roll_chase",
    "thrown_range",
]

Range = Literal["close", "far", "extreme", "beyond"]
ChaseRange = Literal["cornered", "close", "far", "extreme", "escaped"]

RANGES: tuple[Range, ...] = ("close", "far", "extreme", "beyond")
"""WCBH-26: range classes, nearest first; ``beyond`` is out of sight (e.g. the Moon)."""

CHASE_RANGES: tuple[ChaseRange, ...] = ("cornered", "close", "far", "extreme", "escaped")
"""WCBH-27: the chase ends at either end: closer than Close (cornered) or beyond Extreme."""

FAST_MOVEMENT_RANK = 6  # WCBH-26: a movement Power of this rank changes range class in one Page
CHASE_WIN_BONUS = 2  # WCBH-27
CHASE_SHIFT_NET = 3  # WCBH-27


def thrown_range(strength: int) -> Range:
    """WCBH-26: how far a Strength rank throws: 3–6 Close, 7–12 Far, 13–24 Extreme, 25+ Beyond.
    Ruling: ranks 1 and 2, below the table, still throw within Close. Knockback (WCBH-45) reads
    the attack's rank here."""
    if strength < 1:
        raise InvalidInput("a rank is at least 1", field="strength", rule="WCBH-26")
    if strength <= 6:
        return "close"
    if strength <= 12:
        return "far"
    return "extreme" if strength <= 24 else "beyond"


def pages_to_move(range_classes: int, movement_power: int | None = None) -> int:
    """WCBH-26: Pages to move. ``range_classes`` 0 is moving to or from an opponent within Close:
    one Page. Each change of range class takes two Pages, or one with a movement Power of rank
    6+. Open terrain, where Powers may cover 2–3 classes in a Page, is the GM's call."""
    if range_classes < 0:
        raise InvalidInput("a count of range classes", field="range_classes", rule="WCBH-26")
    if range_classes == 0:
        return 1
    fast = movement_power is not None and movement_power >= FAST_MOVEMENT_RANK
    return range_classes * (1 if fast else 2)


def chase_dice(rank: int, *, on_foot_against_faster: bool = False, bonus: int = 0) -> int:
    """WCBH-27: dice of a chase check: Agility or a movement Power; half the trait (rounded up) on
    foot with only Agility against a faster-than-normal Power; + the previous round's winner's
    bonus. The check is not an action, so the extra-action penalty (WCBH-25) does not apply."""
    return (halve(rank) if on_foot_against_faster else rank) + bonus


@dataclass(frozen=True)
class ChaseState:
    """One pursuer after one target (WCBH-27: each pursuer picks one target): the range between
    them and the dice each has won for the next chase check."""

    pursuer: str
    target: str
    range: ChaseRange = "far"
    pursuer_bonus: int = 0
    target_bonus: int = 0

    @property
    def over(self) -> bool:
        return self.range in ("cornered", "escaped")


@dataclass(frozen=True)
class ChaseRound:
    winner: str | None
    net: int
    state: ChaseState


def resolve_chase(
    state: ChaseState,
    pursuer_successes: int,
    target_successes: int,
    *,
    shift: Literal[-1, 0, 1] | None = None,
) -> ChaseRound:
    """WCBH-27: one chase Page. More successes wins and gets +2 on the next chase check (ruling:
    the source's "+2 Initiative" read as +2 dice, as a contest win, WCBH-12; the loser's bonus is
    gone). With 3+ net successes over the other the winner may move the range one class:
    ``shift`` −1 closer, +1 farther, 0 not at all; by default the pursuer closes in and the target
    pulls away. Ruling: a tie has no winner, both bonuses are spent and the range holds.
    The chase ends when the range passes Close (cornered) or Extreme (escaped)."""
    if state.over:
        raise InvalidInput(f"the chase is over: {state.range}", field="chase", rule="WCBH-27")
    net = pursuer_successes - target_successes
    if net == 0:
        return ChaseRound(None, 0, replace(state, pursuer_bonus=0, target_bonus=0))
    pursuer_won = net > 0
    margin = abs(net)
    step = 0
    if margin >= CHASE_SHIFT_NET:
        step = shift if shift is not None else (-1 if pursuer_won else 1)
    elif shift:
        raise InvalidInput(
            "changing the range takes 3+ net successes", field="shift", rule="WCBH-27"
        )
    moved = CHASE_RANGES[CHASE_RANGES.index(state.range) + step]
    new = replace(
        state,
        range=moved,
        pursuer_bonus=CHASE_WIN_BONUS if pursuer_won else 0,
        target_bonus=0 if pursuer_won else CHASE_WIN_BONUS,
    )
    return ChaseRound(state.pursuer if pursuer_won else state.target, margin, new)


def roll_chase(
    roller: Roller,
    state: ChaseState,
    pursuer_rank: int,
    target_rank: int,
    *,
    pursuer_on_foot_against_faster: bool = False,
    target_on_foot_against_faster: bool = False,
    shift: Literal[-1, 0, 1] | None = None,
) -> tuple[PoolRoll, PoolRoll, ChaseRound]:
    """WCBH-27: roll both chase checks (pursuer first) and resolve the Page."""
    pursuer = roll_pool(
        roller,
        chase_dice(
            pursuer_rank,
            on_foot_against_faster=pursuer_on_foot_against_faster,
            bonus=state.pursuer_bonus,
        ),
        label="chase",
    )
    target = roll_pool(
        roller,
        chase_dice(
            target_rank,
            on_foot_against_faster=target_on_foot_against_faster,
            bonus=state.target_bonus,
        ),
        label="chase",
    )
    return pursuer, target, resolve_chase(state, pursuer.successes, target.successes, shift=shift)
