"""A Class D Heroes fight at the table, and the hand computations the tests check records with."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.client import TestClient

SHEET: dict[str, Any] = {
    "might": 2,
    "speed": 3,
    "spirit": 1,
    "health": 60,
    "will": 5,
    "gear": [{"name": "Sling", "attack": "ranged", "damage": 1}],
    "powers": [{"name": "Mind spike", "attack": "mental", "damage": 2}],
}


def villain_sheet(rank: str, **stats: Any) -> dict[str, Any]:
    return {"might": 1, "speed": 1, "spirit": 1, "health": 30, "will": 0, "rank": rank} | stats


class Fight:
    """A classd campaign, one open scene, a hero of the player's and helpers for the endpoints."""

    def __init__(self, client: TestClient, settings: dict[str, Any] | None = None) -> None:
        self.t = Table(client, "classd", settings)
        self.scene = self.t.scene()
        self.hero = self.character("Nova", "hero", SHEET, self.t.player)

    @property
    def base(self) -> str:
        return f"/v1/scenes/{self.scene}/classd"

    def character(
        self, name: str, side: str, sheet: dict[str, Any], owner: str | None = None
    ) -> str:
        body = {"name": name, "side": side, "sheet": sheet}
        return str(self.t.post(f"/v1/campaigns/{self.t.campaign_id}/characters", body, owner)["id"])

    def villain(self, name: str = "Goon", rank: str = "henchman", **stats: Any) -> str:
        return self.character(name, "villain", villain_sheet(rank, **stats))

    def post(self, what: str, body: Any = None, token: str | None = None) -> Any:
        return self.t.client.post(
            f"{self.base}/{what}", json=body, headers=bearer(token or self.t.gm)
        )

    def ok(self, what: str, body: Any = None, token: str | None = None, status: int = 201) -> Any:
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        return response.json()

    def attack(
        self, target: str, attack_type: str = "melee", hero: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        token = extra.pop("token", None) or self.t.player
        body = {"attacker_id": hero or self.hero, "target_id": target, "attack_type": attack_type}
        return self.ok("attacks", body | extra, token)  # type: ignore[no-any-return]

    def villains_turn(self) -> dict[str, Any]:
        return self.ok("villains-turn", status=200)  # type: ignore[no-any-return]

    def next_round(self) -> None:
        self.t.post(f"/v1/scenes/{self.scene}/pages", status=200)

    def state(self) -> dict[str, Any]:
        return self.t.get(self.base)  # type: ignore[no-any-return]

    def resources(self, character: str) -> dict[str, int]:
        doc = self.t.get(f"/v1/characters/{character}")
        return {name: spec["current"] for name, spec in doc["resources"].items()}

    def status(self, character: str) -> str:
        return str(self.t.get(f"/v1/characters/{character}")["status"])

    def refused(self, what: str, body: Any, token: str | None, status: int) -> dict[str, Any]:
        before = self.t.position()
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        assert self.t.position() == before, "a refused command wrote something"
        return response.json()["error"]  # type: ignore[no-any-return]


def kept(roll: dict[str, Any], label: str) -> list[int]:
    return [f["face"] for f in roll["faces"] if f["label"] == label and f["kept"]]


def final_check_dice(roll: dict[str, Any]) -> list[dict[str, Any]]:
    """The check's dice of the last attempt (the ones no later die rerolled)."""
    rerolled = {f["reroll_of"] for f in roll["faces"] if f["reroll_of"] is not None}
    return [f for f in roll["faces"] if f["label"] == "check" and f["index"] not in rerolled]


def hand_check(roll: dict[str, Any], stat: int, difficulty: int, edge: int = 0) -> str:
    """CD-2..5 by hand: 2 kept dice (the best two under advantage, the worst under disadvantage)
    + stat against the difficulty; criticals on the two kept dice."""
    dice = final_check_dice(roll)
    assert len(dice) == 2 + abs(edge)
    faces = sorted((f["face"] for f in dice), reverse=edge >= 0)
    low, high = sorted(faces[:2])
    assert sorted(f["face"] for f in dice if f["kept"]) == [low, high]
    result = roll["result"]
    assert (result["kept"], result["total"], result["difficulty"]) == (
        [f["face"] for f in dice if f["kept"]],
        low + high + stat,
        difficulty,
    )
    if (low, high) == (6, 6):
        kind = "critical_success"
    elif (low, high) == (1, 1):
        kind = "critical_failure"
    else:
        kind = "success" if low + high + stat >= difficulty else "failure"
    assert result["outcome"] == kind
    return kind


def stage(t: Table, turn: str = "heroes", fleeing: bool = False) -> dict[str, str]:
    """A scene with the player's hero and a henchman, made once per table (for the access matrix,
    whose path and body are built separately)."""
    found: dict[str, str] | None = getattr(t, "classd_stage", None)
    if found is not None:
        return found
    scene = t.scene()
    characters = f"/v1/campaigns/{t.campaign_id}/characters"
    hero = t.post(characters, {"name": "Nova", "side": "hero", "sheet": SHEET}, t.player)["id"]
    villain = t.post(
        characters, {"name": "Goon", "side": "villain", "sheet": villain_sheet("henchman")}
    )["id"]
    if turn == "villains":
        t.post(f"/v1/scenes/{scene}/classd/villains-turn", status=200)
    if fleeing:
        t.post(f"/v1/scenes/{scene}/classd/actions", {"character_id": villain, "action": "flee"})
    found = {"scene": scene, "hero": hero, "villain": villain}
    t.classd_stage = found  # type: ignore[attr-defined]
    return found
