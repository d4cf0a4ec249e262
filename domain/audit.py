"""Roll audit, pure: canonical roll records, their hash chain, and checking a campaign's log.

One function, `verify_export`, checks a campaign's log entries: the live store's
(`GET /v1/campaigns/{id}/verification`, `GET /v1/rolls/{id}/verification`) and an export, offline
(`chronicle verify FILE`). docs/fair-dice.md specifies the encoding byte by byte and the threat model.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from domain.dice import FairSource, Roller, commitment
from domain.dice.roller import Face
from domain.rulesets import ruleset_version
from domain.rulesets.base import CheckOutcome, EarlierFollowUp, FollowUpRoll, faces_after

if TYPE_CHECKING:
    from pydantic import BaseModel

GENESIS_HASH = "0" * 64
RECORD_FORMAT = 2
"""Records with `"format": 2` hash every field but `hash`; records without `format` are format 1."""
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
"""The fields format 1 hashes (records written before format 2, which still verify)."""
FORMAT_1_RULES_VERSION = "1"  # format-1 records predate rules versions: they were rolled under "1"
ODDS_TOLERANCE = 1e-9
# Problems about the chain as a whole: every roll's verification shows them, whichever roll they name.
CHAIN_KINDS = frozenset({"tampered", "missing", "misordered", "malformed"})
# A roll made under rules this verifier does not know is neither tampered nor verified: it is listed
# beside the rolls whose seed is secret, and `chronicle verify` exits UNKNOWN_RULES_EXIT for it.
UNKNOWN_RULES = "unknown_rules_version"
UNKNOWN_RULES_EXIT = 3
# A roll whose contents the export's reader may not see yet (a secret GM roll): listed with the
# unverified rolls, no failure.
WITHHELD = "withheld"
EXPORT_HEAD = "ExportHead"  # the signed trailer line (domain/receipts.py): not an event of the log


class UnknownFormat(ValueError):
    """A record format this verifier cannot hash."""


def _format(record: Mapping[str, Any]) -> int:
    value = record.get("format", 1)
    if type(value) is not int or value not in (1, RECORD_FORMAT):
        raise UnknownFormat(f"record format {value!r} is unknown to this verifier")
    return value


def canonical(record: Mapping[str, Any]) -> bytes:
    """The bytes a record's hash is taken of (docs/fair-dice.md, section 8)."""
    if _format(record) == 1:
        content = {name: record.get(name) for name in HASHED_FIELDS}
    else:
        content = {name: value for name, value in record.items() if name != "hash"}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_hash(record: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(record)).hexdigest()


@dataclass(frozen=True)
class Problem:
    kind: str  # tampered, missing, nonce_mismatch… (the table in docs/fair-dice.md, section 10)
    message: str
    sequence: int | None = None
    roll_id: str | None = None
    line: int | None = None  # the export's line (1-based) that shows the problem

    def describe(self) -> str:
        where = f"sequence {self.sequence}: " if self.sequence is not None else ""
        at = f"line {self.line}: " if self.line is not None else ""
        return f"{self.kind.upper()}: {where}{at}{self.message}"


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
    # rolls not recomputed: their seed is not revealed (kind "unverified"), or they were made under
    # a rules version this verifier does not know (UNKNOWN_RULES)
    unverified: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # worth knowing, no failure

    @property
    def intact(self) -> bool:
        return not self.problems

    @property
    def unknown_rules(self) -> list[Problem]:
        """Rolls this verifier cannot recompute: their rules version is unknown to it."""
        return [p for p in self.unverified if p.kind == UNKNOWN_RULES]

    @property
    def unrevealed(self) -> list[Problem]:
        return [p for p in self.unverified if p.kind not in (UNKNOWN_RULES, WITHHELD)]

    @property
    def withheld(self) -> list[Problem]:
        return [p for p in self.unverified if p.kind == WITHHELD]

    @property
    def exit_code(self) -> int:
        """`chronicle verify`'s: 0 intact, 1 tampered, UNKNOWN_RULES_EXIT when nothing is wrong
        but some rolls need a verifier that knows their rules version."""
        if not self.intact:
            return 1
        return UNKNOWN_RULES_EXIT if self.unknown_rules else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "intact": self.intact,
            "rolls": self.rolls,
            "recomputed": self.recomputed,
            "problems": [asdict(p) for p in self.problems],
            "unverified": [asdict(p) for p in self.unverified],
            "warnings": [asdict(p) for p in self.warnings],
        }

    def lines(self) -> list[str]:
        """The report as `chronicle verify` prints it."""
        summary = (
            f"{self.rolls} roll records, {self.recomputed} recomputed from revealed seeds, "
            f"{len(self.unrevealed)} unverified (seed not revealed)"
        )
        if self.unknown_rules:
            summary += f", {len(self.unknown_rules)} not recomputed (rules version unknown)"
        if self.withheld:
            summary += f", {len(self.withheld)} withheld by the GM (chain checked)"
        out = [summary]
        out += [p.describe() for p in self.problems]
        out += [p.describe() for p in self.unverified]
        out += [f"WARNING: {p.describe()}" for p in self.warnings]
        if not self.intact:
            out.append("FAILED")
        elif self.unknown_rules:
            versions = sorted({p.message.split(": ", 1)[-1] for p in self.unknown_rules})
            out.append(
                "CANNOT TELL: nothing this verifier can check is wrong, but "
                f"{len(self.unknown_rules)} roll(s) were made under rules it does not know "
                f"({'; '.join(versions)}): check them with a verifier that knows those rules"
            )
        elif self.unverified:
            out.append(
                "OK: the chain is intact and every revealed roll recomputes; UNVERIFIED: "
                f"{len(self.unverified)} roll(s) whose seed is not revealed yet or whose "
                "contents are withheld"
            )
        else:
            out.append("OK: the chain is intact and every revealed roll recomputes")
        return out

    def for_roll(self, roll_id: str) -> dict[str, Any]:
        """What concerns one roll: the chain as a whole, and the roll's own checks."""
        chain = [p for p in self.problems if p.kind in CHAIN_KINDS]
        own = [p for p in self.problems if p.roll_id == roll_id and p.kind not in CHAIN_KINDS]
        revealed = not any(p.roll_id == roll_id for p in self.unrevealed + self.withheld)
        unknown = [p for p in self.unknown_rules if p.roll_id == roll_id]
        return {
            "roll_id": roll_id,
            "chain": {
                "intact": not chain,
                "rolls": self.rolls,
                "recomputed": self.recomputed,
                "problems": [asdict(p) for p in chain],
            },
            "recomputed": {
                "revealed": revealed,
                # null: not judged (its seed is secret, or its rules are unknown to this verifier)
                "match": (not own) if revealed and not unknown else None,
                "problems": [asdict(p) for p in own + unknown],
            },
            "warnings": [asdict(p) for p in self.warnings if p.roll_id == roll_id],
        }


