"""The README's promises, checked against a real `chronicle serve` (uvicorn) on each backend."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from api.settings import Settings
from tests.server import READY, running_server

README = Path(__file__).resolve().parents[2] / "README.md"
WALKTHROUGH = re.compile(
    r"<!-- walkthrough:start -->\n```bash\n(.*?)```\n<!-- walkthrough:end -->", re.DOTALL
)


def test_the_readme_walkthrough_works_as_written(settings: Settings) -> None:
    script = WALKTHROUGH.search(README.read_text())
    assert script is not None, "README lost its walk-through markers"
    # The walk-through calls .venv/bin/chronicle, as a newcomer's checkout has it.
    workdir = settings.data_dir / "newcomer"
    (workdir / ".venv" / "bin").mkdir(parents=True)
    (workdir / ".venv" / "bin" / "chronicle").symlink_to(Path(sys.executable).parent / "chronicle")
    with running_server(settings) as server:
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script.group(1)],
            cwd=workdir,
            env={**os.environ, "BASE": server.url},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr + result.stdout
        assert result.stdout.splitlines()[-2:] == ["409", "403"]
        assert '"status":"ok"' in result.stdout.splitlines()[0]
        assert '"recomputed":{"revealed":true,"match":true' in result.stdout
        assert "OK: the chain is intact" in result.stdout


def test_the_run_command_serves_health_on_sqlite_in_an_empty_directory(tmp_path: Path) -> None:
    chronicle = Path(sys.executable).parent / "chronicle"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    process = subprocess.Popen(
        [str(chronicle), "serve", "--port", "0"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        url = next(m.group(1) for line in process.stderr if (m := READY.search(line)))
        health = httpx.get(f"{url}/health").json()
        assert (health["status"], health["backend"]) == ("ok", "sqlite")
        assert (tmp_path / "chronicle.sqlite3").exists()
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.parametrize("flag", ["--database-url=mysql://x/y", "--port=-1"])
def test_a_bad_setting_is_refused_with_a_clear_message(flag: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", flag],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "bad setting" in result.stderr
