"""docs/events.md stays in step with the code: every event type the session writes is documented there."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "event_catalogue.py"
DOC = ROOT / "docs" / "events.md"
EXAMPLE = re.compile(r"^### `([\w.]+)`\n\n```json\n(.*?)\n```", re.DOTALL | re.MULTILINE)
HEADING = re.compile(r"^### `([\w.]+)`$", re.MULTILINE)


def script() -> Any:
    """docs/event_catalogue.py as a module (it is a script, not a package's)."""
    spec = importlib.util.spec_from_file_location("event_catalogue", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def retired() -> dict[str, str]:
    """The event types older logs hold and the service no longer writes (the script's RETIRED)."""
    return dict(script().RETIRED)


@pytest.fixture(scope="module")
def printed() -> dict[str, dict[str, Any]]:
    """Run the catalogue script's main() as its command line would (no arguments, no CHRONICLE_
    settings), in this process: a new interpreter would import the app again, ≈3 s of CPU. Its
    examples by event type."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as env, redirect_stdout(out), redirect_stderr(err):
        for name in [k for k in os.environ if k.startswith("CHRONICLE_")]:
            env.delenv(name)
        code = script().main([])
    assert code == 0, err.getvalue() + out.getvalue()
    examples = {t: json.loads(body) for t, body in EXAMPLE.findall(out.getvalue())}
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
    assert sorted(set(printed) - set(documented)) == [], "add these event types to docs/events.md"
    assert sorted(set(documented) - set(printed) - set(retired())) == [], (
        "docs/events.md documents unknown event types"
    )
    assert not set(retired()) & set(printed), "a type documented as no longer written is written"


def test_every_retired_event_type_stays_documented_with_what_replaced_it() -> None:
    # Older logs still hold them: a reader of such a log must find what they meant.
    documented = sections()
    for old, new in retired().items():
        assert old in documented and "No longer written" in documented[old], old
        assert f"`{new}`" in documented[old], f"{old}: name {new} in its section"


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