# ---- recomputing one roll ----------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """What the roll shows beside its record (the Roll.Recorded payload): not hashed in format 1."""

    score: Any = None
    success: Any = None
    odds: Mapping[str, Any] | None = None


def recompute(
    record: Mapping[str, Any],
    seed_hex: str,
    original: Mapping[str, Any] | None = None,
    shown: Shown | None = None,
    earlier: Sequence[Mapping[str, Any]] = (),
) -> list[Problem]:
    """Re-roll from the revealed seed with the record's rules version; compare everything the roll
    shows: faces, result, score, success, costs and (given `shown`) odds. `earlier`: the records
    a chained follow-up's `after` names, in that order."""
    roll_id = str(record.get("roll_id"))
    sequence = record.get("sequence")

    def problem(kind: str, message: str) -> Problem:
        return Problem(kind, f"roll {roll_id}: {message}", sequence=sequence, roll_id=roll_id)

    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        return [problem("seed_mismatch", f"the revealed seed {seed_hex!r} is not hex")]
    if commitment(seed) != record.get("commitment"):
        return [problem("seed_mismatch", "the revealed seed does not match its commitment")]
    try:
        replayed = _replay(record, seed, original, _rules_version(record), earlier)
    except _Unknown as exc:
        return [problem(UNKNOWN_RULES, str(exc))]
    except UnknownFormat as exc:
        return [problem("unverifiable", str(exc))]
    except Exception as exc:  # noqa: BLE001 - any failure to replay is reported, never raised
        return [problem("unverifiable", f"it could not be replayed: {exc}")]
    return [problem(kind, message) for kind, message in _compare(record, replayed, shown)]


class _Unknown(LookupError):
    pass


def _rules_version(record: Mapping[str, Any]) -> str:
    """The rules version a record was computed under. Format 1 predates versions: "1", whatever
    an unhashed field might say. Format 2 hashes its own, which the server always writes: a record
    without one (or with a non-string) is not replayed under a guess."""
    if _format(record) == 1:
        return FORMAT_1_RULES_VERSION
    version = record.get("rules_version")
    if type(version) is not str:
        raise UnknownFormat(f"its rules_version {json.dumps(version)} is not a version string")
    return version


@dataclass(frozen=True)
class _Replayed:
    faces: list[dict[str, Any]]
    result: Any
    score: int
    success: bool | None
    costs: dict[str, int]
    odds: dict[str, float | None]


def _rules_of(record: Mapping[str, Any], version: str) -> tuple[Any, BaseModel, BaseModel | None]:
    """The ruleset of the record's rules version, its settings and its sheet snapshot, parsed."""
    rules = ruleset_version(str(record["ruleset"]), version)
    if rules is None:
        raise _Unknown(
            f"rules version {version} of ruleset {record['ruleset']} is unknown to this verifier"
        )
    settings = rules.parse_settings(record.get("settings"))
    sheet = None
    if record.get("sheet") is not None:
        sheet = rules.parse_sheet(record["sheet"], settings, side=str(record.get("side", "hero")))
    return rules, settings, sheet


