"""Every rule id the code can cite is one a user can look up in the served rules reference."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from domain.rules_reference import rules_reference

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_OF_PREFIX = {"WCBH": "wcbh", "CD": "classd", "NB": "nimble", "NW": "nwod-micro"}
RULE_ID = re.compile(rf"(?P<prefix>{'|'.join(SYSTEM_OF_PREFIX)})-E?\d+[a-z]?")
PREFIX_THEN_CODE = re.compile(rf"(?:{'|'.join(SYSTEM_OF_PREFIX)})-$")
NOT_RULE_IDS = {"gm"}
"""`rule` values that name no rule: a situational modifier the GM gave is marked "gm"."""


def source_files() -> Iterator[Path]:
    for package in ("domain", "systems", "api", "projections"):
        yield from sorted((ROOT / package).rglob("*.py"))


def text_of(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def string_constants(path: Path) -> Iterator[tuple[ast.AST, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node, node.value


def cited_rule_ids() -> dict[str, set[str]]:
    """Rule id -> the files whose code holds it as a whole string: `rule="WCBH-25"`, a Problem's
    rule, a check's `rules`, a stat's `rule`. Docstrings and messages hold ids inside longer
    text, so they are not counted (they are not what a refusal's `rule` field carries)."""
    found: dict[str, set[str]] = {}
    for path in source_files():
        for _, value in string_constants(path):
            if RULE_ID.fullmatch(value):
                found.setdefault(value, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_rule_id_in_the_code_is_in_its_systems_served_reference() -> None:
    cited = cited_rule_ids()
    assert len(cited) > 100, "the scan found too few rule ids to be looking in the right place"
    missing = {}
    for rule_id, files in sorted(cited.items()):
        match = RULE_ID.fullmatch(rule_id)
        assert match is not None
        system = SYSTEM_OF_PREFIX[match["prefix"]]
        if rule_id not in {entry.id for entry in rules_reference(system)}:
            missing[rule_id] = sorted(files)
    assert not missing, f"rule ids no reference lists: {missing}"


def test_no_code_builds_a_rule_id_the_scan_above_would_miss() -> None:
    # f"NB-{n}" or "NB-" + str(n) would cite ids no string constant shows.
    built = []
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            parts = node.values if isinstance(node, ast.JoinedStr) else []
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                parts = [node.left]
            for part in parts:
                if PREFIX_THEN_CODE.search(text_of(part) or ""):
                    built.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}")
    assert not built


def test_every_rule_a_refusal_names_is_one_rule_id() -> None:
    # `rule="WCBH-22..24"` or `rule="NB-10/NB-24"` would send users looking for an id that no
    # reference lists: a refusal names the one rule it applies.
    bad = []
    for path in source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.keyword) or node.arg != "rule":
                continue
            value = text_of(node.value)
            if value is not None and not RULE_ID.fullmatch(value) and value not in NOT_RULE_IDS:
                bad.append(f"{path.relative_to(ROOT)}:{node.value.lineno} {value!r}")
    assert not bad
