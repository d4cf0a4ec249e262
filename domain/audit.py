"""Roll audit, pure: canonical roll records, their hash chain, and recomputing faces from revealed seeds.

The same functions check the live store (GET /v1/rolls/{id}/verification) and an export, offline
(`chronicle verify FILE`). docs/fair-dice.md specifies the encoding byte by byte.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

GENESIS_HASH = "0" * 64
HASHED_FIELDS = (
    "campaign_id",
    "scene_id",
    "roll_id",
    "sequence",
    "nonce",
    "commitment",
    "client_seed",
    "character_id",
    "side",
    "rolled_by",
    "ruleset",
    "settings",
    "sheet",
    "check",
    "follow_up",
    "request",
    "faces",
    "result",
    "follow_up_of",
    "costs",
    "prev_hash",
)


def canonical(record: Mapping[str, Any]) -> bytes:
    content = {name: record.get(name) for name in HASHED_FIELDS}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_hash(record: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(record)).hexdigest()


@dataclass(frozen=True)
class Problem:
    kind: str  # tampered | missing | misordered | seed_mismatch | faces_mismatch | result_mismatch | unverifiable
    message: str
    sequence: int | None = None
    roll_id: str | None = None


@dataclass(frozen=True)
class Link:
    """What the chain itself says about position `sequence`: which roll, with which hash."""

    sequence: int
    roll_id: str
    hash: str


@dataclass
class Report:
    rolls: int = 0
    recomputed: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "intact": self.intact,
            "rolls": self.rolls,
            "recomputed": self.recomputed,
            "problems": [asdict(p) for p in self.problems],
        }


def check_chain(records: Iterable[Mapping[str, Any] | None], links: list[Link]) -> list[Problem]:
    """Records in chain order (None where a linked record could not be found) against the links."""
    problems: list[Problem] = []
    previous = GENESIS_HASH
    for expected, (index, record) in zip(links, enumerate(records), strict=False):
        if expected.sequence != index:
            problems.append(
                Problem("missing", f"the chain has no link for sequence {index}", sequence=index)
            )
            break
        if record is None:
            problems.append(
                Problem(
                    "missing",
                    f"roll record {expected.roll_id} (sequence {index}) is missing",
                    sequence=index,
                    roll_id=expected.roll_id,
                )
            )
            previous = expected.hash
            continue
        roll_id = str(record.get("roll_id"))
        if record.get("sequence") != index or roll_id != expected.roll_id:
            problems.append(
                Problem(
                    "misordered",
                    f"sequence {index} should be roll {expected.roll_id}, found roll {roll_id} "
                    f"with sequence {record.get('sequence')}",
                    sequence=index,
                    roll_id=roll_id,
                )
            )
        actual = record_hash(record)
        if actual != record.get("hash") or actual != expected.hash:
            problems.append(
                Problem(
                    "tampered",
                    f"roll {roll_id} (sequence {index}) does not match its hash: its content changed",
                    sequence=index,
                    roll_id=roll_id,
                )
            )
        if record.get("prev_hash") != previous:
            problems.append(
                Problem(
                    "misordered",
                    f"roll {roll_id} (sequence {index}) does not follow the record before it",
                    sequence=index,
                    roll_id=roll_id,
                )
            )
        previous = expected.hash
    return problems


def recompute(
    record: Mapping[str, Any], seed_hex: str, original: Mapping[str, Any] | None = None
) -> list[Problem]:
    """Re-roll from the revealed seed and compare faces and result with the record."""
    from domain.dice import FairSource, Roller, commitment
    from domain.dice.roller import Face
    from domain.rulesets import get_ruleset

    roll_id = str(record.get("roll_id"))
    sequence = record.get("sequence")
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != record.get("commitment"):
        return [
            Problem(
                "seed_mismatch",
                f"the revealed seed does not match the commitment of roll {roll_id}",
                sequence=sequence,
                roll_id=roll_id,
            )
        ]
    try:
        rules = get_ruleset(str(record["ruleset"]))
        settings = rules.parse_settings(record.get("settings"))
        sheet = None
        if record.get("sheet") is not None:
            sheet = rules.parse_sheet(
                record["sheet"], settings, side=str(record.get("side", "hero"))
            )
        roller = Roller(FairSource(seed, str(record["client_seed"]), int(record["nonce"])))
        if record.get("follow_up") is None:
            check = rules.checks[str(record["check"])]
            outcome = check.roll(check.parse(record["request"]), sheet, settings, roller)
        else:
            if original is None:
                raise LookupError(
                    f"the roll it follows up, {record.get('follow_up_of')}, is missing"
                )
            check = rules.checks[str(original["check"])]
            follow_up = rules.follow_ups[str(record["follow_up"])]
            faces = [Face(**{k: v for k, v in f.items()}) for f in copy.deepcopy(original["faces"])]
            outcome = follow_up.apply(
                check.parse(original["request"]),
                faces,
                follow_up.Request.model_validate(record["request"]),
                sheet,
                settings,
                roller,
            )
    except Exception as exc:  # noqa: BLE001 - any failure to replay is reported, never raised
        return [
            Problem(
                "unverifiable", f"roll {roll_id} could not be replayed: {exc}", sequence, roll_id
            )
        ]
    problems = []
    drawn = [f.to_json() for f in roller.faces]
    if drawn != record.get("faces"):
        problems.append(
            Problem(
                "faces_mismatch",
                f"roll {roll_id}: the seed gives faces {[f['face'] for f in drawn]}, the record says "
                f"{[f.get('face') for f in record.get('faces') or []]}",
                sequence=sequence,
                roll_id=roll_id,
            )
        )
    if outcome.result != record.get("result"):
        problems.append(
            Problem(
                "result_mismatch",
                f"roll {roll_id}: the faces give {outcome.result}, the record says {record.get('result')}",
                sequence=sequence,
                roll_id=roll_id,
            )
        )
    return problems


# ---- exports ---------------------------------------------------------------------------------


def verify_export(entries: Iterable[Mapping[str, Any]]) -> Report:
    """Check a campaign export (its log entries, in log order): chain, reveals, recomputed faces."""
    records: list[Mapping[str, Any]] = []
    links: list[Link] = []
    chain_versions: list[int] = []
    seeds: dict[str, str] = {}
    problems: list[Problem] = []
    last_position = 0
    for entry in entries:
        position = int(entry.get("position", 0))
        if position <= last_position:
            problems.append(
                Problem("misordered", f"log position {position} comes after {last_position}")
            )
        last_position = max(last_position, position)
        kind, payload = entry.get("type"), entry.get("payload") or {}
        if kind == "Roll.Recorded":
            records.append(payload["record"])
        elif kind == "RollChain.Linked":
            chain_versions.append(int(entry["originator_version"]))
            links.append(
                Link(int(payload["sequence"]), str(payload["roll_id"]), str(payload["hash"]))
            )
        elif kind == "RollChain.Started":
            chain_versions.append(int(entry["originator_version"]))
        elif kind in ("Scene.SeedRotated", "Scene.Closed"):
            seed = payload["revealed_seed"]
            seeds[hashlib.sha256(bytes.fromhex(seed)).hexdigest()] = seed
    for expected, version in enumerate(chain_versions, start=1):
        if version != expected:
            problems.append(
                Problem("missing", f"the roll chain skips from entry {expected - 1} to {version}")
            )
            break
    by_id = {str(r.get("roll_id")): r for r in records}
    in_chain_order = [by_id.get(link.roll_id) for link in links]
    for index, record in enumerate(records):
        if record.get("sequence") != index:
            problems.append(
                Problem(
                    "misordered",
                    f"roll {record.get('roll_id')} has sequence {record.get('sequence')} but is "
                    f"record {index} of the log",
                    sequence=record.get("sequence"),
                    roll_id=str(record.get("roll_id")),
                )
            )
    problems.extend(check_chain(in_chain_order, links))
    report = Report(rolls=len(records), problems=problems)
    for record in records:
        seed = seeds.get(str(record.get("commitment")))
        if seed is None:
            continue
        original = (
            by_id.get(str(record.get("follow_up_of"))) if record.get("follow_up_of") else None
        )
        report.problems.extend(recompute(record, seed, original))
        report.recomputed += 1
    return report
