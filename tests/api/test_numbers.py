"""Every number of a roll comes from the record: players name what is rolled, the sheet gives the
numbers, and a player's situational modifiers follow the campaign's `player_modifiers` (refused,
trusted, or a roll request the GM approves, changes or declines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.classd_support import SHEET, villain_sheet
from tests.api.nwod_support import Firefight
from tests.api.support import Table, bearer
from tests.api.test_nimble_encounter import Enc
from tests.api.test_wcbh_fight import attack_body, make, stage
from tests.cli import chronicle
from tests.client import TestClient


class Rolls:
    """A campaign under one player_modifiers policy, the player's hero and an open scene."""

    def __init__(self, client: TestClient, ruleset: str = "wcbh", policy: str | None = None):
        settings = None if policy is None else {"player_modifiers": policy}
        self.t = Table(client, ruleset, settings)
        self.hero = self.t.character(self.t.player)
        self.scene = self.t.scene()

    def attempt(self, check: str, request: dict[str, Any], token: str, **extra: Any) -> Any:
        body = {"check": check, "request": request, "character_id": self.hero, **extra}
        return self.t.client.post(
            f"/v1/scenes/{self.scene}/rolls", json=body, headers=bearer(token)
        )

    def refused(self, response: Any, field: str, status: int = 422) -> dict[str, Any]:
        assert response.status_code == status, response.text
        error: dict[str, Any] = response.json()["error"]
        assert error["field"] == field, error
        return error

    def requests(self) -> list[dict[str, Any]]:
        return self.t.get(f"/v1/scenes/{self.scene}/roll-requests")["items"]  # type: ignore[no-any-return]


def _unchanged(table: Table, before: int) -> None:
    assert table.position() == before, "a refused command wrote something"


# ---- the generic endpoint: sheet numbers and verb-built checks -----------------------------------


def test_a_players_rank_is_refused_and_the_sheet_rank_is_rolled_wcbh(client: TestClient) -> None:
    r = Rolls(client)
    before = r.t.position()
    error = r.refused(r.attempt("trait", {"pool": 60}, r.t.player), "request.pool")
    assert error["rule"] == "player_modifiers" and "sheet" in error["message"]
    _unchanged(r.t, before)
    roll = r.attempt("trait", {"trait": "Agility"}, r.t.player).json()
    agility = r.t.example_sheet["abilities"]["Agility"]
    assert roll["result"]["rank"] == agility and roll["modifiers"] == []
    assert roll["set_by_gm"] == []


def test_a_check_a_verb_builds_is_not_offered_to_players_wcbh_attack(client: TestClient) -> None:
    r = Rolls(client)
    example = next(
        c["example"] for c in r.t.get("/v1/rulesets/wcbh")["checks"] if c["name"] == "attack"
    )
    before = r.t.position()
    error = r.refused(r.attempt("attack", example, r.t.player), "check")
    assert "POST /v1/scenes/{id}/attacks" in error["message"]
    _unchanged(r.t, before)
    gm = r.attempt("attack", example, r.t.gm)  # the GM may roll anything
    assert gm.status_code == 201, gm.text


def test_the_record_lists_the_numbers_the_gm_set(client: TestClient) -> None:
    r = Rolls(client)
    raw = r.attempt("trait", {"pool": 5, "modifier": 1}, r.t.gm, character_id=None).json()
    assert raw["set_by_gm"] == ["pool"]
    [entry] = raw["modifiers"]
    assert (entry["field"], entry["value"], entry["role"], entry["rule"]) == (
        "modifier",
        1,
        "gm",
        "gm",
    )
    assert entry["by"] == raw["rolled_by"] == r.t.member_id(r.t.gm)


@pytest.mark.parametrize(
    ("ruleset", "check", "request_body", "field"),
    [
        ("classd", "stat", {"stat_value": 12, "difficulty": 8}, "request.stat_value"),
        ("nimble", "initiative", {"bonus": 30}, "request.bonus"),
        ("nimble", "save", {"stat": "DEX", "modifier": 40}, "request.modifier"),
        ("nwod-micro", "pool", {"affinity": "VIO", "damage_bonus": 4}, "request.damage_bonus"),
        ("nwod-micro", "pool", {"pool": 30}, "request.pool"),
    ],
)
def test_a_players_sheet_numbers_are_refused_in_every_ruleset(
    client: TestClient, ruleset: str, check: str, request_body: dict[str, Any], field: str
) -> None:
    r = Rolls(client, ruleset)
    before = r.t.position()
    error = r.refused(r.attempt(check, request_body, r.t.player), field)
    assert error["rule"] == "player_modifiers"
    _unchanged(r.t, before)


