"""Cold and cached time of the exact odds of every system's checks, for pools of 1 to 30 dice.

Run as `python bench/bench_odds.py` (from the repository root); it takes well under a minute and
prints one line per system: the cold time (every cache cleared), the cached time of the same calls,
and their ratio, all measured in this run.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from domain.dice import odds

POOLS = range(1, 31)
REPEATS = 3  # the cached pass is repeated and its best run kept


def wcbh() -> None:
    for dice in POOLS:
        for decisive in (False, True):
            odds.wcbh_pool(dice, decisive).at_least(dice)


def nwod() -> None:
    for dice in POOLS:
        odds.nwod_pool(dice).at_least(dice // 3)
    odds.nwod_chance().at_least(1)


def classd() -> None:
    for dice in range(2, 31):  # 2d6 plus up to 28 advantages or disadvantages
        for edge in (dice - 2, 2 - dice):
            odds.classd_success(edge, 3, 10)
            odds.classd_total(edge).at_least(9)


def nimble() -> None:
    for dice in POOLS:
        for sides in (6, 12):
            for edge in (-2, 0, 2):
                odds.nimble_attack(((dice, sides),), 2, edge, True).damage.at_least(dice * 3)
    for bonus in range(-5, 11):
        for edge in (-1, 0, 1):
            odds.nimble_initiative(bonus, edge).at_least(2)


def clear_caches() -> None:
    for value in vars(odds).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def timed(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    print(f"{'system':<8} {'cold s':>9} {'cached s':>11} {'cached/cold':>12}")
    for name, run in (("wcbh", wcbh), ("nwod", nwod), ("classd", classd), ("nimble", nimble)):
        clear_caches()
        cold = timed(run)
        cached = min(timed(run) for _ in range(REPEATS))
        print(f"{name:<8} {cold:>9.3f} {cached:>11.6f} {cached / cold:>12.2e}")


if __name__ == "__main__":
    main()
