"""View branches of scene play (systems/wcbh/commands/scene_play.py): group checks, contests and chases on the
scene's doc (WCBH-11, 12, 27), recovery and effects on the character's (WCBH-34, 37..39), extended
effects on the game Issue's (WCBH-38); and the Resolve area's (systems/wcbh/commands/resolve.py):
Resolve, luck, last gasp and Ability losses on the character's doc, pools and imitated Powers on
the scene's (WCBH-16..21).

The docs are changed by the aggregates' own event methods, applied to a stand-in built from the doc,
so that a view always holds what the aggregate holds."""

from __future__ import annotations

import copy
from typing import Any

from domain.aggregates import Character, Scene
from projections.translation import SystemTranslation, Translation, in_scene, refresh_derived
from systems.wcbh.rules import fight_state
from systems.wcbh.rules.play_state import CHANGES as PLAY_CHANGES
from systems.wcbh.rules.resolve import owed_loss

SCENE_EVENTS = tuple(PLAY_CHANGES)  # recorded before StateChanged (WCBH-11, 12, 27)
CHARACTER_EVENTS = (
    "Recovered",
    "EffectShaken",
    "CameBack",
    "EffectDropDeclared",
    "EffectsDropped",
    "EffectExtended",
    "EffectCarriedOver",
    "CarriedEffectEnded",
    "DefeatedByEffects",
)
ISSUE_EVENTS = ("EffectExtensionBooked",)


def _name(t: Any, character_id: Any) -> str:
    return str(t.load("character", str(character_id))["name"])


def scene_play(t: Any, doc: dict[str, Any]) -> str:
    """The scene doc's `play` (as `ScenePublic.play` stores it, by id) and the step's text."""
    holder = object.__new__(Scene)
    holder.__dict__.update(states={"play": copy.deepcopy(doc.get("play"))}, page=doc["page"])
    t.event.apply(holder)  # recorded before StateChanged: applies the "play" state's change
    doc["play"] = holder.states["play"]
    e = t.event
    if t.name == "GroupCheckOpened":
        names = ", ".join(_name(t, c) for c in e.participants)
        return f"Group check at difficulty {e.difficulty}: {names} (WCBH-11) {e.purpose}".strip()
    if t.name == "GroupCheckRolled":
        return f"{_name(t, e.character_id)} rolls for the group: {e.successes} successes"
    if t.name == "SuccessesHandedOver":
        giver, receiver = _name(t, e.giver_id), _name(t, e.receiver_id)
        return f"{giver} hands {e.successes} successes to {receiver} (WCBH-11)"
    if t.name == "ContestStarted":
        first, second = _name(t, e.first_id), _name(t, e.second_id)
        return f"Contest of {e.rolls} rolls: {first} against {second} (WCBH-12) {e.purpose}".strip()
    if t.name == "ContestRolled":
        text = f"{_name(t, e.character_id)} rolls in the contest: {e.successes} successes"
        if e.decided:
            text += (
                "; the round is a tie" if e.winner is None else f"; {_name(t, e.winner)} wins it"
            )
            contest = doc["play"]["contests"][str(e.contest_id)]
            if contest["finished"]:
                text += ", and the contest (WCBH-12)"
        return text
    if t.name == "ChaseStarted":
        pairs = ", ".join(
            f"{_name(t, p['pursuer'])} after {_name(t, p['target'])}" for p in e.pairs
        )
        return f"A chase at {e.distance} range: {pairs} (WCBH-27)"
    # ChaseChecked
    text = f"{_name(t, e.character_id)}'s chase check: {e.successes} successes"
    for result in e.results:
        winner = "a tie" if result["winner"] is None else f"{_name(t, result['winner'])} wins"
        text += f"; {winner}, range {result['range']}"
    return text


