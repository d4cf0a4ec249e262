"""The web table's helpers for the browser tests: a campaign set up through the public API as any
front end would, and a member's page joined to it and settled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.server import Server, loopback_client


@dataclass
class Campaign:
    """A campaign (WCBH unless named) with a player, the player's hero Nova, a story, a game Issue, an open scene and
    a mission, made through the API as any front end would."""

    api: httpx.Client
    gm: str
    player: str
    campaign_id: str
    character_id: str
    scene_id: str
    mission_id: str

    @classmethod
    def start(cls, to: str | httpx.Client, ruleset: str = "wcbh") -> Campaign:
        """The campaign made on the server at the URL `to` (or through the client `to`)."""
        api = loopback_client(base_url=to, timeout=10) if isinstance(to, str) else to
        sheet = api.get(f"/v1/rulesets/{ruleset}").raise_for_status().json()["example_sheet"]
        created = ok(api.post("/v1/campaigns", json={"name": "Night City", "ruleset": ruleset}))
        gm, campaign_id = created["gm_token"], created["id"]

        def post(path: str, body: dict[str, Any], token: str = gm) -> dict[str, Any]:
            return ok(api.post(path, json=body, headers={"Authorization": f"Bearer {token}"}))

        player = post(f"/v1/campaigns/{campaign_id}/members", {"name": "Bo", "role": "player"})
        hero = {"name": "Nova", "side": "hero", "sheet": sheet}
        character = post(f"/v1/campaigns/{campaign_id}/characters", hero, player["token"])
        story = post(f"/v1/campaigns/{campaign_id}/stories", {"title": "The Heist"})
        issue = post(f"/v1/stories/{story['id']}/issues", {"title": "Issue #1"})
        scene = post(f"/v1/issues/{issue['id']}/scenes", {"title": "The vault"})
        mission = post(f"/v1/campaigns/{campaign_id}/missions", {"title": "Break in"})
        return cls(
            api, gm, player["token"], campaign_id, character["id"], scene["id"], mission["id"]
        )

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """The GM's command."""
        return self.send("POST", path, body)

    def put(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.send("PUT", path, body)

    def send(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.gm}"}
        return ok(self.api.request(method, path, json=body, headers=headers))

    def roll_for_nova(self) -> dict[str, Any]:
        body = {
            "check": "trait",
            "character_id": self.character_id,
            "request": {"trait": "Agility"},
        }
        headers = {"Authorization": f"Bearer {self.player}"}
        return ok(self.api.post(f"/v1/scenes/{self.scene_id}/rolls", json=body, headers=headers))


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.is_success, response.text
    return response.json()  # type: ignore[no-any-return]


def joined(page: Page, server: Server, token: str) -> Page:
    """The table opened from a link carrying the token in its fragment, live on the stream, and
    settled: showing all it read (a click on a part being redrawn may be lost, as a person's is)."""
    page.goto(f"{server.url}/#token={token}")
    # A server's first /openapi.json takes it seconds to build (the table reads it on joining).
    expect(page.locator("#live")).to_have_text("● live", timeout=20_000)
    return settled(page)


def settled(page: Page) -> Page:
    expect(page.locator("html")).to_have_attribute("data-settled", "true")
    return page


def at_scene(page: Page) -> Page:
    page.get_by_role("button", name="The vault (open, page 1)").click()
    expect(page.locator("#view-title")).to_have_text("Scene: The vault")
    return page


def both_at_scene(server: Server, campaign: Campaign, new_page) -> tuple[Page, Page]:  # type: ignore[no-untyped-def]
    """The GM and the player, each in a browser context of their own, at the campaign's scene."""
    return tuple(
        at_scene(joined(new_page(), server, token)) for token in (campaign.gm, campaign.player)
    )  # type: ignore[return-value]
