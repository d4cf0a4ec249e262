"""The little HTTP the examples need, on the standard library alone (a plugin's host may offer no
more): JSON calls with a bearer token, the errors' one shape, and the open scene found by lists."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class ApiError(Exception):
    """The API refused: its `error.code` and message (docs/front-ends.md, "Errors")."""

    def __init__(self, status: int, error: dict[str, Any]) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.status = status
        self.code = error.get("code")


class Chronicle:
    def __init__(self, api: str, token: str) -> None:
        self.api = api.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """The answer's JSON (or text, for a text/plain answer); ApiError on a 4xx or 5xx."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read().decode()
                is_json = answer.headers.get_content_type() == "application/json"
        except urllib.error.HTTPError as refused:
            raise ApiError(refused.code, json.loads(refused.read())["error"]) from None
        return json.loads(raw) if is_json else raw

    def pages(self, path: str, **query: str) -> Iterator[dict[str, Any]]:
        """Every item of a list, page after page (`after` = the last page's `next_after`)."""
        after: int | None = 0
        while after is not None:
            params = "&".join(f"{k}={v}" for k, v in {**query, "after": str(after)}.items())
            page = self.call("GET", f"{path}?{params}")
            yield from page["items"]
            after = page["next_after"]

    def open_scene(self, campaign_id: str) -> dict[str, Any]:
        """The campaign's open scene: its running story's running game Issue's open scene."""
        for story in self.pages(f"/v1/campaigns/{campaign_id}/stories", status="running"):
            for issue in self.pages(f"/v1/stories/{story['id']}/issues", status="running"):
                for scene in self.pages(f"/v1/issues/{issue['id']}/scenes", status="open"):
                    return scene
        raise LookupError("no scene is open: the GM opens one first")

    def character_named(self, campaign_id: str, name: str) -> dict[str, Any]:
        for character in self.pages(f"/v1/campaigns/{campaign_id}/characters"):
            if character["name"].casefold() == name.casefold():
                return character
        raise LookupError(f"no character named {name!r}")
