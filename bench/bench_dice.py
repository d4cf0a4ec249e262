"""Faces per second of the fair dice source against `secrets.randbelow`, measured in the same run.

Run as `python bench/bench_dice.py`; it takes about ten seconds and prints one line per die
with the ratios.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from domain.dice.source import FairSource

FACES = 200_000
ROLLS = 50_000  # one FairSource (one nonce) per roll of a few dice, as the service uses it
DICE_PER_ROLL = 4
SEED = bytes(range(32))


def best_rate(faces: int, run: Callable[[], None], repeats: int = 5) -> float:
    """Faces per second of the fastest of `repeats` runs (the least disturbed by the rest of the box)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return faces / best


def fair_stream(sides: int) -> Callable[[], None]:
    def run() -> None:
        source = FairSource(SEED, "bench", 0)
        for _ in range(FACES):
            source.die(sides)

    return run


def fair_rolls(sides: int) -> Callable[[], None]:
    def run() -> None:
        for nonce in range(ROLLS):
            source = FairSource(SEED, "bench", nonce)
            for _ in range(DICE_PER_ROLL):
                source.die(sides)

    return run


def system_stream(sides: int) -> Callable[[], None]:
    def run() -> None:
        randbelow = secrets.randbelow
        for _ in range(FACES):
            randbelow(sides) + 1

    return run


def main() -> None:
    print(
        f"{'die':<4}{'FairSource stream':>20}{'FairSource rolls':>20}{'randbelow':>16}{'ratios':>16}"
    )
    for sides in (6, 20):
        stream = best_rate(FACES, fair_stream(sides))
        rolls = best_rate(ROLLS * DICE_PER_ROLL, fair_rolls(sides))
        system = best_rate(FACES, system_stream(sides))
        ratios = f"{stream / system:.2f}x / {rolls / system:.2f}x"
        print(f"d{sides:<3}{stream:>16,.0f} f/s{rolls:>16,.0f} f/s{system:>12,.0f} f/s{ratios:>16}")
    print(
        "f/s = faces per second (best of 5); stream = one nonce, many faces; rolls = a new nonce every "
        f"{DICE_PER_ROLL} faces;\nratios = stream / randbelow and rolls / randbelow (above 1: faster)"
    )


if __name__ == "__main__":
    main()
