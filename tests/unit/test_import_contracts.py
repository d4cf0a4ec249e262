"""The import contracts of pyproject.toml ([tool.importlinter]) hold, so `.ci/run` checks them.

Pure rules import no store, API or views; the game systems do not import each other; the API sits on
top. The contracts themselves and the rulings behind them are in docs/decisions.md.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import domain

ROOT = Path(__file__).resolve().parents[2]
# The domain modules pure rules may import: themselves and the shared error hierarchy.
PURE = {"dice", "rulesets", "errors"}


def contract(contract_id: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    by_id: dict[str, dict[str, object]] = {c["id"]: c for c in config["contracts"]}
    return by_id[contract_id]


def test_every_import_contract_is_kept() -> None:
    # The installed command, exactly as a developer runs it; no cache, so no stale graph.
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout


def test_pure_rules_are_forbidden_every_other_module_of_the_domain() -> None:
    # import-linter has no "everything but" form: this keeps the explicit list from falling behind.
    others = {f"domain.{m.name}" for m in pkgutil.iter_modules(domain.__path__)} - {
        f"domain.{name}" for name in PURE
    }
    forbidden = contract("pure-rules")["forbidden_modules"]
    assert isinstance(forbidden, list)
    listed = {m for m in forbidden if m.startswith("domain.")}
    assert listed == others, (
        "The pure-rules contract in pyproject.toml must forbid exactly the domain modules other "
        f"than {sorted(PURE)}: add {sorted(others - listed)}, remove {sorted(listed - others)}"
    )


def test_the_contracts_name_every_installed_game_system() -> None:
    # A system added to systems.INSTALLED but not to the contracts would escape them unnoticed.
    import systems

    for name in systems.INSTALLED:
        package = f"systems.{name}"
        assert package in contract("independent-systems")["modules"], name  # type: ignore[operator]
        assert package in contract("system-layers")["containers"], name  # type: ignore[operator]
        assert f"{package}.rules" in contract("pure-rules")["source_modules"], name  # type: ignore[operator]
        assert f"{package}.routes" in contract("api-on-top")["forbidden_modules"], name  # type: ignore[operator]
        assert package in contract("shared-knows-no-system")["forbidden_modules"], name  # type: ignore[operator]


def test_shared_code_names_no_system_not_even_as_an_exception() -> None:
    # The presenters reach a system's fields through its `schemas` part (systems.parts), so the
    # contracts that keep shared code and systems apart need no exceptions.
    for contract_id in ("shared-knows-no-system", "independent-systems"):
        assert contract(contract_id).get("ignore_imports", []) == [], contract_id


def test_every_systems_presentation_part_stays_below_the_api() -> None:
    import systems

    for part in systems.parts("schemas"):
        assert part.__name__ in contract("api-on-top")["source_modules"], part.__name__  # type: ignore[operator]