@pytest.mark.parametrize(
    ("ruleset", "check"),
    [
        ("classd", "hero_attack"),
        ("nimble", "attack"),
        ("nimble", "assess"),
        ("nwod-micro", "fight_roll"),
    ],
)
def test_checks_built_by_verbs_name_the_verb_in_every_ruleset(
    client: TestClient, ruleset: str, check: str
) -> None:
    r = Rolls(client, ruleset)
    described = r.t.get(f"/v1/rulesets/{ruleset}")["checks"]
    spec = next(c for c in described if c["name"] == check)
    error = r.refused(r.attempt(check, spec["example"], r.t.player), "check")
    assert spec["via"] and spec["via"] in error["message"]


def test_the_sheet_value_is_rolled_in_the_other_rulesets(client: TestClient) -> None:
    classd = Rolls(client, "classd", "trusted")
    stat = classd.attempt("stat", {"stat": "speed", "difficulty": 8}, classd.t.player).json()
    assert stat["result"]["stat_value"] == classd.t.example_sheet["speed"]
    nwod = Rolls(client, "nwod-micro")
    pool = nwod.attempt("pool", {"affinity": "VIO"}, nwod.t.player).json()
    assert pool["result"]["pool"] == nwod.t.example_sheet["affinities"]["VIO"]


# ---- the three policies ---------------------------------------------------------------------------


def test_refused_modifiers_are_422_naming_the_field(client: TestClient) -> None:
    r = Rolls(client, policy="refused")
    before = r.t.position()
    error = r.refused(
        r.attempt("trait", {"trait": "Agility", "modifier": 2}, r.t.player), "request.modifier"
    )
    assert error["rule"] == "player_modifiers"
    _unchanged(r.t, before)
    gm = r.attempt("trait", {"trait": "Agility", "modifier": 2}, r.t.gm)
    assert gm.status_code == 201  # the GM's own modifiers are no player's


def test_trusted_modifiers_are_applied_and_marked_as_the_players(client: TestClient) -> None:
    r = Rolls(client, policy="trusted")
    roll = r.attempt("trait", {"trait": "Agility", "difficulty": 2}, r.t.player).json()
    assert roll["result"]["difficulty"] == 2
    assert roll["modifiers"] == [
        {
            "field": "difficulty",
            "value": 2,
            "by": r.t.player_id,
            "role": "player",
            "rule": "player_modifiers:trusted",
        }
    ]


def test_gm_approval_rolls_nothing_until_the_gm_approves_with_a_change(
    client: TestClient, tmp_path: Path
) -> None:
    r = Rolls(client)  # gm_approval is the default
    request = {"trait": "Agility", "modifier": 3, "difficulty": 1}
    pending = r.attempt("trait", request, r.t.player, client_seed="bo-seed")
    assert pending.status_code == 202, pending.text
    asked = pending.json()
    assert (asked["status"], asked["modifiers"]) == ("pending", {"modifier": 3, "difficulty": 1})
    assert [q["id"] for q in r.requests()] == [asked["id"]]
    assert r.t.get(f"/v1/roll-requests/{asked['id']}")["result_id"] is None
    roll = r.t.approved(asked, modifier=1)
    assert roll["nonce"] == 0  # no dice were drawn while the request waited
    assert roll["rolled_by"] == r.t.player_id and roll["proof"]["client_seed"] == "bo-seed"
    assert (roll["request"]["modifier"], roll["request"]["difficulty"]) == (1, 1)
    entries = {m["field"]: m for m in roll["modifiers"]}
    assert (entries["modifier"]["role"], entries["modifier"]["rule"]) == ("gm", "gm")
    assert entries["difficulty"]["rule"] == "player_modifiers:gm_approval"
    assert entries["difficulty"]["by"] == r.t.player_id
    assert entries["difficulty"]["approved_by"] == entries["modifier"]["by"]
    decided = r.requests()[0]
    assert (decided["status"], decided["result_id"]) == ("approved", roll["id"])
    assert decided["approved_modifiers"] == {"modifier": 1, "difficulty": 1}
    # the export of the approved roll still verifies offline
    r.t.post(f"/v1/scenes/{r.scene}/close", status=200)
    export = r.t.client.get(f"/v1/campaigns/{r.t.campaign_id}/export", headers=bearer(r.t.observer))
    (tmp_path / "campaign.jsonl").write_bytes(export.content)
    verified = chronicle("verify", tmp_path / "campaign.jsonl")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "1 roll records, 1 recomputed" in verified.stdout