def _replay(
    record: Mapping[str, Any],
    seed: bytes | None,
    original: Mapping[str, Any] | None,
    version: str,
    earlier: Sequence[Mapping[str, Any]] = (),
) -> _Replayed:
    """The roll recomputed from its seed; with `seed` None (not revealed yet), what follows from
    the record's own faces and outcome: its costs and odds, which need no seed."""
    rules, settings, sheet = _rules_of(record, version)
    roller = None
    if seed is not None:
        roller = Roller(FairSource(seed, str(record["client_seed"]), int(record["nonce"])))
    declared = CheckOutcome(record.get("result"), record.get("score"), record.get("success"))  # type: ignore[arg-type]
    odds: dict[str, float | None] = {"success": None, "at_least": None, "above": None}
    if record.get("follow_up") is None:
        check = rules.checks[str(record["check"])]
        asked = check.asked(check.parse(record["request"]), sheet, settings)
        outcome = declared if roller is None else check.roll(asked, roller)
        chances = check.odds(asked, outcome)
        # "above" is P(a better score), for the luck report (domain/rolls.py, `_next`)
        better = CheckOutcome(outcome.result, outcome.score + 1, outcome.success)
        above = check.odds(asked, better).at_least
        odds = {"success": chances.success, "at_least": chances.at_least, "above": above}
        costs = check.cost(asked.request)
    else:
        if original is None:
            raise LookupError(f"the roll it follows up, {record.get('follow_up_of')}, is missing")
        check = rules.checks[str(original["check"])]
        follow_up = rules.follow_ups[str(record["follow_up"])]
        first = check.parse(original["request"])
        faces = [Face(**f) for f in copy.deepcopy(original["faces"])]
        if record.get("after") is not None:
            faces = faces_after(first, faces, _earlier(rules, record, earlier, version))
        request = follow_up.Request.model_validate(record["request"])
        asked = FollowUpRoll(first, faces, request, sheet, settings)
        outcome = declared if roller is None else follow_up.apply(asked, roller)
        if follow_up.odds is not None:
            chances = follow_up.odds(asked, outcome)
            odds = {"success": chances.success, "at_least": chances.at_least, "above": None}
        costs = follow_up.cost(request)
    return _Replayed(
        faces=record.get("faces") if roller is None else [f.to_json() for f in roller.faces],  # type: ignore[arg-type]
        result=outcome.result,
        score=outcome.score,
        success=outcome.success,
        costs={k: v for k, v in costs.items() if v},
        odds=odds,
    )


def _earlier(
    rules: Any, record: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]], version: str
) -> list[EarlierFollowUp]:
    """The earlier follow-ups a chained follow-up names in `after`, each read with its own record's
    request, faces, sheet and settings (docs/fair-dice-checks.md, section 2)."""
    after = [str(i) for i in record["after"]]
    if [str(e.get("roll_id")) for e in earlier] != after:
        raise LookupError(f"the follow-ups it comes after, {after}, are not all in the log")
    made = []
    for each in earlier:
        if each.get("follow_up_of") != record.get("follow_up_of"):
            raise LookupError(f"roll {each.get('roll_id')} does not follow up the same roll")
        own_rules, settings, sheet = _rules_of(each, version)
        follow = own_rules.follow_ups[str(each["follow_up"])]
        request = follow.Request.model_validate(each["request"])
        faces = [Face(**f) for f in copy.deepcopy(each["faces"])]
        made.append(EarlierFollowUp(follow, request, faces, sheet, settings))
    return made


def check_unrevealed(
    record: Mapping[str, Any],
    original: Mapping[str, Any] | None,
    shown: Shown | None,
    earlier: Sequence[Mapping[str, Any]] = (),
) -> list[Problem]:
    """What can be checked of a roll before its seed is revealed: its costs and odds follow from
    its request, sheet and recorded outcome, and what the roll shows must say what its record says
    (format 2 hashes score and success). The faces wait for the reveal."""
    roll_id = str(record.get("roll_id"))
    if _format(record) != RECORD_FORMAT:
        return []  # format 1 hashed no score: it can only be recomputed from the seed
    try:
        replayed = _replay(record, None, original, _rules_version(record), earlier)
    except _Unknown as exc:
        return [Problem(UNKNOWN_RULES, f"roll {roll_id}: {exc}", record.get("sequence"), roll_id)]
    except UnknownFormat as exc:
        return [Problem("unverifiable", f"roll {roll_id}: {exc}", record.get("sequence"), roll_id)]
    except Exception as exc:  # noqa: BLE001 - any failure to replay is reported, never raised
        message = f"roll {roll_id}: its odds could not be computed: {exc}"
        return [Problem("unverifiable", message, record.get("sequence"), roll_id)]
    return [
        Problem(kind, f"roll {roll_id}: {message}", record.get("sequence"), roll_id)
        for kind, message in _compare(record, replayed, shown)
    ]


def _compare(
    record: Mapping[str, Any], replayed: _Replayed, shown: Shown | None
) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if replayed.faces != record.get("faces"):
        faces = record.get("faces")
        recorded = (
            [f.get("face") if isinstance(f, Mapping) else f for f in faces]
            if isinstance(faces, list)
            else faces
        )
        drawn = [f["face"] for f in replayed.faces]
        found.append(
            ("faces_mismatch", f"the seed gives faces {drawn}, the record says {recorded}")
        )
    if replayed.result != record.get("result"):
        found.append(
            (
                "result_mismatch",
                f"the faces give {replayed.result}, the record says {record.get('result')}",
            )
        )
    if replayed.costs != record.get("costs"):
        found.append(
            (
                "costs_mismatch",
                f"the request costs {replayed.costs}, the record says {record.get('costs')}",
            )
        )
    for label, score, success in _claims(record, shown):
        if type(score) is not int or score != replayed.score:
            found.append(
                ("score_mismatch", f"the faces give score {replayed.score}, {label} {score}")
            )
        if success is not replayed.success:
            found.append(
                ("result_mismatch", f"the faces give success {replayed.success}, {label} {success}")
            )
    if shown is not None and not _same_odds(shown.odds, replayed.odds):
        found.append(
            (
                "odds_mismatch",
                f"the request gives odds {replayed.odds}, the roll shows {shown.odds}",
            )
        )
    return found


