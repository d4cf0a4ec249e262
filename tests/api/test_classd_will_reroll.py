"""CD-6 through POST /v1/rolls/{id}/follow-ups: a Will reroll is judged on the reroll before it.

The source (class-d-heroes.ru.txt, "Трата Воли"): an ordinary failure may be rerolled for 1 Will;
"if the new roll fails again" Will may go on being spent; a critical failure never. So a roll
whose reroll succeeded (or failed critically) takes no further Will reroll.
"""

from __future__ import annotations

from typing import Any

from tests.api.support import Table, bearer
from tests.client import TestClient

MAX_ROLLS = 400  # P(an ordinary failure, then a reroll that is not one) is about 0.3 a roll


class Hero:
    def __init__(self, client: TestClient) -> None:
        self.table = Table(client, "classd")
        self.id = self.table.character(self.table.player)
        self.scene = self.table.scene()

    def will(self) -> int:
        character = self.table.get(f"/v1/characters/{self.id}")
        return int(character["resources"]["will"]["current"])

    def top_up(self) -> None:
        missing = 5 - self.will()
        if missing:
            body = {"resource": "will", "change": missing, "reason": "a rest between tries"}
            self.table.post(f"/v1/characters/{self.id}/resources", body, status=200)

    def roll(self) -> dict[str, Any]:
        body = {
            "check": "stat",
            "character_id": self.id,
            "request": {"stat": "might", "difficulty": 9},
        }
        # a player's difficulty waits for the GM (player_modifiers): approved as declared
        return self.table.rolled(f"/v1/scenes/{self.scene}/rolls", body, self.table.player)

    def reroll(self, roll_id: str) -> Any:
        return self.table.client.post(
            f"/v1/rolls/{roll_id}/follow-ups",
            json={"follow_up": "will_reroll"},
            headers=bearer(self.table.player),
        )


def test_a_second_will_reroll_is_judged_on_the_first_reroll_cd_6(client: TestClient) -> None:
    hero = Hero(client)
    refused = repeated = 0
    for _ in range(MAX_ROLLS):
        if refused and repeated:
            break
        hero.top_up()
        roll = hero.roll()
        if roll["result"]["outcome"] != "failure":
            continue
        first = hero.reroll(roll["id"])
        assert first.status_code == 201, first.text
        before, will = hero.table.position(), hero.will()
        second = hero.reroll(roll["id"])
        if first.json()["result"]["outcome"] == "failure":
            # CD-6: it failed again, so Will may go on being spent.
            assert second.status_code == 201, second.text
            assert hero.will() == will - 1
            repeated += 1
        else:
            # The reroll succeeded or failed critically: nothing is left to reroll.
            assert second.status_code == 409, second.text
            error = second.json()["error"]
            assert (error["code"], error["rule"]) == ("follow_up_refused", "CD-6")
            assert (hero.table.position(), hero.will()) == (before, will)
            refused += 1
    assert refused and repeated, f"in {MAX_ROLLS} rolls: {refused} refused, {repeated} repeated"


def test_the_roll_lists_its_follow_ups_and_every_reroll_verifies_cd_6(client: TestClient) -> None:
    hero = Hero(client)
    for _ in range(MAX_ROLLS):
        hero.top_up()
        roll = hero.roll()
        if roll["result"]["outcome"] == "failure":
            break
    reroll = hero.reroll(roll["id"])
    assert reroll.status_code == 201, reroll.text
    position = reroll.json()["position"]
    hero.table.post(f"/v1/scenes/{hero.scene}/close", status=200)
    verified = hero.table.get(f"/v1/rolls/{reroll.json()['id']}/verification")
    assert verified["recomputed"] == {"revealed": True, "match": True, "problems": []}
    events = hero.table.get(
        f"/v1/campaigns/{hero.table.campaign_id}/events?after={max(0, position - 10)}"
        f"&min_position={position}"
    )["items"]
    noted = [e for e in events if e["type"] == "Roll.FollowedUp"]
    assert [(e["originator_id"], e["payload"]["follow_up_id"]) for e in noted] == [
        (roll["id"], reroll.json()["id"])
    ]
