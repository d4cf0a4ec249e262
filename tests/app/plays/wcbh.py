"""We Can Be Heroes in a generated play: checks, Resolve, scene play (help, group checks, contests,
chases), attacks and maneuvers, recovery and effects."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.requests import FollowUpCreate, RollCreate
from systems.wcbh.commands.scene_play import PlayStateChanged
from systems.wcbh.requests import (
    AmbushCreate,
    AmbusherIn,
    AreaAttackCreate,
    AreaTargetIn,
    AssistedRollCreate,
    ChaseCheckCreate,
    ChaseCreate,
    ChasePairCreate,
    ContestCreate,
    DeclarationCreate,
    FightAttackCreate,
    GrappleCreate,
    GroupCheckCreate,
    HandoverCreate,
    KnockbackCreate,
    ManeuverCreate,
    PlayRollCreate,
    RecoveryCreate,
    RedirectCreate,
    ShakeOffCreate,
    TeamAttackCreate,
    TeamAttackerIn,
)
from tests.app.plays.core import Action, Pick, Play

TRAITS = ("Agility", "Strength", "Will", "Perception", "Stealth", "Lightning Bolt")
MINION = {"kind": "minion", "threat": 2}


def setup(p: Play) -> None:
    t = p.table
    p.add("Nova", "hero", owner=t.player)
    p.add("Bolt", "hero", owner=t.other_player)
    p.add("Dr. Null", "villain")
    p.add("Mastermind", "villain")
    p.add("Goons", "minion", MINION)


def _minion(p: Play, character: UUID) -> bool:
    return p.table.app.repository.get(character).side == "minion"


def _trait(p: Play, character: UUID, pick: Pick) -> str:
    return "threat" if _minion(p, character) else pick.one(TRAITS)


def trait_roll(p: Play, pick: Pick) -> None:
    if pick.number(5) == 0:  # the GM's raw pool
        raw = {"pool": pick.number(8), "difficulty": pick.number(3)}
        p.gm(
            "roll", p.scene, RollCreate(check="trait", request=raw, client_seed=pick.client_seed())
        )
        return
    who = pick.one(p.fighters)
    request: dict[str, Any] = {
        "trait": _trait(p, who, pick),
        "difficulty": pick.number(4),
        "modifier": pick.number(5) - 2,
        "resolve": 0 if _minion(p, who) else pick.number(3) // 2,
    }
    if who in p.heroes and pick.number(6) == 0:  # WCBH-13
        request |= {"decisive_moment": True, "effort": pick.one(("physical", "mental"))}
    body = RollCreate(
        check="trait", request=request, character_id=who, client_seed=pick.client_seed()
    )
    p.run(p.actor(who, pick), "roll", p.scene, body)


# What Resolve after the roll works on besides a trait check: a plain, charging or all-out attack.
NO_RESOLVE_AFTER = ("club", "guard", "charger", "effect")


def _trait_roll(p: Play, pick: Pick) -> dict[str, Any] | None:
    """A character's trait roll or plain attack of the scene (Resolve after the roll, WCBH-20b,
    20c; on an attack it decides the hit again and changes the target's Health)."""
    plain_attacks = [
        r
        for r in p.originals("attack")
        if not any(r["request"].get(k) is not None for k in NO_RESOLVE_AFTER)
        and not r["request"].get("team")
        and not r["request"].get("redirect")
    ]
    rolls = [
        r
        for r in [*p.originals("trait"), *plain_attacks]
        if r["scene_id"] == str(p.scene) and r["character_id"] is not None
    ]
    return pick.one(rolls) if rolls else None


def resolve_dice(p: Play, pick: Pick) -> None:
    original = _trait_roll(p, pick)
    if original is None:
        return
    owner = p.owners[UUID(original["character_id"])]
    request = {"resolve": 1 + pick.number(2)}
    body = FollowUpCreate(follow_up="resolve_dice", request=request, client_seed=pick.client_seed())
    p.run(owner, "follow_up", UUID(original["roll_id"]), body)


