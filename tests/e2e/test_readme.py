"""The README's promises, checked against a real `chronicle serve` (uvicorn) on each backend."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from api.settings import Settings
from tests.cli import chronicle
from tests.server import READY, loopback_client, running_server

README = Path(__file__).resolve().parents[2] / "README.md"
WALKTHROUGH = re.compile(
    r"<!-- walkthrough:start -->\n```bash\n(.*?)```\n<!-- walkthrough:end -->", re.DOTALL
)


def test_the_readme_walkthrough_works_as_written(backend: str, settings: Settings) -> None:
    script = WALKTHROUGH.search(README.read_text())
    assert script is not None, "README lost its walk-through markers"
    # The walk-through calls .venv/bin/chronicle, as a newcomer's checkout has it.
    workdir = settings.data_dir / "newcomer"
    (workdir / ".venv" / "bin").mkdir(parents=True)
    (workdir / ".venv" / "bin" / "chronicle").symlink_to(Path(sys.executable).parent / "chronicle")
    # On SQLite the server is the README's run command's: one server start less than two tests.
    if backend == "sqlite":
        server = the_run_command_serving_health_on_sqlite_in(settings.data_dir / "empty")
    else:
        server = running_url(settings)
    with server as url:
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script.group(1)],
            cwd=workdir,
            env={**os.environ, "BASE": url},
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


@contextmanager
def running_url(settings: Settings) -> Iterator[str]:
    with running_server(settings) as server:
        yield server.url


@contextmanager
def the_run_command_serving_health_on_sqlite_in(directory: Path) -> Iterator[str]:
    """`chronicle serve --port 0` as the README runs it: the installed command, no CHRONICLE_
    settings, an empty directory. Yields its URL once it serves /health on SQLite there."""
    directory.mkdir()
    chronicle = Path(sys.executable).parent / "chronicle"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    process = subprocess.Popen(
        [str(chronicle), "serve", "--port", "0"],
        cwd=directory,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        url = next((m.group(1) for line in process.stderr if (m := READY.search(line))), None)
        assert url is not None, "chronicle serve never said where it listens"
        # Keep draining its log so that the walk-through's requests never fill the pipe.
        threading.Thread(target=process.stderr.read, daemon=True).start()
        with loopback_client() as http:
            health = http.get(f"{url}/health").json()
        assert (health["status"], health["backend"]) == ("ok", "sqlite")
        assert (directory / "chronicle.sqlite3").exists()
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


BAD_SETTINGS = ["--database-url=mysql://x/y", "--port=-1"]


@pytest.mark.parametrize("flag", BAD_SETTINGS)
def test_a_bad_setting_is_refused_with_a_clear_message(
    flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Through the command's entry point in this process (tests/cli.py); the exit status of a real
    # process is the next test's.
    for name in [k for k in os.environ if k.startswith("CHRONICLE_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(uvicorn, "run", served_anyway)
    result = chronicle("serve", flag)
    assert result.returncode == 2
    assert "bad setting" in result.stderr


def served_anyway(*_: object, **__: object) -> None:
    raise AssertionError("chronicle serve started with a bad setting")


def test_the_command_exits_2_on_a_bad_setting(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", BAD_SETTINGS[0]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "bad setting" in result.stderr
