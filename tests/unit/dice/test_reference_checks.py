"""docs/fair-dice-checks.md is complete: for generated requests of every check and follow-up, the
reference written from it (reference_checks.py) recomputes the faces, result, score and success
that the rulesets' own checks give.

Requests come from Hypothesis strategies over each request model (mostly valid; what the service
refuses has no record and is skipped), against the example sheets of each side and random seeds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.rulesets import RULESETS
from tests.unit.dice import vector_script
from tests.unit.dice.reference_checks import CHECKS, FOLLOW_UPS, recompute

vectors = vector_script.load()

Json = dict[str, Any]
S = st.SearchStrategy

# The sheets a roll may carry, per ruleset: (side, sheet); (None, None) is a GM's raw roll.
SHEETS: dict[str, list[tuple[str | None, Json | None]]] = {
    "wcbh": [
        ("hero", RULESETS["wcbh"].example_sheet()),
        ("minion", {"kind": "minion", "threat": 4}),
        (None, None),
    ],
    "classd": [("hero", RULESETS["classd"].example_sheet()), (None, None)],
    "nimble": [
        ("hero", RULESETS["nimble"].example_sheet()),
        ("opponent", {"kind": "monster", "hp": 8, "attacks": [{"name": "Bite", "dice": "2d4"}]}),
        (None, None),
    ],
    "nwod-micro": [("hero", RULESETS["nwod-micro"].example_sheet()), (None, None)],
}
SETTINGS: dict[str, list[Json | None]] = {
    "wcbh": [None, {"narration_table": "gm"}, {"narration_table": "player", "trait_limit": 10}],
    "classd": [None],
    "nimble": [None],
    "nwod-micro": [None],
}


def opt(strategy: S[Any]) -> S[Any]:
    return st.none() | strategy


def small(low: int, high: int) -> S[int]:
    return st.integers(low, high)


text = st.sampled_from(["", "why not", "Zoë's ☃"])

# -- We Can Be Heroes ----------------------------------------------------------------------------

traits = st.sampled_from(["Agility", "agility", "Stealth", "Lightning Bolt", "flight", "Will"])
trait_rest = st.fixed_dictionaries(
    {
        "difficulty": small(0, 13),
        "modifier": small(-4, 4),
        "page_modifier": small(-4, 0),
        "resolve": small(0, 3),
        "decisive_moment": st.booleans(),
        "purpose": text,
    }
)
TRAIT_OR_POOL = {  # what names the dice: a character's trait, a minion's threat, a raw pool
    "hero": st.fixed_dictionaries({"trait": traits}),
    "minion": st.just({}) | st.just({"trait": "threat"}),
    None: st.fixed_dictionaries({"pool": small(0, 10)}),
}


def trait_request(side: str | None) -> S[Json]:
    return st.builds(lambda which, rest: {**which, **rest}, TRAIT_OR_POOL[side], trait_rest)


defence = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Agility", "Stamina", "stamina", "armour", "Will"]),
        "rank": small(0, 10),
        "active": st.booleans(),
    }
)
defences = st.lists(defence, min_size=1, max_size=3)
party = st.fixed_dictionaries(
    {"defences": defences, "health": small(0, 10)},
    optional={
        "character_id": st.sampled_from(["ally", "foe"]),
        "minion": st.booleans(),
        "defence_modifier": small(-2, 2),
        "halve_active": st.booleans(),
        "halve_passive": st.booleans(),
    },
)
attack_kind: S[Json] = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"maneuver": st.just("charge")}, optional={"charger": party}),
    st.fixed_dictionaries({"maneuver": st.just("all_out")}),
    st.fixed_dictionaries({"club": party}),
    st.fixed_dictionaries({"team": st.just(True), "explode": st.booleans()}),
)
attack_extra: S[Json] = st.one_of(  # an ally's defence or a special effect (neither with a club)
    st.just({}),
    st.fixed_dictionaries({"guard": party, "guard_active": st.booleans()}),
    st.fixed_dictionaries(
        {"effect": st.just("Stun")}, optional={"effect_pages_before": small(0, 3)}
    ),
)
attack_base: S[Json] = st.fixed_dictionaries(
    {"attack_rank": small(0, 12), "defences": defences, "target_health": small(0, 10)},
    optional={
        "weapon": small(0, 3),
        "modifier": small(-3, 3),
        "lethal": st.booleans(),
        "minion": st.booleans(),
        "target_id": st.just("t1"),
        "page_modifier": small(-4, 0),
        "defence_modifier": small(-2, 2),
        "halve_active": st.booleans(),
        "halve_passive": st.booleans(),
        "redirect": st.booleans(),
        "purpose": text,
    },
)
attack_request = st.builds(
    lambda *parts: {k: v for p in parts for k, v in p.items()},
    attack_base,
    attack_kind,
    attack_extra,
)
# What Resolve after the roll works on (WCBH-20b, 20c): a plain, charging or all-out attack.
plain_attack_request = st.builds(
    lambda base, kind: {**base, "redirect": False, **kind},
    attack_base,
    st.sampled_from([{}, {"maneuver": "charge"}, {"maneuver": "all_out"}]),
)
grapple_request = st.fixed_dictionaries(
    {"rank": small(0, 10)},
    optional={
        "trait": st.just("Strength"),
        "modifier": small(-3, 3),
        "page_modifier": small(-2, 0),
        "defences": st.lists(defence, max_size=3),
        "defence_modifier": small(-2, 3),
        "halve_active": st.booleans(),
        "aim": st.sampled_from(["hold", "weapon"]),
        "target_id": st.just("t1"),
    },
)
maneuver_request = st.fixed_dictionaries(
    {
        "maneuver": st.sampled_from(["feint", "stunning_blow", "overpower", "taunt"]),
        "trait": st.just("Charisma"),
        "rank": small(0, 10),
        "against": st.just("Will"),
        "against_rank": small(0, 10),
    },
    optional={
        "modifier": small(-3, 3),
        "page_modifier": small(-2, 0),
        "defence_modifier": small(-2, 2),
        "target_id": st.just("t"),
    },
)
ambush_request = st.fixed_dictionaries(
    {
        "ambushers": st.lists(
            st.fixed_dictionaries(
                {
                    "character_id": st.sampled_from(["a", "b", "c"]),
                    "trait": st.just("Stealth"),
                    "rank": small(0, 9),
                },
                optional={"page_modifier": small(-2, 0)},
            ),
            min_size=1,
            max_size=4,
        ),
        "targets": st.lists(
            st.fixed_dictionaries(
                {"target_id": st.sampled_from(["t", "u", "v"]), "perception": small(0, 8)},
                optional={"minion": st.booleans()},
            ),
            min_size=1,
            max_size=4,
        ),
    }
)
area_request = st.fixed_dictionaries(
    {
        "attack_rank": small(0, 12),
        "targets": st.lists(
            st.fixed_dictionaries(
                {
                    "target_id": st.sampled_from(["t", "u"]),
                    "defences": defences,
                    "health": small(0, 8),
                },
                optional={
                    "minion": st.booleans(),
                    "skip_turn": st.booleans(),
                    "defence_modifier": small(-2, 2),
                    "halve_active": st.booleans(),
                    "halve_passive": st.booleans(),
                },
            ),
            min_size=1,
            max_size=3,
        ),
    },
    optional={
        "weapon": small(0, 3),
        "modifier": small(-3, 3),
        "page_modifier": small(-2, 0),
        "lethal": st.booleans(),
    },
)
redirected_request = st.fixed_dictionaries(
    {
        "redirected_from": st.just("roll"),
        "attack_successes": small(0, 12),
        "defences": defences,
        "target_health": small(0, 10),
    },
    optional={
        "target_id": st.just("t"),
        "lethal": st.booleans(),
        "minion": st.booleans(),
        "defence_modifier": small(-2, 2),
        "halve_active": st.booleans(),
        "halve_passive": st.booleans(),
    },
)

# -- Class D Heroes ------------------------------------------------------------------------------

difficulty = st.one_of(
    st.fixed_dictionaries({"difficulty": small(0, 16)}),
    st.fixed_dictionaries(
        {"difficulty_name": st.sampled_from(["fairly_easy", "medium", "hard", "very_hard"])}
    ),
    st.fixed_dictionaries({"target_stat": small(0, 6)}),
)
edges = st.fixed_dictionaries({}, optional={"advantage": small(0, 3), "disadvantage": small(0, 3)})
STAT = {
    "hero": st.fixed_dictionaries({"stat": st.sampled_from(["might", "speed", "spirit"])})
    | st.fixed_dictionaries({"stat_value": small(0, 6)}),
    None: st.fixed_dictionaries({"stat_value": small(0, 6)}),
}


def stat_request(side: str | None) -> S[Json]:
    return st.builds(
        lambda *parts: {k: v for p in parts for k, v in p.items()}, STAT[side], difficulty, edges
    )


def action_request(side: str | None) -> S[Json]:
    return st.builds(lambda r, n: {**r, "will_rerolls": n}, stat_request(side), small(0, 3))


hero_attack_request = st.fixed_dictionaries(
    {
        "attack_type": st.sampled_from(["melee", "ranged", "mental"]),
        "stat_value": small(0, 5),
        "target_stat": small(0, 5),
        "target_health": small(0, 8),
        "reaction": st.booleans(),
        "attacker_health": small(0, 12),
        "attacker_will": small(0, 5),
    },
    optional={
        "advantage": small(0, 2),
        "disadvantage": small(0, 2),
        "hostage_shield": st.booleans(),
        "will_rerolls": small(0, 3),
        "damage_modifier": small(0, 3),
        "strike_back_modifier": small(0, 3),
        "overflow_target_health": small(0, 6),
        "hostage_health": small(0, 6),
        "area": st.booleans(),
        "engaged_with": st.lists(st.sampled_from(["x", "y"]), max_size=2),
    },
)
villain_attack_request = st.fixed_dictionaries(
    {
        "attack_type": st.sampled_from(["melee", "ranged", "mental"]),
        "stat_value": small(0, 5),
        "target_stat": small(0, 5),
        "defender_health": small(0, 12),
        "defender_will": small(0, 5),
    },
    optional={
        "advantage": small(0, 2),
        "disadvantage": small(0, 2),
        "will_rerolls": small(0, 3),
        "damage_modifier": small(0, 3),
    },
)
participant = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Nova", "Rook", "Zoë"]),
        "health": small(0, 12),
        "health_max": small(0, 12),
        "will": small(0, 5),
        "will_max": small(0, 5),
    }
)
rest_request = st.fixed_dictionaries(
    {"participants": st.lists(participant, min_size=1, max_size=4)}
)

# -- Nimble --------------------------------------------------------------------------------------

steps = {"advantage": small(0, 3), "disadvantage": small(0, 3)}
ATTACK_OR_DICE = {
    "hero": st.fixed_dictionaries({"attack": st.sampled_from(["Greataxe", "javelin"])}),
    "opponent": st.just({"attack": "bite"}),
    None: st.fixed_dictionaries(
        {"dice": st.sampled_from(["1d12+2", "2d6", "1d4-3", "3", "2d3+1d6+1", "d2", "1D4 + 2"])},
        optional={"primary_die": st.booleans(), "area": st.booleans()},
    ),
}
attack_rest = st.fixed_dictionaries(
    {},
    optional={
        **steps,
        "attack_number": small(1, 3),
        "primary_shift": small(-2, 2),
        "armor": small(0, 4),
    },
)


def nimble_attack_request(side: str | None) -> S[Json]:
    return st.builds(lambda which, rest: {**which, **rest}, ATTACK_OR_DICE[side], attack_rest)


def initiative_request(side: str | None) -> S[Json]:
    bonus = {"bonus": small(-3, 8)}  # a hero's sheet has one; a monster and a raw roll need it
    if side == "hero":
        return st.fixed_dictionaries({}, optional={**steps, **bonus})
    return st.fixed_dictionaries(bonus, optional=steps)


assess_request = st.fixed_dictionaries(
    {
        "skill": st.just("Examination"),
        "modifier": small(-3, 6),
        "option": st.sampled_from(["question", "find_weakness", "anticipate_danger"]),
    },
    optional={**steps, "dc": small(5, 15)},
)
help_reroll_request = st.fixed_dictionaries(
    {"helped_roll_id": st.just("r"), "old_face": small(1, 20), "modifier": small(-3, 6)},
    optional={"dc": small(5, 15)},
)
save_request = st.fixed_dictionaries(
    {"stat": st.sampled_from(["STR", "DEX", "INT", "WIL"])},
    optional={**steps, "modifier": small(-1, 2), "dc": small(5, 15)},
)
skill_request = st.fixed_dictionaries(
    {"skill": st.sampled_from(["Might", "finesse", "Arcana"])},
    optional={**steps, "modifier": small(0, 4), "dc": small(5, 15), "attack_number": small(1, 3)},
)

# -- nWoD micro ----------------------------------------------------------------------------------

nwod_pool_request = st.builds(
    lambda which, kind, extra: {**which, **kind, **extra},
    st.one_of(
        st.fixed_dictionaries({"affinity": st.sampled_from(["INT", "ELG", "VIO"])}),
        st.fixed_dictionaries({"pool": small(0, 8)}),
    ),
    st.one_of(
        st.just({}),
        st.fixed_dictionaries({"kind": st.just("melee")}, optional={"target_defense": small(0, 3)}),
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["melee", "ranged"])},
            optional={
                "target_armor": small(0, 3),
                "weapon": st.sampled_from(["knife", "Assault rifle"]),
            },
        ),
        st.fixed_dictionaries(
            {"kind": st.just("ranged"), "damage_bonus": small(0, 4)},
            optional={"target_armor": small(0, 3)},
        ),
    ),
    st.fixed_dictionaries({}, optional={"modifier": small(-5, 3), "will_power": small(0, 2)}),
)
nwod_initiative_request = st.fixed_dictionaries(
    {"intelligence": st.just(2) | small(0, 5)}, optional={"modifier": small(-3, 3)}
)
nwod_fight_request = st.builds(
    lambda base, attack: {**base, **attack},
    st.fixed_dictionaries(
        {"affinity": st.just("VIO"), "affinity_value": st.just(4) | small(0, 6)},
        optional={
            "modifiers": st.lists(
                st.fixed_dictionaries({"source": st.just("cover"), "dice": small(-4, 2)}),
                max_size=3,
            ),
            "chance_only": st.booleans(),
            "will_power": small(0, 2),
            "target_health": small(0, 8),
        },
    ),
    st.one_of(
        st.just({}),
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["melee", "ranged"])},
            optional={
                "target_defense": small(0, 3),
                "damage_bonus": small(0, 4),
                "damage_penalty": small(0, 2),
                "target_armor": small(0, 3),
            },
        ),
    ),
)

REQUESTS: dict[tuple[str, str], S[Json] | Callable[[str | None], S[Json]]] = {
    ("wcbh", "trait"): trait_request,
    ("wcbh", "attack"): attack_request,
    ("wcbh", "grapple"): grapple_request,
    ("wcbh", "maneuver"): maneuver_request,
    ("wcbh", "ambush"): ambush_request,
    ("wcbh", "area_attack"): area_request,
    ("wcbh", "redirected_attack"): redirected_request,
    ("classd", "stat"): stat_request,
    ("classd", "rest"): rest_request,
    ("classd", "action"): action_request,
    ("classd", "hero_attack"): hero_attack_request,
    ("classd", "villain_attack"): villain_attack_request,
    ("nimble", "attack"): nimble_attack_request,
    ("nimble", "initiative"): initiative_request,
    ("nimble", "assess"): assess_request,
    ("nimble", "help_reroll"): help_reroll_request,
    ("nimble", "save"): save_request,
    ("nimble", "skill"): skill_request,
    ("nwod-micro", "pool"): nwod_pool_request,
    ("nwod-micro", "initiative"): nwod_initiative_request,
    ("nwod-micro", "fight_roll"): nwod_fight_request,
}
# (ruleset, follow-up, the check it follows up) -> (that check's requests, the follow-up's requests)
FollowUpRequests = tuple[Callable[[str | None], S[Json]] | S[Json], S[Json]]
FOLLOW_UP_REQUESTS: dict[tuple[str, str, str], FollowUpRequests] = {
    ("wcbh", "resolve_dice", "trait"): (trait_request, st.builds(dict, resolve=small(1, 3))),
    ("wcbh", "resolve_reroll", "trait"): (trait_request, st.just({})),
    ("wcbh", "resolve_dice", "attack"): (
        plain_attack_request,
        st.builds(dict, resolve=small(1, 3)),
    ),
    ("wcbh", "resolve_reroll", "attack"): (plain_attack_request, st.just({})),
    ("classd", "will_reroll", "stat"): (stat_request, st.just({})),
    ("nimble", "help_die", "attack"): (nimble_attack_request, st.just({})),
}

seeds = st.binary(min_size=32, max_size=32)
client_seeds = st.text(min_size=1, max_size=16)
nonces = st.integers(0, 2**64 - 1)
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def every(items: dict[Any, Any]) -> list[Any]:
    return sorted(items)


def _or_skip(roll: Callable[[], Json]) -> Json:
    """The service's record, or a skipped example where it refuses the roll (no record)."""
    try:
        return roll()
    except InvalidInput:
        assume(False)
        raise AssertionError("unreachable") from None


