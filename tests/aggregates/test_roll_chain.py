"""The roll chain: each record takes the next sequence and the previous record's hash."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from uuid import uuid4

from domain.aggregates import Roll, RollChain
from domain.audit import CHAIN_KINDS, GENESIS_HASH, Link, record_hash, verify_export
from tests.aggregates.support import new_events


def a_record(campaign_id: str) -> dict[str, object]:
    return {
        "campaign_id": campaign_id,
        "roll_id": str(uuid4()),
        "faces": [],
        "result": {"total": 3},
    }


def test_the_first_record_follows_the_genesis_hash_and_each_next_one_its_predecessor() -> None:
    campaign_id = uuid4()
    chain = RollChain(campaign_id=campaign_id)
    first = chain.link(a_record(str(campaign_id)))
    second = chain.link(a_record(str(campaign_id)))
    assert (first["sequence"], first["prev_hash"]) == (0, GENESIS_HASH)
    assert (second["sequence"], second["prev_hash"]) == (1, first["hash"])
    assert first["hash"] == record_hash(first)
    assert [name for name, _ in new_events(chain)] == ["Started", "Linked", "Linked"]
    assert chain.head == second["hash"]


def test_a_chain_is_one_per_campaign() -> None:
    campaign_id = uuid4()
    assert RollChain(campaign_id=campaign_id).id == RollChain.create_id(campaign_id)
    assert RollChain.create_id(campaign_id) != RollChain.create_id(uuid4())


def chain_of(n: int) -> tuple[list[dict[str, object] | None], list[Link]]:
    campaign_id = uuid4()
    chain = RollChain(campaign_id=campaign_id)
    records = [chain.link(a_record(str(campaign_id))) for _ in range(n)]
    links = [Link(r["sequence"], r["roll_id"], r["hash"]) for r in records]
    return list(records), links


def check_chain(records: list[dict[str, object] | None], links: list[Link]) -> list[Any]:
    """The chain problems verify_export finds in a log of these records and links (no scenes)."""
    entries: list[dict[str, Any]] = [
        {"type": "RollChain.Started", "originator_version": 1, "payload": {}}
    ]
    for version, (record, link) in enumerate(zip(records, links, strict=True), start=2):
        if record is not None:
            entries.append(
                {
                    "type": "Roll.Recorded",
                    "originator_id": link.roll_id,
                    "payload": {"record": record, "campaign_id": record["campaign_id"]},
                }
            )
        entries.append(
            {"type": "RollChain.Linked", "originator_version": version, "payload": asdict(link)}
        )
    for position, entry in enumerate(entries, start=1):
        entry["position"] = position
    return [p for p in verify_export(entries).problems if p.kind in CHAIN_KINDS]


def test_an_untouched_chain_has_no_problems() -> None:
    records, links = chain_of(4)
    assert check_chain(records, links) == []


def test_a_changed_record_is_tampered() -> None:
    records, links = chain_of(3)
    records[1] = {**(records[1] or {}), "result": {"total": 6}}
    assert [(p.kind, p.sequence) for p in check_chain(records, links)] == [("tampered", 1)]


def test_a_removed_record_is_missing() -> None:
    records, links = chain_of(3)
    problems = check_chain([records[0], None, records[2]], links)
    assert [(p.kind, p.sequence) for p in problems] == [("missing", 1)]


def test_swapped_records_are_misordered() -> None:
    records, links = chain_of(3)
    swapped: list[dict[str, object] | None] = [records[0], records[2], records[1]]
    kinds = {p.kind for p in check_chain(swapped, links)}
    assert "misordered" in kinds


def test_a_roll_is_recorded_once_with_its_record() -> None:
    record = {**a_record(str(uuid4())), "hash": "h"}
    roll = Roll.record_roll(record, score=3, success=True, odds={"success": 0.5})
    [(name, payload)] = new_events(roll)
    assert name == "Recorded" and payload["record"] == record
