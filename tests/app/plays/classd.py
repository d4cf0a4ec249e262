"""Class D Heroes in a generated play: checks and Will rerolls, the heroes' and villains' turns,
retreats, stops, moves and mission rests."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.requests import FollowUpCreate, MissionCreate, RestCreate, RollCreate
from systems.classd.commands import ClassD
from systems.classd.requests import (
    ClassDActionCreate,
    ClassDAttackCreate,
    ClassDFightEnd,
    ClassDGrantCreate,
    ClassDMoveCreate,
    ClassDRetreatCreate,
    ClassDStopCreate,
    ClassDVillainAttackCreate,
)
from tests.app.plays.core import Action, Pick, Play

HERO = {
    "might": 2,
    "speed": 3,
    "spirit": 2,
    "health": 40,
    "will": 5,
    "gear": [{"name": "Sling", "attack": "ranged", "damage": 1}],
    "powers": [{"name": "Mind spike", "attack": "mental", "damage": 2}],
}


def setup(p: Play) -> None:
    t = p.table
    p.add("Nova", "hero", owner=t.player)  # the example sheet
    p.add("Blink", "hero", HERO, owner=t.other_player)
    for name, rank in (("Goon", "minion"), ("Brute", "henchman"), ("Boss", "boss")):
        p.add(name, "villain", _villain(rank))
    mission = MissionCreate(title="Break in", scene_id=p.scene)
    p.mission = p.gm("create_mission", t.campaign_id, mission).aggregate.id


def _villain(rank: str) -> dict[str, Any]:
    return {"might": 2, "speed": 2, "spirit": 1, "health": 30, "will": 0, "rank": rank}


def _edge(pick: Pick) -> dict[str, int]:
    return {"advantage": pick.number(3) // 2, "disadvantage": pick.number(3) // 2}


def stat_roll(p: Play, pick: Pick) -> None:
    if pick.number(5) == 0:
        raw = {"stat_value": pick.number(6), "difficulty_name": "medium"}
        p.gm("roll", p.scene, RollCreate(check="stat", request=raw, client_seed=pick.client_seed()))
        return
    who = pick.one(p.fighters)
    request: dict[str, Any] = {"stat": pick.one(("might", "speed", "spirit")), **_edge(pick)}
    request |= (
        {"difficulty": 4 + pick.number(10)} if pick.flag() else {"target_stat": pick.number(4)}
    )
    body = RollCreate(
        check="stat", request=request, character_id=who, client_seed=pick.client_seed()
    )
    p.run(p.actor(who, pick), "roll", p.scene, body)


def will_reroll(p: Play, pick: Pick) -> None:
    """CD-6: 1 Will rerolls an ordinary failure of a check."""
    failed = [
        r
        for r in p.originals("stat")
        if r["character_id"] in {str(h) for h in p.heroes}
        and r["scene_id"] == str(p.scene)
        and r["result"]["outcome"] == "failure"
    ]
    if failed:
        roll = pick.one(failed)
        owner = p.owners[UUID(roll["character_id"])]
        body = FollowUpCreate(follow_up="will_reroll", client_seed=pick.client_seed())
        p.run(owner, "follow_up", UUID(roll["roll_id"]), body)


def attack(p: Play, pick: Pick) -> None:
    hero, villain = pick.one(p.heroes), pick.one(p.foes)
    kind = pick.one(("melee", "ranged", "mental"))
    using = {"ranged": "Sling", "mental": "Mind spike"}.get(kind) if hero == p.heroes[1] else None
    body = ClassDAttackCreate.model_validate(
        {
            "attacker_id": hero,
            "target_id": villain,
            "attack_type": kind,
            "using": using,
            "will_rerolls": pick.number(3) // 2,
            "area": pick.number(5) == 0,
            "client_seed": pick.client_seed(),
            **_edge(pick),
        }
    )
    p.run(p.actor(hero, pick), "classd_attack", p.scene, body)


def villains_turn(p: Play, pick: Pick) -> None:
    """CD-8: the GM ends the heroes' turn; villains attack heroes (who may react), one flees and a
    hero may try to stop it (CD-16)."""
    scene = p.table.app.system(ClassD).fight.classd_combat(p.table.gm, p.scene)
    if scene.state(ClassD.ruleset_id, "round")["turn"] == "heroes":
        p.gm("classd_end_heroes_turn", p.scene)
    runner = pick.one(p.foes)
    for villain in pick.others(p.foes, runner):
        kind = pick.one(("melee", "ranged", "mental"))
        target = pick.one(p.heroes)
        body = ClassDVillainAttackCreate.model_validate(
            {
                "villain_id": villain,
                "hero_id": target,
                "attack_type": kind,
                "client_seed": pick.client_seed(),
                **_edge(pick),
            }
        )
        p.gm("classd_villain_attack", p.scene, body)
    p.gm(
        "classd_act",
        p.scene,
        ClassDActionCreate.model_validate({"character_id": runner, "action": "flee"}),
    )
    hero = pick.one(p.heroes)
    stop = ClassDStopCreate.model_validate(
        {
            "hero_id": hero,
            "villain_id": runner,
            "will_rerolls": pick.number(2),
            "client_seed": pick.client_seed(),
            **_edge(pick),
        }
    )
    p.run(p.actor(hero, pick), "classd_stop", p.scene, stop)


def retreat(p: Play, pick: Pick) -> None:
    hero = pick.one(p.heroes)
    pursuers = [v for v in p.foes if pick.flag()] or p.foes[:1]
    body = ClassDRetreatCreate.model_validate(
        {"hero_id": hero, "pursuer_ids": pursuers, "client_seed": pick.client_seed(), **_edge(pick)}
    )
    p.run(p.actor(hero, pick), "classd_retreat", p.scene, body)


def move(p: Play, pick: Pick) -> None:
    hero = pick.one(p.heroes)
    edge = pick.one(("cover", "high_ground"))
    body = ClassDMoveCreate.model_validate(
        {
            "hero_id": hero,
            "edge": edge,
            "difficulty": 6 + pick.number(6),
            "will_rerolls": pick.number(2),
            "client_seed": pick.client_seed(),
        }
    )
    # CD-18: the difficulty is the GM's; a player who names one asks the GM first under
    # gm_approval (its roll is then the approval's), so the GM moves the hero half the time
    actor = p.table.gm if pick.flag() else p.actor(hero, pick)
    p.run(actor, "classd_move", p.scene, body)


def rest(p: Play, pick: Pick) -> None:
    """CD-22: a rest on the mission, one roll in the current scene; the GM ends a fight under
    way there first (no rest mid-fight), now and then a grant beside it (CD-8)."""
    scene = p.table.app.system(ClassD).fight.classd_combat(p.table.gm, p.scene)
    if "round" in scene.states and not scene.states["round"].get("over"):
        if pick.flag():
            grant = ClassDGrantCreate(character_id=pick.one(p.fighters), reason="the GM says so")
            p.gm("classd_grant_action", p.scene, grant)
        p.gm("classd_end_fight", p.scene, ClassDFightEnd(reason="the villains fall back"))
    resting = [h for h in p.heroes if pick.flag()] or p.heroes
    body = RestCreate(character_ids=resting, scene_id=p.scene, client_seed=pick.client_seed())
    p.gm("rest_on_mission", p.mission, body)


ACTIONS: dict[str, Action] = {
    "stat": stat_roll,
    "will_reroll": will_reroll,
    "attack": attack,
    "villains_turn": villains_turn,
    "retreat": retreat,
    "move": move,
    "rest": rest,
}
