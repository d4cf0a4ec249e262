"""nWoD micro firefight rules through the application on the in-memory store (issue #15): gear
that persists (NW-16), the turn order and how long defences last (NW-9, NW-14, NW-15), taking a
fighter out, the GM's recorded overrides."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.aggregates import Character, Roll
from domain.errors import Conflict, DomainError, Forbidden
from systems.nwod_micro.commands import Nwod
from systems.nwod_micro.requests import (
    ActionCreate,
    AttackCreate,
    InitiativeCreate,
    TakeOut,
    TurnEnd,
    TurnOverride,
)
from systems.nwod_micro.rules import combat
from tests.app.table import Table

RIFLEMAN: dict[str, Any] = {
    "affinities": {"INT": 3, "ELG": 1, "VIO": 3},
    "health": 12,
    "will_power": 3,
    "defense": 2,
    "speed": 4,
    "weapons": [
        {"name": "Rifle", "damage_class": "professional", "magazine": 30, "spare_magazines": 1},
        {"name": "Club", "damage_class": "common"},
    ],
}


class Fight:
    """A player's hero and the GM's villain with Initiative in one scene."""

    def __init__(self, hero: dict[str, Any] = RIFLEMAN, villain: dict[str, Any] = RIFLEMAN) -> None:
        self.t = Table("nwod-micro")
        self.hero = self.t.character("Vega", "hero", hero, owner=self.t.player)
        self.villain = self.t.character("Sentry", "villain", villain)
        self.scene = self.t.scene()
        self.join()

    def join(self) -> None:
        self.t.run(
            self.t.player, "nwod_initiative", self.scene, InitiativeCreate(character_id=self.hero)
        )
        self.t.gm_runs("nwod_initiative", self.scene, InitiativeCreate(character_id=self.villain))

    def new_scene(self) -> None:
        self.t.gm_runs("close_scene", self.scene)
        self.scene = self.t.scene()
        self.join()

    def state(self) -> dict[str, Any]:
        fight = self.t.app.system(Nwod).fight
        return fight.nwod_fight(self.t.gm, self.scene).state("nwod-micro", "fight")

    def character(self, who: UUID) -> Character:
        found = self.t.app.repository.get(who)
        assert isinstance(found, Character)
        return found

    def until(self, who: UUID) -> None:
        """End the turns of those before `who` (turning the page when all have acted)."""
        for _ in range(10):
            current = combat.current(self.state())
            if current == str(who):
                return
            if current is None:
                self.t.gm_runs("advance_page", self.scene)
            else:
                self.t.gm_runs("nwod_end_turn", self.scene, TurnEnd(character_id=UUID(current)))
        raise AssertionError("never reached")

    def attack(self, attacker: UUID, target: UUID, **fields: Any) -> Any:
        body = AttackCreate(attacker_id=attacker, target_ids=[target], **fields)
        actor = self.t.player if attacker == self.hero else self.t.gm
        return self.t.run(actor, "nwod_attack", self.scene, body)

    def act(self, who: UUID, maneuver: str, **fields: Any) -> Any:
        body = ActionCreate(character_id=who, maneuver=maneuver, **fields)
        actor = self.t.player if who == self.hero else self.t.gm
        return self.t.run(actor, "nwod_act", self.scene, body)

    def roll(self, outcome: Any) -> dict[str, Any]:
        """The record of a firefight command's first roll."""
        rolls = [a for a in outcome.saved if isinstance(a, Roll)]
        return rolls[0].record  # type: ignore[no-any-return]

    def refused(self, call: Any, *args: Any, **kwargs: Any) -> DomainError:
        before = self.t.position()
        with pytest.raises(DomainError) as raised:
            call(*args, **kwargs)
        assert self.t.position() == before, "a refused command wrote something"
        return raised.value


# ---- NW-16: ammunition is the character's gear ---------------------------------------------------


def test_a_magazine_carries_over_to_the_next_scene_and_a_reload_uses_a_spare_nw_16() -> None:
    f = Fight()
    f.until(f.hero)
    f.attack(f.hero, f.villain, weapon="Rifle", maneuver="short_burst", rounds=5)
    assert f.character(f.hero).ammunition["Rifle"]["loaded"] == 25
    f.new_scene()  # a new scene does not refill the magazine
    f.until(f.hero)
    f.attack(f.hero, f.villain, weapon="Rifle")
    assert f.state()["magazines"][str(f.hero)] == {"Rifle": 24}
    reload = f.act(f.hero, "reload", weapon="Rifle")
    assert reload.result.outcome() == {
        "maneuver": "reload",
        "actions": 1,
        "rounds_left": 30,
        "spare_magazines": 0,
    }
    gear = f.character(f.hero).ammunition["Rifle"]
    assert (gear["loaded"], gear["spare"]) == (30, 0)
    f.until(f.hero)
    f.attack(f.hero, f.villain, weapon="Rifle")
    error = f.refused(f.act, f.hero, "reload", weapon="Rifle")
    assert isinstance(error, Conflict)
    assert (error.code, error.rule, error.field) == ("no_spare_magazine", "NW-16", "weapon")


