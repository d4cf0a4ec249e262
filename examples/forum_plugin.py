"""A forum plugin: the GM writes a roll command in a post, the plugin rolls it through Chronicle
and posts the roll's BBCode line in the thread (docs/front-ends.md, "A forum plugin").

    python examples/forum_plugin.py --api http://127.0.0.1:8000 --token "$GM_TOKEN" \
        "[roll]Quicksilver Kate: trait Agility difficulty 2[/roll]"

The command names a character, a check and the check's request as words: `trait Agility` fills
the check's first field (its required ones first), `difficulty 2` a named one (the ruleset's `request_schema`
says which fields there are and their types). Every roll of the scene not yet in the thread is
posted, oldest first (`--posted FILE` keeps the ids of those posted): a roll made elsewhere (the
web table, a chat bot) reaches the forum too.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from chronicle_http import ApiError, Chronicle

COMMAND = re.compile(r"\[roll\](?P<who>[^:\]]+):(?P<what>[^\]]+)\[/roll\]", re.IGNORECASE)


def request_of(words: list[str], schema: dict[str, Any]) -> dict[str, Any]:
    """`Agility difficulty 2` -> {"trait": "Agility", "difficulty": 2}, by the check's schema."""
    fields = schema.get("properties", {})
    # bare words fill the required fields, then the others, in the schema's order
    unfilled = [name for name in schema.get("required", []) if name in fields]
    unfilled += [name for name in fields if name not in unfilled]
    request: dict[str, Any] = {}
    while words:
        word = words.pop(0)
        if word in fields and words:
            name, value = word, words.pop(0)
        elif unfilled:
            name, value = unfilled[0], word
        else:
            raise ValueError(f"{word!r} is no field of the check")
        unfilled = [n for n in unfilled if n != name]
        numeric = "integer" in str(fields[name])  # an integer, or an integer or null
        request[name] = int(value) if numeric and value.lstrip("-").isdigit() else value
    return request


def roll_command(api: Chronicle, campaign: dict[str, Any], post: str) -> str | None:
    """Roll the post's command, if it has one; the new roll's id."""
    found = COMMAND.search(post)
    if found is None:
        return None
    check, *words = found["what"].split()
    ruleset = api.call("GET", f"/v1/rulesets/{campaign['ruleset']}")
    schema = next(c["request_schema"] for c in ruleset["checks"] if c["name"] == check)
    character = api.character_named(campaign["id"], found["who"].strip())
    scene = api.open_scene(campaign["id"])
    body = {"check": check, "character_id": character["id"], "request": request_of(words, schema)}
    roll = api.call("POST", f"/v1/scenes/{scene['id']}/rolls", body)
    return str(roll["id"])


def unposted(api: Chronicle, campaign_id: str, scene_id: str, posted: set[str]) -> list[str]:
    """The id of every roll of the scene the thread does not show yet, in chain order."""
    rolls = api.pages(f"/v1/campaigns/{campaign_id}/rolls", scene_id=scene_id)
    return [roll["id"] for roll in rolls if roll["id"] not in posted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--api", required=True, help="Chronicle's base URL")
    parser.add_argument("--token", required=True, help="the GM's bearer token")
    parser.add_argument(
        "--posted",
        type=Path,
        help="a file of the ids of rolls already in the thread (kept up to date)",
    )
    parser.add_argument("post", help="the GM's post, with a [roll]...[/roll] command")
    args = parser.parse_args(argv)
    api = Chronicle(args.api, args.token)
    try:
        campaign = api.call("GET", "/v1/me")["campaign"]
        roll_command(api, campaign, args.post)
        scene = api.open_scene(campaign["id"])
        posted = _read_posted(args.posted)
        for roll_id in unposted(api, campaign["id"], scene["id"], posted):
            line = api.call("GET", f"/v1/rolls/{roll_id}/text?format=bbcode")
            print(f"[quote=Chronicle]{line}[/quote]")
            _mark_posted(args.posted, roll_id)
    except (ApiError, LookupError, ValueError, StopIteration) as refused:
        print(f"[i]Chronicle could not roll that: {refused}[/i]", file=sys.stderr)
        return 1
    return 0


def _read_posted(path: Path | None) -> set[str]:
    return set(path.read_text().split()) if path is not None and path.exists() else set()


def _mark_posted(path: Path | None, roll_id: str) -> None:
    if path is not None:
        with path.open("a") as ids:
            ids.write(roll_id + "\n")


if __name__ == "__main__":
    sys.exit(main())
