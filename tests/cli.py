"""The `chronicle` command run through its entry point in the test's process: what a user sees (exit
code, standard output and error) without a new interpreter per call, which cost about a second.
The README walk-through (tests/e2e) still runs the installed command."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from api.cli import main


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def chronicle(*argv: object) -> Ran:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return Ran(code, out.getvalue(), err.getvalue())
