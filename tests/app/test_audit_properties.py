"""Both directions of `chronicle verify`, on generated plays of all four rulesets (in memory):
every honest export verifies, and every single mutation of one is caught and named.

The plays are `tests.app.plays` scripts; the mutations and what each must be reported as are in
`tests.app.mutations`. Examples are derandomized (the same plays every run, chosen by Hypothesis
from a fixed seed): the suite is a specification of the verifier, and a run must fail or pass
for the verifier's sake, not the draw's. Set CHRONICLE_EXPLORE_PLAYS=<n> to draw n fresh random
examples per property instead, shrunk to the plainest failing play (for hunting new failures
locally). By default failures are not shrunk: the verifier of today fails some of these
properties, and shrinking each failing play costs minutes on the shared machine.
"""

from __future__ import annotations

import copy
import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from api.cli import main as chronicle
from domain.receipts import audit_export
from domain.requests import FollowUpCreate, RollCreate
from systems.wcbh.requests import FightAttackCreate
from tests.app import mutations as m
from tests.app.plays import RULESETS, Play, run, scripts
from tests.app.table import Table

EXPLORE = int(os.environ.get("CHRONICLE_EXPLORE_PLAYS", "0"))
# About 0.1-0.3 s a play on one core: 10 plays per ruleset and 4 per kind of mutation keep the module
# under 20 s on the shared 2-core machine.
PLAYS = settings(
    max_examples=EXPLORE or 10,
    deadline=None,
    derandomize=not EXPLORE,
    database=None,
    phases=list(Phase) if EXPLORE else [Phase.explicit, Phase.generate],
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
MUTATIONS = settings(PLAYS, max_examples=EXPLORE or 4)  # per kind of mutation
MAX_STEPS = 20


def export_of(play: Play) -> m.Entries:
    """The play's export, through the file format (JSON Lines) and back."""
    return m.parse(m.serialise(play.table.export()))


def problems_of(entries: m.Entries) -> list[Any]:
    return list(audit_export(entries).problems)


def assert_caught(entries: m.Entries, target: m.Target, what: str) -> None:
    problems = problems_of(entries)
    assert problems, f"{what}: verify found nothing"
    assert any(target.named_by(p) for p in problems), (
        f"{what}: expected a problem of kind {sorted(target.kinds)} naming roll "
        f"{sorted(target.roll_ids)} / sequence {sorted(target.sequences)} / line {target.line}; "
        f"got {[(p.kind, p.roll_id, p.sequence, p.message) for p in problems]}"
    )


# ---- (a) honest plays verify ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@PLAYS
@given(data=st.data())
def test_every_generated_play_exports_a_log_that_verifies(
    ruleset: str, data: st.DataObject
) -> None:
    play = run(data.draw(scripts(ruleset, MAX_STEPS), label="script"))
    report = audit_export(export_of(play))
    made_by = {p.roll_id: play.made_by.get(str(p.roll_id), "?") for p in report.problems}
    assert report.intact, (
        f"an honest play fails to verify: {[(p.kind, made_by[p.roll_id], p.message) for p in report.problems]}"
    )
    assert report.rolls == len(play.records)


# ---- (b) single mutations are caught -------------------------------------------------------------


MUTATION_KINDS = (
    "edit_record",
    "edit_payload",
    "edit_proof_line",
    "recompute_lie",
    "nonce_999",
    "nonce_other_epoch",
    "drop",
    "swap",
    "truncate",
    "seed",
)


def applicable_kinds(entries: m.Entries) -> list[str]:
    """The mutations that have something to change in this export."""
    body, _ = m.split_head(entries)
    rolls = m.roll_lines(body)
    kinds = ["drop", "swap", "truncate"]
    kinds += ["edit_record", "edit_payload", "edit_proof_line", "nonce_999"] if rolls else []
    kinds += ["recompute_lie"] if m.revealed_roll_lines(body) else []
    kinds += ["seed"] if m.reveal_lines(body) else []
    kinds += ["nonce_other_epoch"] if any(m.other_epoch_nonces(body, i) for i in rolls) else []
    return kinds


def draw_mutation(
    data: st.DataObject, entries: m.Entries, kind: str | None = None
) -> tuple[str, m.Entries, m.Target]:
    """A random mutation of an honest export (of `kind`, which must apply to it)."""
    body, _ = m.split_head(entries)
    rolls, revealed = m.roll_lines(body), m.revealed_roll_lines(body)
    if kind is None:
        kind = data.draw(st.sampled_from(applicable_kinds(entries)), label="mutation")
    if kind == "drop":
        line = data.draw(st.sampled_from(m.droppable_lines(body)), label="line")
        return kind, *m.drop_line(entries, line)
    if kind == "swap":
        first = data.draw(st.integers(0, len(body) - 2), label="first")
        second = data.draw(st.integers(first + 1, len(body) - 1), label="second")
        return kind, *m.swap_lines(entries, first, second)
    if kind == "truncate":
        keep = data.draw(st.integers(0, len(body) - 1), label="keep")
        return kind, *m.truncate(entries, keep)
    if kind == "seed":
        line = data.draw(st.sampled_from(m.reveal_lines(body)), label="line")
        return kind, *m.change_revealed_seed(entries, line)
    if kind == "edit_record":
        line = data.draw(st.sampled_from(rolls), label="line")
        record = m.record_of(body[line])
        key = data.draw(st.sampled_from(sorted(record)), label="key")
        path = data.draw(st.sampled_from(m.leaf_paths(record[key], (key,))), label="path")
        return kind, *m.edit_record(entries, line, path)
    if kind == "edit_proof_line":
        line = data.draw(st.sampled_from(m.proof_lines(body)), label="line")
        keys, _ = m.PROOF_LINES[body[line]["type"]]
        key = data.draw(st.sampled_from(keys), label="key")
        return kind, *m.edit_proof_line(entries, line, key)
    if kind == "edit_payload":
        line = data.draw(st.sampled_from(rolls), label="line")
        payload = {k: v for k, v in body[line]["payload"].items() if k not in ("record",)}
        paths = [p for p in m.leaf_paths(payload) if p and p[0] != "campaign_id"]
        path = data.draw(st.sampled_from(paths), label="path")
        return kind, *m.edit_roll_payload(entries, line, path)
    if kind == "recompute_lie":
        line = data.draw(st.sampled_from(revealed), label="line")
        record = m.record_of(body[line])
        paths = m.leaf_paths(record["faces"], ("faces",)) + m.leaf_paths(
            record["result"], ("result",)
        )
        path = data.draw(st.sampled_from(paths), label="path")
        return kind, *m.recompute_lie(entries, line, path)
    if kind == "nonce_999":
        line = data.draw(st.sampled_from(rolls), label="line")
        rehash = line in revealed and data.draw(st.booleans(), label="rehash")
        return kind, *m.set_nonce(entries, line, 999, rehash)
    line = data.draw(st.sampled_from([i for i in rolls if m.other_epoch_nonces(body, i)]))
    nonce = data.draw(st.sampled_from(m.other_epoch_nonces(body, line)), label="nonce")
    rehash = line in revealed and data.draw(st.booleans(), label="rehash")
    return kind, *m.set_nonce(entries, line, nonce, rehash)


@pytest.mark.parametrize("kind", MUTATION_KINDS)
@MUTATIONS
@given(data=st.data())
def test_a_single_mutation_of_an_honest_export_is_caught_and_named(
    kind: str, data: st.DataObject
) -> None:
    ruleset = data.draw(st.sampled_from(RULESETS), label="ruleset")
    play = run(data.draw(scripts(ruleset, MAX_STEPS), label="script"))
    entries = export_of(play)
    # Only an export that verifies can show a mutation; honest failures are property (a)'s.
    assume(kind in applicable_kinds(entries) and audit_export(entries).intact)
    kind, mutated, target = draw_mutation(data, entries, kind)
    assert mutated != entries, f"{kind} changed nothing"
    assert_caught(m.parse(m.serialise(mutated)), target, kind)


# ---- named examples, one per mutation ------------------------------------------------------------


@pytest.fixture(scope="module")
def honest() -> m.Entries:
    """A small WCBH play with two revealed epochs: trait rolls, an attack and a Resolve follow-up
    before a seed rotation, more rolls after it, and the scene closed."""
    t = Table("wcbh", seed=b"named examples")
    nova = t.character("Nova", owner=t.player)
    null = t.character("Dr. Null", "villain")
    scene = t.scene()
    trait = {"trait": "Lightning Bolt", "difficulty": 2}

    def roll(seed: str) -> RollCreate:
        return RollCreate(check="trait", request=trait, character_id=nova, client_seed=seed)

    first = t.run(t.player, "roll", scene, roll("first")).aggregate
    more = FollowUpCreate(follow_up="resolve_dice", request={"resolve": 1}, client_seed="more")
    t.run(t.player, "follow_up", first.id, more)
    t.run(
        t.player,
        "attack",
        scene,
        FightAttackCreate(
            attacker_id=nova, target_id=null, trait="Lightning Bolt", client_seed="zap"
        ),
    )
    t.gm_runs("rotate_seed", scene)
    for n in range(4):
        t.run(t.player, "roll", scene, roll(f"after {n}"))
    t.gm_runs("close_scene", scene)
    entries = export_of_table(t)
    assert audit_export(entries).intact, "the named examples need an honest export that verifies"
    return entries


def export_of_table(t: Table) -> m.Entries:
    return m.parse(m.serialise(t.export()))


def roll_line(entries: m.Entries, n: int) -> int:
    return m.roll_lines(entries)[n]


@pytest.mark.parametrize(
    "path", [("faces", 0, "face"), ("result",), ("request", "difficulty"), ("costs",), ("sheet",)]
)
def test_an_edited_roll_record_is_tampered(honest: m.Entries, path: tuple[Any, ...]) -> None:
    line = roll_line(honest, 0)
    record = m.record_of(honest[line])
    path = (
        path
        if len(path) > 1 or not isinstance(record[path[0]], dict)
        else m.leaf_paths(record[path[0]], path)[0]
    )
    mutated, target = m.edit_record(honest, line, path)
    assert_caught(mutated, target, f"edit {path}")


@pytest.mark.parametrize("key", ["client_seed", "nonce", "sequence", "prev_hash", "hash"])
def test_an_edited_proof_field_is_caught(honest: m.Entries, key: str) -> None:
    mutated, target = m.edit_record(honest, roll_line(honest, 1), (key,))
    assert_caught(mutated, target, f"edit {key}")


def test_every_key_of_every_kind_of_roll_record_changed_is_caught(honest: m.Entries) -> None:
    """Generic over the record's keys, so that fields the audit adds are covered too: a plain
    roll, a follow-up and an attack, each key's first value changed in turn."""
    missed = []
    for line in m.roll_lines(honest)[:3]:
        record = m.record_of(honest[line])
        for key in sorted(record):
            path = m.leaf_paths(record[key], (key,))[0]
            mutated, target = m.edit_record(honest, line, path)
            problems = problems_of(mutated)
            if not any(target.named_by(p) for p in problems):
                missed.append(
                    (record["check"], record["follow_up"], path, [p.kind for p in problems])
                )
    assert not missed, f"record edits not caught and named: {missed}"


@pytest.mark.parametrize(
    "kind, key",
    [(k, key) for k, (keys, _) in m.PROOF_LINES.items() for key in keys],
)
def test_an_edited_chain_link_nonce_record_or_commitment_is_caught(
    honest: m.Entries, kind: str, key: str
) -> None:
    line = next(i for i, e in enumerate(honest) if e["type"] == kind)
    mutated, target = m.edit_proof_line(honest, line, key)
    assert_caught(mutated, target, f"edit {kind}.{key}")


@pytest.mark.parametrize("key", ["score", "success", "odds"])
def test_an_edited_score_success_or_odds_beside_the_record_is_caught(
    honest: m.Entries, key: str
) -> None:
    line = roll_line(honest, 0)
    payload = honest[line]["payload"]
    path = m.leaf_paths(payload[key], (key,))[0]
    mutated, target = m.edit_roll_payload(honest, line, path)
    assert_caught(mutated, target, f"edit {path}")


def test_faces_rewritten_with_a_rehashed_chain_do_not_recompute(honest: m.Entries) -> None:
    mutated, target = m.recompute_lie(honest, roll_line(honest, 3), ("faces", 0, "face"))
    assert_caught(mutated, target, "faces with a rehashed chain")


def test_a_result_rewritten_with_a_rehashed_chain_does_not_recompute(honest: m.Entries) -> None:
    line = roll_line(honest, 3)
    path = m.leaf_paths(m.record_of(honest[line])["result"], ("result",))[0]
    mutated, target = m.recompute_lie(honest, line, path)
    assert_caught(mutated, target, "result with a rehashed chain")


@pytest.mark.parametrize("value", [[1], [None], "faces", {"face": 3}])
def test_malformed_faces_with_a_rehashed_chain_are_reported_not_raised(
    honest: m.Entries, value: Any
) -> None:
    """`chronicle verify` reads files from anyone: a record it cannot read is a problem to report."""
    body, line = copy.deepcopy(honest), roll_line(honest, 3)
    m.record_of(body[line])["faces"] = value
    m.rechain(body)
    target = m.target_roll(body[line], m.RECOMPUTED | {"unverifiable"}, line + 1)
    assert_caught(body, target, f"faces {value!r}")


@pytest.mark.parametrize("rehash", [False, True])
def test_a_nonce_of_999_is_caught(honest: m.Entries, rehash: bool) -> None:
    mutated, target = m.set_nonce(honest, roll_line(honest, 4), 999, rehash)
    assert_caught(mutated, target, "nonce 999")


@pytest.mark.parametrize("rehash", [False, True])
def test_a_nonce_taken_from_another_epoch_is_caught(honest: m.Entries, rehash: bool) -> None:
    # The first epoch took nonces 0..2 (roll, follow-up, attack), the second 0..3: nonce 3 is
    # the second epoch's only.
    line = roll_line(honest, 0)
    others = m.other_epoch_nonces(honest, line)
    assert others, "the first epoch's roll needs a nonce only the second epoch took"
    mutated, target = m.set_nonce(honest, line, others[0], rehash)
    assert_caught(mutated, target, "another epoch's nonce")


def test_a_dropped_roll_record_is_missing(honest: m.Entries) -> None:
    mutated, target = m.drop_line(honest, roll_line(honest, 2))
    assert_caught(mutated, target, "dropped roll")


def test_a_dropped_chain_link_is_missing(honest: m.Entries) -> None:
    line = next(i for i, e in enumerate(honest) if e["type"] == m.LINK)
    mutated, target = m.drop_line(honest, line)
    assert_caught(mutated, target, "dropped link")


def test_the_dropped_last_chain_link_is_missing(honest: m.Entries) -> None:
    # The last link leaves no gap in the chain's versions: only its unlinked record shows it.
    line = max(i for i, e in enumerate(honest) if e["type"] == m.LINK)
    mutated, target = m.drop_line(honest, line)
    assert_caught(mutated, target, "dropped last link")


def test_a_dropped_event_of_another_aggregate_is_missing(honest: m.Entries) -> None:
    line = next(i for i in m.droppable_lines(honest) if honest[i]["type"] not in (m.ROLL, m.LINK))
    mutated, target = m.drop_line(honest, line)
    assert_caught(mutated, target, f"dropped {honest[line]['type']}")


def test_two_swapped_roll_lines_are_misordered(honest: m.Entries) -> None:
    mutated, target = m.swap_lines(honest, roll_line(honest, 3), roll_line(honest, 4))
    assert_caught(mutated, target, "swapped rolls")


def test_a_truncated_tail_is_missing(honest: m.Entries) -> None:
    # Cut just before the last roll: what is left is a whole earlier log, but not this export.
    mutated, target = m.truncate(honest, roll_line(honest, 5))
    assert_caught(mutated, target, "truncated")


def test_a_changed_revealed_seed_is_a_seed_mismatch(honest: m.Entries) -> None:
    mutated, target = m.change_revealed_seed(honest, m.reveal_lines(honest)[0])
    assert_caught(mutated, target, "changed seed")


def test_mutations_leave_a_signed_head_line_last_and_untouched(honest: m.Entries) -> None:
    head = {"type": m.HEAD, "lines": len(honest), "signature": "c2lnbmVk"}
    with_head = [*honest, head]
    for mutated, _ in (
        m.truncate(with_head, 3),
        m.drop_line(with_head, roll_line(honest, 0)),
        m.swap_lines(with_head, 0, 1),
        m.edit_record(with_head, roll_line(honest, 0), ("nonce",)),
    ):
        assert mutated[-1] == head
    assert with_head[-1] == head and with_head[:-1] == honest  # the original is never changed


def test_chronicle_verify_exits_0_on_the_honest_file_and_1_on_a_mutated_one(
    honest: m.Entries, tmp_path: Path
) -> None:
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(m.serialise(honest))
    bad.write_text(m.serialise(m.edit_record(honest, roll_line(honest, 0), ("result",))[0]))
    assert chronicle(["verify", str(good)]) == 0
    assert chronicle(["verify", str(bad)]) == 1


def test_the_seeded_table_replays_the_same_dice(honest: m.Entries) -> None:
    """Hypothesis replays a failing play: the same inputs must roll the same dice."""
    t = Table("wcbh", seed=b"named examples")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    agility = {"trait": "Agility"}
    body = RollCreate(check="trait", request=agility, character_id=nova, client_seed="same")
    roll = t.record(t.run(t.player, "roll", scene, body))
    again = Table("wcbh", seed=b"named examples")
    nova2 = again.character("Nova", owner=again.player)
    body2 = RollCreate(check="trait", request=agility, character_id=nova2, client_seed="same")
    roll2 = again.record(again.run(again.player, "roll", again.scene(), body2))
    assert (roll["faces"], roll["commitment"]) == (roll2["faces"], roll2["commitment"])
    other = Table("wcbh", seed=b"another play")
    assert other.app._new_sealed_seed()[0] != roll["commitment"]


# ---- the plays really roll -----------------------------------------------------------------------

# Steps that roll no dice of their own (they set up or settle what the rolls read).
NO_DICE = {
    "advance_page",
    "rotate_seed",
    "next_scene",
    "next_issue",
    "declare_actions",
    "new_villain",
    "resolve",
    "end_turn",
    "end",
    "reload",
}


def _number(*parts: object) -> int:
    """A well-mixed, reproducible step number."""
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:2], "big")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_plays_roll_through_every_rolling_action(ruleset: str) -> None:
    """Guards the harness: if the domain came to refuse a step every time (a changed rule, a
    changed signature), the properties above would pass on plays that roll nothing."""
    from tests.app.plays import ACTIONS
    from tests.app.plays.core import PICKS, Script, Step

    wanted = set(ACTIONS[ruleset]) - NO_DICE
    rolled: set[str] = set()
    order = sorted(wanted)
    for round_ in range(16):
        # Each round starts at another action: some only roll before another has set the stage
        # (Nimble's Initiative rolls before an attack starts the encounter itself).
        turn = order[round_ % len(order) :] + order[: round_ % len(order)]
        steps = tuple(
            Step(action, tuple(_number(ruleset, round_, n, i) for i in range(PICKS)))
            for n, action in enumerate(turn * 2)
        )
        # Every other round asks the GM first (player_modifiers: gm_approval), so that the
        # approval of roll requests rolls too.
        approval = ("trusted", "gm_approval")[round_ % 2]
        script = Script(ruleset, bytes([round_]) * 8, steps, player_modifiers=approval)
        rolled |= set(run(script).rolled)
        if wanted <= rolled:
            return
    assert rolled >= wanted, f"no roll from {sorted(wanted - rolled)}"