def _claims(record: Mapping[str, Any], shown: Shown | None) -> list[tuple[str, Any, Any]]:
    """Score and success as the record (format 2) and the Roll.Recorded payload state them."""
    out: list[tuple[str, Any, Any]] = []
    if _format(record) == RECORD_FORMAT:
        out.append(("the record says", record.get("score"), record.get("success")))
    if shown is not None:
        out.append(("the roll shows", shown.score, shown.success))
    return out


def _same_odds(shown: Mapping[str, Any] | None, replayed: Mapping[str, float | None]) -> bool:
    if not isinstance(shown, Mapping) or set(shown) != set(replayed):
        return False
    for name, expected in replayed.items():
        value = shown[name]
        if expected is None or value is None:
            if value is not expected:
                return False
        elif type(value) not in (int, float) or abs(value - expected) > ODDS_TOLERANCE:
            return False
    return True


# ---- reading an export -------------------------------------------------------------------------


class UnusableExport(ValueError):
    """The input is no export at all (exit code 2 of `chronicle verify`), as opposed to a tampered one."""


class CutExport(ValueError):
    """The export ends in the middle of a line: it was cut off, which is tampering (exit code 1),
    not input of the wrong kind; otherwise whoever cuts an export could choose the milder verdict."""


def parse_export(lines: Iterable[str | bytes]) -> list[dict[str, Any]]:
    """The entries of a JSON Lines export, one JSON object a line; line N is entry N - 1. Lines
    read as bytes are decoded here, so that text that is not UTF-8 is named by its line."""
    entries: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            value = json.loads(line)
        except ValueError:  # UnicodeDecodeError and JSONDecodeError both
            ends = b"\n" if isinstance(raw, bytes) else "\n"
            if number > 1 and not raw.endswith(ends):  # type: ignore[arg-type]
                raise CutExport(f"line {number} is cut off: the export was truncated") from None
            what = "UTF-8 text" if isinstance(raw, bytes) and _not_utf8(raw) else "JSON"
            raise UnusableExport(f"line {number} is not {what}") from None
        except RecursionError:  # valid JSON maybe, but deeper than the parser reads: no export's
            raise UnusableExport(f"line {number} is nested too deeply to read") from None
        if not isinstance(value, dict):
            raise UnusableExport(f"line {number} is not a JSON object")
        entries.append(value)
    if not entries:
        raise UnusableExport("the export is empty")
    return entries


def _not_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@dataclass
class _Epoch:
    """One seed of a scene as the scene's own events published and revealed it."""

    scene_id: str
    number: int
    commitment: str
    position: int  # where the commitment was published
    line: int
    seed: str | None = None  # as revealed (checked against the commitment when revealed)
    revealed_at: int | None = None

    def name(self) -> str:
        return f"seed epoch {self.number} of scene {self.scene_id}"


@dataclass(frozen=True)
class _Recorded:
    line: int
    position: int
    originator_id: str
    record: Mapping[str, Any]
    shown: Shown
    # A roll withheld from the export's reader (a secret GM roll, domain/visibility.py): only its
    # chain fields are there, so its links, commitment and nonce are checked, nothing else.
    withheld: bool = False

    @property
    def roll_id(self) -> str:
        return str(self.record.get("roll_id"))

    def problem(self, kind: str, message: str) -> Problem:
        return Problem(
            kind,
            f"roll {self.roll_id}: {message}",
            sequence=_int(self.record.get("sequence")),
            roll_id=self.roll_id,
            line=self.line,
        )


@dataclass
class _Log:
    """What a campaign's log says about its rolls, read once, in log order."""

    recorded: list[_Recorded] = field(default_factory=list)
    links: list[tuple[int, Link]] = field(default_factory=list)
    chain_versions: list[tuple[int, int]] = field(default_factory=list)
    scenes: dict[str, list[_Epoch]] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    scene_events: list[tuple[int, str]] = field(default_factory=list)  # (line, scene) of any event
    nonces_taken: dict[str, tuple[int, int, int]] = field(
        default_factory=dict
    )  # roll: line, epoch, n
    issue_scenes: dict[str, list[str]] = field(default_factory=dict)
    finished: list[tuple[int, str]] = field(default_factory=list)
    ended: list[tuple[int, str]] = field(default_factory=list)
    sheets: dict[str, list[Any]] = field(default_factory=dict)  # character -> every sheet it had
    sides: dict[str, Any] = field(default_factory=dict)  # character -> its side
    settings: list[Any] = field(default_factory=list)  # every settings the campaign has had
    ruleset: Any = None  # the campaign's
    versions: dict[str, int] = field(default_factory=dict)  # aggregate -> its last version so far
    problems: list[Problem] = field(default_factory=list)


def _int(value: Any) -> int | None:
    return value if type(value) is int else None


