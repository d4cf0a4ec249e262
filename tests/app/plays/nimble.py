"""Nimble in a generated play: checks and saves, encounters with Initiative, held attacks, Help and
reactions, Assess, grapples and escapes, Dying saves."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.requests import RollCreate
from systems.nimble.commands import Nimble
from systems.nimble.commands.encounter import state_of
from systems.nimble.requests import (
    NimbleAssessCreate,
    NimbleAttackCreate,
    NimbleConcentrateCreate,
    NimbleCoverCreate,
    NimbleDamageCreate,
    NimbleDyingSaveCreate,
    NimbleEncounterGrappleCreate,
    NimbleEscapeCreate,
    NimbleGrappleCreate,
    NimbleHelpCreate,
    NimbleResolveCreate,
    NimbleRollCreate,
    NimbleStartCreate,
    NimbleTurnEnd,
)
from systems.nimble.rules import encounter as nimble_rules
from systems.nimble.rules import health
from tests.app.plays.core import Action, Pick, Play

MONSTER = {
    "kind": "monster",
    "hp": 60,
    "armor": 1,
    "attacks": [{"name": "Claw", "dice": "1d6"}],
}


def setup(p: Play) -> None:
    t = p.table
    p.add("Nova", "hero", owner=t.player)
    p.add("Rook", "hero", owner=t.other_player)
    p.add("Goblins", "opponent", MONSTER)


def skill_roll(p: Play, pick: Pick) -> None:
    who = pick.one(p.heroes)
    if pick.flag():
        request: dict[str, Any] = {"skill": pick.one(("Might", "Finesse", "Stealth"))}
        check = "skill"
    else:
        request, check = {"stat": pick.one(("STR", "DEX", "INT", "WIL"))}, "save"
    body = RollCreate(
        check=check, request=request, character_id=who, client_seed=pick.client_seed()
    )
    p.run(p.actor(who, pick), "roll", p.scene, body)


def _state(p: Play) -> dict[str, Any]:
    encounter = p.table.app.system(Nimble).encounter
    return state_of(encounter.nimble_encounter(p.table.gm, p.scene))


def start(p: Play, pick: Pick) -> None:
    """NB-1..3: the encounter starts (again) with the heroes' Initiative rolls."""
    if _state(p)["status"] == "running" and _state(p)["pending"] is None:
        p.gm("nimble_end", p.scene)
    order = [*p.heroes, *p.foes]
    party = pick.one((None, "three_actions"))
    surprised = {p.heroes[1]: "one_action"} if pick.number(4) == 0 else {}
    body = NimbleStartCreate(
        order=order,
        party=party,
        surprised=surprised,
        monsters_first=pick.flag(),
        client_seed=pick.client_seed(),
    )
    p.gm("nimble_start", p.scene, body)


def _turn(p: Play, pick: Pick) -> UUID:
    """Whose turn it is, starting the encounter (or the next round) first if need be."""
    state = _state(p)
    if state["status"] != "running":
        start(p, pick)
    elif nimble_rules.current(state) is None and state["pending"] is None:
        p.gm("advance_page", p.scene)
    current = nimble_rules.current(_state(p))
    return UUID(current) if current else pick.one(p.fighters)


def _foe_of(p: Play, who: UUID, pick: Pick) -> UUID:
    return pick.one(p.foes if who in p.heroes else p.heroes)


def attack(p: Play, pick: Pick) -> None:
    """An attack by whoever's turn it is, held now and then for reactions (NB-15) and Help."""
    attacker = _turn(p, pick)
    attack = "Claw" if attacker in p.foes else pick.one(("Greataxe", "Javelin"))
    actor = p.actor(attacker, pick)
    body = NimbleAttackCreate(
        attacker_id=attacker,
        target_id=_foe_of(p, attacker, pick),
        attack=attack,
        advantage=pick.number(3),
        disadvantage=pick.number(3) // 2,
        hold=pick.number(3) > 0,
        client_seed=pick.client_seed(),
    )
    p.run(actor, "nimble_attack", p.scene, body)


def _pending(p: Play) -> dict[str, Any] | None:
    state = _state(p)
    return state["pending"] if state["status"] == "running" else None


def resolve(p: Play, pick: Pick) -> None:
    """NB-15, 16: the target's side settles a held attack, defending or not (no dice)."""
    pending = _pending(p)
    if pending is not None:
        defend = pick.flag() and UUID(pending["target_id"]) in p.heroes
        body = NimbleResolveCreate(defend=defend)
        p.gm("nimble_resolve_attack", p.scene, UUID(pending["roll_id"]), body)