def assert_recomputed(record: Json, seed: bytes, original: Json | None = None) -> None:
    again = recompute(record, seed, original)
    assert again["faces"] == record["faces"]
    assert again["result"] == record["result"]
    assert (again["score"], again["success"]) == (record["score"], record["success"])


def test_every_check_and_follow_up_has_a_reference_and_requests() -> None:
    checks = {(r.id, name) for r in RULESETS.values() for name in r.checks}
    follow_ups = {(r.id, name) for r in RULESETS.values() for name in r.follow_ups}

    assert set(CHECKS) == set(REQUESTS) == checks
    assert set(FOLLOW_UPS) == {key[:2] for key in FOLLOW_UP_REQUESTS} == follow_ups


@pytest.mark.parametrize(("ruleset", "check"), every(REQUESTS))
@EXAMPLES
@given(data=st.data(), seed=seeds, client=client_seeds, nonce=nonces)
def test_the_reference_recomputes_every_check(
    ruleset: str, check: str, data: st.DataObject, seed: bytes, client: str, nonce: int
) -> None:
    side, sheet = data.draw(st.sampled_from(SHEETS[ruleset]), label="sheet")
    campaign = data.draw(st.sampled_from(SETTINGS[ruleset]), label="settings")
    requests = REQUESTS[(ruleset, check)]
    if not isinstance(requests, st.SearchStrategy):
        requests = requests(side)
    request = data.draw(requests, label="request")

    record = _or_skip(
        lambda: vectors.real_roll(
            ruleset, check, request, sheet, side, campaign, seed, client, nonce
        )
    )

    assert_recomputed(record, seed)