def _opened(log: _Log, line: int, position: int, scene: str, payload: Mapping[str, Any]) -> None:
    log.scenes[scene] = [_Epoch(scene, 0, str(payload["seed_commitment"]), position, line)]


def _reveal(log: _Log, line: int, position: int, scene: str, seed: Any) -> _Epoch | None:
    """Pair a reveal with the epoch it reveals: the scene's latest, as its own events published it."""
    epochs = log.scenes.get(scene)
    if not epochs:
        return None  # reported by _check_scenes: an event of a scene that never opened
    epoch = epochs[-1]
    if epoch.revealed_at is not None:
        log.problems.append(
            Problem("tampered", f"{epoch.name()} is revealed a second time", line=line)
        )
        return epoch
    epoch.seed, epoch.revealed_at = str(seed), position
    try:
        matches = hashlib.sha256(bytes.fromhex(str(seed))).hexdigest() == epoch.commitment
    except ValueError:
        matches = False
    if not matches:
        log.problems.append(
            Problem(
                "seed_mismatch",
                f"the seed revealed for {epoch.name()} does not hash to its commitment "
                f"{epoch.commitment} (published on line {epoch.line})",
                line=line,
            )
        )
    return epoch


def _scene_event(log: _Log, line: int, position: int, entry: Mapping[str, Any]) -> None:
    kind, scene, payload = entry["type"], str(entry["originator_id"]), entry["payload"]
    log.scene_events.append((line, scene))
    if kind == "Scene.Opened":
        _opened(log, line, position, scene, payload)
    elif kind == "Scene.SeedRotated":
        if _reveal(log, line, position, scene, payload["revealed_seed"]) is not None:
            number = len(log.scenes[scene])
            log.scenes[scene].append(
                _Epoch(scene, number, str(payload["new_commitment"]), position, line)
            )
    elif kind == "Scene.Closed":
        _reveal(log, line, position, scene, payload["revealed_seed"])
        log.closed.add(scene)
    elif kind == "Scene.RollMade":
        log.nonces_taken[str(payload["roll_id"])] = (line, payload["epoch"], payload["nonce"])


def _roll_event(log: _Log, line: int, position: int, entry: Mapping[str, Any]) -> None:
    kind, payload = entry["type"], entry["payload"]
    if kind == "Roll.Recorded":
        record = payload["record"]
        if not isinstance(record, Mapping):
            raise TypeError("its record is not an object")
        shown = Shown(payload.get("score"), payload.get("success"), payload.get("odds"))
        withheld = payload.get("withheld") is True
        log.recorded.append(
            _Recorded(line, position, str(entry["originator_id"]), record, shown, withheld)
        )
        if payload.get("campaign_id") != record.get("campaign_id"):
            log.problems.append(
                log.recorded[-1].problem(
                    "tampered",
                    f"it is stored in campaign {payload.get('campaign_id')}, its record says "
                    f"{record.get('campaign_id')}",
                )
            )
    elif kind == "RollChain.Linked":
        log.chain_versions.append((line, _whole(entry["originator_version"], "originator_version")))
        sequence = _whole(payload["sequence"], "sequence")
        log.links.append((line, Link(sequence, str(payload["roll_id"]), str(payload["hash"]))))
    elif kind == "RollChain.Started":
        log.chain_versions.append((line, _whole(entry["originator_version"], "originator_version")))


def _whole(value: Any, name: str) -> int:
    """A count the chain is read by, as the server writes it: int() would round 1.5 down to a
    sequence the chain has, and raise OverflowError on the infinity JSON's 1e400 reads as."""
    if type(value) is not int:
        raise ValueError(f"{name} {value!r} is not a whole number")
    return value


def _issue_event(log: _Log, line: int, position: int, entry: Mapping[str, Any]) -> None:
    kind, issue, payload = entry["type"], str(entry["originator_id"]), entry["payload"]
    if kind == "Issue.SceneAdded":
        log.issue_scenes.setdefault(issue, []).append(str(payload["scene_id"]))
    elif kind == "Issue.SceneFinished":
        log.finished.append((line, str(payload["scene_id"])))
    elif kind == "Issue.Ended":
        log.ended.append((line, issue))


_RANK_CHANGES = ("Character.AbilityLost", "Character.AbilityRestored")


def _character_event(log: _Log, line: int, position: int, entry: Mapping[str, Any]) -> None:
    """Every sheet a character has had: a roll's sheet snapshot must be one of them."""
    kind, character, payload = entry["type"], str(entry["originator_id"]), entry["payload"]
    sheets = log.sheets.setdefault(character, [])
    if kind == "Character.Created":
        log.sides[character] = payload["side"]
    if kind == "Character.SheetChangeProposed":
        return  # a proposal is no sheet of the character's until approved (then SheetChanged)
    if "sheet" in payload:
        sheets.append(payload["sheet"])
    elif kind in _RANK_CHANGES and sheets and payload.get("rank") is not None:
        last = sheets[-1]  # WCBH-16: a rank lost or restored changes the sheet
        abilities = {**last["abilities"], payload["ability"]: payload["rank"]}
        sheets.append({**last, "abilities": abilities})


def _campaign_event(log: _Log, line: int, position: int, entry: Mapping[str, Any]) -> None:
    if "settings" in entry["payload"]:
        log.settings.append(entry["payload"]["settings"])
    if entry["type"] == "Campaign.Created":
        log.ruleset = entry["payload"]["ruleset"]


