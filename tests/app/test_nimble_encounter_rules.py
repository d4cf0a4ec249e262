"""Nimble encounters played on the in-memory store (work issue #15): monster groups shrink with
their HP (NB-3/NB-4 ruling), the actions that Hide, Escape, cover and Concentration cost in turn
(NB-7, NB-8, NB-24..26), a spread spell's end (NB-6), grapple movement (NB-24)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.errors import DomainError, InvalidInput
from systems.nimble.commands import Nimble
from systems.nimble.commands.encounter import state_of
from systems.nimble.requests import (
    NimbleActionCreate,
    NimbleAttackCreate,
    NimbleConcentrateCreate,
    NimbleCoverCreate,
    NimbleDamageCreate,
    NimbleEncounterGrappleCreate,
    NimbleEscapeCreate,
    NimbleGrantCreate,
    NimbleMoveCreate,
    NimbleResolveCreate,
    NimbleRestrainCreate,
    NimbleRollCreate,
    NimbleSceneAct,
    NimbleStartCreate,
    NimbleTurnEnd,
)
from systems.nimble.rules.examples import CASTER
from tests.app.table import Table

RATS = {"kind": "monster", "count": 4, "hp": 3, "attacks": [{"name": "Bite", "dice": "1d4"}]}


class Fight:
    """Nova (Bo's) and Rook (Cy's) against a monster group, in a running encounter."""

    def __init__(
        self, monster: dict[str, Any] | None = None, hero: dict[str, Any] | None = None
    ) -> None:
        self.t = t = Table("nimble")
        self.scene = t.scene()
        nova = {**t.rules.example_sheet(), **(hero or {})}  # type: ignore[dict-item]
        self.nova = t.character("Nova", sheet=nova, owner=t.player)
        self.rook = t.character("Rook", owner=t.other_player)
        self.foe = t.character("Rats", "opponent", monster or RATS)
        order = [self.nova, self.rook, self.foe]
        body = NimbleStartCreate(order=order, party="three_actions")
        t.gm_runs("nimble_start", self.scene, body)

    def state(self) -> dict[str, Any]:
        encounter = self.t.app.system(Nimble).encounter
        return state_of(encounter.nimble_encounter(self.t.gm, self.scene))

    def actions(self, who: UUID) -> int:
        return int(self.state()["actions"][str(who)])

    def end_turns(self, *who: UUID) -> None:
        for one in who:
            self.t.gm_runs("nimble_end_turn", self.scene, NimbleTurnEnd(character_id=one))

    def damage(self, who: UUID, amount: int, critical: bool = False) -> dict[str, Any]:
        body = NimbleDamageCreate(scene_id=self.scene, amount=amount, critical=critical)
        return self.t.gm_runs("nimble_deal_damage", who, body).result.outcome  # type: ignore[attr-defined,no-any-return]

    def bite(self, target: UUID) -> dict[str, Any]:
        body = NimbleAttackCreate.model_validate(
            {"attacker_id": self.foe, "target_id": target, "attack": "Bite", "hold": False}
        )
        return self.t.gm_runs("nimble_attack", self.scene, body).result.outcome  # type: ignore[attr-defined,no-any-return]


def refused(code: str, rule: str, run: Any, *args: Any) -> DomainError:
    with pytest.raises(DomainError) as raised:
        run(*args)
    assert (raised.value.code, raised.value.rule) == (code, rule)
    return raised.value


# ---- monster groups: members left (ruling under NB-3/NB-4) ------------------------------------


def test_four_rats_at_3_of_12_hp_bite_once_a_turn_nb_4() -> None:
    f = Fight()
    hit = f.damage(f.foe, 9)
    assert hit["hp"] == 3 and hit["members"] == {"count": 4, "left": 1}
    f.end_turns(f.nova, f.rook)
    f.bite(f.nova)
    before = f.state()
    error = refused("no_members_left", "NB-4", f.bite, f.nova)
    assert error.details["members_left"] == 1 and f.state() == before  # nothing written


def test_a_whole_group_bites_once_per_member_and_the_gm_may_grant_more_on_record_nb_4() -> None:
    f = Fight()
    f.end_turns(f.nova, f.rook)
    for _ in range(4):
        assert f.bite(f.rook)["hasty_steps"] == 0  # NB-10 is a hero rule
    refused("no_members_left", "NB-4", f.bite, f.rook)
    grant = NimbleGrantCreate(character_id=f.foe, actions=1, reason="the queen rat screeches")
    f.t.gm_runs("nimble_grant", f.scene, grant)
    f.bite(f.rook)
    refused("no_members_left", "NB-4", f.bite, f.rook)
    f.end_turns(f.foe)
    assert f.state()["extra_attacks"] == {}  # a grant lasts the monster's turn


# ---- NB-7/NB-8/NB-15/NB-24..26: the health verbs in the encounter's turns ---------------------


def test_cover_and_hiding_happen_in_turn_and_hiding_costs_an_action_nb_26_nb_15() -> None:
    f = Fight(monster={"kind": "monster", "hp": 40, "attacks": [{"name": "Claw", "dice": "1d6"}]})
    t, cover = f.t, NimbleCoverCreate(scene_id=f.scene, level="full")
    f.end_turns(f.nova, f.rook)  # the goblins' turn: no hero takes cover or hides now
    before = f.state()
    refused("not_your_turn", "NB-15", t.run, t.player, "nimble_take_cover", f.nova, cover)
    assert f.state() == before and "cover" not in t.app.repository.get(f.nova).nimble_conditions
    f.end_turns(f.foe)
    t.gm_runs("advance_page", f.scene)  # round 2: Nova's turn
    t.run(t.player, "nimble_take_cover", f.nova, cover)
    assert f.actions(f.nova) == 3  # cover is where Nova stands: its Move pays
    hide = NimbleRollCreate(scene_id=f.scene)
    out = t.run(t.player, "nimble_hide", f.nova, hide).result.outcome  # type: ignore[attr-defined]
    assert out == {"hidden": True, "automatic": True}
    assert f.actions(f.nova) == 2  # NB-26: hiding is an action, even in full cover
    f.end_turns(f.nova)
    out_of_it = NimbleCoverCreate(scene_id=f.scene, level="none")
    refused("not_your_turn", "NB-15", t.run, t.player, "nimble_take_cover", f.nova, out_of_it)


def test_escaping_costs_an_action_on_one_s_own_turn_nb_24() -> None:
    f = Fight()
    t = f.t
    t.gm_runs("nimble_restrain", f.rook, NimbleRestrainCreate(scene_id=f.scene, by="chains"))
    escape = NimbleEscapeCreate(scene_id=f.scene)
    refused("not_your_turn", "NB-15", t.run, t.other_player, "nimble_escape", f.rook, escape)
    f.end_turns(f.nova)
    t.run(t.other_player, "nimble_escape", f.rook, escape)
    assert f.actions(f.rook) == 2  # NB-24: "spend an action"


def test_ending_concentration_is_the_free_action_of_any_turn_once_nb_8_nb_25() -> None:
    f = Fight()
    t, end = f.t, NimbleSceneAct(scene_id=f.scene)
    effect = NimbleConcentrateCreate(scene_id=f.scene, effect="Shield of faith")
    refused("not_your_turn", "NB-15", t.run, t.other_player, "nimble_concentrate", f.rook, effect)
    t.run(t.player, "nimble_concentrate", f.nova, effect)
    assert f.actions(f.nova) == 3  # begun as its spell is cast: no action more
    t.run(t.player, "nimble_end_concentration", f.nova, end)  # the turn's free action
    t.run(t.player, "nimble_concentrate", f.nova, effect)
    refused("free_action_used", "NB-8", t.run, t.player, "nimble_end_concentration", f.nova, end)
    f.end_turns(f.nova)
    t.run(t.player, "nimble_end_concentration", f.nova, end)  # on Rook's turn: free, 1 a turn
    assert f.state()["free"] == [str(f.nova)] and f.actions(f.nova) == 3


# ---- NB-6 with NB-25: a spell spread over turns lasts while its Concentration does -------------


def _spread(f: Fight, cost: int = 5) -> None:
    body = NimbleActionCreate.model_validate(
        {"character_id": f.nova, "action": "Glacier strike", "activity_cost": cost}
    )
    f.t.run(f.t.player, "nimble_act", f.scene, body)


def test_a_spread_spell_ends_when_its_caster_falls_to_0_hp_nb_6_nb_25() -> None:
    f = Fight()
    _spread(f)
    assert f.state()["activities"][str(f.nova)]["paid"] == 3
    assert f.t.app.repository.get(f.nova).concentration["effect"] == "Glacier strike"
    f.end_turns(f.nova, f.rook)
    f.damage(f.nova, 999)
    assert f.state()["activities"] == {}  # the 3 actions paid are lost
    assert f.t.app.repository.get(f.nova).concentration is None


def test_a_crit_on_a_spreading_caster_calls_for_the_save_its_player_rolls_nb_6_nb_25() -> None:
    f = Fight()
    _spread(f)
    f.end_turns(f.nova, f.rook)
    assert f.damage(f.nova, 2, critical=True)["concentration"] == "save_needed"
    f.end_turns(f.foe)
    f.t.gm_runs("advance_page", f.scene)
    refused("concentration_save_due", "NB-25", _spread, f)  # no acting before the save
    save = NimbleRollCreate(scene_id=f.scene)
    kept = f.t.run(f.t.player, "nimble_concentration_save", f.nova, save).result.outcome["kept"]  # type: ignore[attr-defined]
    assert (str(f.nova) in f.state()["activities"]) is kept  # a failure ends the spell
    if kept:
        _spread(f)  # the 2 actions left finish it; its Concentration ends with it
        assert f.state()["activities"] == {} and f.actions(f.nova) == 1
        assert f.t.app.repository.get(f.nova).concentration is None


def test_an_activity_needs_its_own_concentration_nb_6_nb_25() -> None:
    f = Fight()
    effect = NimbleConcentrateCreate(scene_id=f.scene, effect="Shield of faith")
    f.t.run(f.t.player, "nimble_concentrate", f.nova, effect)
    error = refused("cannot_concentrate", "NB-6", _spread, f)
    assert error.field == "activity_cost"


# ---- NB-24: moving while grappled, riding or Restrained ---------------------------------------

STRONG = {"skills": {"Might": 20, "Finesse": 1, "Stealth": 0}}  # every grapple holds


def move(f: Fight, who: UUID, squares: int, actor: Any = None) -> dict[str, Any]:
    body = NimbleMoveCreate(character_id=who, squares=squares, difficult=0)
    return f.t.run(actor or f.t.gm, "nimble_move", f.scene, body).result.outcome  # type: ignore[attr-defined,no-any-return]


def grab(f: Fight, size: str) -> None:
    body = NimbleEncounterGrappleCreate.model_validate(
        {"grappler_id": f.nova, "target_id": f.foe, "size": size}
    )
    out = f.t.run(f.t.player, "nimble_encounter_grapple", f.scene, body).result.outcome  # type: ignore[attr-defined]
    assert out["grappled"]


def test_a_grappled_smaller_creature_cannot_move_its_grappler_drags_it_nb_24() -> None:
    f = Fight(hero=STRONG)
    grab(f, "smaller")
    assert move(f, f.nova, 6, f.t.player)["actions_spent"] == 1  # full speed, dragging the rats
    f.end_turns(f.nova, f.rook)
    error = refused("cannot_move", "NB-24", move, f, f.foe, 4)
    assert error.details == {"condition": "grappled"}


def test_a_same_size_grapple_halves_both_speeds_nb_24() -> None:
    f = Fight(hero=STRONG)
    grab(f, "same")
    out = move(f, f.nova, 6, f.t.player)  # speed 6 halved: two Move actions
    assert (out["actions_spent"], out["movement_left"]) == (2, 0)
    f.end_turns(f.nova, f.rook)
    assert move(f, f.foe, 3)["movement_left"] == 0  # the rats too: 3 squares a Move


def test_restrained_or_riding_no_move_of_one_s_own_nb_24() -> None:
    f = Fight(hero=STRONG)
    f.t.gm_runs("nimble_restrain", f.rook, NimbleRestrainCreate(scene_id=f.scene, by="roots"))
    grab(f, "larger")  # Nova rides the rats (Mounted)
    refused("cannot_move", "NB-24", move, f, f.nova, 1, f.t.player)
    f.end_turns(f.nova)
    refused("cannot_move", "NB-24", move, f, f.rook, 1, f.t.other_player)
    f.end_turns(f.rook)
    assert move(f, f.foe, 6)["movement_left"] == 0  # the mount carries its rider at full speed


# ---- NB-15/NB-16: reactions after seeing the roll are the default; no Defend against a crit -----

STING = {"kind": "monster", "hp": 40, "attacks": [{"name": "Sting", "dice": "1d2"}]}  # hit = crit


def _held(f: Fight, body: dict[str, Any], rounds: tuple[UUID, ...] = ()) -> dict[str, Any]:
    """Attacks until one hits (the Table's dice are seeded: the same tries every run). With
    `rounds` (the whole order), a miss ends everyone's turn, so that each try is the attacker's
    first attack of a turn: a hero's hasty attacks would pile up disadvantage (NB-10)."""
    for _ in range(20):
        attack = NimbleAttackCreate.model_validate(body)
        out = f.t.gm_runs("nimble_attack", f.scene, attack).result.outcome  # type: ignore[attr-defined]
        if not out["miss"]:
            return out  # type: ignore[no-any-return]
        f.end_turns(*rounds)
    raise AssertionError("twenty misses")


def test_a_hit_on_a_hero_waits_for_its_reactions_by_default_nb_15() -> None:
    f = Fight(monster=STING)
    f.end_turns(f.nova, f.rook)
    out = _held(f, {"attacker_id": f.foe, "target_id": f.nova, "attack": "Sting"})
    assert out["pending"] is True and out["hit"] is None  # no `hold` sent
    assert f.state()["pending"]["target_id"] == str(f.nova)


def test_defend_against_a_crit_seen_is_refused_not_wasted_nb_16() -> None:
    f = Fight(monster=STING)
    f.end_turns(f.nova, f.rook)
    out = _held(f, {"attacker_id": f.foe, "target_id": f.nova, "attack": "Sting"})
    assert out["critical"]  # a d2's hit is its maximum
    roll_id = UUID(f.state()["pending"]["roll_id"])
    before = f.state()
    defend = NimbleResolveCreate(defend=True)
    error = refused(
        "critical_ignores_armor",
        "NB-16",
        f.t.run,
        f.t.player,
        "nimble_resolve_attack",
        f.scene,
        roll_id,
        defend,
    )
    assert error.field == "defend" and f.state() == before  # the reaction is not spent
    f.t.run(
        f.t.player, "nimble_resolve_attack", f.scene, roll_id, NimbleResolveCreate(defend=False)
    )
    assert f.actions(f.nova) == 3


def test_a_defend_declared_before_a_crit_is_spent_and_says_so_nb_16() -> None:
    f = Fight(monster=STING)
    f.end_turns(f.nova, f.rook)
    body = {"attacker_id": f.foe, "target_id": f.nova, "attack": "Sting", "defend": True}
    for _ in range(20):  # a miss spends the Defend too: try again next round (seeded dice)
        attack = NimbleAttackCreate.model_validate(body)
        out = f.t.gm_runs("nimble_attack", f.scene, attack).result.outcome  # type: ignore[attr-defined]
        assert f.actions(f.nova) == 2  # declared before the roll: spent (NB-15)
        if not out["miss"]:
            break
        assert not out["defend_wasted"]
        f.end_turns(f.foe)
        f.t.gm_runs("advance_page", f.scene)
        f.end_turns(f.nova, f.rook)
    assert out["critical"] and out["defended"] and out["defend_wasted"] and out["armor"] == 0


# ---- strengthened: NB-16 crits ignore Armor, NB-12 mana, NB-2 party surprise -------------------

NEEDLE = {"attacks": [{"name": "Needle", "dice": "1d2"}], "mana": 5}  # a hit is a crit
ARMORED = {"kind": "monster", "hp": 99, "armor": 5, "attacks": [{"name": "Claw", "dice": "1d6"}]}


def test_a_forced_crit_ignores_a_monster_s_armor_nb_16_nb_9() -> None:
    f = Fight(monster=ARMORED, hero=NEEDLE)
    body = {"attacker_id": f.nova, "target_id": f.foe, "attack": "Needle"}
    out = _held(f, body, (f.nova, f.rook, f.foe))  # a 1d2 that hits rolled its maximum
    assert out["critical"] and out["armor"] == 0  # Armor 5 would have left 0 of a plain 2
    assert out["damage"] == out["rolled_damage"] >= 3  # 2 and the crit's extra die
    assert out["hit"]["hp"] == 99 - out["damage"]


def test_a_spell_s_mana_is_the_sheet_s_tier_spent_and_too_little_is_refused_nb_12() -> None:
    f = Fight(monster=ARMORED, hero=CASTER)  # mana 4; Ice lance tier 2, upcast 2; Ward tier 1
    t = f.t

    def mana() -> int:
        return int(t.app.repository.get(f.nova).resources["mana"])

    lance = {"attacker_id": f.nova, "target_id": f.foe, "attack": "Ice lance"}
    before = f.state()
    wrongs = (  # a cheaper tier than the sheet's; more extra mana than its upcast
        ({"spell_tier": 0}, "spell_tier", "spell_tier_not_the_sheet_s"),
        ({"extra_mana": 3}, "extra_mana", "upcast_beyond_the_sheet"),
    )
    for wrong, field, code in wrongs:
        body = NimbleAttackCreate.model_validate(lance | wrong)
        error = refused(code, "NB-12", t.run, t.player, "nimble_attack", f.scene, body)
        assert isinstance(error, InvalidInput) and error.field == field  # 422
    assert f.state() == before and mana() == 4  # nothing written
    t.run(t.player, "nimble_attack", f.scene, NimbleAttackCreate.model_validate(lance))
    assert mana() == 2  # the sheet's tier 2, no tier in the request
    upcast = NimbleAttackCreate.model_validate(lance | {"extra_mana": 1})  # 3 mana, 2 left
    error = refused("not_enough_mana", "NB-12", t.run, t.player, "nimble_attack", f.scene, upcast)
    assert error.field == "extra_mana" and error.details == {"have": 2, "needed": 3}
    assert mana() == 2
    bolt = NimbleAttackCreate.model_validate(lance | {"attack": "Fire bolt"})  # a cantrip
    t.run(t.player, "nimble_attack", f.scene, bolt)
    assert mana() == 2
    ward = {"character_id": f.nova, "action": "Ward"}
    no_spell = NimbleActionCreate.model_validate(ward | {"mana": 1})  # the player's number
    error = refused(
        "mana_without_a_spell", "NB-12", t.run, t.player, "nimble_act", f.scene, no_spell
    )
    assert isinstance(error, InvalidInput) and error.field == "mana" and mana() == 2
    cast = NimbleActionCreate.model_validate(ward | {"spell": "Ward"})
    out = t.run(t.player, "nimble_act", f.scene, cast).result.outcome  # type: ignore[attr-defined]
    assert mana() == 1 and (out["spell"], out["spell_tier"], out["mana"]) == ("Ward", 1, 1)


def test_party_surprise_advantage_or_three_actions_and_monsters_first_nb_2() -> None:
    t = Table("nimble")
    scene = t.scene()
    nova, rook = (t.character(n, owner=t.player) for n in ("Nova", "Rook"))
    rats = t.character("Rats", "opponent", RATS)
    order = [nova, rook, rats]
    t.gm_runs("nimble_start", scene, NimbleStartCreate(order=order, party="advantage"))
    encounter = t.app.system(Nimble).encounter
    state = state_of(encounter.nimble_encounter(t.gm, scene))
    for hero in (nova, rook):  # NB-2: the party rolls Initiative with advantage
        record: dict[str, Any] = t.app.repository.get(
            UUID(state["initiative"][str(hero)]["roll_id"])
        ).record
        assert (record["request"]["advantage"], record["request"]["disadvantage"]) == (1, 0)
        assert len([f for f in record["faces"] if f["label"] == record["faces"][0]["label"]]) == 2
    t.gm_runs("nimble_end", scene)
    surprised = NimbleStartCreate(
        order=order, party="three_actions", surprised={rook: "one_action"}, monsters_first=True
    )
    t.gm_runs("nimble_start", scene, surprised)
    state = state_of(encounter.nimble_encounter(t.gm, scene))
    assert state["actions"] == {str(nova): 3, str(rook): 3}  # the party's 3 actions win (NB-2)
    assert all(i["roll_id"] is None for i in state["initiative"].values())  # nothing rolled
    assert state["round_order"] == [str(rats), str(nova), str(rook)]  # the monsters act first
    assert state["order"] == [str(c) for c in order]  # for the first round only
