"""Prints docs/check_vectors.json: one fixed record per check and follow-up of every ruleset (seed,
client seed, nonce, request, sheet, settings -> faces, result, score, success), computed with the
rulesets' own checks.

Regenerate with `python docs/check_vectors.py > docs/check_vectors.json`;
tests/unit/dice/test_check_vectors.py checks that the file is what this prints and that the code and
the reference verifier (tests/unit/dice/reference_checks.py) both reproduce every vector.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.dice import FairSource, Roller, commitment
from domain.dice.roller import Face
from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from domain.rulesets.base import (
    CheckOutcome,
    EarlierFollowUp,
    FollowUpRoll,
    faces_after,
    parse_request,
)

SEED = bytes(range(32))  # seed A of docs/fair-dice.md
MAX_NONCE = 5000
Json = dict[str, Any]


def real_roll(
    ruleset: str,
    check: str,
    request: Mapping[str, Any],
    sheet: Any,
    side: str | None,
    settings: Any,
    seed: bytes,
    client_seed: str,
    nonce: int,
) -> Json:
    """An original roll as the service makes it (`check.roll`), in record form."""
    rules = RULESETS[ruleset]
    parsed_settings = rules.parse_settings(settings)
    parsed_sheet = None
    if sheet is not None:
        parsed_sheet = rules.parse_sheet(sheet, parsed_settings, side=side or "hero")
    the_check = rules.checks[check]
    parsed = the_check.parse(request)
    roller = Roller(FairSource(seed, client_seed, nonce))
    outcome = the_check.roll(the_check.asked(parsed, parsed_sheet, parsed_settings), roller)
    return _record(
        ruleset, check, None, parsed.model_dump(mode="json"), sheet, side, settings, client_seed,
        nonce, roller, outcome,
    )  # fmt: skip


def real_follow_up(
    original: Json,
    name: str,
    request: Mapping[str, Any],
    seed: bytes,
    client_seed: str,
    nonce: int,
    earlier: list[Json] | None = None,
) -> Json:
    """A follow-up of `original` as the service makes it (`allowed`, then `apply` on fresh copies
    of the original's faces), in record form; the sheet and settings are the original's.
    `earlier`: the follow-up records it comes after (a chained follow-up, its `after`)."""
    rules = RULESETS[original["ruleset"]]
    settings = rules.parse_settings(original["settings"])
    sheet = None
    if original["sheet"] is not None:
        sheet = rules.parse_sheet(original["sheet"], settings, side=original["side"] or "hero")
    the_check = rules.checks[original["check"]]
    original_request = the_check.parse(original["request"])
    follow = rules.follow_ups[name]

    first = CheckOutcome(original["result"], original["score"], original["success"])
    refused = follow.allowed(original_request, first)
    if refused is not None:
        raise InvalidInput(refused, field="follow_up")
    parsed = parse_request(follow.Request, request, "request")
    roller = Roller(FairSource(seed, client_seed, nonce))
    faces = [Face(**f) for f in copy.deepcopy(original["faces"])]
    if earlier is not None:
        made = [
            EarlierFollowUp(
                rules.follow_ups[e["follow_up"]],
                rules.follow_ups[e["follow_up"]].Request.model_validate(e["request"]),
                [Face(**f) for f in e["faces"]], sheet, settings,
            )
            for e in earlier
        ]  # fmt: skip
        faces = faces_after(original_request, faces, made)
    outcome = follow.apply(FollowUpRoll(original_request, faces, parsed, sheet, settings), roller)
    record = _record(
        original["ruleset"], original["check"], name, parsed.model_dump(mode="json"),
        original["sheet"], original["side"], original["settings"], client_seed, nonce, roller,
        outcome,
    )  # fmt: skip
    if earlier is not None:
        record["after"] = [e["roll_id"] for e in earlier]
    return record


def _record(
    ruleset: str,
    check: str,
    follow_up: str | None,
    request: Json,
    sheet: Any,
    side: str | None,
    settings: Any,
    client_seed: str,
    nonce: int,
    roller: Roller,
    outcome: Any,
) -> Json:
    return {
        "ruleset": ruleset,
        "check": check,
        "follow_up": follow_up,
        "side": side if sheet is not None else None,
        "sheet": sheet,
        "settings": settings,
        "client_seed": client_seed,
        "nonce": nonce,
        "request": request,
        "faces": [f.to_json() for f in roller.faces],
        "result": outcome.result,
        "score": outcome.score,
        "success": outcome.success,
    }


def _hero(ruleset: str) -> Json:
    return RULESETS[ruleset].example_sheet()


Predicate = Callable[[Json], bool]


def _always(record: Json) -> bool:
    return True


def _labels(record: Json) -> set[str]:
    return {f["label"] for f in record["faces"]}


def _exploded(record: Json) -> bool:
    return any(f["exploded_from"] is not None for f in record["faces"])


@dataclass(frozen=True)
class Vector:
    """A check's request (and a follow-up's), and what the first nonce to use must show."""

    name: str
    ruleset: str
    check: str
    request: Json
    sheet: Json | None = None
    side: str | None = "hero"
    settings: Json | None = None
    follow_up: str | None = None
    follow_up_request: Json = field(default_factory=dict)
    wanted: Predicate = _always  # of the original record (of the follow-up's, for a follow-up)
    earlier: tuple[
        tuple[str, Json], ...
    ] = ()  # follow-ups made before it, chained (their name, request)


DEFENCES = [
    {"name": "Agility", "rank": 4, "active": True},
    {"name": "Stamina", "rank": 5, "active": False},
]
PARTY = {"character_id": "ally", "defences": DEFENCES, "health": 5}
DM_TRAIT = {"trait": "agility", "difficulty": 3, "resolve": 1, "decisive_moment": True}
DM_TRAIT |= {"effort": "physical", "modifier": 1, "page_modifier": -2}
ALL_OUT = {"attack_rank": 5, "defences": DEFENCES, "target_health": 4, "maneuver": "all_out"}

VECTORS = [
    # -- We Can Be Heroes --
    Vector("wcbh/trait", "wcbh", "trait", DM_TRAIT, _hero("wcbh"), wanted=_exploded),
    Vector(
        "wcbh/trait (minion, gm table)", "wcbh", "trait", {"difficulty": 1},
        {"kind": "minion", "threat": 5}, "minion", {"narration_table": "gm"},
    ),
    Vector(
        "wcbh/attack", "wcbh", "attack",
        {"attack_rank": 8, "weapon": 1, "defences": DEFENCES, "target_health": 6},
    ),
    Vector(
        "wcbh/attack (charge, collision)", "wcbh", "attack",
        {
            "attack_rank": 6, "defences": [{"name": "Stamina", "rank": 12, "active": False}],
            "target_health": 6, "lethal": False, "maneuver": "charge",
            "charger": {**PARTY, "defences": [{"name": "armour", "rank": 3, "active": False}]},
        },
        wanted=lambda r: "collision" in r["result"],
    ),
    Vector(
        "wcbh/attack (club)", "wcbh", "attack",
        {"attack_rank": 8, "defences": DEFENCES, "target_health": 6, "club": PARTY},
    ),
    Vector(
        "wcbh/attack (active guard fails)", "wcbh", "attack",
        {"attack_rank": 8, "defences": DEFENCES, "target_health": 6, "guard": PARTY},
        wanted=lambda r: "defence" in _labels(r),
    ),
    Vector(
        "wcbh/attack (team, exploding, special effect)", "wcbh", "attack",
        {
            "attack_rank": 5, "defences": DEFENCES, "target_health": 3, "team": True,
            "explode": True, "effect": "Stun", "effect_pages_before": 1,
        },
        wanted=_exploded,
    ),
    Vector(
        "wcbh/attack (special effect besides damage)", "wcbh", "attack",
        {
            "attack_rank": 8, "defences": DEFENCES, "target_health": 4, "effect": "Stun",
            "effect_pages_before": 1, "besides_damage": True,
        },
        wanted=lambda r: r["result"]["damage"] > 0 and not r["result"]["defeated_by_damage"],
    ),
    Vector(
        "wcbh/attack (Decisive Moment, Resolve on both sides)", "wcbh", "attack",
        {
            "attack_rank": 5, "defences": DEFENCES, "target_health": 6, "resolve": 1,
            "decisive_moment": True, "effort": "physical", "defence_resolve": 2,
        },
        wanted=_exploded,
    ),
    Vector(
        "wcbh/grapple", "wcbh", "grapple",
        {"rank": 4, "defences": DEFENCES, "halve_active": True, "aim": "weapon"},
    ),
    Vector(
        "wcbh/maneuver", "wcbh", "maneuver",
        {
            "maneuver": "taunt", "trait": "Charisma", "rank": 6, "against": "Will",
            "against_rank": 3,
        },
        wanted=lambda r: r["result"]["net"] >= 3,
    ),
    Vector(
        "wcbh/ambush", "wcbh", "ambush",
        {
            "ambushers": [
                {"character_id": "a", "trait": "Stealth", "rank": 7},
                {"character_id": "b", "trait": "Stealth", "rank": 2},
            ],
            "targets": [
                {"target_id": "m1", "perception": 2, "minion": True},
                {"target_id": "boss", "perception": 4},
                {"target_id": "m2", "perception": 3, "minion": True},
            ],
        },
        wanted=lambda r: bool(r["result"]["handovers"]),
    ),
    Vector(
        "wcbh/area_attack", "wcbh", "area_attack",
        {
            "attack_rank": 7,
            "targets": [
                {"target_id": "t", "defences": DEFENCES, "health": 6},
                {"target_id": "u", "defences": DEFENCES, "health": 2, "skip_turn": True},
                {"target_id": "v", "defences": DEFENCES, "health": 9, "minion": True},
            ],
        },
    ),
    Vector(
        "wcbh/redirected_attack", "wcbh", "redirected_attack",
        {"redirected_from": "roll", "attack_successes": 4, "defences": DEFENCES,
         "target_health": 6},
    ),
    Vector(
        "wcbh/resolve_dice", "wcbh", "trait", DM_TRAIT, _hero("wcbh"),
        follow_up="resolve_dice", follow_up_request={"resolve": 1},
    ),
    Vector(
        "wcbh/resolve_reroll", "wcbh", "trait", DM_TRAIT, _hero("wcbh"),
        follow_up="resolve_reroll", wanted=_exploded,
    ),
    # Resolve after an attack re-reads the hit from the attacker's dice (WCBH-20b, 20c).
    Vector(
        "wcbh/resolve_dice (attack)", "wcbh", "attack", ALL_OUT, _hero("wcbh"),
        follow_up="resolve_dice", follow_up_request={"resolve": 2},
        wanted=lambda r: r["result"]["net"] <= 0,
    ),
    Vector(
        "wcbh/resolve_reroll (attack)", "wcbh", "attack", ALL_OUT, _hero("wcbh"),
        follow_up="resolve_reroll", wanted=lambda r: r["result"]["net"] <= 0,
    ),
    # Both sides after one attack, chained: the attacker's dice, then the defence's dice and its
    # reroll, each reading the dice the earlier ones left (WCBH-20b, 20c; issue #15).
    Vector(
        "wcbh/resolve_reroll (defence, chained)", "wcbh", "attack", ALL_OUT, _hero("wcbh"),
        follow_up="resolve_reroll", follow_up_request={"side": "defence"},
        earlier=(("resolve_dice", {"resolve": 2}),
                 ("resolve_dice", {"resolve": 2, "side": "defence"})),
    ),
    # -- Class D Heroes --
    Vector(
        "classd/stat", "classd", "stat",
        {"stat": "speed", "target_stat": 2, "advantage": 1, "disadvantage": 3},
        _hero("classd"),
    ),
    Vector(
        "classd/rest", "classd", "rest",
        {
            "participants": [
                {"name": "Nova", "health": 7, "health_max": 12, "will": 4, "will_max": 5},
                {"name": "Rook", "health": 11, "health_max": 12, "will": 0, "will_max": 3},
            ]
        },
        side=None,
    ),
    Vector(
        "classd/action", "classd", "action",
        {"stat": "might", "difficulty_name": "hard", "advantage": 1, "will_rerolls": 2},
        _hero("classd"), wanted=lambda r: r["result"]["will_spent"] >= 1,
    ),
    Vector(
        "classd/hero_attack", "classd", "hero_attack",
        {
            "attack_type": "melee", "stat_value": 1, "target_stat": 3, "damage_modifier": 1,
            "target_health": 6, "reaction": True, "attacker_health": 12, "attacker_will": 5,
            "will_rerolls": 1, "hostage_shield": True, "hostage_health": 4,
        },
        side=None, wanted=lambda r: r["result"]["strike_back"] is not None,
    ),
    Vector(
        "classd/hero_attack (overflow)", "classd", "hero_attack",
        {
            "attack_type": "mental", "stat_value": 4, "target_stat": 0, "damage_modifier": 2,
            "target_health": 3, "reaction": False, "attacker_health": 12, "attacker_will": 2,
            "overflow_target_health": 5, "area": True, "engaged_with": ["x"],
        },
        side=None, wanted=lambda r: r["result"]["overflow_moved"],
    ),
    Vector(
        "classd/villain_attack", "classd", "villain_attack",
        {
            "attack_type": "mental", "stat_value": 1, "target_stat": 2, "damage_modifier": 1,
            "defender_health": 12, "defender_will": 5, "will_rerolls": 1,
        },
        side=None, wanted=lambda r: r["result"]["damage"] > 0,
    ),
    Vector(
        "classd/will_reroll", "classd", "stat",
        {"stat": "might", "difficulty": 9, "advantage": 2}, _hero("classd"),
        follow_up="will_reroll", wanted=lambda r: r["result"]["outcome"] == "failure",
    ),
    # -- Nimble --
    Vector(
        "nimble/attack", "nimble", "attack",
        {"attack": "greataxe", "advantage": 2, "disadvantage": 1, "armor": 2}, _hero("nimble"),
        wanted=lambda r: r["result"]["critical"],
    ),
    Vector(
        "nimble/attack (raw, hasty)", "nimble", "attack",
        {"dice": "2d4+1d6-1", "attack_number": 3, "primary_shift": 1}, side=None,
    ),
    Vector("nimble/initiative", "nimble", "initiative", {"advantage": 1}, _hero("nimble")),
    Vector(
        "nimble/assess", "nimble", "assess",
        {"skill": "Examination", "modifier": 2, "option": "find_weakness", "disadvantage": 2},
        _hero("nimble"),
    ),
    Vector(
        "nimble/help_reroll", "nimble", "help_reroll",
        {"helped_roll_id": "roll-id", "old_face": 3, "modifier": 2}, side=None,
    ),
    Vector("nimble/save", "nimble", "save", {"stat": "STR"}, _hero("nimble")),
    Vector(
        "nimble/skill", "nimble", "skill", {"skill": "might", "attack_number": 2},
        _hero("nimble"),
    ),
    Vector(
        "nimble/help_die", "nimble", "attack", {"attack": "Greataxe", "advantage": 1},
        _hero("nimble"), follow_up="help_die", follow_up_request={"die": 0},
    ),
    # -- nWoD micro --
    Vector(
        "nwod-micro/pool", "nwod-micro", "pool",
        {"affinity": "VIO", "kind": "melee", "target_defense": 1, "will_power": 1,
         "weapon": "knife", "target_armor": 1},
        _hero("nwod-micro"), wanted=_exploded,
    ),
    Vector(
        "nwod-micro/pool (chance die)", "nwod-micro", "pool", {"pool": 1, "modifier": -2},
        side=None, wanted=_exploded,
    ),
    Vector("nwod-micro/initiative", "nwod-micro", "initiative", {"intelligence": 2, "modifier": 1},
           _hero("nwod-micro")),
    Vector(
        "nwod-micro/fight_roll", "nwod-micro", "fight_roll",
        {
            "kind": "ranged", "affinity": "VIO", "affinity_value": 4,
            "modifiers": [{"source": "medium range", "dice": -2, "rule": "NW-17"}],
            "damage_bonus": 2, "damage_penalty": 1, "target_armor": 1, "target_health": 7,
        },
        _hero("nwod-micro"), wanted=lambda r: r["result"]["success"],
    ),
]  # fmt: skip


def build(vector: Vector) -> Json:
    """The vector's record: the first nonce whose roll shows what the vector is for."""
    client = vector.name.split(" ")[0]
    for nonce in range(MAX_NONCE):
        original = real_roll(
            vector.ruleset, vector.check, vector.request, vector.sheet,
            vector.side if vector.sheet is not None else None, vector.settings, SEED, client,
            nonce,
        )  # fmt: skip
        if vector.follow_up is None:
            if vector.wanted(original):
                return {"name": vector.name, **original, "original": None}
            continue
        if not vector.wanted(original):
            continue
        if vector.earlier:
            return _chained(vector, original, client, nonce)
        record = real_follow_up(
            original, vector.follow_up, vector.follow_up_request, SEED, client, nonce + 1
        )
        return {"name": vector.name, **record, "original": original}
    raise AssertionError(f"no nonce below {MAX_NONCE} gives {vector.name}")


def _chained(vector: Vector, original: Json, client: str, nonce: int) -> Json:
    """A chained follow-up: its earlier follow-ups on the next nonces (roll ids "earlier-<n>"),
    then itself, each after those before it."""
    assert vector.follow_up is not None
    earlier: list[Json] = []
    for n, (name, request) in enumerate(vector.earlier):
        made = real_follow_up(original, name, request, SEED, client, nonce + 1 + n, list(earlier))
        earlier.append({"roll_id": f"earlier-{n}", **made})
    record = real_follow_up(
        original, vector.follow_up, vector.follow_up_request, SEED, client,
        nonce + 1 + len(earlier), earlier,
    )  # fmt: skip
    return {"name": vector.name, **record, "original": original, "earlier": earlier}


def vectors() -> Json:
    return {
        "seed": SEED.hex(),
        "commitment": commitment(SEED),
        "vectors": [build(v) for v in VECTORS],
    }


def main() -> None:
    print(json.dumps(vectors(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