def resolve_reroll(p: Play, pick: Pick) -> None:
    original = _trait_roll(p, pick)
    if original is None:
        return
    owner = p.owners[UUID(original["character_id"])]
    body = FollowUpCreate(follow_up="resolve_reroll", client_seed=pick.client_seed())
    p.run(owner, "follow_up", UUID(original["roll_id"]), body)


def defence_resolve(p: Play, pick: Pick) -> None:
    """The target's side spends Resolve on its defence after the attack (WCBH-20b, 20c), chained
    after whatever follow-ups the attack already has."""
    attacks = [
        r
        for r in p.originals("attack")
        if r["scene_id"] == str(p.scene)
        and r["request"].get("target_id") is not None
        and not any(r["request"].get(k) is not None for k in NO_RESOLVE_AFTER)
        and not r["request"].get("team")
        and not r["request"].get("redirect")
    ]
    if not attacks:
        return
    original = pick.one(attacks)
    target = p.owners.get(UUID(original["request"]["target_id"]), p.table.gm)
    name = pick.one(("resolve_dice", "resolve_reroll"))
    request: dict[str, Any] = {"side": "defence"}
    if name == "resolve_dice":
        request["resolve"] = 1 + pick.number(2)
    body = FollowUpCreate(follow_up=name, request=request, client_seed=pick.client_seed())
    p.run(target, "follow_up", UUID(original["roll_id"]), body)


def assisted_roll(p: Play, pick: Pick) -> None:
    """WCBH-10: a hero rolls with the help of the others."""
    hero = pick.one(p.heroes)
    helpers = [(h, pick.one(TRAITS[:4])) for h in pick.others(p.heroes, hero)]
    request = {"trait": pick.one(TRAITS), "difficulty": pick.number(3)}
    helping = [{"character_id": h, "trait": trait} for h, trait in helpers]
    body = {"character_id": hero, "request": request, "helpers": helping}
    p.gm("assisted_roll", p.scene, AssistedRollCreate(**body, client_seed=pick.client_seed()))


def group_check(p: Play, pick: Pick) -> None:
    """WCBH-11: every hero rolls; successes above 3 may be handed over."""
    body = GroupCheckCreate(
        participants=p.heroes, difficulty=pick.number(3), purpose="lift the truck"
    )
    group = p.gm("open_group_check", p.scene, body).result_as(PlayStateChanged).state_id
    for hero in p.heroes:
        request = {"trait": pick.one(TRAITS)}
        p.run(
            p.actor(hero, pick),
            "group_check_roll",
            p.scene,
            group,
            PlayRollCreate(character_id=hero, request=request, client_seed=pick.client_seed()),
        )
    if pick.flag():
        giver, receiver = p.heroes[0], p.heroes[1]
        handover = HandoverCreate(giver_id=giver, receiver_id=receiver, successes=1)
        p.run(p.owners[giver], "hand_over_successes", p.scene, group, handover)


def contest(p: Play, pick: Pick) -> None:
    """WCBH-12: a hero and a villain roll in turn."""
    first, second = pick.one(p.heroes), pick.one(p.foes[:2])
    rolls = 1 + pick.number(3)
    body = ContestCreate(first_id=first, second_id=second, rolls=rolls, purpose="arm wrestling")
    contest_id = p.gm("start_contest", p.scene, body).result_as(PlayStateChanged).state_id
    for _ in range(rolls):
        for who in (first, second):
            request = {"trait": pick.one(("Strength", "Will", "Agility"))}
            p.run(
                p.actor(who, pick),
                "contest_roll",
                p.scene,
                contest_id,
                PlayRollCreate(character_id=who, request=request, client_seed=pick.client_seed()),
            )


def chase(p: Play, pick: Pick) -> None:
    """WCBH-27: a villain pursues a hero; both check a few times."""
    pursuer, target = pick.one(p.foes[:2]), pick.one(p.heroes)
    distance = pick.one(("close", "far", "extreme"))
    body = ChaseCreate(
        pairs=[ChasePairCreate(pursuer_id=pursuer, target_id=target)], range=distance
    )
    chase = p.gm("start_chase", p.scene, body).result_as(PlayStateChanged).state_id
    for who in (pursuer, target):  # one check each per page
        request = {"trait": pick.one(("Agility", "Flight", "Stamina"))}
        seed = pick.client_seed()
        check = ChaseCheckCreate(character_id=who, request=request, client_seed=seed)
        p.run(p.actor(who, pick), "chase_check", p.scene, chase, check)


