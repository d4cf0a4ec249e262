"""nWoD micro in a generated play: pool rolls, Initiative, shots, bursts, suppressive fire, contests."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from systems.nwod_micro.commands import Nwod
from systems.nwod_micro.requests import (
    ActionCreate,
    AttackCreate,
    ContestSide,
    InitiativeCreate,
    NwodContestCreate,
    NwodRollCreate,
    SuppressionRollCreate,
    TurnEnd,
)
from systems.nwod_micro.rules import combat as nwod_rules
from tests.app.plays.core import Action, Pick, Play

THUG = {
    "affinities": {"INT": 1, "ELG": 1, "VIO": 3},
    "health": 12,
    "will_power": 1,
    "defense": 1,
    "speed": 4,
    "weapons": [
        {"name": "Club", "damage_class": "common"},
        {"name": "Pistol", "damage_class": "common", "magazine": 12, "spare_magazines": 5},
        {
            "name": "Assault rifle",
            "damage_class": "professional",
            "magazine": 30,
            "spare_magazines": 50,
        },
    ],
}


def setup(p: Play) -> None:
    t = p.table
    p.add("Vega", "hero", owner=t.player)
    p.add("Rook", "hero", owner=t.other_player)
    p.add("Sentry", "villain", THUG)
    p.add("Gunman", "villain", THUG)


def pool_roll(p: Play, pick: Pick) -> None:
    who = pick.one(p.fighters)
    affinity = pick.one(("INT", "ELG", "VIO"))
    conditions = ["poor_light"] if pick.number(4) == 0 else []
    body = NwodRollCreate(
        character_id=who,
        affinity=affinity,
        conditions=conditions,
        modifier=pick.number(5) - 2,
        will_power=pick.number(3) // 2,
        client_seed=pick.client_seed(),
    )
    p.run(p.actor(who, pick), "nwod_roll", p.scene, body)


def initiative(p: Play, pick: Pick) -> None:
    who = pick.one(p.fighters)
    body = InitiativeCreate(
        character_id=who, modifier=pick.number(3), client_seed=pick.client_seed()
    )
    p.run(p.actor(who, pick), "nwod_initiative", p.scene, body)


def _state(p: Play) -> dict[str, Any]:
    scene = p.table.app.system(Nwod).fight.nwod_fight(p.table.gm, p.scene)
    return scene.state("nwod-micro", "fight")


def _current(p: Play) -> UUID | None:
    current = nwod_rules.current(_state(p))
    return None if current is None else UUID(current)


def _turn(p: Play, pick: Pick) -> UUID:
    """Whose turn it is (NW-14): everyone rolls Initiative first, the page turns when all acted."""
    for fighter in p.fighters:
        if str(fighter) not in _state(p)["initiative"]:
            body = InitiativeCreate(character_id=fighter, client_seed=pick.client_seed())
            p.run(p.actor(fighter, pick), "nwod_initiative", p.scene, body)
    if _current(p) is None:
        p.gm("advance_page", p.scene)
    return _current(p) or pick.one(p.fighters)


def attack(p: Play, pick: Pick) -> None:
    """A shot, a burst, suppressive fire or a blow by whoever's turn it is (NW-8, 15, 16)."""
    attacker = _turn(p, pick)
    targets = p.foes if attacker in p.heroes else p.heroes
    maneuver = pick.one(("standard", "short_burst", "long_burst", "suppressive", "standard"))
    kwargs: dict[str, Any] = {"maneuver": maneuver, "client_seed": pick.client_seed()}
    if maneuver == "short_burst":
        kwargs |= {"weapon": "Assault rifle", "rounds": 3 + pick.number(3)}
    elif maneuver in ("long_burst", "suppressive"):
        kwargs |= {"weapon": "Assault rifle", "rounds": 10 + pick.number(11)}
    elif pick.flag():
        kwargs |= {"kind": "melee", "weapon": "Knife" if attacker in p.heroes else "Club"}
    else:
        kwargs |= {"weapon": "Assault rifle", "range": pick.one(("close", "medium", "long"))}
    chosen = [t for t in targets if pick.flag()] or [pick.one(targets)]
    if maneuver != "long_burst":
        chosen = chosen[:1]
    body = AttackCreate(attacker_id=attacker, target_ids=chosen, **kwargs)
    p.run(p.actor(attacker, pick), "nwod_attack", p.scene, body)
    if maneuver == "suppressive":  # the pinned target's VIO roll
        target = chosen[0]
        seed = pick.client_seed()
        pinned = SuppressionRollCreate(character_id=target, client_seed=seed)
        p.run(p.actor(target, pick), "nwod_suppression_roll", p.scene, pinned)


def reload(p: Play, pick: Pick) -> None:
    """Bursts empty magazines: whoever's turn it is reloads (no dice)."""
    who = _turn(p, pick)
    body = ActionCreate(character_id=who, maneuver="reload", weapon="Assault rifle")
    p.run(p.actor(who, pick), "nwod_act", p.scene, body)


def contest(p: Play, pick: Pick) -> None:
    sides = [
        ContestSide(character_id=who, affinity=pick.one(("INT", "ELG", "VIO")))
        for who in (pick.one(p.heroes), pick.one(p.foes))
    ]
    p.gm("nwod_contest", p.scene, NwodContestCreate(sides=sides, client_seed=pick.client_seed()))


def end_turn(p: Play, pick: Pick) -> None:
    current = _current(p)
    if current is not None:
        p.gm("nwod_end_turn", p.scene, TurnEnd(character_id=current))


ACTIONS: dict[str, Action] = {
    "pool": pool_roll,
    "initiative": initiative,
    "attack": attack,
    "reload": reload,
    "contest": contest,
    "end_turn": end_turn,
}
