"""A client generated from the OpenAPI document has every operation of it.

openapi-python-client skips an endpoint, with only a warning, when it cannot resolve what the endpoint
refers to (two schemas of one name did that to `POST /v1/scenes/{scene_id}/rolls`). This test generates
a client from the app's document, as a client's author would, and checks that each operation got its
module (`api/<tag>/<operationId>.py`, which calls the operation's method and path) and that the
generator dropped no endpoint and no schema. The formatting hooks (ruff) are switched off: the code
is read here, never run, and formatting it would take most of the time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.api.support import openapi_document as document
from tests.unit.test_openapi_snapshot import operations

METHOD = re.compile(r'"method": "(\w+)"')
URL = re.compile(r'"url": "([^"]+)"')
# What the generator prints when it leaves out an endpoint or a model (its other warnings, such as a
# response of a content type it cannot type, JSON Lines, keep the endpoint).
DROPPED = ("Endpoint will not be generated", "Unable to parse schema")


def generate(doc: dict[str, Any], tmp: Path) -> tuple[str, Path]:
    """Generate a client of `doc` under `tmp`; the generator's output and the client's folder."""
    spec = tmp / "openapi.json"
    spec.write_text(json.dumps(doc))
    config = tmp / "config.yaml"
    config.write_text("post_hooks: []\n")
    client = tmp / "client"
    command = ["generate", "--path", str(spec)]
    command += ["--output-path", str(client), "--meta", "none", "--config", str(config)]
    # Its command line, run in this process (as `openapi-python-client generate ...` would, with the
    # same output): no new interpreter importing the generator.
    # Imported here: 0.4 s of every xdist worker's collection, for one test.
    from openapi_python_client import cli
    from typer.testing import CliRunner

    run = CliRunner().invoke(cli.app, command)
    assert run.exit_code == 0, f"openapi-python-client failed:\n{run.output}"
    return run.output, client


def generated_operations(client: Path) -> dict[str, str]:
    """Each generated endpoint module by the "METHOD path" it calls."""
    found = {}
    for module in sorted((client / "api").glob("*/*.py")):
        source = module.read_text()
        method, url = METHOD.search(source), URL.search(source)
        if method and url:
            found[f"{method.group(1).upper()} {url.group(1)}"] = module.stem
    return found


def test_a_generated_client_has_every_operation_of_the_document(tmp_path: Path) -> None:
    doc = document()
    output, client = generate(doc, tmp_path)
    dropped = [line for line in output.splitlines() if any(d in line for d in DROPPED)]
    assert not dropped, "openapi-python-client left parts of the API out:\n" + output
    generated = generated_operations(client)
    missing = [
        f"{key} ({operation['operationId']})"
        for key, operation in operations(doc).items()
        if generated.get(key) != operation["operationId"]
    ]
    assert not missing, (
        f"{len(missing)} operations have no module of that name in the generated client:\n  "
        + "\n  ".join(missing)
        + f"\nThe generator said:\n{output}"
    )