def _pair(p: Play, pick: Pick) -> tuple[UUID, UUID]:
    attacker = pick.one(p.fighters)
    return attacker, pick.one(pick.others(p.fighters, attacker))


def attack(p: Play, pick: Pick) -> None:
    attacker, target = _pair(p, pick)
    kwargs: dict[str, Any] = {
        "weapon": pick.number(3),
        "modifier": pick.number(5) - 2,
        "lethal": pick.number(4) != 0,
        "client_seed": pick.client_seed(),
    }
    if pick.number(4) == 0:
        kwargs["effect"] = "Stunned"  # WCBH-35
    elif pick.number(4) == 0:
        kwargs["maneuver"] = pick.one(("charge", "all_out"))  # WCBH-44
    elif pick.number(3) == 0:  # WCBH-44: bash the target with a third, or a third defends it
        third = pick.one([c for c in p.fighters if c not in (attacker, target)])
        option = pick.one(("club_id", "defender_id"))
        kwargs |= {option: third, "defender_active": pick.flag()}
    trait = _trait(p, attacker, pick)
    # The GM: a defender may be another player's character (the target's side chooses).
    actor = p.table.gm if "defender_id" in kwargs else p.actor(attacker, pick)
    body = FightAttackCreate(attacker_id=attacker, target_id=target, trait=trait, **kwargs)
    p.run(actor, "attack", p.scene, body)


def grapple(p: Play, pick: Pick) -> None:
    attacker, target = _pair(p, pick)
    aim = pick.one(("hold", "weapon"))
    body = GrappleCreate(
        attacker_id=attacker, target_id=target, aim=aim, client_seed=pick.client_seed()
    )
    p.run(p.actor(attacker, pick), "grapple", p.scene, body)


def maneuver(p: Play, pick: Pick) -> None:
    attacker, target = _pair(p, pick)
    name = pick.one(("feint", "stunning_blow", "overpower", "taunt"))
    kwargs: dict[str, Any] = {"client_seed": pick.client_seed()}
    if name == "stunning_blow":
        kwargs |= {"trait": "Strength", "against": "Stamina"}
    body = ManeuverCreate(attacker_id=attacker, target_id=target, maneuver=name, **kwargs)
    p.run(p.actor(attacker, pick), "maneuver", p.scene, body)


def ambush(p: Play, pick: Pick) -> None:
    """WCBH-42: the heroes ambush the villains (or the villains the heroes)."""
    ambushers, targets = (p.heroes, p.foes) if pick.flag() else (p.foes[:2], p.heroes)
    party = [
        AmbusherIn(character_id=a, trait=pick.one((None, "Stealth", "Agility"))) for a in ambushers
    ]
    body = AmbushCreate(
        ambushers=party, target_ids=targets, deceit=pick.flag(), client_seed=pick.client_seed()
    )
    p.gm("ambush", p.scene, body)


def area_attack(p: Play, pick: Pick) -> None:
    attacker = pick.one(p.fighters)
    targets = [
        AreaTargetIn(target_id=t, skip_turn=pick.flag())
        for t in pick.others(p.fighters, attacker)
        if pick.flag()
    ]
    body = AreaAttackCreate(
        attacker_id=attacker,
        trait=_trait(p, attacker, pick),
        targets=targets or [AreaTargetIn(target_id=p.foes[0])],
        client_seed=pick.client_seed(),
    )
    p.gm("area_attack", p.scene, body)


def team_attack(p: Play, pick: Pick) -> None:
    """WCBH-47: both heroes attack one villain, on a page of their own (one team attack a scene)."""
    p.gm("advance_page", p.scene)
    attackers = [
        TeamAttackerIn(
            attacker_id=h, trait=pick.one(("Lightning Bolt", "Strength")), explode=pick.flag()
        )
        for h in p.heroes
    ]
    body = TeamAttackCreate(
        target_id=pick.one(p.foes), attackers=attackers, client_seed=pick.client_seed()
    )
    p.gm("team_attack", p.scene, body)


