"""An nWoD micro firefight at the table, and the hand computations the tests check records with."""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.client import TestClient

# VIO 4, DEF 2 (+ no shield), ARM 2, Health 8, Will Power 3, INT 3.
SHOOTER: dict[str, Any] = {
    "affinities": {"INT": 3, "ELG": 2, "VIO": 4},
    "health": 8,
    "will_power": 3,
    "defense": 2,
    "speed": 5,
    "merits": [
        {"name": "Marksman", "text": "+1d10 on rifle shots.", "dice_modifier": 1},
        {"name": "Ex-cop", "text": "Knows the precinct."},
    ],
    "weapons": [
        {
            "name": "Assault rifle",
            "damage_class": "professional",
            "magazine": 30,
            "spare_magazines": 20,
        },
        {"name": "Pistol", "damage_class": "common", "magazine": 3, "spare_magazines": 1},
        {"name": "Knife", "damage_class": "common"},
    ],
    "protection": [{"name": "Police vest", "kind": "ARM", "rating": 2}],
}


def thug(vio: int = 3, health: int = 6, defense: int = 1, **extra: Any) -> dict[str, Any]:
    """A GM's gunman: INT 1, VIO ``vio``, a club and a pistol; ``extra`` overrides the sheet."""
    return {
        "affinities": {"INT": 1, "ELG": 1, "VIO": vio},
        "health": health,
        "will_power": 1,
        "defense": defense,
        "speed": 4,
        "weapons": [
            {"name": "Club", "damage_class": "common"},
            {"name": "Pistol", "damage_class": "common", "magazine": 12, "spare_magazines": 2},
        ],
    } | extra