_READERS = {
    "Campaign": _campaign_event,
    "Scene": _scene_event,
    "Roll": _roll_event,
    "RollChain": _roll_event,
    "Issue": _issue_event,
    "Character": _character_event,
}


def _read(entries: Iterable[Mapping[str, Any]]) -> _Log:
    log = _Log()
    last_position = 0
    for line, entry in enumerate(entries, start=1):
        kind = entry.get("type")
        if kind == EXPORT_HEAD:
            continue  # the signed trailer, checked by domain/receipts.py
        position = entry.get("position")
        if type(position) is not int or not isinstance(kind, str):
            log.problems.append(
                Problem("malformed", "the entry has no integer position or no type", line=line)
            )
            continue
        if position <= last_position:
            log.problems.append(
                Problem(
                    "misordered", f"log position {position} comes after {last_position}", line=line
                )
            )
        last_position = max(last_position, position)
        _check_version(log, line, kind, entry)
        reader = _READERS.get(kind.split(".", 1)[0])
        if reader is None:
            continue
        try:
            reader(log, line, position, entry)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.problems.append(
                Problem("malformed", f"the {kind} entry cannot be read: {exc!r}", line=line)
            )
    return log


def _check_version(log: _Log, line: int, kind: str, entry: Mapping[str, Any]) -> None:
    """Each aggregate's events follow each other version by version from version 1: an event
    dropped from the start or the middle of any aggregate's history leaves a gap, even where no
    roll check would notice it (the last roll's record, link and nonce taken, with its scene's
    later events kept; a game Issue's Issue.Started)."""
    originator, version = entry.get("originator_id"), entry.get("originator_version")
    if not isinstance(originator, str) or type(version) is not int:
        return
    previous = log.versions.get(originator)
    log.versions[originator] = version
    if previous is None:
        # An export holds every aggregate of its campaign from its creation (domain/export.py):
        # a history that begins after version 1 lost its first events.
        if version != 1:
            message = (
                f"{kind} is version {version} of {originator}, but the export has no earlier "
                "event of it: its first events are missing"
            )
            log.problems.append(Problem("missing", message, line=line))
        return
    if version == previous + 1:
        return
    if version <= previous:
        message = f"{kind} is version {version} of {originator}, after its version {previous}"
        log.problems.append(Problem("misordered", message, line=line))
    else:
        message = (
            f"{kind} is version {version} of {originator}, but the export's last event of it is "
            f"version {previous}: the events between are missing"
        )
        log.problems.append(Problem("missing", message, line=line))


# ---- checking it ---------------------------------------------------------------------------------


def verify_export(
    entries: Iterable[Mapping[str, Any]],
    *,
    require_revealed: bool = False,
    only_roll: str | None = None,
) -> Report:
    """Check a campaign's log entries (in log order; entry N is line N + 1 of an export): the chain,
    the seeds and nonces, and every revealed roll recomputed. `only_roll`: recompute that roll only
    (the chain and the log are checked whole all the same)."""
    log = _read(entries)
    report = Report(rolls=len(log.recorded), problems=log.problems)
    placed = _check_chain(log, report.problems)
    epochs = _check_epochs(log, placed, report.problems)
    report.problems.extend(_check_scenes(log))
    report.problems.extend(_check_sheets(log))
    report.warnings.extend(_warnings(log, epochs))
    by_id = {r.roll_id: r for r in log.recorded}
    for recorded in log.recorded:
        if only_roll is not None and recorded.roll_id != only_roll:
            continue
        epoch = epochs.get(recorded.roll_id)
        if epoch is None:
            continue  # its commitment was never published: reported by _check_epochs
        if recorded.withheld:
            report.unverified.append(
                recorded.problem(
                    WITHHELD,
                    "its contents are withheld until the GM reveals it: its chain link, "
                    "commitment and nonce check, its faces are not recomputed",
                )
            )
            continue
        first = by_id.get(str(recorded.record.get("follow_up_of")))
        original = first.record if first is not None else None
        named = [by_id.get(str(i)) for i in recorded.record.get("after") or ()]
        earlier = [e.record for e in named if e is not None]
        if epoch.seed is None:
            unrevealed = recorded.problem(
                "unverified", f"its seed ({epoch.name()}) is not revealed yet: faces not recomputed"
            )
            (report.problems if require_revealed else report.unverified).append(unrevealed)
            _file(
                report,
                check_unrevealed(recorded.record, original, recorded.shown, earlier),
                recorded,
            )
            continue
        if not _file(
            report,
            recompute(recorded.record, epoch.seed, original, recorded.shown, earlier),
            recorded,
        ):
            report.recomputed += 1
    return report


def _file(report: Report, found: list[Problem], recorded: _Recorded) -> bool:
    """Add a roll's problems to the report; a rules version unknown to this verifier is no
    problem of the roll's but a limit of the verifier's (listed with the unverified rolls).
    True if the roll could not be recomputed for that reason."""
    unknown = [_at(p, recorded.line) for p in found if p.kind == UNKNOWN_RULES]
    report.unverified.extend(unknown)
    report.problems.extend(_at(p, recorded.line) for p in found if p.kind != UNKNOWN_RULES)
    return bool(unknown)


