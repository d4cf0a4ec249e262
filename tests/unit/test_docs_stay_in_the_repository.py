"""The repository's documents point only at files the repository holds: a reader of a clone (or of
the installed package) can follow every reference."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", ".git", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")
OUTSIDE = re.compile(
    r"(?<![\w.])/(?:work|home|Users|tmp)/"  # an absolute path on someone's machine
    r"|\bshared/(?:rules|seeds)\b"  # the rules digests and sources the project started from
    r"|\bseeds/[\w.-]+"
    r"|[\w-]+\.ru\.txt\b"
    r"|(?<![\w/])rules/(?:wcbh|classd|nimble|nwod-micro)\.md"
)


def documents() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.md")):
        if not SKIPPED & set(path.relative_to(ROOT).parts):
            yield path


def test_there_are_documents_to_check() -> None:
    names = {str(p.relative_to(ROOT)) for p in documents()}
    assert {"README.md", "docs/rulesets.md", "systems/wcbh/docs/rules.md"} <= names


def test_no_document_names_a_file_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {match.group(0)}"
        for path in documents()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in OUTSIDE.finditer(line)
    ]
    assert not found


def test_every_relative_link_of_a_document_reaches_a_file_of_the_repository() -> None:
    broken = []
    for path in documents():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in LINK.finditer(line):
                target = match["target"].split("#", 1)[0]
                if not target or re.match(r"[a-z]+:", target):
                    continue  # an anchor on the same page, or a URL
                resolved = (path.parent / target).resolve()
                if not resolved.is_relative_to(ROOT) or not resolved.exists():
                    broken.append(f"{path.relative_to(ROOT)}:{number}: {match['target']}")
    assert not broken
