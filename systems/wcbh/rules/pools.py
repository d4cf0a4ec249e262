"""Rolling plain d6 pools for the combat and play rules: the trait check's success counting
(WCBH-7) over dice drawn from an injected Roller, with Decisive-Moment explosions (WCBH-13)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.dice.roller import Roller
from systems.wcbh.rules.checks import SIDES, base_dice, face_successes
from systems.wcbh.rules.sheet import round_up_half

__all__ = ["PoolRoll", "halve", "roll_pool"]


@dataclass(frozen=True)
class PoolRoll:
    """One pool's kept faces (explosions included) and their successes."""

    dice: int
    faces: tuple[int, ...]
    successes: int


def roll_pool(
    roller: Roller, rank: int, modifier: int = 0, *, explode: bool = False, label: str | None = None
) -> PoolRoll:
    """WCBH-7: roll ``rank + modifier`` d6 (none if that is 0 or less, as in the trait check) and
    count 2/4 as one success, 6 as two. ``explode``: every 6 rolls one more die (WCBH-13, WCBH-47)."""
    dice = base_dice(rank, modifier)
    explodes = (lambda face: face == SIDES) if explode else None
    faces = tuple(f.face for f in roller.roll(SIDES, dice, explodes=explodes, label=label))
    return PoolRoll(dice, faces, sum(face_successes(face) for face in faces))


def halve(rank: int) -> int:
    """WCBH-5: half a rank, rounded up (half of 5 is 3)."""
    return round_up_half(rank)
