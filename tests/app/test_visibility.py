"""Visibility in the application, on the in-memory store: the GM's secret roll and hidden
villain are chained and saved like any other, a player's export of them verifies their links,
and the GM's, every roll whole; a hidden character still plays its part in commands."""

from __future__ import annotations

from uuid import UUID

from domain.aggregates import Campaign
from domain.audit import verify_export
from domain.requests import CharacterCreate, CharacterVisibility, CombatantsJoin, RollCreate
from tests.app.table import Table

TRAIT = {"trait": "Agility", "difficulty": 2}


def secret_table() -> tuple[Table, UUID, UUID, UUID]:
    """A hero of Bo's, a villain the GM hides, a scene with a secret GM roll for the villain."""
    t = Table("wcbh")
    nova = t.character("Nova", owner=t.player)
    sheet = t.rules.example_sheets()["villain"]
    body = CharacterCreate(name="Vesper", side="villain", sheet=sheet, hidden=True)
    vesper = t.gm_runs("create_character", t.campaign_id, body).aggregate.id
    scene = t.scene()
    roll = RollCreate(check="trait", request=TRAIT, character_id=vesper, secret=True)
    secret = t.gm_runs("roll", scene, roll).aggregate.id
    return t, nova, vesper, secret


def campaign(t: Table) -> Campaign:
    found: Campaign = t.app.repository.get(t.campaign_id)
    return found


def test_a_hidden_villains_secret_roll_is_saved_with_the_campaigns_note_of_both() -> None:
    t, _, vesper, secret = secret_table()
    assert campaign(t).hidden_character_ids == [vesper]
    assert campaign(t).withheld_roll_ids == [secret]


def test_a_players_export_verifies_the_withheld_links_and_the_gms_recomputes_everything() -> None:
    t, _, _, secret = secret_table()
    t.gm_runs("close_scene", t.app.repository.get(secret).scene_id)
    players = verify_export(t.export(t.player))
    assert players.intact and players.rolls == 1 and players.recomputed == 0
    assert [p.roll_id for p in players.withheld] == [str(secret)]
    gms = verify_export(t.export())
    assert gms.intact and gms.recomputed == 1 and not gms.withheld


def test_after_the_reveal_and_the_show_a_players_export_recomputes_every_roll() -> None:
    t, _, vesper, secret = secret_table()
    t.gm_runs("reveal_roll", secret)
    t.gm_runs("set_character_visibility", vesper, CharacterVisibility(hidden=False))
    t.gm_runs("close_scene", t.app.repository.get(secret).scene_id)
    report = verify_export(t.export(t.player))
    assert report.intact and report.recomputed == 1 and not report.withheld


def test_a_hidden_villain_still_fights_a_players_hero() -> None:
    t, nova, vesper, secret = secret_table()
    scene: UUID = t.app.repository.get(secret).scene_id
    t.gm_runs("join_fight", scene, CombatantsJoin(character_ids=[nova, vesper]))
    roll = RollCreate(check="trait", request=TRAIT, character_id=nova)
    made = t.run(t.player, "roll", scene, roll)  # the order of action reads the hidden villain
    assert t.record(made)["character_id"] == str(nova)
