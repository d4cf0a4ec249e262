"""The forum-plugin and chat-bot examples (examples/) run as their readers would run them, against
a real `chronicle serve`: the GM's roll command in a forum post comes back as the roll's BBCode
line, and a player's `/roll trait Agility` in chat as the roll's plain line."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import store_settings
from tests.server import Server, loopback_client, serving_here

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HERO = "Quicksilver Kate"


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # the examples speak HTTP only: one server for the module, a campaign of its own per test
    data_dir = tmp_path_factory.mktemp("examples")
    with store_settings(backend, data_dir) as settings, serving_here(settings) as value:
        yield value


@pytest.fixture
def table(server: Server) -> Iterator[dict[str, Any]]:
    """A served WCBH campaign with a player's hero in an open scene: its url and tokens."""
    with loopback_client(base_url=server.url) as http:

        def post(path: str, body: dict[str, Any], token: str | None = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = http.post(path, json=body, headers=headers)
            assert answer.status_code == 201, answer.text
            return answer.json()

        campaign = post("/v1/campaigns", {"name": "Night City", "ruleset": "wcbh"})
        gm, base = campaign["gm_token"], f"/v1/campaigns/{campaign['id']}"
        player = post(f"{base}/members", {"name": "Bo", "role": "player"}, gm)
        sheet = http.get("/v1/rulesets/wcbh").json()["example_sheet"]
        body = {"name": HERO, "side": "hero", "sheet": sheet, "owner_member_id": player["id"]}
        post(f"{base}/characters", body, gm)
        story = post(f"{base}/stories", {"title": "The Null Protocol"}, gm)
        issue = post(f"/v1/stories/{story['id']}/issues", {"title": "#1"}, gm)
        post(f"/v1/issues/{issue['id']}/scenes", {"title": "Rooftops"}, gm)
        yield {"url": server.url, "gm": gm, "player": player["token"]}


def run(script: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_forum_plugin_posts_the_bbcode_of_the_gms_roll(
    table: dict[str, Any], tmp_path: Path
) -> None:
    posted = tmp_path / "posted.txt"
    plugin = [
        "forum_plugin.py",
        "--api",
        table["url"],
        "--token",
        table["gm"],
        "--posted",
        str(posted),
    ]
    post = f"Kate jumps! [roll]{HERO}: trait Agility difficulty 2[/roll]"
    done = run(*plugin, post)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith(f"[quote=Chronicle][b]{HERO}[/b]"), lines[0]
    assert "Agility" in lines[0] and "[url=" in lines[0] and lines[0].endswith("[/quote]")
    # the next post: only the new roll reaches the thread, the first one is posted already
    again = run(*plugin, f"[roll]{HERO}: trait Stealth[/roll]")
    assert again.returncode == 0, again.stderr
    assert len(again.stdout.splitlines()) == 1 and "Stealth" in again.stdout, again.stdout
    assert len(posted.read_text().split()) == 2


def test_the_forum_plugin_answers_a_refusal_with_its_reason(table: dict[str, Any]) -> None:
    post = "[roll]Nobody: trait Agility[/roll]"
    done = run("forum_plugin.py", "--api", table["url"], "--token", table["gm"], post)
    assert done.returncode == 1
    assert "no character named 'Nobody'" in done.stderr
    assert done.stdout == ""


def test_the_chat_bot_answers_a_roll_command_with_the_plain_line(table: dict[str, Any]) -> None:
    chat = (
        "hello all\n/roll trait Agility\n/roll trait NoSuchTrait\n/rolls\n/dance\n"
        "/roll trait Agility difficulty 2\n"  # a player's modifier waits for the GM
    )
    args = ["--api", table["url"], "--token", table["player"], "--character", HERO]
    done = run("chat_bot.py", *args, stdin=chat)
    assert done.returncode == 0, done.stderr
    roll, refused, last, help_text, waiting = done.stdout.strip().split("\n")
    assert roll.startswith(HERO) and "Agility" in roll, roll
    assert refused.startswith("Chronicle refused: "), refused
    assert last == roll  # the scene's rolls: the one roll made
    assert help_text.startswith("commands: /roll")
    assert waiting == "Your roll waits for the GM's approval."