def character_play(t: Any, doc: dict[str, Any]) -> str:
    """The character doc's conditions, Health and status, and the step's text."""
    holder = object.__new__(Character)
    holder.__dict__.update(
        name=doc["name"],
        effects={c["name"]: {k: v for k, v in c.items() if k != "name"} for c in doc["conditions"]},
        resources={n: spec["current"] for n, spec in doc["resources"].items()},
        status=doc["status"],
        defeated_at=None,
    )
    t.event.apply(holder)
    doc["conditions"] = [{"name": n, **copy.deepcopy(e)} for n, e in holder.effects.items()]
    for resource, level in holder.resources.items():
        doc["resources"][resource]["current"] = level
    doc["status"] = holder.status
    e, name = t.event, doc["name"]
    scene_id = getattr(e, "scene_id", None) or getattr(e, "from_scene_id", None)
    if scene_id is not None:
        in_scene(t, scene_id)
    if t.name == "Recovered":
        return f"{name} recovers: Health {e.health} (WCBH-34)"
    if t.name == "EffectShaken":
        if e.pages:
            return f"{name} shakes off part of {e.name}: {e.pages} page(s) left (WCBH-37)"
        return f"{name} shakes off {e.name} and is free to act (WCBH-37)"
    if t.name == "CameBack":
        return f"{name} is back in the fight with {e.health} Health (WCBH-39)"
    if t.name == "EffectDropDeclared":
        return f"{name} spends Resolve to be rid of {e.name} from the next page (WCBH-39)"
    if t.name == "EffectsDropped":
        return f"{name} is rid of {', '.join(e.names)} (WCBH-39)"
    if t.name == "EffectExtended":
        by = _name(t, e.by_character_id)
        return f"{by} extends {e.name} on {name} to the end of the next scene (WCBH-38)"
    if t.name == "EffectCarriedOver":
        return f"{e.name} keeps {name} defeated through the next scene (WCBH-38)"
    if t.name == "DefeatedByEffects":
        return f"{name} is defeated by {', '.join(e.names)} for the rest of the scene ({e.rule})"
    return f"{name}'s extended {e.name} ends (WCBH-38)"  # CarriedEffectEnded


def effect_ruled(t: Any, doc: dict[str, Any]) -> str:
    """WCBH-35, 37: the GM's ruling on an effect is told in the scene's replay (the page state,
    read from the aggregates, shows it)."""
    e = t.event
    in_scene(t, e.scene_id)
    allowed = [k.removeprefix("may_").replace("_", " ") for k, v in e.limits.items() if v]
    may = ", ".join(allowed) if allowed else "nothing"
    return f"The GM rules {e.name} on {doc['name']} lets it: {may} ({e.reason})"


def issue_play(t: Any, doc: dict[str, Any]) -> str:
    """The game Issue doc's extended effects (WCBH-38) and the step's text."""
    e = t.event
    entry = {"character_id": str(e.character_id), "effect": e.effect, "scene_id": str(e.scene_id)}
    doc["extended_effects"] = [
        x
        for x in doc.get("extended_effects", [])
        if (x["character_id"], x["effect"]) != (entry["character_id"], e.effect)
    ] + [entry]
    return f"{e.effect} on {_name(t, e.character_id)} lasts to the end of the next scene (WCBH-38)"


# ---- the Resolve area: Resolve given, luck, last gasp, Ability loss, scene pools (WCBH-16..21) --

RESOLVE_CHARACTER_EVENTS = (
    "ResolveGiven",
    "ResolveReceived",
    "LuckAsked",
    "LuckDecided",
    "LastGaspTaken",
    "FellUnconscious",
    "CameTo",
    "AbilityLossOwed",
    "AbilityLost",
    "AbilityRestored",
)
RESOLVE_SCENE_EVENTS = ("PoolOpened", "PoolChanged", "PowerImitated")