def test_an_empty_magazine_stays_empty_in_a_new_scene_nw_16() -> None:
    f = Fight()
    f.until(f.hero)
    f.attack(f.hero, f.villain, weapon="Rifle", maneuver="suppressive", rounds=30)
    f.new_scene()
    f.until(f.hero)
    error = f.refused(f.attack, f.hero, f.villain, weapon="Rifle")
    assert (error.code, error.rule, error.details) == (
        "out_of_ammunition",
        "NW-16",
        {"left": 0, "needed": 1},
    )


# ---- NW-6, NW-15: an attack's kind, defences that outlast the page --------------------------------


def test_an_attack_without_kind_takes_it_from_the_weapon_and_meets_defense_nw_6_nw_10() -> None:
    f = Fight()
    f.until(f.villain)
    blow = f.roll(f.attack(f.villain, f.hero, weapon="Club"))
    assert (blow["request"]["kind"], blow["request"]["target_defense"]) == ("melee", 2)
    shot = f.roll(f.attack(f.villain, f.hero, weapon="Rifle"))
    assert (shot["request"]["kind"], shot["request"]["target_defense"]) == ("ranged", 0)


def test_defend_taken_late_in_a_turn_meets_the_faster_attacker_of_the_next_nw_15() -> None:
    f = Fight()
    first, second = (UUID(w) for w in combat.order(f.state()))
    f.until(second)
    f.act(second, "defend")
    f.t.gm_runs("advance_page", f.scene)
    assert combat.current(f.state()) == str(first)
    blow = f.roll(f.attack(first, second, weapon="Club"))
    assert blow["request"]["target_defense"] == 2 * 2


# ---- NW-8: taking a fighter out -------------------------------------------------------------------


def test_the_gm_takes_a_fighter_at_zero_health_out_of_the_order_nw_8() -> None:
    f = Fight(villain=RIFLEMAN | {"health": 1})
    f.until(f.hero)
    for _ in range(6):  # a few shots bring Health 1 to 0
        if f.character(f.villain).resources["health"] == 0:
            break
        f.until(f.hero)
        f.attack(f.hero, f.villain, weapon="Rifle", maneuver="short_burst", rounds=3)
    assert f.character(f.villain).resources["health"] == 0
    body = TakeOut(character_id=f.villain, reason="0 Health: down and out")
    error = f.refused(f.t.run, f.t.player, "nwod_take_out", f.scene, body)
    assert isinstance(error, Forbidden)
    f.t.gm_runs("nwod_take_out", f.scene, body)
    state = f.state()
    assert combat.order(state) == [str(f.hero)]
    assert state["out"][str(f.villain)]["health"] == 0
    error = f.refused(f.attack, f.hero, f.villain, weapon="Rifle")
    assert (error.code, error.field) == ("no_initiative", "target_ids")
    back = InitiativeCreate(character_id=f.villain)
    f.t.gm_runs("nwod_initiative", f.scene, back)  # only the GM brings it back
    assert str(f.villain) in f.state()["initiative"]


# ---- NW-14, NW-15, NW-18: turn order, actions and the GM's recorded override -----------------------


def test_turn_order_refuses_an_out_of_turn_action_until_the_gm_records_leave_nw_14() -> None:
    f = Fight()
    first, second = (UUID(w) for w in combat.order(f.state()))
    error = f.refused(f.act, second, "aim")
    assert (error.code, error.rule) == ("not_your_turn", "NW-14")
    leave = TurnOverride(character_id=second, grant="act_out_of_turn", reason="it was waiting")
    error = f.refused(f.t.run, f.t.player, "nwod_override", f.scene, leave)
    assert isinstance(error, Forbidden)
    f.t.gm_runs("nwod_override", f.scene, leave)
    f.act(second, "aim")
    state = f.state()
    assert state["overrides"][str(second)][0]["reason"] == "it was waiting"
    assert combat.current(state) == str(first)


def test_a_merit_granting_an_extra_action_gives_three_actions_a_turn_nw_18() -> None:
    quick = RIFLEMAN | {
        "merits": [{"name": "Quick hands", "text": "+1 action", "extra_actions": 1}]
    }
    f = Fight(hero=quick)
    f.until(f.hero)
    f.act(f.hero, "aim")
    f.act(f.hero, "aim")
    f.act(f.hero, "take_cover", cover="partial")
    error = f.refused(f.act, f.hero, "walk")
    assert (error.code, error.details) == ("no_actions_left", {"used": 3, "per_turn": 3})


def test_grenades_are_a_ranged_professional_weapon_whose_magazine_is_the_grenades_carried_nw_11() -> (
    None
):
    grenadier = RIFLEMAN | {
        "weapons": [
            {"name": "Grenade", "damage_class": "professional", "kind": "ranged", "magazine": 2}
        ]
    }
    f = Fight(hero=grenadier)
    f.until(f.hero)
    throw = f.roll(f.attack(f.hero, f.villain, weapon="Grenade", range="medium"))
    assert (throw["request"]["kind"], throw["request"]["target_defense"]) == ("ranged", 0)
    assert throw["request"]["damage_bonus"] == 2
    assert f.character(f.hero).ammunition["Grenade"]["loaded"] == 1
    error = f.refused(f.act, f.hero, "reload", weapon="Grenade")
    assert error.code == "no_spare_magazine"