def _original(ruleset: str, check: str, request: Json, sheet: Any, side: Any, seed: bytes) -> Json:
    """The first of 40 nonces whose roll the follow-up may follow (a Will reroll needs a failure)."""
    for nonce in range(40):
        record = vectors.real_roll(ruleset, check, request, sheet, side, None, seed, "o", nonce)
        if record["result"].get("outcome") != "failure" and check == "stat":
            continue
        if record["faces"] or check != "attack":
            return record
    assume(False)
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("ruleset", "name", "check"), every(FOLLOW_UP_REQUESTS))
@EXAMPLES
@given(data=st.data(), seed=seeds, client=client_seeds, nonce=nonces)
def test_the_reference_recomputes_every_follow_up(
    ruleset: str, name: str, check: str, data: st.DataObject, seed: bytes, client: str, nonce: int
) -> None:
    originals, follow_ups = FOLLOW_UP_REQUESTS[(ruleset, name, check)]
    side, sheet = data.draw(st.sampled_from(SHEETS[ruleset]), label="sheet")
    if not isinstance(originals, st.SearchStrategy):
        originals = originals(side)
    request = data.draw(originals, label="original request")
    original = _or_skip(lambda: _original(ruleset, check, request, sheet, side, seed))
    follow_up = data.draw(follow_ups, label="follow-up request")
    if name == "help_die":  # any die the attack rolled, kept or dropped, but no crit die
        rolled = [f["index"] for f in original["faces"] if f["exploded_from"] is None]
        follow_up = {"die": data.draw(st.sampled_from(rolled), label="die")}

    record = _or_skip(
        lambda: vectors.real_follow_up(original, name, follow_up, seed, client, nonce)
    )

    assert_recomputed(record, seed, original)


def test_the_spec_has_a_section_for_every_check_and_follow_up() -> None:
    spec = (vector_script.DOCS / "fair-dice-checks.md").read_text(encoding="utf-8")
    documented = set()
    for part in re.split(r"^## \d+\. ", spec, flags=re.MULTILINE)[1:]:
        ruleset = re.match(r".*\(`([a-z-]+)`\)", part)  # "3. We Can Be Heroes (`wcbh`)"
        if ruleset is None:
            continue
        for heading in re.findall(r"^### (?:checks?|follow-up) (.*)$", part, flags=re.MULTILINE):
            named = re.sub(
                r"\(.*?\)|, of an? .*$", "", heading
            )  # not the rule ids nor "of a `trait`"
            names = re.findall(r"`([a-z_]+)`", named)
            documented |= {(ruleset.group(1), name) for name in names}
    every = {(r.id, name) for r in RULESETS.values() for name in (*r.checks, *r.follow_ups)}

    assert every <= documented
