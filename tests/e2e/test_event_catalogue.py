"""docs/events.md stays in step with the code: every event type the session writes is documented there."""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "event_catalogue.py"
DOC = ROOT / "docs" / "events.md"
EXAMPLE = re.compile(r"^### `([\w.]+)`\n\n```json\n(.*?)\n```", re.DOTALL | re.MULTILINE)
HEADING = re.compile(r"^### `([\w.]+)`$", re.MULTILINE)


@pytest.fixture(scope="module")
def printed() -> dict[str, dict[str, Any]]:
    """Run the catalogue script as a user would; its examples by event type."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    examples = {t: json.loads(body) for t, body in EXAMPLE.findall(result.stdout)}
    assert examples, "the script printed no example"
    return examples


def sections() -> dict[str, str]:
    """The text of docs/events.md under each `### `Type`` heading, up to the next heading."""
    text = DOC.read_text()
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.MULTILINE)
    found: dict[str, str] = {}
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        match = HEADING.match(heading)
        if match:
            found[match.group(1)] = body
    return found


def test_the_script_exits_0_with_an_example_of_each_type(
    printed: dict[str, dict[str, Any]],
) -> None:
    assert all(example["type"] == t for t, example in printed.items())
    assert not [t for t in printed if t.startswith("IdempotencyRecord.")]


def test_every_printed_event_type_has_a_heading_in_the_doc(
    printed: dict[str, dict[str, Any]],
) -> None:
    documented = sections()
    # Retired types keep their heading (older logs hold them) and get no example.
    retired = set(runpy.run_path(str(SCRIPT))["RETIRED"])
    assert sorted(set(printed) - set(documented)) == [], "add these event types to docs/events.md"
    assert sorted(set(documented) - set(printed) - retired) == [], (
        "docs/events.md documents unknown event types"
    )


def test_every_payload_field_is_documented_and_the_examples_are_current(
    printed: dict[str, dict[str, Any]],
) -> None:
    documented = sections()
    for t, fresh in printed.items():
        section = documented[t]
        missing = [k for k in fresh["payload"] if f"`{k}`" not in section]
        assert missing == [], f"{t}: document these payload fields in docs/events.md: {missing}"
        block = re.search(
            rf"<!-- example: {re.escape(t)} -->\n```json\n(.*?)\n```", section, re.DOTALL
        )
        assert block is not None, f"{t} has no example block in docs/events.md"
        shown = json.loads(block.group(1))
        assert (sorted(shown), sorted(shown["payload"])) == (
            sorted(fresh),
            sorted(fresh["payload"]),
        ), f"the example of {t} is stale: run `python docs/event_catalogue.py --write`"