def _at(problem: Problem, line: int) -> Problem:
    return Problem(problem.kind, problem.message, problem.sequence, problem.roll_id, line)


def _check_chain(log: _Log, problems: list[Problem]) -> dict[str, int]:
    """The chain by its own sequence numbers (the RollChain.Linked events), never by the log order
    of the records: a command may save a roll before the rolls it links after (WCBH-10 help).
    Returns each linked roll's sequence."""
    for expected, (line, version) in enumerate(log.chain_versions, start=1):
        if version != expected:
            problems.append(
                Problem(
                    "missing",
                    f"the roll chain skips from entry {expected - 1} to {version}",
                    line=line,
                )
            )
            break
    by_id: dict[str, list[_Recorded]] = {}
    for recorded in log.recorded:
        by_id.setdefault(recorded.roll_id, []).append(recorded)
        if recorded.originator_id != recorded.roll_id:
            problems.append(
                recorded.problem(
                    "misordered", f"it is stored as the record of roll {recorded.originator_id}"
                )
            )
    for copies in by_id.values():
        for extra in copies[1:]:
            problems.append(
                extra.problem("tampered", f"it is recorded again (first on line {copies[0].line})")
            )
    placed: dict[str, int] = {}
    previous = GENESIS_HASH
    for index, (line, link) in enumerate(log.links):
        if link.sequence != index:
            problems.append(
                Problem(
                    "missing",
                    f"the chain has no link for sequence {index} (it links sequence "
                    f"{link.sequence} next)",
                    sequence=index,
                    line=line,
                )
            )
            break
        placed.setdefault(link.roll_id, index)
        if link.roll_id not in by_id:
            problems.append(
                Problem(
                    "missing",
                    f"roll record {link.roll_id} (sequence {index}) is missing",
                    sequence=index,
                    roll_id=link.roll_id,
                    line=line,
                )
            )
        else:
            problems.extend(_check_link(by_id[link.roll_id][0], link, previous))
        previous = link.hash
    linked = {link.roll_id for _, link in log.links}
    for recorded in log.recorded:
        if recorded.roll_id not in linked:
            problems.append(
                recorded.problem("missing", "the chain never links it (its link is missing)")
            )
    return placed


def _check_link(recorded: _Recorded, link: Link, previous: str) -> list[Problem]:
    record, index = recorded.record, link.sequence
    problems: list[Problem] = []
    if record.get("sequence") != index:
        problems.append(
            recorded.problem(
                "misordered",
                f"the chain links it as sequence {index}, its record says {record.get('sequence')}",
            )
        )
    try:
        # a withheld record cannot be hashed again by its reader: its hash must be the link's
        actual = record.get("hash") if recorded.withheld else record_hash(record)
    except UnknownFormat as exc:
        return [*problems, recorded.problem("unverifiable", str(exc))]
    if actual != record.get("hash") or actual != link.hash:
        problems.append(
            Problem(
                "tampered",
                f"roll {recorded.roll_id} (sequence {index}) does not match its hash: its content "
                "changed",
                sequence=index,
                roll_id=recorded.roll_id,
                line=recorded.line,
            )
        )
    if record.get("prev_hash") != previous:
        problems.append(recorded.problem("misordered", "it does not follow the record before it"))
    return problems


def _check_epochs(log: _Log, placed: dict[str, int], problems: list[Problem]) -> dict[str, _Epoch]:
    """Each roll's seed epoch, as its scene published it; within an epoch the nonces are 0, 1, 2, …
    in chain order, every roll is made after its commitment and before its reveal, and the scene
    took that nonce for it (Scene.RollMade). Returns each roll's epoch."""
    epochs: dict[str, _Epoch] = {}
    members: dict[int, list[_Recorded]] = {}
    for recorded in log.recorded:
        epoch = _epoch_of(log, recorded, problems)
        if epoch is None:
            continue
        epochs[recorded.roll_id] = epoch
        members.setdefault(id(epoch), []).append(recorded)
        if recorded.position < epoch.position:
            problems.append(
                recorded.problem(
                    "unpublished",
                    f"it was made before its commitment was published (line {epoch.line})",
                )
            )
        if epoch.revealed_at is not None and recorded.position > epoch.revealed_at:
            problems.append(
                recorded.problem(
                    "after_reveal",
                    f"it was made after its seed ({epoch.name()}) was revealed",
                )
            )
        problems.extend(_check_nonce_taken(log, recorded, epoch))
    for rolls in members.values():
        in_chain_order = sorted(rolls, key=lambda r: placed.get(r.roll_id, 1 << 62))
        for expected, recorded in enumerate(in_chain_order):
            nonce = recorded.record.get("nonce")
            if type(nonce) is not int or nonce != expected:
                problems.append(
                    recorded.problem(
                        "nonce_mismatch",
                        f"it has nonce {nonce!r}, but it is roll {expected} of "
                        f"{epochs[recorded.roll_id].name()} in chain order, so its nonce is {expected}",
                    )
                )
    recorded_ids = {r.roll_id for r in log.recorded}
    for roll_id, (line, _, nonce) in log.nonces_taken.items():
        if roll_id not in recorded_ids:
            problems.append(
                Problem(
                    "missing",
                    f"the scene took nonce {nonce} for roll {roll_id}, whose record is missing",
                    roll_id=roll_id,
                    line=line,
                )
            )
    return epochs


