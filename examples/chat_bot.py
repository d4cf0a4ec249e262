"""A chat bot: a player types `/roll trait Agility` in a channel, the bot rolls it through
Chronicle for the player's character and answers with the roll's plain-text line
(docs/front-ends.md, "A chat bot").

    python examples/chat_bot.py --api http://127.0.0.1:8000 --token "$PLAYER_TOKEN" \
        --character "Quicksilver Kate" < messages.txt

Each line on stdin is a chat message; the bot answers each `/roll <check> [words]` on stdout
(the words fill the check's request as in the forum plugin) and `/rolls` with the scene's last
rolls. A refusal is answered too, with the API's error code, as a chat bot would.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chronicle_http import ApiError, Chronicle
from forum_plugin import request_of

HELP = "commands: /roll <check> [words] (e.g. /roll trait Agility), /rolls"
LAST_ROLLS = 3


class Bot:
    def __init__(self, api: Chronicle, character_name: str) -> None:
        self.api = api
        self.campaign = api.call("GET", "/v1/me")["campaign"]
        self.character = api.character_named(self.campaign["id"], character_name)
        self.checks = {
            check["name"]: check["request_schema"]
            for check in api.call("GET", f"/v1/rulesets/{self.campaign['ruleset']}")["checks"]
        }

    def answer(self, message: str) -> str | None:
        words = message.split()
        if not words or not words[0].startswith("/"):
            return None  # chatter, not for the bot
        try:
            if words[0] == "/roll" and len(words) > 1 and words[1] in self.checks:
                return self.roll(words[1], words[2:])
            if words[0] == "/rolls":
                return self.last_rolls()
        except (ApiError, LookupError, ValueError) as refused:
            return f"Chronicle refused: {refused}"
        return HELP

    def roll(self, check: str, words: list[str]) -> str:
        scene = self.api.open_scene(self.campaign["id"])
        body: dict[str, Any] = {
            "check": check,
            "character_id": self.character["id"],
            "request": request_of(words, self.checks[check]),
        }
        made = self.api.call("POST", f"/v1/scenes/{scene['id']}/rolls", body)
        if made.get("status") == "pending":  # 202: the player's modifiers wait for the GM
            return "Your roll waits for the GM's approval."
        return str(self.api.call("GET", f"/v1/rolls/{made['id']}/text?format=plain"))

    def last_rolls(self) -> str:
        scene = self.api.open_scene(self.campaign["id"])
        path = f"/v1/campaigns/{self.campaign['id']}/rolls"
        rolls = list(self.api.pages(path, scene_id=scene["id"]))[-LAST_ROLLS:]
        lines = [self.api.call("GET", f"/v1/rolls/{r['id']}/text?format=plain") for r in rolls]
        return "\n".join(lines) or "No rolls in this scene yet."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--api", required=True, help="Chronicle's base URL")
    parser.add_argument("--token", required=True, help="the player's bearer token")
    parser.add_argument("--character", required=True, help="the player's character's name")
    args = parser.parse_args(argv)
    bot = Bot(Chronicle(args.api, args.token), args.character)
    for message in sys.stdin:
        reply = bot.answer(message.strip())
        if reply is not None:
            print(reply, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
