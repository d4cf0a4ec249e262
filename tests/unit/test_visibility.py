"""The visibility rule on log entries and replay steps (pure: no store, no API)."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from api.visibility import scrub
from domain.visibility import WITHHELD_ENTRY, WITHHELD_TEXT, Visibility, withheld_record

VILLAIN, HERO, SECRET, OPEN = (str(uuid4()) for _ in range(4))
PLAYER_VIEW = Visibility(hidden=frozenset({VILLAIN}), withheld=frozenset({SECRET}))


def entry(kind: str, originator: str, payload: dict[str, Any], version: int = 2) -> dict[str, Any]:
    return {
        "position": 7,
        "type": kind,
        "originator_id": originator,
        "originator_version": version,
        "timestamp": "2026-12-01T17:00:00+00:00",
        "actor": str(uuid4()),
        "payload": payload,
    }


def record(roll_id: str, character_id: str | None = None, **more: Any) -> dict[str, Any]:
    return {
        "format": 2,
        "campaign_id": "c",
        "scene_id": "s",
        "roll_id": roll_id,
        "nonce": 1,
        "commitment": "c0ffee",
        "sequence": 3,
        "prev_hash": "aa",
        "hash": "bb",
        "client_seed": "mine",
        "character_id": character_id,
        "faces": [{"face": 6}],
        "result": {"total": 6},
        **more,
    }


def test_the_gm_sees_every_entry_whole() -> None:
    gm = Visibility()
    hidden = entry("Character.Created", VILLAIN, {"name": "Vesper"})
    assert gm.whole and gm.entry(hidden) == hidden


def test_a_hidden_characters_own_events_are_left_out() -> None:
    assert PLAYER_VIEW.entry(entry("Character.Created", VILLAIN, {"name": "Vesper"})) is None


def test_an_event_of_a_visible_aggregate_naming_a_hidden_character_keeps_only_its_place() -> None:
    enrolled = entry("Campaign.CharacterEnrolled", "campaign", {"character_id": VILLAIN}, 5)
    seen = PLAYER_VIEW.entry(enrolled)
    assert seen is not None
    assert (seen["type"], seen["payload"], seen["actor"]) == (WITHHELD_ENTRY, {}, None)
    assert (seen["originator_id"], seen["originator_version"]) == ("campaign", 5)


def test_a_secret_rolls_record_keeps_its_chain_fields_only() -> None:
    recorded = entry("Roll.Recorded", SECRET, {"campaign_id": "c", "record": record(SECRET)})
    seen = PLAYER_VIEW.entry(recorded)
    assert seen is not None and seen["payload"]["withheld"] is True
    kept = seen["payload"]["record"]
    assert kept == withheld_record(record(SECRET))
    assert {"faces", "result", "client_seed", "character_id"}.isdisjoint(kept)
    assert (kept["hash"], kept["prev_hash"], kept["commitment"]) == ("bb", "aa", "c0ffee")


def test_a_follow_up_of_a_secret_roll_and_a_hidden_characters_roll_are_withheld_too() -> None:
    assert PLAYER_VIEW.withholds(record(str(uuid4()), follow_up_of=SECRET))
    assert PLAYER_VIEW.withholds(record(str(uuid4()), character_id=VILLAIN))
    assert not PLAYER_VIEW.withholds(record(OPEN, character_id=HERO))


def test_the_chains_own_entries_stay_whole_so_the_secret_roll_is_counted() -> None:
    linked = entry("RollChain.Linked", "chain", {"sequence": 3, "roll_id": SECRET, "hash": "bb"})
    assert PLAYER_VIEW.entry(linked) == linked


def test_an_id_inside_a_text_counts_as_naming_it() -> None:
    spent = entry("Character.ResourceSpent", HERO, {"reason": f"Resolve on roll {SECRET}"})
    seen = PLAYER_VIEW.entry(spent)
    assert seen is not None and seen["type"] == WITHHELD_ENTRY


def test_a_replay_tells_a_withheld_roll_without_contents_and_drops_the_rest() -> None:
    steps = [
        {"type": "Roll.Recorded", "text": "Nova rolled", "changes": {"x": [1, 2]}, "about": [OPEN]},
        {
            "type": "Roll.Recorded",
            "text": "GM rolled 6",
            "changes": {"x": [1, 6]},
            "about": [SECRET],
        },
        {"type": "Character.Created", "text": "Vesper", "changes": {}, "about": [VILLAIN]},
        {"type": "Scene.PageAdvanced", "text": "Page 2", "changes": {}},  # from before `about`
    ]
    seen = PLAYER_VIEW.steps(steps)
    assert [s["text"] for s in seen] == ["Nova rolled", WITHHELD_TEXT, "Page 2"]
    assert seen[1]["changes"] == {}


def test_scrub_drops_items_and_keys_naming_a_hidden_character_and_nulls_fields() -> None:
    body = {
        "combatants": [HERO, VILLAIN],
        "order_of_action": [[HERO, VILLAIN]],
        "fighters": [{"character_id": VILLAIN, "hp": 3}, {"character_id": HERO, "hp": 5}],
        "by_character": {VILLAIN: 1, HERO: 2},
        "target_id": VILLAIN,
        "text": "unchanged",
    }
    assert scrub(body, frozenset({VILLAIN})) == {
        "combatants": [HERO],
        "order_of_action": [[HERO]],
        "fighters": [{"character_id": HERO, "hp": 5}],
        "by_character": {HERO: 2},
        "target_id": None,
        "text": "unchanged",
    }


def test_a_withheld_entry_keeps_nothing_added_beside_its_payload() -> None:
    recorded = entry("Roll.Recorded", SECRET, {"campaign_id": "c", "record": record(SECRET)})
    enrolled = entry("Campaign.CharacterEnrolled", "campaign", {"character_id": VILLAIN})
    for written in (recorded, enrolled):
        seen = PLAYER_VIEW.entry({**written, "text": "The GM rolled 6 for Vesper"})
        assert seen is not None and seen["text"] is None  # null: what was added is gone


def test_a_roll_at_a_hidden_character_is_withheld_like_its_own() -> None:
    attack = record(OPEN, character_id=HERO, request={"target_id": VILLAIN})
    assert PLAYER_VIEW.withholds(attack)
