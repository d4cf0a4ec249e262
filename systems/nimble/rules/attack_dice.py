"""Nimble attack dice syntax, e.g. ``"2d6+3"``: ``NdM`` dice terms and constants joined by + or -.

Only checks and describes an expression; rolling belongs to the dice engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LENGTH = 100
MAX_TERMS = 20
MAX_DICE = 100
MAX_FACES = 100
MAX_CONSTANT = 999

_DICE_TERM = re.compile(r"(\d*)[dD](\d+)")
_CONSTANT = re.compile(r"\d+")


@dataclass(frozen=True)
class DiceTerm:
    count: int
    faces: int


@dataclass(frozen=True)
class AttackDice:
    """Dice terms in written order, and the sum of the constants."""

    dice: tuple[DiceTerm, ...]
    modifier: int

    @property
    def primary_faces(self) -> int | None:
        """NB-9: the leftmost die is the Primary die; ``None`` for fixed damage."""
        return self.dice[0].faces if self.dice else None


def parse_attack_dice(text: str) -> AttackDice:
    """Parse ``text`` or raise ``ValueError`` saying what is wrong."""
    if len(text) > MAX_LENGTH:
        raise ValueError(f"a dice expression has at most {MAX_LENGTH} characters")
    parts = re.split(r"([+-])", re.sub(r"\s+", "", text))
    if len(parts) > 2 * MAX_TERMS - 1:
        raise ValueError(f"a dice expression has at most {MAX_TERMS} terms")
    dice: list[DiceTerm] = []
    modifier = 0
    for index in range(0, len(parts), 2):
        sign = parts[index - 1] if index else "+"
        term = parts[index]
        if not term:
            raise ValueError(f"missing term in {text!r}; write e.g. '2d6+3'")
        if match := _DICE_TERM.fullmatch(term):
            if sign == "-":
                raise ValueError(f"dice can only be added, not subtracted: -{term}")
            dice.append(_dice_term(match))
        elif _CONSTANT.fullmatch(term):
            if int(term) > MAX_CONSTANT:
                raise ValueError(f"a constant is at most {MAX_CONSTANT}: {term}")
            modifier += int(term) if sign == "+" else -int(term)
        else:
            raise ValueError(f"not a dice term (NdM) or a number: {term!r}")
    if sum(d.count for d in dice) > MAX_DICE:
        raise ValueError(f"at most {MAX_DICE} dice in one expression")
    return AttackDice(tuple(dice), modifier)


def _dice_term(match: re.Match[str]) -> DiceTerm:
    count = int(match.group(1) or 1)
    faces = int(match.group(2))
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"between 1 and {MAX_DICE} dice per term: {match.group(0)}")
    if not 2 <= faces <= MAX_FACES:
        raise ValueError(f"a die has 2 to {MAX_FACES} faces: {match.group(0)}")
    return DiceTerm(count, faces)
