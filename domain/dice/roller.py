"""A roll's record: every die drawn, in order, with what became of it (kept, dropped, rerolled, exploded)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from domain.dice.source import FairSource
from domain.errors import InvalidInput

MAX_SIDES = 1000
MAX_DICE = 300  # dice drawn by one roll, explosions and rerolls included
MAX_EXPLOSION_DEPTH = 100


class DiceLimitError(InvalidInput):
    code = "dice_limit"


@dataclass
class Face:
    """One die: its position in the draw order, its size and face, and its story."""

    index: int
    sides: int
    face: int
    kept: bool = True
    exploded_from: int | None = None  # index of the die whose face made this one roll
    reroll_of: int | None = None  # index of the die this one replaced
    label: str | None = None  # what the die is for, e.g. "base", "resolve", "primary"

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "sides": self.sides,
            "face": self.face,
            "kept": self.kept,
            "exploded_from": self.exploded_from,
            "reroll_of": self.reroll_of,
            "label": self.label,
        }


Explodes = Callable[[int], bool]


def check_sides(sides: int) -> None:
    if not 2 <= sides <= MAX_SIDES:
        raise DiceLimitError(f"a die has 2 to {MAX_SIDES} sides, not {sides}", field="sides")


def check_explodes(sides: int, explodes: Explodes | None) -> None:
    """Refuse dice that explode on every face: every chain would run into the depth cap."""
    if explodes is not None and all(explodes(f) for f in range(1, sides + 1)):
        raise DiceLimitError("dice that explode on every face never stop", field="explode")


class Roller:
    """Draws dice from a fair source and keeps every face; checks read faces, never randomness."""

    def __init__(self, source: FairSource, *, max_dice: int = MAX_DICE) -> None:
        self.source = source
        self.max_dice = max_dice
        self.faces: list[Face] = []
        self.explosions_capped = False

    def _draw(
        self,
        sides: int,
        *,
        label: str | None,
        exploded_from: int | None = None,
        reroll_of: int | None = None,
    ) -> Face:
        check_sides(sides)
        if len(self.faces) >= self.max_dice:
            raise DiceLimitError(
                f"a roll draws at most {self.max_dice} dice",
                field="pool",
                details={"limit": self.max_dice},
            )
        face = Face(
            len(self.faces),
            sides,
            self.source.die(sides),
            exploded_from=exploded_from,
            reroll_of=reroll_of,
            label=label,
        )
        self.faces.append(face)
        return face

    def roll(
        self,
        sides: int,
        count: int = 1,
        *,
        explodes: Explodes | None = None,
        label: str | None = None,
    ) -> list[Face]:
        """Roll `count` dice, then each die's explosion chain in turn (die 1's whole chain first).

        Returns the base dice followed by their explosions, in draw order.
        """
        check_sides(sides)
        if count < 0:
            raise DiceLimitError("a pool cannot have fewer than 0 dice", field="pool")
        if len(self.faces) + count > self.max_dice:
            raise DiceLimitError(
                f"a roll draws at most {self.max_dice} dice",
                field="pool",
                details={"limit": self.max_dice},
            )
        check_explodes(sides, explodes)
        base = [self._draw(sides, label=label) for _ in range(count)]
        drawn = list(base)
        if explodes is not None:
            for die in base:
                drawn.extend(self.explode(die, explodes))
        return drawn

    def explode(self, die: Face, explodes: Explodes) -> list[Face]:
        """The chain of extra dice that `die` sets off: each new die explodes in its turn."""
        chain: list[Face] = []
        current = die
        while explodes(current.face):
            if len(chain) >= MAX_EXPLOSION_DEPTH:
                self.explosions_capped = True  # recorded; a verifier stops at the same place
                break
            current = self._draw(die.sides, label=die.label, exploded_from=current.index)
            chain.append(current)
        return chain

    def reroll(self, dice: Iterable[Face], *, explodes: Explodes | None = None) -> list[Face]:
        """Replace each die (in the order given) with a new one; the old ones stay, not kept."""
        replaced = list(dice)
        for old in replaced:
            check_explodes(old.sides, explodes)
        drawn: list[Face] = []
        for old in replaced:
            old.kept = False
            new = self._draw(old.sides, label=old.label, reroll_of=old.index)
            drawn.append(new)
            if explodes is not None:
                drawn.extend(self.explode(new, explodes))
        return drawn

    def drop(self, dice: Iterable[Face]) -> None:
        for die in dice:
            die.kept = False

    def kept(self, label: str | None = None) -> list[Face]:
        return [f for f in self.faces if f.kept and (label is None or f.label == label)]