def help_roll(p: Play, pick: Pick) -> None:
    """NB-19: an ally rerolls a die of a held attack (a follow-up roll of it)."""
    pending = _pending(p)
    if pending is None:  # a hero's held attack to help with
        attacker = _turn(p, pick)
        if attacker not in p.heroes:
            return
        actor = p.actor(attacker, pick)
        body = NimbleAttackCreate(
            attacker_id=attacker,
            target_id=pick.one(p.foes),
            attack=pick.one(("Greataxe", "Javelin")),
            advantage=pick.number(3),
            hold=True,
            client_seed=pick.client_seed(),
        )
        p.run(actor, "nimble_attack", p.scene, body)
        pending = _pending(p)
        if pending is None:  # a miss is never held
            return
    roll: dict[str, Any] = p.table.app.repository.get(UUID(pending["roll_id"])).record
    attacker, target = UUID(roll["character_id"]), UUID(pending["target_id"])
    helpers = [h for h in p.heroes if h not in (attacker, target)]
    if not helpers:
        return
    helper = pick.one(helpers)
    actor = p.actor(attacker, pick)  # NB-19: the helped hero's player picks the die
    body = NimbleHelpCreate(
        helper_id=helper,
        roll_id=UUID(pending["roll_id"]),
        die=pick.number(2),
        purpose="a feint",
        client_seed=pick.client_seed(),
    )
    p.run(actor, "nimble_help", p.scene, body)


def assess(p: Play, pick: Pick) -> None:
    who = _turn(p, pick)
    option = pick.one(("question", "find_weakness", "anticipate_danger"))
    target = p.foes[0] if option == "find_weakness" else None
    actor = p.actor(who, pick)
    body = NimbleAssessCreate(
        character_id=who,
        skill="Might",
        option=option,
        target_id=target,
        question="Where?",
        client_seed=pick.client_seed(),
    )
    p.run(actor, "nimble_assess", p.scene, body)


def end_turn(p: Play, pick: Pick) -> None:
    current = nimble_rules.current(_state(p))
    if current is not None:
        p.gm("nimble_end_turn", p.scene, NimbleTurnEnd(character_id=UUID(current)))


def hurt(p: Play, pick: Pick) -> None:
    """Damage (no dice of its own) so that a hero is now and then Dying, and saves."""
    hero = pick.one(p.heroes)
    hit = NimbleDamageCreate(scene_id=p.scene, amount=10 + pick.number(25), critical=pick.flag())
    p.gm("nimble_deal_damage", hero, hit)
    actor = p.actor(hero, pick)
    save = NimbleDyingSaveCreate(scene_id=p.scene, client_seed=pick.client_seed())
    p.run(actor, "nimble_dying_save", hero, save)


def grapple(p: Play, pick: Pick) -> None:
    """NB-24: a grapple by whoever's turn it is; a held hero tries to escape."""
    who = _turn(p, pick)
    target = _foe_of(p, who, pick)
    size = pick.one(("smaller", "same", "larger"))
    actor = p.actor(who, pick)
    body = NimbleEncounterGrappleCreate(
        grappler_id=who, target_id=target, size=size, client_seed=pick.client_seed()
    )
    p.run(actor, "nimble_encounter_grapple", p.scene, body)
    if target in p.heroes:
        stat = pick.one(("STR", "DEX"))
        actor = p.actor(target, pick)
        escape = NimbleEscapeCreate(scene_id=p.scene, stat=stat, client_seed=pick.client_seed())
        p.run(actor, "nimble_escape", target, escape)


def concentrate(p: Play, pick: Pick) -> None:
    """NB-25: a hero concentrates, takes a critical hit and makes its concentration save."""
    hero = pick.one(p.heroes)
    actor = p.actor(hero, pick)
    effect = NimbleConcentrateCreate(scene_id=p.scene, effect="Shield of faith")
    p.run(actor, "nimble_concentrate", hero, effect)
    crit = NimbleDamageCreate(scene_id=p.scene, amount=1 + pick.number(5), critical=True)
    p.gm("nimble_deal_damage", hero, crit)  # a critical: a save
    seed = pick.client_seed()
    save = NimbleRollCreate(scene_id=p.scene, advantage=pick.number(2), client_seed=seed)
    p.run(actor, "nimble_concentration_save", hero, save)


def hide(p: Play, pick: Pick) -> None:
    """A hero behind cover hides (a Stealth roll)."""
    hero = pick.one(p.heroes)
    level = pick.one(("partial", "full"))
    conditions: dict[str, Any] = p.table.app.repository.get(hero).nimble_conditions
    if conditions.get(health.COVER, {}).get("level") != level:
        cover = NimbleCoverCreate(scene_id=p.scene, level=level)
        p.run(p.actor(hero, pick), "nimble_take_cover", hero, cover)
    seed = pick.client_seed()
    hide = NimbleRollCreate(scene_id=p.scene, advantage=pick.number(2), client_seed=seed)
    p.run(p.actor(hero, pick), "nimble_hide", hero, hide)


def grapple_outside_encounters(p: Play, pick: Pick) -> None:
    """A grapple as a plain contest, outside an encounter's turns."""
    hero = pick.one(p.heroes)
    size = pick.one(("smaller", "same", "larger"))
    body = NimbleGrappleCreate(
        scene_id=p.scene, target_id=p.foes[0], size=size, client_seed=pick.client_seed()
    )
    p.run(p.actor(hero, pick), "nimble_grapple", hero, body)


def end(p: Play, pick: Pick) -> None:
    p.gm("nimble_end", p.scene)


ACTIONS: dict[str, Action] = {
    "check": skill_roll,
    "start": start,
    "attack": attack,
    "resolve": resolve,
    "help": help_roll,
    "assess": assess,
    "end_turn": end_turn,
    "hurt_and_save": hurt,
    "grapple": grapple,
    "concentrate": concentrate,
    "hide": hide,
    "grapple_outside": grapple_outside_encounters,
    "end": end,
}
