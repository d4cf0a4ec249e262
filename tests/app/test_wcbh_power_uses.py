"""A Power's uses per game Issue (WCBH-2, 17; issue #15), on the in-memory store: each roll of it
spends one, none left refuses before any dice, a new game Issue brings them back."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.aggregates import Character
from domain.errors import Conflict, InvalidInput
from domain.requests import IssueCreate, RollCreate
from systems.wcbh.requests import AreaAttackCreate, AreaTargetIn, FightAttackCreate
from tests.app.table import Table

BARRAGE = "uses:Missile Barrage"


def limited(t: Table) -> dict[str, Any]:
    sheet = copy.deepcopy(t.rules.example_sheet())
    sheet["powers"]["Missile Barrage"] = {"rank": 6, "can_attack": True, "uses_per_issue": 3}
    return sheet


def uses_left(t: Table, character_id: Any) -> int:
    character: Character = t.app.repository.get(character_id)
    return int(character.resources[BARRAGE])


def test_each_roll_of_a_limited_power_spends_one_of_its_uses_wcbh_2() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", sheet=limited(t), owner=t.player)
    null, goon = t.character("Dr. Null", "villain"), t.character("Goon", "villain")
    scene = t.scene()
    assert uses_left(t, nova) == 3  # a new character starts with them all
    roll = RollCreate(check="trait", request={"trait": "missile barrage"}, character_id=nova)
    record = t.record(t.run(t.player, "roll", scene, roll))
    assert record["request"]["power_use"] == BARRAGE and record["costs"] == {BARRAGE: 1}
    t.gm_runs("advance_page", scene)
    attack = FightAttackCreate(attacker_id=nova, target_id=null, trait="Missile Barrage")
    assert t.record(t.run(t.player, "attack", scene, attack))["costs"] == {BARRAGE: 1}
    t.gm_runs("advance_page", scene)
    area = AreaAttackCreate(
        attacker_id=nova, trait="Missile Barrage", targets=[AreaTargetIn(target_id=goon)]
    )
    t.run(t.player, "area_attack", scene, area)
    assert uses_left(t, nova) == 0
    t.gm_runs("advance_page", scene)
    before = t.position()
    with pytest.raises(Conflict) as refused:
        t.run(t.player, "roll", scene, roll)
    assert (refused.value.code, refused.value.rule, refused.value.field) == (
        "no_uses_left",
        "WCBH-2",
        "trait",
    )
    assert t.position() == before  # no dice, nothing written
    # other traits are not limited
    other = RollCreate(check="trait", request={"trait": "Agility"}, character_id=nova)
    assert t.record(t.run(t.player, "roll", scene, other))["request"]["power_use"] is None


def test_a_new_game_issue_brings_the_uses_back_wcbh_2() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", sheet=limited(t), owner=t.player)
    story = t.story()
    issue = t.issue(story)
    scene = t.scene(issue)
    roll = RollCreate(check="trait", request={"trait": "Missile Barrage"}, character_id=nova)
    t.run(t.player, "roll", scene, roll)
    assert uses_left(t, nova) == 2
    t.gm_runs("end_issue", issue)
    t.gm_runs("start_issue", story, IssueCreate(title="Issue #2"))
    assert uses_left(t, nova) == 3


def test_the_power_use_is_the_servers_to_fill_wcbh_2() -> None:
    t = Table("wcbh")
    nova = t.character("Nova", sheet=limited(t), owner=t.player)
    scene = t.scene()
    sent = {"trait": "Agility", "power_use": BARRAGE}
    with pytest.raises(InvalidInput) as refused:
        t.run(t.player, "roll", scene, RollCreate(check="trait", request=sent, character_id=nova))
    assert (refused.value.field, refused.value.rule) == ("request.power_use", "WCBH-2")
