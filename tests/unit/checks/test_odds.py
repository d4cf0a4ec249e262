"""The exact odds agree with brute-force enumeration of every face (explosions to a depth)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest

from domain.dice import odds
from systems.classd import odds as classd_odds
from systems.nimble import odds as nimble_odds
from systems.nwod_micro import odds as nwod_odds
from systems.wcbh import odds as wcbh_odds
from systems.wcbh.rules.checks import face_successes

Dist = dict[int, Fraction]


def product_of(per_die: Dist, dice: int) -> Dist:
    out: Dist = {}
    for combo in itertools.product(per_die.items(), repeat=dice):
        total = sum(k for k, _ in combo)
        p = Fraction(1)
        for _, q in combo:
            p *= q
        out[total] = out.get(total, Fraction(0)) + p
    return out


def chain(sides: int, score: Callable[[int], int], explodes: int | None, depth: int) -> Dist:
    """One die and its explosion chain, every face sequence enumerated down to ``depth`` extra
    dice; sequences that would go deeper are left out (their mass is the tolerance)."""
    out: Dist = {}

    def walk(level: int, so_far: int, p: Fraction) -> None:
        for face in range(1, sides + 1):
            q = p / sides
            if face == explodes:
                if level < depth:
                    walk(level + 1, so_far + score(face), q)
            else:
                out[so_far + score(face)] = out.get(so_far + score(face), Fraction(0)) + q

    walk(0, 0, Fraction(1))
    return out


def assert_matches(exact: odds.Distribution, brute: Dist, tolerance: float) -> None:
    for score in range(min(brute) - 1, max(brute) + 2):
        expected = float(sum(p for k, p in brute.items() if k >= score))
        assert exact.at_least(score) == pytest.approx(expected, abs=tolerance), score


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_wcbh_pool_matches_every_face_combination_wcbh_7(dice: int) -> None:
    brute: Dist = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        total = sum(face_successes(f) for f in faces)
        brute[total] = brute.get(total, Fraction(0)) + Fraction(1, 6**dice)
    assert_matches(wcbh_odds.wcbh_pool(dice, False), brute, 1e-12)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_wcbh_decisive_moment_pool_matches_enumerated_chains_wcbh_13(dice: int) -> None:
    depth = 14  # dice x 6^-15 < 1e-11
    per_die = chain(6, face_successes, 6, depth)
    tail = float(1 - sum(per_die.values()))
    assert_matches(wcbh_odds.wcbh_pool(dice, True), product_of(per_die, dice), dice * tail + 1e-12)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_nwod_pool_matches_enumerated_chains_nw_4(dice: int) -> None:
    depth = 10
    per_die = chain(10, lambda f: 1 if f >= 8 else 0, 10, depth)
    tail = float(1 - sum(per_die.values()))
    assert tail < 1e-10
    assert_matches(nwod_odds.nwod_pool(dice), product_of(per_die, dice), dice * tail + 1e-12)


def test_nwod_chance_die_matches_enumeration_nw_5() -> None:
    rest = chain(10, lambda f: 1 if f >= 8 else 0, 10, 10)
    brute: Dist = {0: Fraction(9, 10)}
    for k, p in rest.items():
        brute[k + 1] = brute.get(k + 1, Fraction(0)) + p / 10
    assert_matches(nwod_odds.nwod_chance(), brute, 1e-11)


def test_explosion_depth_keeps_the_lost_mass_below_the_bound() -> None:
    for dice, chance in [(1, 1 / 2), (30, 1 / 6), (30, 1 / 10), (100, 1 / 6)]:
        depth = odds.explosion_depth(dice, chance)
        assert dice * chance ** (depth + 1) < odds.TRUNCATION
        assert dice * chance**depth >= odds.TRUNCATION


@pytest.mark.parametrize("edge", [-2, -1, 0, 1, 2])
def test_classd_success_and_totals_match_every_face_combination_cd_5(edge: int) -> None:
    dice = 2 + abs(edge)
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    kept = [sorted(r, reverse=edge >= 0)[:2] for r in rolls]
    p = Fraction(1, 6**dice)
    for stat, difficulty in [(0, 2), (0, 7), (0, 13), (3, 8), (10, 6), (2, 15)]:
        wins = 0
        for pair in kept:
            low, high = sorted(pair)
            critical = "success" if low == high == 6 else "failure" if low == high == 1 else None
            wins += critical == "success" or (critical is None and low + high + stat >= difficulty)
        assert classd_odds.classd_success(edge, stat, difficulty) == pytest.approx(
            float(wins * p), abs=1e-12
        )
    totals: Dist = {}
    for pair in kept:
        totals[sum(pair)] = totals.get(sum(pair), Fraction(0)) + p
    assert_matches(classd_odds.classd_total(edge), totals, 1e-12)


def brute_primary(sides: int, count: int, edge: int) -> dict[tuple[int, int], Fraction]:
    rolled = count + abs(edge)
    out: dict[tuple[int, int], Fraction] = {}
    for roll in itertools.product(range(1, sides + 1), repeat=rolled):
        order = sorted(range(rolled), key=lambda i: (roll[i] if edge >= 0 else -roll[i], i))
        dropped = set(order[: abs(edge)])
        kept = [i for i in range(rolled) if i not in dropped]
        lead = roll[kept[0]]
        kind = (
            nimble_odds.MISS
            if lead == 1
            else nimble_odds.CRIT
            if lead == sides
            else nimble_odds.HIT
        )
        key = (sum(roll[i] for i in kept), kind)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, sides**rolled)
    return out


@pytest.mark.parametrize(
    ("sides", "count", "edge"),
    [(s, c, e) for s in (2, 4, 6) for c in (1, 2, 3) for e in (-2, -1, 0, 1, 2) if c + abs(e) <= 5],
)
def test_nimble_primary_die_with_advantage_matches_every_order_nb_11(
    sides: int, count: int, edge: int
) -> None:
    exact = nimble_odds.primary_joint(sides, count, edge)
    brute = brute_primary(sides, count, edge)
    for key in set(exact) | set(brute):
        assert exact.get(key, 0.0) == pytest.approx(float(brute.get(key, 0)), abs=1e-12), key


@pytest.mark.parametrize("edge", [-1, 0, 1, 2])
def test_nimble_attack_damage_matches_enumeration_nb_9(edge: int) -> None:
    """1d4 + 1d6 + 1 with its crit chain enumerated to 22 extra d4s (4^-23 < 1e-13)."""
    crit_chain = chain(4, lambda f: f, 4, 22)
    brute: Dist = {}
    for (total, kind), p in brute_primary(4, 1, edge).items():
        for other in range(1, 7):
            q = Fraction(p) / 6
            if kind == nimble_odds.MISS:
                brute[0] = brute.get(0, Fraction(0)) + q
            elif kind == nimble_odds.HIT:
                brute[total + other + 1] = brute.get(total + other + 1, Fraction(0)) + q
            else:
                for extra, r in crit_chain.items():
                    key = total + extra + other + 1
                    brute[key] = brute.get(key, Fraction(0)) + q * r
    exact = nimble_odds.nimble_attack(((1, 4), (1, 6)), 1, edge, True)
    assert_matches(exact.damage, brute, 1e-12)
    assert exact.hit == pytest.approx(1 - float(brute[0]), abs=1e-12)


def test_nimble_attack_without_a_primary_die_never_misses_nb_11() -> None:
    area = nimble_odds.nimble_attack(((2, 6),), 0, 0, False)
    assert (area.hit, area.critical, area.damage.low, area.damage.high) == (1.0, 0.0, 2, 12)


@pytest.mark.parametrize("edge", [-1, 0, 1])
@pytest.mark.parametrize("bonus", [-5, 0, 1, 9])
def test_nimble_initiative_matches_every_d20_nb_1(edge: int, bonus: int) -> None:
    brute: Dist = {}
    for roll in itertools.product(range(1, 21), repeat=1 + abs(edge)):
        natural = max(roll) if edge >= 0 else min(roll)
        actions = nimble_odds.initiative_actions(natural, natural + bonus)
        brute[actions] = brute.get(actions, Fraction(0)) + Fraction(1, 20 ** len(roll))
    assert_matches(nimble_odds.nimble_initiative(bonus, edge), brute, 1e-12)
