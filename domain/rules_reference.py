"""Reads a game system's rules reference (its ``docs/rules.md``) into entries a front end can look up.

The reference is written for people; this reader only relies on its headings: ``## Section``,
``### <RULE-ID> <title>``, and one ``**Service (<status>):**`` paragraph per rule saying what the
service does with it. It reads files, so it stays out of the pure rules packages.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from domain.rulesets import get_ruleset

STATUSES = ("enforced", "partial", "gm", "reference")
"""What the service does with a rule: enforces it; enforces part of it (the text says which part);
records what the GM decides and leaves the rest to the table; nothing (information only)."""

_RULE = re.compile(r"^### (?P<id>[A-Z]+-E?\d+[a-z]?) (?P<title>\S.*)$")
_SECTION = re.compile(r"^## (?P<title>\S.*)$")
_SERVICE = re.compile(r"^\*\*Service \((?P<status>[a-z]+)\):\*\*\s*(?P<rest>.*)$")


@dataclass(frozen=True)
class RuleEntry:
    """One rule of a system: what it says, in our words, and what the service does about it."""

    id: str
    title: str
    section: str
    text: str
    status: str
    enforced: str


class ReferenceError(ValueError):
    """The reference file breaks the layout this reader relies on (a bug in the docs)."""


def reference_path(ruleset_id: str) -> Path:
    """Where the system's reference lives: ``systems/<name>/docs/rules.md``, beside its rules."""
    rules_module = Path(inspect.getfile(type(get_ruleset(ruleset_id))))
    return rules_module.parents[1] / "docs" / "rules.md"


@cache
def reference_markdown(ruleset_id: str) -> str:
    return reference_path(ruleset_id).read_text(encoding="utf-8")


@cache
def rules_reference(ruleset_id: str) -> tuple[RuleEntry, ...]:
    """Every rule of the system in the order the reference gives them."""
    return parse_reference(reference_markdown(ruleset_id))


def parse_reference(markdown: str) -> tuple[RuleEntry, ...]:
    entries: list[RuleEntry] = []
    section = ""
    current: tuple[str, str] | None = None
    body: list[str] = []
    for line in [*markdown.splitlines(), "## end"]:
        heading = _RULE.match(line)
        if heading or line.startswith("#"):
            if current is not None:
                entries.append(_entry(*current, section, body))
            current, body = None, []
            if heading:
                current = (heading["id"], heading["title"].strip())
            elif match := _SECTION.match(line):
                section = match["title"].strip()
            continue
        if current is not None:
            body.append(line)
    ids = [entry.id for entry in entries]
    if len(set(ids)) != len(ids):
        raise ReferenceError(
            f"a rule id is listed twice: {sorted(i for i in ids if ids.count(i) > 1)}"
        )
    return tuple(entries)


def _entry(rule_id: str, title: str, section: str, body: list[str]) -> RuleEntry:
    paragraphs = [" ".join(p.split()) for p in "\n".join(body).split("\n\n") if p.strip()]
    services = [p for p in paragraphs if _SERVICE.match(p)]
    if len(services) != 1:
        raise ReferenceError(f"{rule_id}: needs exactly one **Service (status):** paragraph")
    service = _SERVICE.match(services[0])
    assert service is not None
    if service["status"] not in STATUSES:
        raise ReferenceError(f"{rule_id}: unknown status {service['status']!r}")
    text = "\n\n".join(p for p in paragraphs if p is not services[0])
    if not text:
        raise ReferenceError(f"{rule_id}: says nothing about the rule itself")
    return RuleEntry(rule_id, title, section, text, service["status"], service["rest"])
