"""Each system's rules reference (systems/<name>/docs/rules.md): complete, numbered, and readable."""

from __future__ import annotations

import re

import pytest

from domain.rules_reference import (
    STATUSES,
    ReferenceError,
    parse_reference,
    reference_path,
    rules_reference,
)
from domain.rulesets import RULESETS

PREFIXES = {"wcbh": "WCBH", "classd": "CD", "nimble": "NB", "nwod-micro": "NW"}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_reference_lives_with_its_system_docs(ruleset_id: str) -> None:
    path = reference_path(ruleset_id)
    assert path.parts[-4:-2] == ("systems", type(RULESETS[ruleset_id]).__module__.split(".")[1])
    assert path.name == "rules.md" and path.is_file()


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_rule_ids_run_from_one_without_gaps(ruleset_id: str) -> None:
    ids = [entry.id for entry in rules_reference(ruleset_id)]
    prefix = PREFIXES[ruleset_id]
    numbers = [int(m[1]) for i in ids if (m := re.fullmatch(rf"{prefix}-(\d+)", i))]
    assert numbers == list(range(1, len(numbers) + 1))
    for part in (i for i in ids if re.fullmatch(rf"{prefix}-\d+[a-z]", i)):
        assert part[:-1] in ids, f"{part} is a part of a rule the reference does not list"
    assert all(i.startswith(f"{prefix}-") for i in ids)


def test_the_references_list_every_rule_of_the_rules_digests() -> None:
    # The counts of the rules texts (WCBH-1..47, CD-1..25, NB-1..26, NW-1..18 and the worked
    # examples NW-E1..E3): a reference that stops early fails here.
    counts = {ruleset_id: len(rules_reference(ruleset_id)) for ruleset_id in RULESETS}
    assert counts == {"wcbh": 47 + 6, "classd": 25, "nimble": 26, "nwod-micro": 18 + 3}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_rule_says_what_it_is_and_what_the_service_does_about_it(ruleset_id: str) -> None:
    for entry in rules_reference(ruleset_id):
        assert entry.title and entry.section and entry.text and entry.enforced, entry.id
        assert entry.status in STATUSES, entry.id
        assert "**" not in entry.enforced, f"{entry.id}: two Service paragraphs run together"


def test_a_rule_without_its_service_paragraph_is_a_broken_reference() -> None:
    with pytest.raises(ReferenceError, match="X-1"):
        parse_reference("## Part\n\n### X-1 A rule\nIt says something.\n")


def test_a_service_status_outside_the_four_is_a_broken_reference() -> None:
    with pytest.raises(ReferenceError, match="unknown status"):
        parse_reference("### X-1 A rule\nText.\n\n**Service (maybe):** who knows.\n")


def test_a_rule_listed_twice_is_a_broken_reference() -> None:
    rule = "### X-1 A rule\nText.\n\n**Service (gm):** the GM's.\n"
    with pytest.raises(ReferenceError, match="twice"):
        parse_reference(rule + rule)


def test_the_reader_splits_a_rule_into_its_text_and_what_the_service_does() -> None:
    (entry,) = parse_reference(
        "# Title\n\nIntro.\n\n## Checks\n\n### X-7 Dice\nRoll them;\ncount them.\n\n"
        "**Service (partial):** the `roll` command\ncounts.\n\n## Notes\nNot a rule.\n"
    )
    assert (entry.id, entry.title, entry.section) == ("X-7", "Dice", "Checks")
    assert (entry.text, entry.status, entry.enforced) == (
        "Roll them; count them.",
        "partial",
        "the `roll` command counts.",
    )
