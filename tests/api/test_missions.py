"""Missions and their counters through the API: alarm (CD-23), rival progress (CD-24), the GM's own
counters (CD-25), rests (CD-22) and the one attempt (CD-21)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.support import Table, bearer, ok
from tests.client import TestClient


@pytest.fixture
def classd(client: TestClient) -> Table:
    return Table(client, "classd")


def counter(mission: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in mission["counters"] if c["name"] == name)


def change(
    table: Table, mission_id: str, name: str, amount: int, reason: str, code: str | None = None
) -> Any:
    body: dict[str, Any] = {"change": amount, "reason": reason}
    if code is not None:
        body["code"] = code
    return table.post(f"/v1/missions/{mission_id}/counters/{name}", body, status=200)


def refused(table: Table, path: str, body: Any, status: int) -> dict[str, Any]:
    """Post as the GM, expect a refusal, and check that nothing was written."""
    before = table.position()
    response = table.client.post(path, json=body, headers=bearer(table.gm))
    assert response.status_code == status, response.text
    assert table.position() == before, "a refused command wrote something"
    return response.json()["error"]  # type: ignore[no-any-return]


def damaged(table: Table, name: str, health: int, will: int) -> str:
    """A Class D hero (maxima 12 Health, 5 Will) taken down by the given amounts."""
    hero = table.character(name=name)
    for resource, amount in (("health", health), ("will", will)):
        if amount:
            table.post(
                f"/v1/characters/{hero}/resources",
                {"resource": resource, "change": -amount, "reason": "hurt"},
                status=200,
            )
    return hero


def levels(table: Table, character_id: str) -> tuple[int, int]:
    resources = table.get(f"/v1/characters/{character_id}")["resources"]
    return resources["health"]["current"], resources["will"]["current"]


# ---- CD-21: one attempt ----------------------------------------------------------------------------


def test_a_new_mission_shows_alarm_and_rival_progress_at_zero_with_no_rests_cd_21(
    table: Table,
) -> None:
    mission = table.get(f"/v1/missions/{table.mission()}")
    assert (mission["status"], mission["outcome"], mission["rest_count"], mission["rests"]) == (
        "active",
        None,
        0,
        [],
    )
    alarm, rivals = counter(mission, "alarm"), counter(mission, "rival_progress")
    assert (alarm["value"], alarm["maximum"], alarm["zone"], alarm["rule"]) == (
        0,
        10,
        "green",
        "CD-23",
    )
    assert [(z["name"], z["start"]) for z in alarm["zones"]] == [
        ("green", 0),
        ("yellow", 4),
        ("red", 7),
        ("critical", 10),
    ]
    assert (rivals["value"], rivals["maximum"], rivals["zone"], rivals["rule"]) == (
        0,
        10,
        None,
        "CD-24",
    )


def test_a_mission_ends_once_and_then_refuses_every_change_cd_21(table: Table) -> None:
    mission_id = table.mission()
    table.post(f"/v1/missions/{mission_id}/end", {"outcome": "aborted"}, status=200)
    attempts = [
        (f"/v1/missions/{mission_id}/end", {"outcome": "completed"}),
        (f"/v1/missions/{mission_id}/counters/alarm", {"change": 1, "reason": "noise"}),
        (f"/v1/missions/{mission_id}/counters/rival_progress", {"change": -1, "reason": "x"}),
        (f"/v1/missions/{mission_id}/counters", {"name": "catastrophe", "maximum": 5, "zones": []}),
        (f"/v1/missions/{mission_id}/rests", {"character_ids": []}),
    ]
    for path, body in attempts:
        error = refused(table, path, body, 409)
        assert (error["rule"], error["code"]) == ("CD-21", "mission_ended"), path
    mission = table.get(f"/v1/missions/{mission_id}")
    assert (mission["outcome"], mission["version"]) == ("aborted", 2)


def test_an_unknown_outcome_is_refused_cd_21(table: Table) -> None:
    error = refused(table, f"/v1/missions/{table.mission()}/end", {"outcome": "won"}, 422)
    assert error["field"] == "outcome"


# ---- CD-23: the alarm ----------------------------------------------------------------------------


def test_the_alarm_records_each_zone_it_crosses_both_ways_cd_23(table: Table) -> None:
    mission_id = table.mission()
    change(table, mission_id, "alarm", 3, "footsteps on the stairs", "noise")  # 3: still green
    change(table, mission_id, "alarm", 1, "a door slams", "noise")  # 4: yellow
    change(table, mission_id, "alarm", 3, "a guard runs off", "escaped_witnesses")  # 7: red
    mission = change(table, mission_id, "alarm", -6, "they think we fled", "heroes_believed_beaten")
    alarm = counter(mission, "alarm")
    assert (alarm["value"], alarm["zone"]) == (1, "green")
    assert [
        (h["kind"], h["value"], h.get("from_zone"), h.get("to_zone")) for h in alarm["history"]
    ] == [
        ("change", 3, None, None),
        ("change", 4, None, None),
        ("zone", 4, "green", "yellow"),
        ("change", 7, None, None),
        ("zone", 7, "yellow", "red"),
        ("change", 1, None, None),
        ("zone", 1, "red", "green"),
    ]
    assert alarm["history"][-2]["reason"] == "they think we fled"
    assert alarm["history"][-2]["code"] == "heroes_believed_beaten"


def test_the_alarm_is_clamped_and_records_the_amount_applied_cd_23(table: Table) -> None:
    mission_id = table.mission()
    mission = change(table, mission_id, "alarm", 15, "the wall comes down", "noise")
    alarm = counter(mission, "alarm")
    assert (alarm["value"], alarm["zone"]) == (10, "critical")
    assert alarm["history"][0] == {
        "kind": "change",
        "value": 10,
        "change": 15,
        "applied": 10,
        "clamped": True,
        "reason": "the wall comes down",
        "code": "noise",
        "from_zone": None,
        "to_zone": None,
    }
    assert alarm["history"][1]["to_zone"] == "critical"
    again = counter(change(table, mission_id, "alarm", 2, "gunfire", "noise"), "alarm")
    assert (again["value"], again["history"][-1]["applied"], again["history"][-1]["clamped"]) == (
        10,
        0,
        True,
    )
    assert [h["kind"] for h in again["history"]] == ["change", "zone", "change"]  # no zone crossed
    down = counter(
        change(table, mission_id, "alarm", -30, "two heroes captured", "heroes_captured"), "alarm"
    )
    assert (down["value"], down["history"][-2]["applied"], down["zone"]) == (0, -10, "green")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"change": 0, "reason": "nothing"}, "change"),
        ({"change": 1001, "reason": "too much"}, "change"),
        ({"change": 1, "reason": "   "}, "reason"),
        ({"change": 1, "reason": "?", "code": "gossip"}, "code"),
        ({"change": -1, "reason": "loud", "code": "noise"}, "change"),
        ({"change": 2, "reason": "caught", "code": "heroes_captured"}, "change"),
    ],
)
def test_a_bad_alarm_change_names_its_field_and_rule_and_writes_nothing_cd_23(
    table: Table, body: dict[str, Any], field: str
) -> None:
    mission_id = table.mission()
    error = refused(table, f"/v1/missions/{mission_id}/counters/alarm", body, 422)
    assert (error["field"], error["rule"]) == (field, "CD-23")
    assert table.get(f"/v1/missions/{mission_id}")["version"] == 1


def test_a_missing_reason_is_refused(table: Table) -> None:
    error = refused(table, f"/v1/missions/{table.mission()}/counters/alarm", {"change": 1}, 422)
    assert error["field"] == "reason"


def test_an_unknown_counter_is_not_found(table: Table) -> None:
    error = refused(
        table, f"/v1/missions/{table.mission()}/counters/doom", {"change": 1, "reason": "x"}, 404
    )
    assert error["field"] == "counter"


# ---- CD-24: rival progress -------------------------------------------------------------------------


def test_rival_progress_reaching_ten_ends_the_mission_lost_to_rivals_in_the_same_save_cd_24(
    table: Table,
) -> None:
    mission_id = table.mission()
    change(table, mission_id, "rival_progress", 6, "they took the lobby", "rival_success")
    change(table, mission_id, "rival_progress", -2, "their hacker got caught", "rival_failure")
    before = table.position()
    mission = change(
        table, mission_id, "rival_progress", 7, "they reached the vault", "rival_success"
    )
    rivals = counter(mission, "rival_progress")
    assert (rivals["value"], rivals["history"][-1]["applied"]) == (10, 6)
    assert (mission["status"], mission["outcome"]) == ("ended", "lost_to_rivals")
    log = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?after={before}&min_position={mission['position']}"
    )
    assert [e["type"] for e in log["items"]] == ["Mission.CounterChanged", "Mission.Ended"]
    assert log["items"][1]["payload"] == {"outcome": "lost_to_rivals"}
    error = refused(
        table,
        f"/v1/missions/{mission_id}/counters/rival_progress",
        {"change": -1, "reason": "x"},
        409,
    )
    assert error["rule"] == "CD-21"


def test_rival_progress_takes_only_its_own_codes_cd_24(table: Table) -> None:
    mission_id = table.mission()
    error = refused(
        table,
        f"/v1/missions/{mission_id}/counters/rival_progress",
        {"change": 1, "reason": "x", "code": "noise"},
        422,
    )
    assert (error["field"], error["rule"]) == ("code", "CD-24")
    # Rival progress may move the alarm too (GM-recorded): the alarm has a code for that, either way.
    assert (
        counter(
            change(table, mission_id, "alarm", -1, "rivals drew the guards off", "rivals"), "alarm"
        )["value"]
        == 0
    )


# ---- CD-25: the GM's own counters ------------------------------------------------------------------

CATASTROPHE = {
    "name": "catastrophe",
    "label": "Catastrophe",
    "maximum": 12,
    "zones": [
        {"name": "calm", "start": 0},
        {"name": "tense", "start": 5},
        {"name": "doom", "start": 12},
    ],
}


def test_a_gm_defined_counter_moves_like_the_alarm_with_its_own_zones_cd_25(table: Table) -> None:
    mission_id = table.mission()
    defined = table.post(f"/v1/missions/{mission_id}/counters", CATASTROPHE)
    catastrophe = counter(defined, "catastrophe")
    assert (
        catastrophe["kind"],
        catastrophe["rule"],
        catastrophe["value"],
        catastrophe["zone"],
    ) == (
        "custom",
        "CD-25",
        0,
        "calm",
    )
    raised = counter(change(table, mission_id, "catastrophe", 6, "the reactor hums"), "catastrophe")
    assert (raised["value"], raised["zone"]) == (6, "tense")
    topped = counter(change(table, mission_id, "catastrophe", 20, "meltdown"), "catastrophe")
    assert (topped["value"], topped["zone"], topped["history"][-2]["applied"]) == (12, "doom", 6)
    lowered = counter(
        change(table, mission_id, "catastrophe", -8, "coolant restored"), "catastrophe"
    )
    assert (lowered["value"], lowered["zone"]) == (4, "calm")
    assert [(h["from_zone"], h["to_zone"]) for h in lowered["history"] if h["kind"] == "zone"] == [
        ("calm", "tense"),
        ("tense", "doom"),
        ("doom", "calm"),
    ]
    # A GM counter with no zones never records a zone change, and has no reason codes.
    table.post(f"/v1/missions/{mission_id}/counters", {"name": "hostages", "maximum": 6})
    plain = counter(change(table, mission_id, "hostages", 2, "two freed"), "hostages")
    assert (plain["zone"], [h["kind"] for h in plain["history"]]) == (None, ["change"])
    error = refused(
        table,
        f"/v1/missions/{mission_id}/counters/hostages",
        {"change": 1, "reason": "x", "code": "noise"},
        422,
    )
    assert (error["field"], error["rule"]) == ("code", "CD-25")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "Catastrophe!"}, "name"),
        ({"name": ""}, "name"),
        ({"label": "  "}, "label"),
        ({"maximum": 0}, "maximum"),
        ({"maximum": 1001}, "maximum"),
        ({"zones": [{"name": "calm", "start": 1}]}, "zones[0].start"),
        (
            {"zones": [{"name": "calm", "start": 0}, {"name": "tense", "start": 0}]},
            "zones[1].start",
        ),
        (
            {"zones": [{"name": "calm", "start": 0}, {"name": "late", "start": 13}]},
            "zones[1].start",
        ),
        ({"zones": [{"name": "calm", "start": 0}, {"name": "Calm", "start": 3}]}, "zones[1].name"),
        ({"zones": [{"name": " ", "start": 0}]}, "zones[0].name"),
        ({"zones": [{"name": f"z{i}", "start": i} for i in range(11)]}, "zones"),
    ],
)
def test_a_bad_counter_definition_names_its_field_and_rule_and_writes_nothing_cd_25(
    table: Table, changes: dict[str, Any], field: str
) -> None:
    mission_id = table.mission()
    error = refused(table, f"/v1/missions/{mission_id}/counters", {**CATASTROPHE, **changes}, 422)
    assert (error["field"], error["rule"]) == (field, "CD-25")
    assert [c["name"] for c in table.get(f"/v1/missions/{mission_id}")["counters"]] == [
        "alarm",
        "rival_progress",
    ]


@pytest.mark.parametrize("name", ["alarm", "rival_progress", "catastrophe"])
def test_counter_names_are_unique_in_a_mission_cd_25(table: Table, name: str) -> None:
    mission_id = table.mission()
    table.post(f"/v1/missions/{mission_id}/counters", CATASTROPHE)
    error = refused(
        table, f"/v1/missions/{mission_id}/counters", {**CATASTROPHE, "name": name}, 409
    )
    assert (error["field"], error["rule"], error["code"]) == ("name", "CD-25", "counter_exists")


def test_counters_work_in_every_ruleset_s_campaign_cd_25(client: TestClient) -> None:
    for ruleset in ("classd", "nimble", "nwod-micro"):
        table = Table(client, ruleset)
        mission_id = table.mission()
        table.post(f"/v1/missions/{mission_id}/counters", CATASTROPHE)
        mission = change(table, mission_id, "catastrophe", 5, "tremors")
        mission = change(table, mission_id, "alarm", 4, "the drill", "noise")
        assert (counter(mission, "catastrophe")["zone"], counter(mission, "alarm")["zone"]) == (
            "tense",
            "yellow",
        )


# ---- CD-22: rests --------------------------------------------------------------------------------


def test_a_rest_restores_1d6_health_and_will_from_one_fair_roll_never_above_maxima_cd_22(
    classd: Table,
) -> None:
    scene_id = classd.scene()
    mission_id = classd.post(
        f"/v1/campaigns/{classd.campaign_id}/missions", {"title": "The lab", "scene_id": scene_id}
    )["id"]
    hurt = damaged(classd, "Nova", 9, 4)  # 3/12 Health, 1/5 Will: room for any d6 of Health
    nearly = damaged(classd, "Blink", 1, 0)  # 11/12 Health, 5/5 Will: at most 1 Health, no Will
    mission = classd.post(
        f"/v1/missions/{mission_id}/rests", {"character_ids": [hurt, nearly]}, status=200
    )
    assert mission["rest_count"] == 1
    rest = mission["rests"][0]
    assert (rest["number"], rest["scene_id"]) == (1, scene_id)
    roll = classd.get(f"/v1/rolls/{rest['roll_id']}")
    assert (roll["check"], roll["character_id"], roll["scene_id"]) == ("rest", None, scene_id)
    faces = [f["face"] for f in roll["faces"]]
    assert len(faces) == 4 and all(1 <= f <= 6 for f in faces)
    expected = {
        hurt: ((3, 12, faces[0]), (1, 5, faces[1])),
        nearly: ((11, 12, faces[2]), (5, 5, faces[3])),
    }
    for participant in rest["participants"]:
        (h_before, h_max, h_die), (w_before, w_max, w_die) = expected[participant["character_id"]]
        health, will = participant["health"], participant["will"]
        assert (health["die"], health["before"], health["max"]) == (h_die, h_before, h_max)
        assert health["after"] == min(h_before + h_die, h_max)
        assert (will["die"], will["before"], will["max"]) == (w_die, w_before, w_max)
        assert will["after"] == min(w_before + w_die, w_max)
        assert levels(classd, participant["character_id"]) == (health["after"], will["after"])
    assert levels(classd, nearly) == (12, 5)  # any die: never above the maxima


def test_rests_count_up_and_never_go_above_the_maxima_cd_22(classd: Table) -> None:
    scene_id = classd.scene()
    mission_id = classd.mission()
    hero = damaged(classd, "Nova", 2, 1)  # 10/12 Health, 4/5 Will
    health, will = 10, 4
    clamped = 0
    # Each die above the room left is cut at the maximum: Will has room for 1, then none, so from
    # the second rest at the latest every Will die is cut.
    for number in range(1, 7):
        mission = classd.post(
            f"/v1/missions/{mission_id}/rests",
            {"character_ids": [hero], "scene_id": scene_id},
            status=200,
        )
        assert mission["rest_count"] == number
        rested = mission["rests"][-1]["participants"][0]
        for level, spec, maximum in ((health, rested["health"], 12), (will, rested["will"], 5)):
            assert (spec["before"], spec["max"]) == (level, maximum)
            assert spec["after"] == min(level + spec["die"], maximum) <= maximum
            assert spec["gain"] == spec["after"] - level
        health, will = rested["health"]["after"], rested["will"]["after"]
        assert levels(classd, hero) == (health, will)
        clamped += rested["will"]["die"] > rested["will"]["gain"]
    assert clamped, "six rests never rolled more Will than the room left: the dice look broken"
    assert (health, will) == (12, 5)


def test_a_rest_without_participants_is_only_counted_in_any_ruleset_cd_22(table: Table) -> None:
    mission_id = table.mission()
    mission = table.post(f"/v1/missions/{mission_id}/rests", {}, status=200)
    assert (
        mission["rest_count"],
        mission["rests"][0]["roll_id"],
        mission["rests"][0]["scene_id"],
    ) == (1, None, None)
    assert (
        table.post(f"/v1/missions/{mission_id}/rests", {"character_ids": []}, status=200)[
            "rest_count"
        ]
        == 2
    )


def test_a_rest_with_participants_needs_a_ruleset_with_health_and_will_cd_22(table: Table) -> None:
    scene_id = table.scene()
    mission_id = table.mission()
    hero = table.character()
    error = refused(
        table,
        f"/v1/missions/{mission_id}/rests",
        {"character_ids": [hero], "scene_id": scene_id},
        422,
    )
    assert (error["field"], error["rule"]) == ("character_ids", "CD-22")


def test_a_rest_needs_an_open_scene_of_the_campaign_for_its_dice_cd_22(classd: Table) -> None:
    mission_id = classd.mission()
    hero = damaged(classd, "Nova", 3, 0)
    path = f"/v1/missions/{mission_id}/rests"
    # No scene named, none linked, none open (work issue #15: an open one would be found).
    error = refused(classd, path, {"character_ids": [hero]}, 409)
    assert (error["field"], error["rule"], error["code"]) == ("scene_id", "CD-22", "no_open_scene")
    foreign_scene = Table(classd.client, "classd").scene()
    error = refused(classd, path, {"character_ids": [hero], "scene_id": foreign_scene}, 422)
    assert (error["field"], error["rule"]) == ("scene_id", "CD-22")
    closed = classd.scene()
    classd.post(f"/v1/scenes/{closed}/close", status=200)
    error = refused(classd, path, {"character_ids": [hero], "scene_id": closed}, 409)
    assert (error["field"], error["rule"], error["code"]) == ("scene_id", "CD-22", "scene_closed")
    assert levels(classd, hero) == (9, 5)
    assert classd.get(f"/v1/missions/{mission_id}")["rest_count"] == 0


def test_rest_participants_are_distinct_characters_of_the_campaign_cd_22(classd: Table) -> None:
    scene_id = classd.scene()
    mission_id = classd.mission()
    hero = classd.character()
    stranger = Table(classd.client, "classd").character()
    path = f"/v1/missions/{mission_id}/rests"
    for ids in ([hero, hero], [hero, stranger], [hero] * 21):
        error = refused(classd, path, {"character_ids": ids, "scene_id": scene_id}, 422)
        assert (error["field"], error["rule"]) == ("character_ids", "CD-22")


def test_a_rest_roll_verifies_once_its_scene_is_closed_cd_22(classd: Table) -> None:
    scene_id = classd.scene()
    mission_id = classd.mission()
    hero = damaged(classd, "Nova", 5, 2)
    mission = classd.post(
        f"/v1/missions/{mission_id}/rests",
        {"character_ids": [hero], "scene_id": scene_id, "client_seed": "deep breaths"},
        status=200,
    )
    classd.post(f"/v1/scenes/{scene_id}/close", status=200)
    verified = classd.get(f"/v1/rolls/{mission['rests'][0]['roll_id']}/verification")
    assert verified["recomputed"]["match"] is True, verified


# ---- a whole mission -------------------------------------------------------------------------------


def test_a_scripted_mission_sneaks_in_rests_and_is_lost_to_rivals_cd_21_to_cd_25(
    classd: Table,
) -> None:
    story_id = classd.story()
    scene_id = classd.scene(classd.issue(story_id))
    mission_id = classd.post(
        f"/v1/campaigns/{classd.campaign_id}/missions",
        {"title": "Mutant lab", "scene_id": scene_id, "story_id": story_id},
    )["id"]
    nova = damaged(classd, "Nova", 6, 3)
    blink = damaged(classd, "Blink", 2, 0)
    # Sneaking in: noise takes the alarm through two zones.
    change(classd, mission_id, "alarm", 2, "a vent cover clatters", "noise")
    change(classd, mission_id, "alarm", 3, "Blink teleports into a shelf of glassware", "noise")
    change(classd, mission_id, "alarm", 2, "Nova breaks the lab door", "noise")
    classd.post(
        f"/v1/missions/{mission_id}/counters",
        {
            "name": "catastrophe",
            "label": "Catastrophe",
            "maximum": 6,
            "zones": [{"name": "stable", "start": 0}, {"name": "leaking", "start": 3}],
        },
    )
    change(classd, mission_id, "catastrophe", 3, "a mutant tank cracks")
    rested = classd.post(
        f"/v1/missions/{mission_id}/rests", {"character_ids": [nova, blink]}, status=200
    )
    change(classd, mission_id, "rival_progress", 5, "the Sentinels take the roof", "rival_success")
    change(classd, mission_id, "alarm", 1, "the Sentinels trip an alarm", "rivals")
    final = change(
        classd, mission_id, "rival_progress", 5, "the Sentinels free the hostages", "rival_success"
    )

    assert (final["status"], final["outcome"], final["rest_count"]) == (
        "ended",
        "lost_to_rivals",
        1,
    )
    alarm = counter(final, "alarm")
    assert (alarm["value"], alarm["zone"]) == (8, "red")
    assert [(h["from_zone"], h["to_zone"]) for h in alarm["history"] if h["kind"] == "zone"] == [
        ("green", "yellow"),
        ("yellow", "red"),
    ]
    assert counter(final, "catastrophe")["zone"] == "leaking"
    assert final["rests"] == rested["rests"]
    assert table_view(classd, f"/v1/missions/{mission_id}", final["position"]) == {
        **final,
        "position": None,
    }

    replay = classd.get(f"/v1/scenes/{scene_id}/replay?min_position={final['position']}")["steps"]
    texts = [s["text"] for s in replay if s["type"].startswith("Mission.")]
    nova_after = rested["rests"][0]["participants"][0]
    assert texts == [
        "Mission “Mutant lab” begins",
        "Mission “Mutant lab”: Alarm raised by 2 to 2/10 (noise: a vent cover clatters)",
        "Mission “Mutant lab”: Alarm raised by 3 to 5/10 (noise: Blink teleports into a shelf of glassware)",
        "Mission “Mutant lab”: Alarm moves from green into yellow at 5",
        "Mission “Mutant lab”: Alarm raised by 2 to 7/10 (noise: Nova breaks the lab door)",
        "Mission “Mutant lab”: Alarm moves from yellow into red at 7",
        "Mission “Mutant lab”: the GM defines the counter “Catastrophe” (0–6; stable from 0, leaking from 3)",
        "Mission “Mutant lab”: Catastrophe raised by 3 to 3/6 (a mutant tank cracks)",
        "Mission “Mutant lab”: Catastrophe moves from stable into leaking at 3",
        texts[9],
        "Mission “Mutant lab”: Rival progress raised by 5 to 5/10 (rival success: the Sentinels take the roof)",
        "Mission “Mutant lab”: Alarm raised by 1 to 8/10 (rivals: the Sentinels trip an alarm)",
        (
            "Mission “Mutant lab”: Rival progress raised by 5 to 10/10 "
            "(rival success: the Sentinels free the hostages)"
        ),
        "Mission “Mutant lab” ended: lost to rivals",
    ]
    assert texts[9].startswith("Mission “Mutant lab”: rest 1 (CD-22): Nova +")
    assert f"({nova_after['health']['after']}/12)" in texts[9] and "Blink +" in texts[9]
    assert any(s["type"] == "Roll.Recorded" and "rolled rest" in s["text"] for s in replay)
    story_steps = classd.get(f"/v1/stories/{story_id}/replay")["steps"]
    assert [s["text"] for s in story_steps if s["type"].startswith("Mission.")] == texts

    log = classd.get(f"/v1/campaigns/{classd.campaign_id}/events?limit=1000")["items"]
    types = [e["type"] for e in log if e["originator_id"] == mission_id]
    assert types == [
        "Mission.Created",
        *["Mission.CounterChanged"] * 2,
        "Mission.ZoneChanged",
        "Mission.CounterChanged",
        "Mission.ZoneChanged",
        "Mission.CounterDefined",
        "Mission.CounterChanged",
        "Mission.ZoneChanged",
        "Mission.Rested",
        *["Mission.CounterChanged"] * 3,
        "Mission.Ended",
    ]
    adjusted = [
        e
        for e in log
        if e["type"] == "Character.ResourceAdjusted" and "rest 1" in e["payload"]["reason"]
    ]
    assert {e["originator_id"] for e in adjusted} <= {nova, blink} and adjusted


def table_view(table: Table, path: str, position: int) -> dict[str, Any]:
    body = ok(table.client.get(f"{path}?min_position={position}", headers=bearer(table.gm)))
    body["position"] = None
    return body