def test_a_decided_request_is_not_decided_again_and_players_may_not_decide(
    client: TestClient,
) -> None:
    r = Rolls(client)
    asked = r.attempt("trait", {"trait": "Agility", "modifier": 2}, r.t.player).json()
    path = f"/v1/roll-requests/{asked['id']}"
    for token in (r.t.player, r.t.other_player, r.t.observer):
        assert r.t.client.post(f"{path}/approve", json={}, headers=bearer(token)).status_code == 403
    before = r.t.position()
    unknown = r.t.client.post(
        f"{path}/approve", json={"modifiers": {"pool": 9}}, headers=bearer(r.t.gm)
    )
    r.refused(unknown, "modifiers.pool")
    _unchanged(r.t, before)
    declined = r.t.post(f"{path}/decline", {"note": "no cover there"}, status=200)
    assert (declined["status"], declined["note"], declined["result_id"]) == (
        "declined",
        "no cover there",
        None,
    )
    again = r.t.client.post(f"{path}/approve", json={}, headers=bearer(r.t.gm))
    assert again.status_code == 409 and again.json()["error"]["code"] == "roll_request_decided"
    approved = r.attempt("trait", {"trait": "Agility", "modifier": 2}, r.t.player).json()
    r.t.approved(approved)
    twice = r.t.client.post(
        f"/v1/roll-requests/{approved['id']}/approve", json={}, headers=bearer(r.t.gm)
    )
    assert twice.status_code == 409
    foreign = r.t.client.post(f"{path}/decline", json={}, headers=bearer(r.t.foreign))
    assert foreign.status_code == 404


# ---- the verbs: one policy for every system ------------------------------------------------------


def test_nimble_attack_steps_wait_for_the_gm_nb_11(client: TestClient) -> None:
    e = Enc(client)
    e.start()
    body = {"attacker_id": e.hero, "target_id": e.goblin, "attack": "Greataxe", "advantage": 2}
    asked = e.ok("attacks", body, e.t.player, status=202)
    assert (asked["command"], asked["modifiers"]) == ("nimble_attack", {"advantage": 2})
    assert e.state()["actions"][e.hero] == 3  # nothing happened yet
    roll = e.t.approved(asked, advantage=1)
    assert roll["request"]["advantage"] == 1 and roll["rolled_by"] == e.t.player_id
    assert roll["modifiers"][0]["rule"] == "gm"
    assert e.state()["actions"][e.hero] == 2


def test_nimble_encounter_grapple_steps_wait_for_the_gm_nb_11(client: TestClient) -> None:
    # The grapple is an attack (NB-24): the steps a player declares follow player_modifiers too.
    e = Enc(client)
    e.start()
    body = {"grappler_id": e.hero, "target_id": e.goblin, "size": "same", "advantage": 1}
    asked = e.ok("grapples", body, e.t.player, status=202)
    assert (asked["command"], asked["modifiers"]) == ("nimble_encounter_grapple", {"advantage": 1})
    assert e.state()["actions"][e.hero] == 3  # nothing happened yet
    roll = e.t.approved(asked, advantage=2)
    assert roll["request"]["advantage"] == 2 and roll["rolled_by"] == e.t.player_id
    assert e.state()["actions"][e.hero] == 2 and e.state()["attacks"][e.hero] == 1


def test_nwod_gm_modifiers_from_a_player_follow_the_policy_nw_17(client: TestClient) -> None:
    f = Firefight(client)
    before = f.t.position()
    body = {"character_id": f.hero, "affinity": "VIO", "modifier": 3}
    response = f.post("rolls", body, f.t.player)
    assert response.status_code == 202, response.text
    roll = f.t.approved(response.json())
    assert any(m["source"] == "situation (GM)" for m in roll["request"]["modifiers"])
    assert roll["modifiers"][0]["rule"] == "player_modifiers:gm_approval"
    assert f.t.position() > before


