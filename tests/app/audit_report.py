"""How the verifier of today fares on generated plays: `python -m tests.app.audit_report [N]`.

Runs N random plays per ruleset (default 40) and one random mutation of each honest export, and
prints which honest plays fail (by the action that made the roll and the problem's kind) and which
mutations go undetected or unnamed (by mutation kind, and the record key where there is one). Not
a test: it never fails; the properties in test_audit_properties.py are the tests.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from domain.receipts import audit_export
from tests.app import mutations as m
from tests.app.plays import RULESETS, run, scripts
from tests.app.test_audit_properties import MAX_STEPS, draw_mutation, export_of

honest_failures: Counter[tuple[str, str, str]] = Counter()
mutation_results: Counter[tuple[str, str, str]] = Counter()
crashes: Counter[tuple[str, str]] = Counter()  # (mutation, what changed: exception)


def _detail(kind: str, entries: m.Entries, mutated: m.Entries) -> str:
    """The record key or line type a mutation changed, for the tally."""
    if kind in ("edit_record", "edit_payload", "recompute_lie"):
        for before, after in zip(entries, mutated, strict=False):
            if before != after and before.get("type") == m.ROLL:
                old, new = before["payload"], after["payload"]
                if old["record"] != new["record"]:
                    keys = [k for k in old["record"] if old["record"][k] != new["record"].get(k)]
                    return ",".join(k for k in keys if k not in ("hash", "prev_hash")) or "hash"
                return ",".join(k for k in old if old[k] != new.get(k))
    if kind == "drop":
        gone = [e["type"] for e in entries if e not in mutated]
        return gone[0] if gone else "?"
    return ""


def tally(ruleset: str, data: Any) -> None:
    play = run(data.draw(scripts(ruleset, MAX_STEPS)))
    entries = export_of(play)
    report = audit_export(entries)
    if not report.intact:
        for problem in report.problems:
            action = play.made_by.get(str(problem.roll_id), "?")
            honest_failures[(ruleset, action, problem.kind)] += 1
        return
    kind, mutated, target = draw_mutation(data, entries)
    detail = _detail(kind, entries, mutated)
    try:
        problems = audit_export(mutated).problems
    except Exception as exc:  # noqa: BLE001 - a crash of the verifier is one of the findings
        crashes[(kind, f"{detail}: {type(exc).__name__}")] += 1
        return
    if not problems:
        verdict = "undetected"
    elif any(target.named_by(p) for p in problems):
        verdict = "caught"
    else:
        verdict = "unnamed: " + ",".join(sorted({p.kind for p in problems}))
    mutation_results[(kind, detail, verdict)] += 1


def main(examples: int) -> None:
    checks = settings(
        max_examples=examples * len(RULESETS),
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )

    @checks
    @given(ruleset=st.sampled_from(RULESETS), data=st.data())
    def check(ruleset: str, data: Any) -> None:
        tally(ruleset, data)

    check()
    for title, counts in (
        (
            "honest plays that fail (ruleset, action that made the roll, problem kind)",
            honest_failures,
        ),
        ("mutations (kind, what changed, verdict)", mutation_results),
        ("verifier crashes (kind, what changed: exception)", crashes),
    ):
        print(f"{title}: count")
        for key, count in sorted(counts.items()):
            print(f"  {key}: {count}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