def _epoch_of(log: _Log, recorded: _Recorded, problems: list[Problem]) -> _Epoch | None:
    scene = str(recorded.record.get("scene_id"))
    commitment = recorded.record.get("commitment")
    for epoch in log.scenes.get(scene, []):
        if epoch.commitment == commitment:
            return epoch
    where = (
        "no Scene.Opened or Scene.SeedRotated of it shows it"
        if scene in log.scenes
        else "the export has no Scene.Opened of it"
    )
    problems.append(
        recorded.problem(
            "unpublished",
            f"its commitment {commitment} was never published by its scene {scene} ({where})",
        )
    )
    return None


def _check_nonce_taken(log: _Log, recorded: _Recorded, epoch: _Epoch) -> list[Problem]:
    taken = log.nonces_taken.get(recorded.roll_id)
    if taken is None:
        return [recorded.problem("missing", "its scene never took a nonce for it (Scene.RollMade)")]
    line, number, nonce = taken
    claimed = recorded.record.get("nonce")
    # Type-strict: JSON's 1.0 and true are not the whole number 1 the scene took (Python's ==
    # says they are), and an export holding them is not what the server wrote.
    if not (_same_whole(number, epoch.number) and _same_whole(nonce, claimed)):
        return [
            recorded.problem(
                "nonce_mismatch",
                f"its scene took nonce {json.dumps(nonce)} of seed epoch {json.dumps(number)} "
                f"for it (line {line}), the record says nonce {json.dumps(claimed)} of "
                f"{epoch.name()}",
            )
        ]
    return []


def _same_whole(value: Any, other: Any) -> bool:
    return type(value) is int and type(other) is int and value == other


def _check_scenes(log: _Log) -> list[Problem]:
    """What the log itself shows of cut-off scenes and reveals: every event of a scene follows its
    Scene.Opened, and a scene its game Issue finished or ended is closed (its seed revealed)."""
    problems: list[Problem] = []
    for line, scene in log.scene_events:
        if scene not in log.scenes:
            problems.append(
                Problem(
                    "missing", f"an event of scene {scene} precedes its Scene.Opened", line=line
                )
            )
            log.scenes[scene] = []  # once per scene
    for line, scene in log.finished:
        if scene not in log.closed:
            problems.append(
                Problem(
                    "missing",
                    f"the game Issue finished scene {scene}, whose Scene.Closed (the reveal of its "
                    "seed) is missing",
                    line=line,
                )
            )
    for line, issue in log.ended:
        for scene in log.issue_scenes.get(issue, []):
            if scene not in log.closed:
                problems.append(
                    Problem(
                        "missing",
                        f"game Issue {issue} ended, but the Scene.Closed of its scene {scene} is "
                        "missing",
                        line=line,
                    )
                )
    return problems


def _check_sheets(log: _Log) -> list[Problem]:
    """A roll's snapshots are what its campaign and character had: its settings are settings the
    campaign has had, its side the character's, and its sheet a sheet the character has had. Any of
    them, not the one current at the roll: a Help reroll reads the sheet of the roll it helps (NB-19),
    and the events of one save may list a character after the roll that uses it."""
    problems: list[Problem] = []
    for recorded in log.recorded:
        record = recorded.record
        if recorded.withheld:
            continue  # no snapshots to compare
        if record.get("ruleset") != log.ruleset:
            problems.append(
                recorded.problem(
                    "settings_mismatch",
                    f"its ruleset {record.get('ruleset')!r} is not its campaign's {log.ruleset!r}",
                )
            )
        if record.get("settings") not in log.settings:
            problems.append(
                recorded.problem(
                    "settings_mismatch", "its settings are none its campaign has had in the log"
                )
            )
        character = record.get("character_id")
        if character is None:
            continue
        if record.get("side") != log.sides.get(str(character)):
            problems.append(
                recorded.problem(
                    "sheet_mismatch",
                    f"its side {record.get('side')!r} is not the side of character {character}",
                )
            )
        if record.get("sheet") not in log.sheets.get(str(character), []):
            problems.append(
                recorded.problem(
                    "sheet_mismatch",
                    f"its sheet snapshot is no sheet character {character} has had in the log",
                )
            )
    return problems


def _warnings(log: _Log, epochs: dict[str, _Epoch]) -> list[Problem]:
    warnings: list[Problem] = []
    seen: dict[tuple[int, str], _Recorded] = {}
    for recorded in log.recorded:
        if recorded.withheld:
            continue  # its client seed is not shown
        client_seed = str(recorded.record.get("client_seed"))
        if recorded.record.get("client_seed_by") == "server":
            warnings.append(
                recorded.problem(
                    "server_client_seed",
                    "its client seed was generated by the server: the roller added no "
                    "randomness of its own",
                )
            )
        epoch = epochs.get(recorded.roll_id)
        if epoch is None:
            continue
        first = seen.setdefault((id(epoch), client_seed), recorded)
        if first is not recorded:
            warnings.append(
                recorded.problem(
                    "client_seed_reused",
                    f"it reuses the client seed of roll {first.roll_id} (line {first.line}) in "
                    f"{epoch.name()}",
                )
            )
    return warnings