def test_classd_attack_advantages_refused_or_trusted_cd_5(client: TestClient) -> None:
    for policy, status in (("refused", 422), ("trusted", 201)):
        t = Table(client, "classd", {"player_modifiers": policy})
        scene = t.scene()
        chars = f"/v1/campaigns/{t.campaign_id}/characters"
        hero = t.post(chars, {"name": "Nova", "side": "hero", "sheet": SHEET}, t.player)["id"]
        villain = t.post(
            chars, {"name": "Goon", "side": "villain", "sheet": villain_sheet("henchman")}
        )["id"]
        body = {"attacker_id": hero, "target_id": villain, "attack_type": "melee", "advantage": 2}
        before = t.position()
        response = t.client.post(
            f"/v1/scenes/{scene}/classd/attacks", json=body, headers=bearer(t.player)
        )
        assert response.status_code == status, response.text
        if status == 422:
            assert response.json()["error"]["field"] == "advantage"
            _unchanged(t, before)
        else:
            roll = response.json()["roll"]
            assert roll["request"]["advantage"] == 2
            assert roll["modifiers"][0]["rule"] == "player_modifiers:trusted"


def test_wcbh_attack_modifier_from_a_player_waits_for_the_gm_wcbh_30(client: TestClient) -> None:
    t = Table(client)
    s = stage(t)
    villain = make(t, "Wall", "villain", t.example_sheet)
    body = attack_body(s["hero"], villain, modifier=2)
    asked = t.post(f"/v1/scenes/{s['scene']}/attacks", body, t.player, status=202)
    assert asked["modifiers"] == {"modifier": 2}
    roll = t.approved(asked)
    assert roll["check"] == "attack" and roll["request"]["modifier"] == 2
    assert roll["modifiers"][0]["rule"] == "player_modifiers:gm_approval"
    plain = t.client.post(
        f"/v1/scenes/{s['scene']}/attacks",
        json=attack_body(s["sidekick"], s["villain"]),
        headers=bearer(t.player),
    )
    assert plain.status_code == 201, plain.text  # no modifiers: rolled at once


def test_a_players_modifier_on_an_assisted_roll_waits_and_help_is_rolled_on_approval_wcbh_10(
    client: TestClient,
) -> None:
    r = Rolls(client)
    chars = f"/v1/campaigns/{r.t.campaign_id}/characters"
    bolt = {"name": "Bolt", "side": "hero", "sheet": r.t.example_sheet}
    helper = r.t.post(chars, bolt, r.t.player)["id"]
    body = {
        "character_id": r.hero,
        "request": {"trait": "Agility", "modifier": 1},
        "helpers": [{"character_id": helper, "trait": "Strength"}],
    }
    path = f"/v1/scenes/{r.scene}/assisted-rolls"
    asked = r.t.post(path, body, r.t.player, status=202)
    assert (asked["command"], asked["modifiers"]) == ("assisted_roll", {"modifier": 1})
    roll = r.t.approved(asked)
    assert roll["character_id"] == r.hero and roll["request"]["modifier"] >= 1
    assert roll["proof"]["sequence"] == 1  # the helper's roll came first, at approval
    assert roll["modifiers"] == [
        {
            "field": "modifier",
            "value": 1,
            "by": r.t.player_id,
            "role": "player",
            "rule": "player_modifiers:gm_approval",
            "approved_by": r.t.member_id(r.t.gm),
        }
    ]


def test_a_retried_request_with_its_idempotency_key_asks_the_gm_once(client: TestClient) -> None:
    r = Rolls(client)
    body = {
        "check": "trait",
        "request": {"trait": "Agility", "modifier": 1},
        "character_id": r.hero,
    }
    headers = {**bearer(r.t.player), "Idempotency-Key": "ask-once"}
    path = f"/v1/scenes/{r.scene}/rolls"
    first = r.t.client.post(path, json=body, headers=headers)
    again = r.t.client.post(path, json=body, headers=headers)
    assert (first.status_code, again.status_code) == (202, 202)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert [q["id"] for q in r.requests()] == [first.json()["id"]]


