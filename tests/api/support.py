"""A campaign at the table, built through the API: a GM, two players, an observer and some play."""

from __future__ import annotations

import functools
import json
from typing import Any
from uuid import UUID

from api.main import create_app
from domain import receipts
from domain.audit import Report, parse_export
from tests.client import TestClient


def openapi_document() -> dict[str, Any]:
    """The app's OpenAPI document (the same for every app and settings), a fresh copy per caller."""
    return json.loads(_openapi_json())  # type: ignore[no-any-return]


@functools.cache
def _openapi_json() -> str:
    # FastAPI takes about a second to build it, and the fuzzing, the malformed bodies, the bounds,
    # the snapshot, CORS and the generated clients all read it: one build per test process.
    return json.dumps(create_app().openapi())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()  # type: ignore[no-any-return]


class Table:
    """The GM's campaign with the player "Bo" joined. The other members, the example sheet and a
    foreign campaign are made on first use: building all of them for every test cost ~49 ms of CPU a
    table, and most tests need only the GM and the player. A test that counts what was written (log
    positions, members, entries) names the ones it needs before it counts."""

    def __init__(
        self, client: TestClient, ruleset: str = "wcbh", settings: dict[str, Any] | None = None
    ) -> None:
        self.client = client
        self.ruleset = ruleset
        body: dict[str, Any] = {"name": "Night City", "ruleset": ruleset}
        if settings is not None:
            body["settings"] = settings
        created = ok(client.post("/v1/campaigns", json=body), 201)
        self.campaign_id = created["id"]
        self.gm = created["gm_token"]
        self.player = self.join("Bo", "player")
        self.player_id = self.member_id(self.player)

    @functools.cached_property
    def example_sheet(self) -> dict[str, Any]:
        return ok(self.client.get(f"/v1/rulesets/{self.ruleset}"))["example_sheet"]

    @functools.cached_property
    def other_player(self) -> str:
        return self.join("Cy", "player")

    @functools.cached_property
    def observer(self) -> str:
        return self.join("Di", "observer")

    @functools.cached_property
    def foreign(self) -> str:
        """The GM token of another campaign, on the same ruleset."""
        body = {"name": "Elsewhere", "ruleset": self.ruleset}
        return str(ok(self.client.post("/v1/campaigns", json=body), 201)["gm_token"])

    def seated(self) -> Table:
        """Every member joined, in the order the table seats them (Bo, Cy, Di): for a test that
        lists, counts or orders the members or their entries."""
        self.other_player, self.observer  # noqa: B018  (each joins on first use)
        return self

    def member_id(self, token: str) -> str:
        return str(UUID(hex=token.split("_")[2]))

    def join(self, name: str, role: str) -> str:
        member = self.post(
            f"/v1/campaigns/{self.campaign_id}/members", {"name": name, "role": role}
        )
        return str(member["token"])

    def post(self, path: str, body: Any = None, token: str | None = None, status: int = 201) -> Any:
        return ok(self.client.post(path, json=body, headers=bearer(token or self.gm)), status)

    def rolled(self, path: str, body: Any, token: str) -> dict[str, Any]:
        """A player's roll: rolled at once, or (its modifiers waiting for the GM) approved by the
        GM as declared; the roll either way."""
        response = self.client.post(path, json=body, headers=bearer(token))
        if response.status_code == 202:
            return self.approved(response.json())
        return ok(response, 201)

    def approved(self, pending: dict[str, Any], **modifiers: Any) -> dict[str, Any]:
        """The GM approves a player's roll request (player_modifiers: gm_approval), changing
        `modifiers`; the roll it made."""
        assert pending["status"] == "pending", pending
        decided = self.post(
            f"/v1/roll-requests/{pending['id']}/approve", {"modifiers": modifiers}, status=200
        )
        return self.get(f"/v1/rolls/{decided['result_id']}")  # type: ignore[no-any-return]

    def get(self, path: str, token: str | None = None) -> Any:
        return ok(self.client.get(path, headers=bearer(token or self.gm)))

    def character(self, owner_token: str | None = None, name: str = "Nova") -> str:
        body = {"name": name, "side": "hero", "sheet": self.example_sheet}
        return str(
            self.post(f"/v1/campaigns/{self.campaign_id}/characters", body, owner_token)["id"]
        )

    def story(self) -> str:
        return str(
            self.post(f"/v1/campaigns/{self.campaign_id}/stories", {"title": "The Heist"})["id"]
        )

    def issue(self, story_id: str | None = None) -> str:
        story_id = story_id or self.story()
        return str(self.post(f"/v1/stories/{story_id}/issues", {"title": "Issue #1"})["id"])

    def scene(self, issue_id: str | None = None) -> str:
        issue_id = issue_id or self.issue()
        return str(self.post(f"/v1/issues/{issue_id}/scenes", {"title": "The vault"})["id"])

    def mission(self) -> str:
        return str(
            self.post(f"/v1/campaigns/{self.campaign_id}/missions", {"title": "Break in"})["id"]
        )

    def position(self) -> int:
        return int(ok(self.client.get("/health"))["position"])


def verified_export(table: Table, scene_id: str | None = None) -> Report:
    """The campaign's export as a player downloads it, checked as `chronicle verify --keys
    --require-revealed` checks it: signed trailer, chain, seeds, and every roll recomputed.
    `scene_id`: a scene still open, closed first so that its seed is revealed."""
    if scene_id is not None:
        table.post(f"/v1/scenes/{scene_id}/close", None, table.gm, status=200)
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.player)
    )
    assert response.status_code == 200, response.text
    lines = parse_export(response.text.splitlines(keepends=True))
    keys = receipts.parse_keys(ok(table.client.get("/v1/signing-keys")))
    report = receipts.audit_export(lines, keys, require_revealed=True)
    assert report.intact, [p.describe() for p in report.problems][:10]
    assert report.recomputed == report.rolls
    return report


def error_apart_from_its_request(response: Any) -> dict[str, Any]:
    """An error body without its `request_id` (every answer has its own), so that two answers
    can be compared for telling the same."""
    body = response.json()
    body["error"].pop("request_id", None)
    return body  # type: ignore[no-any-return]