def knockback(p: Play, pick: Pick) -> None:
    """WCBH-45: a strong hit (6+ damage) throws its target; the knockback itself rolls no dice."""
    attacker, target = pick.one(p.heroes), pick.one(p.foes)
    body = FightAttackCreate(
        attacker_id=attacker,
        target_id=target,
        trait="Lightning Bolt",
        modifier=4 + pick.number(6),
        client_seed=pick.client_seed(),
    )
    hit = p.run(p.actor(attacker, pick), "attack", p.scene, body)
    hits = KnockbackCreate(hits_object=pick.one((None, "sturdier", "weaker")))
    p.run(p.actor(attacker, pick), "knockback", hit.aggregate.id, hits)


def redirect(p: Play, pick: Pick) -> None:
    """WCBH-46: a defence declared as a redirect, 3 successes above the attack, sends it on."""
    attacker, target = pick.one(p.foes), pick.one(p.heroes)
    trait = _trait(p, attacker, pick)
    body = FightAttackCreate(
        attacker_id=attacker,
        target_id=target,
        trait=trait,
        modifier=-pick.number(4),
        redirect=True,
        client_seed=pick.client_seed(),
    )
    attack = p.gm("attack", p.scene, body)
    at = pick.one([None, *pick.others(p.foes, attacker)])
    sent = RedirectCreate(at_id=at, client_seed=pick.client_seed())
    p.run(p.actor(target, pick), "redirect", attack.aggregate.id, sent)


def declare(p: Play, pick: Pick) -> None:
    """WCBH-25: extra actions put -2 dice each into the page's rolls (the request's page_modifier)."""
    who = pick.one(p.fighters)
    all_out = pick.number(4) == 0
    actions = 1 if all_out else 2 + pick.number(2)
    body = DeclarationCreate(character_id=who, actions=actions, all_out_defence=all_out)
    p.run(p.actor(who, pick), "declare_actions", p.scene, body)


def recover(p: Play, pick: Pick) -> None:
    who = pick.one(p.fighters)
    body = RecoveryCreate(
        character_id=who, rested_whole_day=pick.flag(), client_seed=pick.client_seed()
    )
    p.run(p.actor(who, pick), "recover_health", p.scene, body)


def shake_off(p: Play, pick: Pick) -> None:
    """WCBH-35, 37: a hero stuns a villain with an effect attack; the villain tries to shake it off."""
    hero, villain = pick.one(p.heroes), pick.one(p.foes)
    actor = p.actor(hero, pick)
    seed = pick.client_seed()
    modifier = 2 + pick.number(4)
    stun = FightAttackCreate(
        attacker_id=hero,
        target_id=villain,
        trait="Lightning Bolt",
        effect="Stunned",
        modifier=modifier,
        client_seed=seed,
    )
    p.run(actor, "attack", p.scene, stun)
    request = {"trait": "threat" if _minion(p, villain) else pick.one(("Will", "Stamina"))}
    body = ShakeOffCreate(
        character_id=villain, effect="Stunned", request=request, client_seed=pick.client_seed()
    )
    p.gm("shake_off_effect", p.scene, body)


def new_villain(p: Play, pick: Pick) -> None:
    """A fresh villain: attacks defeat the old ones (WCBH-31), who can act no more."""
    p.foes.insert(0, p.table.character(f"Villain {len(p.records)}", "villain"))
    p.owners[p.foes[0]] = p.table.gm


ACTIONS: dict[str, Action] = {
    "trait": trait_roll,
    "resolve_dice": resolve_dice,
    "resolve_reroll": resolve_reroll,
    "defence_resolve": defence_resolve,
    "assisted_roll": assisted_roll,
    "group_check": group_check,
    "contest": contest,
    "chase": chase,
    "attack": attack,
    "grapple": grapple,
    "maneuver": maneuver,
    "ambush": ambush,
    "area_attack": area_attack,
    "team_attack": team_attack,
    "knockback": knockback,
    "redirect": redirect,
    "declare_actions": declare,
    "recover_health": recover,
    "shake_off": shake_off,
    "new_villain": new_villain,
}