def test_an_approval_the_state_now_refuses_writes_nothing_and_the_request_waits(
    client: TestClient,
) -> None:
    r = Rolls(client)
    asked = r.attempt("trait", {"trait": "Agility", "modifier": 1}, r.t.player).json()
    r.t.post(f"/v1/scenes/{r.scene}/close", status=200)
    before = r.t.position()
    late = r.t.client.post(
        f"/v1/roll-requests/{asked['id']}/approve", json={}, headers=bearer(r.t.gm)
    )
    assert late.status_code == 409 and late.json()["error"]["code"] == "scene_closed"
    _unchanged(r.t, before)
    assert r.requests()[0]["status"] == "pending"
    declined = r.t.post(f"/v1/roll-requests/{asked['id']}/decline", {}, status=200)
    assert declined["status"] == "declined"


def test_a_group_checks_difficulty_from_a_player_follows_the_policy_wcbh_11(
    client: TestClient,
) -> None:
    """Every participant rolls at the group check's difficulty: a player who opens it declares
    that number (for other players' characters too), so it is no less a modifier than a roll's."""
    for policy in ("refused", "trusted"):
        r = Rolls(client, policy=policy)
        chars = f"/v1/campaigns/{r.t.campaign_id}/characters"
        bolt = {"name": "Bolt", "side": "hero", "sheet": r.t.example_sheet}
        other = r.t.post(chars, bolt, r.t.other_player)["id"]
        body = {"participants": [r.hero, other], "difficulty": 5}
        path = f"/v1/scenes/{r.scene}/group-checks"
        before = r.t.position()
        opened = r.t.client.post(path, json=body, headers=bearer(r.t.player))
        if policy == "refused":
            assert r.refused(opened, "difficulty")["rule"] == "player_modifiers"
            _unchanged(r.t, before)
            continue
        assert opened.status_code == 201, opened.text
        group = opened.json()["group_check"]["id"]
        roll = r.t.post(
            f"{path}/{group}/rolls",
            {"character_id": other, "request": {"trait": "Agility"}},
            r.t.other_player,
        )["roll"]
        assert roll["request"]["difficulty"] == 5
        assert roll["modifiers"] == [
            {
                "field": "difficulty",
                "value": 5,
                "by": r.t.player_id,  # the opener, not the roller
                "role": "player",
                "rule": "player_modifiers:trusted",
            }
        ]


def test_the_gm_s_group_check_difficulty_is_on_every_roll_s_record_wcbh_11(
    client: TestClient,
) -> None:
    r = Rolls(client)
    body = {"participants": [r.hero, r.t.character(r.t.player, "Bolt")], "difficulty": 2}
    path = f"/v1/scenes/{r.scene}/group-checks"
    group = r.t.post(path, body)["group_check"]["id"]
    roll = r.t.post(
        f"{path}/{group}/rolls",
        {"character_id": r.hero, "request": {"trait": "Agility"}},
        r.t.player,
    )["roll"]
    assert [(m["field"], m["value"], m["role"], m["rule"]) for m in roll["modifiers"]] == [
        ("difficulty", 2, "gm", "gm")
    ]


def test_a_player_grapples_through_the_running_encounter_not_around_it_nb_24(
    client: TestClient,
) -> None:
    """NB-10/NB-24: a grapple counts among the turn's attacks; the standalone verb takes that count
    (`attack_number`) from the request, so in a running encounter a player's goes through the
    encounter's verb, which reads it from the record (and spends the action)."""
    e = Enc(client)
    e.start()
    grab = {"scene_id": e.scene, "target_id": e.goblin, "size": "same", "attack_number": 1}
    before = e.t.position()
    around = e.t.client.post(
        f"/v1/characters/{e.hero}/nimble/grapples", json=grab, headers=bearer(e.t.player)
    )
    assert around.status_code == 409, around.text
    error = around.json()["error"]
    assert (error["code"], error["rule"], error["field"]) == (
        "encounter_running",
        "NB-24",
        "scene_id",
    )
    _unchanged(e.t, before)
    through = {"grappler_id": e.hero, "target_id": e.goblin, "size": "same"}
    assert e.ok("grapples", through, e.t.player)["actions"][e.hero] == 2