class Firefight:
    """An nwod-micro campaign, one open scene, the player's shooter and helpers for the endpoints."""

    def __init__(self, client: TestClient, settings: dict[str, Any] | None = None) -> None:
        self.t = Table(client, "nwod-micro", settings)
        self.scene = self.t.scene()
        self.hero = self.character("Vega", "hero", SHOOTER, self.t.player)

    @property
    def base(self) -> str:
        return f"/v1/scenes/{self.scene}/nwod"

    def character(
        self, name: str, side: str, sheet: dict[str, Any], owner: str | None = None
    ) -> str:
        body = {"name": name, "side": side, "sheet": sheet}
        return str(self.t.post(f"/v1/campaigns/{self.t.campaign_id}/characters", body, owner)["id"])

    def post(self, what: str, body: Any = None, token: str | None = None) -> Any:
        return self.t.client.post(
            f"{self.base}/{what}", json=body, headers=bearer(token or self.t.gm)
        )

    def ok(self, what: str, body: Any = None, token: str | None = None, status: int = 201) -> Any:
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        return response.json()

    def refused(
        self, what: str, body: Any, status: int, rule: str | None, token: str | None = None
    ) -> dict[str, Any]:
        before = self.t.position()
        response = self.post(what, body, token)
        assert response.status_code == status, response.text
        assert self.t.position() == before, "a refused command wrote something"
        error: dict[str, Any] = response.json()["error"]
        assert error.get("rule") == rule, error
        return error

    def join(self, character: str, token: str | None = None) -> dict[str, Any]:
        return self.ok("initiative", {"character_id": character}, token)  # type: ignore[no-any-return]

    def act(self, character: str, maneuver: str, token: str | None = None, **extra: Any) -> Any:
        body = {"character_id": character, "maneuver": maneuver} | extra
        return self.ok("actions", body, token)

    def attack(
        self, attacker: str, targets: list[str], token: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        body = {"attacker_id": attacker, "target_ids": targets} | extra
        return self.ok("attacks", body, token)  # type: ignore[no-any-return]

    def end_turn(self, character: str, token: str | None = None) -> Any:
        return self.ok("turn-ends", {"character_id": character}, token, status=200)

    def next_turn(self) -> None:
        self.t.post(f"/v1/scenes/{self.scene}/pages", status=200)

    def state(self) -> dict[str, Any]:
        return self.t.get(self.base)  # type: ignore[no-any-return]

    def roll(self, roll_id: str) -> dict[str, Any]:
        return self.t.get(f"/v1/rolls/{roll_id}")  # type: ignore[no-any-return]

    def resources(self, character: str) -> dict[str, int]:
        doc = self.t.get(f"/v1/characters/{character}")
        return {name: spec["current"] for name, spec in doc["resources"].items()}

    def fight_in_order(self, *characters: tuple[str, str | None]) -> None:
        """Everyone rolls Initiative; returns when all have joined (order is up to the dice)."""
        for character, token in characters:
            self.join(character, token)

    def until_current(self, character: str) -> None:
        """End the turns of everyone before ``character`` in Initiative order (turning the page
        when everyone has acted) until it is ``character``'s turn."""
        for _ in range(20):
            state = self.state()
            if state["current"] == character:
                return
            if state["current"] is None:
                self.next_turn()
            else:
                self.end_turn(state["current"])
        raise AssertionError("never reached")


def hand_successes(roll: dict[str, Any]) -> int:
    """NW-4/NW-5 by hand from the recorded faces: 8, 9, 10 succeed (each 10 adds a die); a chance
    roll's own die succeeds only on 10."""
    chance = roll["result"]["chance_roll"]
    total = 0
    for face in roll["faces"]:
        if not face["kept"]:
            continue
        if chance and face["exploded_from"] is None:
            total += face["face"] == 10
        else:
            total += face["face"] >= 8
    # every 10 exploded: one more die follows each 10
    tens = sum(1 for f in roll["faces"] if f["face"] == 10)
    extra = sum(1 for f in roll["faces"] if f["exploded_from"] is not None)
    assert extra == tens, "every 10 is rolled again (NW-4)"
    return total


def hand_pool(roll: dict[str, Any]) -> int:
    """NW-4/6/9/10: Affinity + modifiers - Defense + 3 per Will Power, from the request."""
    req = roll["request"]
    pool = (
        req["affinity_value"]
        + sum(m["dice"] for m in req["modifiers"])
        - req["target_defense"]
        + 3 * req["will_power"]
    )
    base_dice = sum(1 for f in roll["faces"] if f["exploded_from"] is None)
    chance = pool <= 0 or req["chance_only"]
    assert base_dice == (1 if chance else pool)
    assert roll["result"]["pool"] == pool and roll["result"]["chance_roll"] == chance
    return pool


def hand_damage(roll: dict[str, Any]) -> int:
    """NW-8/11: on a hit, successes + weapon damage - penalty - armour, not below 0."""
    req = roll["request"]
    successes = hand_successes(roll)
    assert roll["result"]["successes"] == successes
    if successes == 0:
        return 0
    return max(
        0, successes + max(0, req["damage_bonus"] - req["damage_penalty"]) - req["target_armor"]
    )


def mods(roll: dict[str, Any]) -> dict[str, int]:
    return {m["source"]: m["dice"] for m in roll["request"]["modifiers"]}


def stage(t: Table, suppressed: bool = False) -> dict[str, str]:
    """A firefight with the player's Vega (to act now) and the GM's Sentry, both with Initiative,
    and the player's Rook not yet in it; made once per table (for the access matrix).
    ``suppressed``: the Sentry's suppressive fire has pinned Vega (a VIO roll is pending)."""
    found: dict[str, str] | None = getattr(t, "nwod_stage", None)
    if found is not None:
        return found
    scene = t.scene()
    base = f"/v1/scenes/{scene}/nwod"
    characters = f"/v1/campaigns/{t.campaign_id}/characters"

    def character(name: str, side: str, token: str | None) -> str:
        body = {"name": name, "side": side, "sheet": SHOOTER}
        return str(t.post(characters, body, token)["id"])

    hero, foe = character("Vega", "hero", t.player), character("Sentry", "villain", None)
    rook = character("Rook", "hero", t.player)
    t.post(f"{base}/initiative", {"character_id": hero}, t.player)
    t.post(f"{base}/initiative", {"character_id": foe})

    def until(who: str) -> None:
        for _ in range(20):
            state = t.get(base)
            if state["current"] == who:
                return
            if state["current"] is None:
                t.post(f"/v1/scenes/{scene}/pages", status=200)
            else:
                t.post(f"{base}/turn-ends", {"character_id": state["current"]}, status=200)
        raise AssertionError("never reached")

    if suppressed:
        fire = {
            "attacker_id": foe,
            "target_ids": [hero],
            "weapon": "Assault rifle",
            "maneuver": "suppressive",
            "rounds": 20,
        }
        for _ in range(20):
            until(foe)
            if t.post(f"{base}/attacks", fire)["outcome"]["suppressed"]:
                break
            t.post(
                f"{base}/actions",
                {"character_id": foe, "maneuver": "reload", "weapon": "Assault rifle"},
            )
        else:
            raise AssertionError("20 rolls of 6d10 without a success")
    else:
        until(hero)
    found = {"scene": scene, "hero": hero, "foe": foe, "rook": rook}
    t.nwod_stage = found  # type: ignore[attr-defined]
    return found
