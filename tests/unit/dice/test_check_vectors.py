"""The check vectors of docs/check_vectors.json: one fixed record per check and follow-up, which the
rulesets' checks and the reference of docs/fair-dice-checks.md must both reproduce, so that a change
to any check's logic shows up here.

The file is what docs/check_vectors.py prints; regenerate it with
`python docs/check_vectors.py > docs/check_vectors.json` only for a deliberate change of a check.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.dice import commitment
from domain.rulesets import RULESETS
from domain.rulesets.base import CheckOutcome
from tests.unit.dice import vector_script
from tests.unit.dice.reference_checks import recompute

vectors = vector_script.load()
FILE = vector_script.DOCS / "check_vectors.json"
STORED = json.loads(FILE.read_text(encoding="utf-8"))
SEED = bytes.fromhex(STORED["seed"])
OUTPUT = ("faces", "result", "score", "success")


def named(vector: dict[str, Any]) -> Any:
    return pytest.param(vector, id=vector["name"])


def replayed(
    record: dict[str, Any], original: dict[str, Any] | None, earlier: Any = None
) -> dict[str, Any]:
    """The record rolled again by the service's own checks from its stored inputs (`earlier`: the
    follow-ups a chained one comes after)."""
    if original is None:
        return vectors.real_roll(
            record["ruleset"], record["check"], record["request"], record["sheet"],
            record["side"], record["settings"], SEED, record["client_seed"], record["nonce"],
        )  # fmt: skip
    return vectors.real_follow_up(
        original, record["follow_up"], record["request"], SEED, record["client_seed"],
        record["nonce"], earlier,
    )  # fmt: skip


def test_the_file_is_what_the_vector_script_prints() -> None:
    assert STORED == json.loads(json.dumps(vectors.vectors()))
    assert STORED["commitment"] == commitment(SEED)


def test_every_check_and_follow_up_has_a_vector() -> None:
    covered = {(v["ruleset"], v["follow_up"] or v["check"]) for v in STORED["vectors"]}
    every = {(r.id, name) for r in RULESETS.values() for name in (*r.checks, *r.follow_ups)}

    assert covered == every


def test_every_check_a_follow_up_may_follow_has_a_vector_of_that_pair() -> None:
    # A follow-up reads the original by its check (Resolve on an attack re-reads the hit, on a
    # trait check the successes): each pair is its own arithmetic and needs its own vector. One
    # given only through its own verb (Nimble's Help on a held attack) is judged by that verb.
    covered = {(v["ruleset"], v["check"], v["follow_up"]) for v in STORED["vectors"]}
    failed = CheckOutcome({"outcome": "failure"}, 0, False)
    every = {
        (r.id, name, follow_up)
        for r in RULESETS.values()
        for follow_up, follow in r.follow_ups.items()
        if follow.direct
        for name, check in r.checks.items()
        if follow.allowed(check.parse(check.example()), failed) is None
    }

    assert every - covered == set()


@pytest.mark.parametrize("vector", [named(v) for v in STORED["vectors"]])
def test_the_service_reproduces_each_vector(vector: dict[str, Any]) -> None:
    original = vector["original"]
    if original is not None:
        assert {k: replayed(original, None)[k] for k in OUTPUT} == {k: original[k] for k in OUTPUT}

    again = replayed(vector, original, vector.get("earlier"))

    assert {k: again[k] for k in OUTPUT} == {k: vector[k] for k in OUTPUT}


@pytest.mark.parametrize("vector", [named(v) for v in STORED["vectors"]])
def test_the_reference_reproduces_each_vector(vector: dict[str, Any]) -> None:
    original = vector["original"]
    if original is not None:
        assert recompute(original, SEED) == {k: original[k] for k in OUTPUT}

    earlier = vector.get("earlier")
    assert recompute(vector, SEED, original, earlier) == {k: vector[k] for k in OUTPUT}
