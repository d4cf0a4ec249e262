"""Records that still recompute after the rules change (issue #13 item 6): a roll is replayed with
the logic of the rules version it records; a version the verifier has not kept is named, not judged."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from domain.audit import UNKNOWN_RULES, verify_export
from domain.requests import RollCreate
from domain.rulesets import RULESETS, versions_of
from domain.rulesets.base import Check
from systems.wcbh.rules import RULESET as WCBH_1
from systems.wcbh.rules.ruleset import WcbhRuleset
from tests.app.table import Table


class WcbhVersion2(WcbhRuleset):
    """A later WCBH whose checks read dice otherwise: here it has none, so replaying a version-1
    roll with its logic could not succeed."""

    rules_version: ClassVar[str] = "2"
    checks: ClassVar[dict[str, Check]] = {}


@pytest.fixture(scope="module")
def export() -> list[dict[str, Any]]:
    """A closed scene's trait roll, recorded under version 1 (its seed revealed)."""
    t = Table("wcbh", seed=b"rules versions")
    nova = t.character("Nova", owner=t.player)
    scene = t.scene()
    body = RollCreate(
        check="trait", request={"trait": "Agility"}, character_id=nova, client_seed="v1"
    )
    t.run(t.player, "roll", scene, body)
    t.gm_runs("close_scene", scene)
    entries: list[dict[str, Any]] = t.export()
    assert [
        e["payload"]["record"]["rules_version"] for e in entries if e["type"] == "Roll.Recorded"
    ] == ["1"]
    return entries


def installed(monkeypatch: pytest.MonkeyPatch, *parts: object) -> None:
    """The rules versions this verifier knows, as if these were the systems' rules packages."""
    monkeypatch.setitem(RULESETS.__dict__, "versions", versions_of(parts))


def test_a_roll_recomputes_with_the_retired_logic_of_its_version_after_the_rules_change(
    export: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(monkeypatch, SimpleNamespace(RULESET=WcbhVersion2(), RETIRED=(WCBH_1,)))

    report = verify_export(export)

    assert report.intact and not report.unverified, [p.describe() for p in report.problems]
    assert report.recomputed == report.rolls == 1


def test_a_version_the_verifier_did_not_keep_is_named_neither_tampered_nor_verified(
    export: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(monkeypatch, SimpleNamespace(RULESET=WcbhVersion2()))

    report = verify_export(export)

    assert report.intact and report.recomputed == 0 and report.exit_code == 3
    [unknown] = report.unknown_rules
    assert unknown.kind == UNKNOWN_RULES
    assert "rules version 1 of ruleset wcbh is unknown to this verifier" in unknown.message


def test_the_installed_systems_keep_every_current_version() -> None:
    assert {key for key in RULESETS.versions} >= {
        (r.id, r.rules_version) for r in RULESETS.values()
    }