def resolve_character(t: Translation, doc: dict[str, Any]) -> str:
    e, name = t.event, doc["name"]
    resolve = doc["resources"].setdefault(
        "resolve", {"max": None, "start": 0, "refresh": None, "current": 0}
    )
    luck = doc.setdefault("luck_requests", {})
    owed = doc.setdefault("owed_ability_losses", {})
    lowered = doc.setdefault("lowered_abilities", [])
    if hasattr(e, "scene_id"):
        in_scene(t, e.scene_id)
    if t.name == "ResolveGiven":
        resolve["current"] -= e.cost
        to = t.load("character", str(e.to_character_id))["name"]
        afar = f" from afar (flashback: {e.flashback})" if e.flashback else ""
        return f"{name} gives {to} 1 Resolve{afar} for {e.cost}: {e.purpose} (WCBH-20a)"
    if t.name == "ResolveReceived":
        resolve["current"] += 1
        giver = t.load("character", str(e.from_character_id))["name"]
        return f"{name} receives 1 Resolve from {giver}"
    if t.name == "LuckAsked":
        luck[str(e.request_id)] = {
            "scene_id": str(e.scene_id),
            "detail": e.detail,
            "status": "pending",
            "note": None,
        }
        return f"{name} asks the GM for luck: {e.detail} (WCBH-20e)"
    if t.name == "LuckDecided":
        request = luck[str(e.request_id)]
        request["status"], request["note"] = ("approved" if e.approved else "declined"), e.note
        return f"The GM {request['status']} {name}'s luck: {request['detail']}"
    if t.name == "LastGaspTaken":
        resolve["current"] += 1
        doc["last_gasp"] = {"scene_id": str(e.scene_id), "page": e.page, "unconscious": False}
        return f"{name}'s last gasp: 1 Resolve to spend in page {e.page} (WCBH-19)"
    if t.name == "FellUnconscious":
        resolve["current"] -= e.forfeited
        doc["last_gasp"] = {**doc["last_gasp"], "unconscious": True}
        if doc["status"] == "active":
            doc["status"] = "unconscious"
        lost = f"; {e.forfeited} unspent Resolve is gone" if e.forfeited else ""
        return f"{name} falls unconscious until the scene ends{lost} (WCBH-19)"
    if t.name == "CameTo":
        resolve["current"] -= e.forfeited
        doc["last_gasp"] = None
        if doc["status"] == "unconscious":
            health = doc["resources"].get("health", {}).get("current", 1)
            doc["status"] = "active" if health > 0 else "defeated"
        return f"{name}'s last gasp is over with its scene"
    if t.name == "AbilityLossOwed":
        owed[str(e.roll_id)] = owed_loss(e.effort, e.scene_id)
        return f"{name} owes one {e.effort} Ability rank for the Decisive Moment (WCBH-16)"
    abilities = doc["sheet"]["abilities"]
    if t.name == "AbilityLost":
        owed.pop(str(e.roll_id), None)
        if e.rank is None:
            return f"{name}'s Ability loss is waived: every option is at rank 1 (WCBH-16)"
        abilities[e.ability] = e.rank
        lowered.append({"ability": e.ability, "roll_id": str(e.roll_id)})
        refresh_derived(t, doc)
        if e.health is not None:
            doc["resources"]["health"]["current"] = e.health
        return f"{name} loses a rank of {e.ability} to the Decisive Moment: {e.rank} (WCBH-16)"
    abilities[e.ability] = e.rank  # AbilityRestored
    lowered.remove({"ability": e.ability, "roll_id": str(e.roll_id)})
    refresh_derived(t, doc)
    return f"{name}'s {e.ability} is restored to {e.rank} ({e.reason})"


def resolve_scene(t: Translation, doc: dict[str, Any]) -> str:
    e, pools = t.event, doc.setdefault("pools", {})
    if t.name == "PoolOpened":
        pools[e.pool] = e.amount
        return f"“{doc['title']}” gets its own {e.pool} pool: {e.amount} ({e.reason})"
    if t.name == "PoolChanged":
        pools[e.pool] += e.change
        verb = "gained" if e.change > 0 else "spent"
        return (
            f"The GM {verb} {abs(e.change)} {e.pool} of “{doc['title']}”'s own pool "
            f"({e.reason}); {pools[e.pool]} left"
        )
    imitation = {
        "character_id": str(e.character_id),
        "trait": e.trait,
        "power": e.power,
        "rank": e.rank,
        "purpose": e.purpose,
        "page": e.page,
    }
    doc.setdefault("imitations", []).append(imitation)
    who = t.load("character", str(e.character_id))["name"]
    return f"{who}'s {e.trait} imitates {e.power} at rank {e.rank} for this scene (WCBH-20f)"


def fight_page(t: Any, doc: dict[str, Any]) -> str:
    """The fight's page events recorded before Scene.StateChanged (WCBH-25, 45, 46): the same
    change to the scene doc's fight state as StateChanged makes now, told the same way."""
    e = t.event
    if t.name == "PageStateSet":
        change = fight_state.PAGE_STATE
        details = {
            "character_id": str(e.character_id),
            "page": e.page,
            "state": e.state,
            "what": e.change,
        }
        page = doc["page"]
    else:
        change = fight_state.FOLLOWED_UP
        details = {
            "roll_id": str(e.roll_id),
            "kind": e.kind,
            "character_id": str(e.character_id),
            "details": e.details,
        }
        page = e.page
    fight = fight_state.FIGHT
    doc[fight.view_key] = fight.apply(doc.get(fight.view_key), page, change, details)
    return fight.describe(change, details, _name(t, e.character_id))


# What the views projection calls for these events (projections/views.py: SYSTEM_TRANSLATIONS).
TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    **{("scene", name): fight_page for name in ("PageStateSet", "AttackFollowedUp")},
    **{("scene", name): scene_play for name in SCENE_EVENTS},
    **{("character", name): character_play for name in CHARACTER_EVENTS},
    ("character", "EffectRuled"): effect_ruled,
    **{("issue", name): issue_play for name in ISSUE_EVENTS},
    **{("character", name): resolve_character for name in RESOLVE_CHARACTER_EVENTS},
    **{("scene", name): resolve_scene for name in RESOLVE_SCENE_EVENTS},
}
