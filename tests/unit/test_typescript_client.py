"""A TypeScript client generated from the OpenAPI document (openapi-typescript, pinned in
clients/typescript/package-lock.json) has every operation of it, by its operationId.

The test installs the generator as a client's author would (`npm ci`, in a copy of the folder:
the repository stays clean) and generates the types of the app's document; openapi-typescript
writes one `operations` entry per operationId, which the client's `paths` refer to, and the
TypeScript compiler (pinned beside it, the generator's peer) checks that the types compile."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.support import openapi_document as document
from tests.unit.test_openapi_snapshot import operations

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
OPERATION = re.compile(
    r"^    (\w+): \{$", re.MULTILINE
)  # an entry of `export interface operations`


def _npm(*args: str, cwd: Path) -> str:
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is missing: install Node.js 20 and npm to generate the TypeScript client")
    run = subprocess.run(
        [npm, *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, f"npm {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"
    return run.stdout + run.stderr


def _bin(name: str, *args: str, cwd: Path) -> None:
    """Run a tool `npm ci` installed, straight from node_modules/.bin: what `npm exec` would find,
    without its second of start-up."""
    run = subprocess.run(
        [str(cwd / "node_modules" / ".bin" / name), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, f"{name} {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"


def generated_operations(source: str) -> set[str]:
    start = source.index("export interface operations {")
    end = source.find("\n}\n", start)
    return set(OPERATION.findall(source[start:end]))


def test_a_generated_typescript_client_has_every_operation_of_the_document(tmp_path: Path) -> None:
    work = tmp_path / "typescript"
    work.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy(CLIENT / name, work / name)
    # --prefer-offline: the lock file pins every package's hash, so npm's cache needs no
    # revalidation against the registry.
    _npm("ci", "--no-audit", "--no-fund", "--prefer-offline", cwd=work)
    doc = document()
    (work / "openapi.json").write_text(json.dumps(doc))
    _bin("openapi-typescript", "openapi.json", "--output", "chronicle.d.ts", cwd=work)
    # the types compile (TypeScript, strict): a schema the generator mistranslated would not. The
    # file is declarations of types alone, so the ES5 library's globals (Record, Array...) are all it
    # can use; tsc's default library adds the DOM's declarations, and checking them took half of
    # tsc's time (4.7 s -> 2.1 s). A type needing a newer global would fail to compile, not pass.
    # (Not --skipLibCheck: that would skip the type errors of chronicle.d.ts, a declaration file.)
    _bin("tsc", "--noEmit", "--strict", "--lib", "es5", "chronicle.d.ts", cwd=work)
    source = (work / "chronicle.d.ts").read_text()
    wanted = {operation["operationId"] for operation in operations(doc).values()}
    missing = sorted(wanted - generated_operations(source))
    assert not missing, f"{len(missing)} operations missing from the TypeScript client: {missing}"
    # each path's method points at its operation, so a client call is typed by the operation
    for key, operation in operations(doc).items():
        method = key.split(" ", 1)[0].lower()
        assert f'{method}: operations["{operation["operationId"]}"];' in source, key
