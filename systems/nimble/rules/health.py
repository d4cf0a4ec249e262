"""Nimble hit points, Wounds, Dying, temporary HP, grapples, Concentration and cover (NB-20..NB-26).

Pure rules: every function takes plain values and returns plain values; the verbs of
systems/nimble/commands/health.py turn them into events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from domain.errors import Conflict, InvalidInput
from systems.nimble.rules.sheet import members_left

DC = 10
"""NB-21, NB-24..NB-26: every save and check of the chapter is DC 10 (ruling for the escape save,
which names no DC)."""

WOUNDS_WHILE_DYING = 2
WOUNDS_WHILE_DYING_CRITICAL = 3
DYING_ACTIONS = 1
"""NB-21: a Dying hero has at most 1 action per turn."""

Size = Literal["smaller", "same", "larger"]
Keep = Literal["higher", "new", "current"]
Cover = Literal["none", "partial", "full"]

# Conditions kept on a character (name -> details); every one names the scene it started in.
GRAPPLING = "grappling"  # holds `target_id` (a smaller or same-size creature)
GRAPPLED = "grappled"  # held by `by_id`
MOUNTED = "mounted"  # rides `on_id` (a larger creature it grabbed)
RIDDEN = "ridden"  # carries `by_id` on its back
RESTRAINED = "restrained"  # held by a thing (`by`), not a creature
HIDDEN = "hidden"
COVER = "cover"  # {"level": "partial" | "full"}
GRAPPLE_CONDITIONS = (GRAPPLING, GRAPPLED, MOUNTED, RIDDEN)
ESCAPABLE = (GRAPPLED, RIDDEN, RESTRAINED)


@dataclass(frozen=True)
class Health:
    """What damage and healing read and write."""

    hp: int
    max_hp: int
    temp_hp: int
    wounds: int
    max_wounds: int
    status: str  # active, dying, dead (heroes); active, defeated (monsters)
    hero: bool = True


@dataclass(frozen=True)
class Damage:
    """The result of one hit (NB-20..NB-23)."""

    after: Health
    temp_hp_absorbed: int
    hp_lost: int
    wounds_taken: int
    dropped_to_zero: bool


def take_damage(health: Health, amount: int, critical: bool) -> Damage:
    """NB-23: temporary HP are lost first; NB-20: then HP, and at 0 HP a hero gains 1 Wound and is
    Dying; NB-21: damage that reaches a Dying hero inflicts 2 Wounds (3 on a critical) instead;
    NB-22: the hero dies at the maximum. A monster at 0 HP is defeated (ruling: monsters take no
    Wounds). Ruling: damage fully absorbed by temporary HP (or 0 damage) reaches no one."""
    if amount < 0:
        raise ValueError("damage is never negative")
    if health.status in ("dead", "defeated") and health.hp == 0:
        raise ValueError("the creature is already out")
    absorbed = min(health.temp_hp, amount)
    rest = amount - absorbed
    hp_lost = min(health.hp, rest)
    hp = health.hp - hp_lost
    wounds = health.wounds
    dropped = health.hp > 0 and hp == 0
    status = health.status
    taken = 0
    if not health.hero:
        status = "defeated" if hp == 0 else status
    elif dropped:
        taken = 1
        status = "dying"
    elif health.status == "dying" and rest > 0:
        taken = WOUNDS_WHILE_DYING_CRITICAL if critical else WOUNDS_WHILE_DYING
    if taken:
        wounds = min(health.max_wounds, wounds + taken)
        taken = wounds - health.wounds
        if wounds >= health.max_wounds:
            status = "dead"
    after = Health(
        hp, health.max_hp, health.temp_hp - absorbed, wounds, health.max_wounds, status, health.hero
    )
    return Damage(after, absorbed, hp_lost, taken, dropped)


def check_damage(amount: int) -> None:
    """NB-20: damage is a number of HP lost, never negative."""
    if amount < 0:
        raise InvalidInput("damage is never negative", field="amount", rule="NB-20")


def concentration_after(
    concentration: dict[str, Any] | None, hp: int, critical: bool
) -> str | None:
    """NB-25: a hit ends Concentration at 0 HP; a critical one calls for its STR save."""
    if concentration is None:
        return None
    if hp == 0:
        return "ended"
    return "save_needed" if critical else "kept"


def damage_summary(hit: Damage, amount: int, critical: bool) -> dict[str, Any]:
    """What a hit of `amount` did (NB-20..NB-23), as the damage contract tells it."""
    after = hit.after
    return {
        "damage": amount,
        "critical": critical,
        "temp_hp_absorbed": hit.temp_hp_absorbed,
        "hp": after.hp,
        "temp_hp": after.temp_hp,
        "wounds": after.wounds,
        "wounds_taken": hit.wounds_taken,
        "max_wounds": after.max_wounds if after.hero else None,
        "status": after.status,
        "dying": after.status == "dying",
        "dead": after.status == "dead",
    }


def take_wounds(health: Health, wounds: int) -> Health:
    """NB-21: a Wound from attacking while Dying (failed STR save); NB-22: death at the maximum."""
    total = min(health.max_wounds, health.wounds + wounds)
    status = "dead" if total >= health.max_wounds else health.status
    return Health(
        health.hp, health.max_hp, health.temp_hp, total, health.max_wounds, status, health.hero
    )


def heal(health: Health, amount: int) -> Health:
    """NB-20: HP back, up to the maximum; HP above 0 end Dying (a defeated monster is back).
    Wounds do not heal this way (NB-22). The dead are beyond healing (the caller refuses)."""
    hp = min(health.max_hp, health.hp + amount)
    status = "active" if hp > 0 and health.status in ("dying", "defeated") else health.status
    return Health(
        hp, health.max_hp, health.temp_hp, health.wounds, health.max_wounds, status, health.hero
    )


def safe_rest(health: Health, max_mana: int) -> tuple[Health, dict[str, int], int]:
    """NB-22/NB-23 (ruling for what the chapter leaves to the rest rules): a Safe Rest heals
    1 Wound, restores HP and mana to their maximum and clears temporary HP; HP above 0 end Dying.
    Returns the new health, the resource levels and the Wounds healed."""
    healed = 1 if health.wounds > 0 else 0
    after = Health(
        health.max_hp,
        health.max_hp,
        0,
        health.wounds - healed,
        health.max_wounds,
        "active",
        health.hero,
    )
    levels = {"hp": after.hp, "temp_hp": 0, "wounds": after.wounds, "mana": max_mana}
    return after, levels, healed


def keep_temp_hp(current: int, offered: int, keep: Keep) -> int:
    """NB-23: temporary HP do not stack: the hero keeps one amount of its choice."""
    if keep == "new":
        return offered
    if keep == "current":
        return current
    return max(current, offered)


def grapple_conditions(
    grappler_id: str, target_id: str, size: str, scene_id: str
) -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]:
    """NB-24: the conditions a successful grab gives the grappler and its target: a grapple of a
    smaller or same-size creature, or riding a larger one (Mounted)."""
    if size == "larger":
        return (
            (MOUNTED, {"on_id": target_id, "scene_id": scene_id, "rule": "NB-24"}),
            (RIDDEN, {"by_id": grappler_id, "scene_id": scene_id, "rule": "NB-24"}),
        )
    movement = (
        "the target cannot move and is dragged along"
        if size == "smaller"
        else "either may move with the other at half speed"
    )
    return (
        (
            GRAPPLING,
            {
                "target_id": target_id,
                "size": size,
                "movement": movement,
                "scene_id": scene_id,
                "rule": "NB-24",
            },
        ),
        (
            GRAPPLED,
            {
                "by_id": grappler_id,
                "size": size,
                "movement": movement,
                "scene_id": scene_id,
                "rule": "NB-24",
            },
        ),
    )


def move_speed(name: str, conditions: dict[str, dict[str, Any]], speed: int) -> int:
    """NB-24: the squares a Move action gives while held. Restrained, grappled by a bigger
    creature, or riding one (Mounted: it moves with its mount): no move of one's own (409
    `cannot_move`). A same-size grapple: either moves with the other at half speed (rounded
    down, ruling). Dragging a smaller creature, or carrying a rider: full speed (ruling: the
    source names no penalty)."""
    held = next((c for c in (RESTRAINED, MOUNTED) if c in conditions), None)
    grappled = conditions.get(GRAPPLED)
    if held is None and grappled is not None and grappled.get("size") != "same":
        held = GRAPPLED
    if held is not None:
        why = {
            RESTRAINED: "is Restrained and cannot move",
            MOUNTED: "rides its mount and moves only with it",
            GRAPPLED: "is grappled by a bigger creature and cannot move (it is dragged along)",
        }[held]
        raise Conflict(
            f"{name} {why}",
            field="character_id",
            code="cannot_move",
            rule="NB-24",
            details={"condition": held},
        )
    same = [c for c in (GRAPPLING, GRAPPLED) if conditions.get(c, {}).get("size") == "same"]
    return speed // 2 if same else speed


def partner_of(name: str, condition: dict[str, Any]) -> str | None:
    """The other creature of a grapple condition (None for the others)."""
    for key in ("target_id", "by_id", "on_id"):
        if name in GRAPPLE_CONDITIONS and key in condition:
            return str(condition[key])
    return None


PARTNER_CONDITION = {GRAPPLING: GRAPPLED, GRAPPLED: GRAPPLING, MOUNTED: RIDDEN, RIDDEN: MOUNTED}


@dataclass
class AttackEdge:
    """What the conditions of an attacker and its target add to an attack (NB-24, NB-26)."""

    advantage: int = 0
    disadvantage: int = 0
    reasons: list[str] = field(default_factory=list)
    can_target: bool = True
    miss_hits_attacker: bool = False
    from_hiding: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "advantage": self.advantage,
            "disadvantage": self.disadvantage,
            "reasons": list(self.reasons),
            "can_target": self.can_target,
            "miss_hits_attacker": self.miss_hits_attacker,
            "from_hiding": self.from_hiding,
        }


def attack_edge(
    attacker_id: str,
    attacker: dict[str, dict[str, Any]],
    target_id: str,
    target: dict[str, dict[str, Any]],
) -> AttackEdge:
    """NB-24/NB-26: the advantage and disadvantage an attack gets from the conditions of the
    attacker and the target (name -> details, as kept on the characters). Ruling: each source
    counts one step; the steps add up and cancel as NB-11 says."""
    edge = AttackEdge()
    if HIDDEN in attacker:
        edge.advantage += 1
        edge.from_hiding = True
        edge.reasons.append("the attacker attacks from hiding: advantage (NB-26)")
    if GRAPPLED in target or GRAPPLING in target:
        edge.advantage += 1
        edge.reasons.append("the target is in a grapple: advantage (NB-24)")
    if RESTRAINED in target:
        edge.advantage += 1
        edge.reasons.append("the target is Restrained: advantage (NB-24)")
    rider = target.get(MOUNTED)
    if rider is not None and str(rider.get("on_id")) == attacker_id:
        edge.disadvantage += 1
        edge.miss_hits_attacker = True
        edge.reasons.append(
            "the target rides the attacker: disadvantage, and a miss hits the attacker (NB-24)"
        )
    if HIDDEN in target:
        # NB-17/NB-26: "a hidden hero may Interpose; the attack on it has disadvantage, as usual".
        # Ruling: a step of its own, on top of the partial cover it hides in.
        edge.disadvantage += 1
        edge.reasons.append("the target is hidden: disadvantage (NB-26)")
    cover = target.get(COVER, {}).get("level")
    if cover == "partial":
        edge.disadvantage += 1
        edge.reasons.append("the target has cover: disadvantage (NB-26)")
    elif cover == "full":
        edge.can_target = False
        edge.reasons.append("the target has full cover: it usually cannot be targeted (NB-26)")
    return edge


def max_actions(status: str, usual: int) -> int:
    """NB-21: a Dying hero has at most 1 action per turn; the dead none."""
    if status == "dead":
        return 0
    return min(usual, DYING_ACTIONS) if status == "dying" else usual


def members(group: tuple[int, int] | None, hp: int) -> dict[str, int] | None:
    """A monster (group)'s members at its HP now: {"count", "left"}; None for a hero."""
    if group is None:
        return None
    count, each = group
    return {"count": count, "left": min(count, members_left(each, hp))}


def health_view(
    resources: dict[str, int],
    status: str,
    conditions: dict[str, dict[str, Any]],
    concentration: dict[str, Any] | None,
    maxima: dict[str, int | None],
    hero: bool,
    group: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """What the character views show of NB-20..NB-26: HP, temporary HP, Wounds, Dying or dead,
    the conditions, the Concentration and what a Safe Rest refreshes. `maxima`: max hp, mana and
    wounds (None where there is none); `group`: a monster's count and HP of each member."""
    wounds = int(resources.get("wounds", 0))
    max_hp = maxima.get("hp") or 0
    hp = int(resources.get("hp", 0))
    return {
        "hp": hp,
        "max_hp": max_hp,
        "temp_hp": int(resources.get("temp_hp", 0)),
        "wounds": wounds,
        "max_wounds": maxima.get("wounds") if hero else None,
        "status": status,
        "dying": status == "dying",
        "dead": status == "dead",
        "max_actions": max_actions(status, 3),
        "members": members(group, hp),
        "conditions": {name: dict(c) for name, c in conditions.items()},
        "concentration": dict(concentration) if concentration else None,
        "safe_rest": (
            {
                "hp": max_hp,
                "mana": maxima.get("mana") or 0,
                "temp_hp": 0,
                "wounds": max(0, wounds - 1),
                "ends": ["dying", "conditions", "concentration"],
            }
            if hero
            else None
        ),
    }


def condition_list(
    status: str, conditions: dict[str, dict[str, Any]], concentration: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The same as entries of a character's `conditions` list (each with a `name`)."""
    found: list[dict[str, Any]] = []
    if status in ("dying", "dead"):
        found.append({"name": status, "rule": "NB-21" if status == "dying" else "NB-22"})
    found += [{"name": name, **c} for name, c in conditions.items()]
    if concentration:
        found.append({"name": "concentrating", **concentration, "rule": "NB-25"})
    return found


# ---- refusals: what the rules forbid, before any event (the commands call these) -----------------

Conditions = dict[str, dict[str, Any]]


def check_standing(name: str, status: str, hp: int, field: str) -> None:
    """NB-20/NB-22: the dead, and a defeated monster at 0 HP, take no more part."""
    if status == "dead" or (status == "defeated" and hp == 0):
        raise Conflict(
            f"{name} is {status}",
            field=field,
            code="out_of_the_fight",
            rule="NB-22" if status == "dead" else "NB-20",
        )


def check_dying(name: str, status: str) -> None:
    """NB-21: only a Dying hero makes the Dying save."""
    if status != "dying":
        raise Conflict(f"{name} is not Dying", field="character_id", code="not_dying", rule="NB-21")


def check_grapple_form(size: str, skill: str) -> None:
    """NB-24: the target's size against the grappler's, and the skill of the check."""
    if size not in ("smaller", "same", "larger"):
        raise InvalidInput("size is smaller, same or larger", field="size", rule="NB-24")
    if skill.casefold() not in ("might", "finesse"):
        raise InvalidInput("grapple with Might or Finesse", field="skill", rule="NB-24")


def check_not_grabbing_itself(grappler: str, target: str) -> None:
    """NB-24: a grapple is of another creature."""
    if target == grappler:
        raise InvalidInput("a creature cannot grapple itself", field="target_id", rule="NB-24")


def check_grabbable(name: str, can_target: bool) -> None:
    """NB-26: full cover cannot be grabbed, as it cannot be attacked."""
    if not can_target:
        raise Conflict(
            f"{name} has full cover and cannot be grabbed",
            field="target_id",
            code="full_cover",
            rule="NB-26",
        )


def check_grapple_outside_encounter(in_running_encounter: bool, *, by_gm: bool) -> None:
    """NB-24 with NB-7 and NB-10: a grapple is an action and an attack of the turn. A player's
    grapple by a creature of a running encounter goes through the encounter's verb, which spends
    the action and counts the attack from the record; this verb would take both from the request
    (`attack_number`). The GM may still give them itself."""
    if in_running_encounter and not by_gm:
        raise Conflict(
            "this creature is in the scene's running encounter: grapple through POST "
            "/v1/scenes/{id}/nimble/grapples, which spends the action and counts the attack",
            field="scene_id",
            code="encounter_running",
            rule="NB-24",
        )


def grapple_modifier(skills: dict[str, int] | None, skill: str, given: int | None) -> int:
    """NB-24: a hero's (`skills`) check modifier comes from its sheet; a monster's is what the GM
    gives (else +0)."""
    if skills is None:
        return given if given is not None else 0
    if given is not None:
        raise InvalidInput(
            "a hero's modifier comes from its sheet; give one only for a monster", field="modifier"
        )
    return next((v for k, v in skills.items() if k.casefold() == skill.casefold()), 0)


def check_free_to_grapple(
    grappler: str, holding: Conditions, target: str, held: Conditions, field: str
) -> None:
    """NB-24: a creature holds one creature at a time, and is held by one at a time."""
    busy = [n for n in (GRAPPLING, MOUNTED) if n in holding]
    if busy:
        raise Conflict(
            f"{grappler} already holds a creature ({busy[0]}): release it first",
            field=field,
            code="already_grappling",
            rule="NB-24",
        )
    taken = [n for n in (GRAPPLED, RIDDEN) if n in held]
    if taken:
        raise Conflict(
            f"{target} is already {taken[0]}",
            field="target_id",
            code="already_grappled",
            rule="NB-24",
        )


def check_holding(name: str, conditions: Conditions) -> None:
    """NB-24: only a grappler (or a rider) lets go."""
    if not any(n in conditions for n in (GRAPPLING, MOUNTED)):
        raise Conflict(
            f"{name} holds no creature", field="character_id", code="not_grappling", rule="NB-24"
        )


def escaped_condition(name: str, conditions: Conditions, stat: str, condition: str | None) -> str:
    """NB-24: what the character escapes with its STR or DEX save: the one thing holding it,
    or the one named (when several hold it)."""
    if stat not in ("STR", "DEX"):
        raise InvalidInput("escape with a STR or DEX save", field="stat", rule="NB-24")
    held = [n for n in ESCAPABLE if n in conditions]
    if condition is not None:
        if condition not in ESCAPABLE:
            raise InvalidInput(
                f"condition is one of {', '.join(ESCAPABLE)}", field="condition", rule="NB-24"
            )
        held = [condition] if condition in held else []
    if not held:
        raise Conflict(
            f"{name} is not " + (condition or "grappled, ridden or restrained"),
            field="condition" if condition else "character_id",
            code="not_held",
            rule="NB-24",
        )
    if len(held) > 1:
        raise InvalidInput(
            f"{name} is {' and '.join(held)}: name the condition to escape",
            field="condition",
            rule="NB-24",
        )
    return held[0]


def check_restrained(name: str, conditions: Conditions) -> None:
    """NB-24: the GM frees only a restrained character."""
    if RESTRAINED not in conditions:
        raise Conflict(
            f"{name} is not restrained", field="character_id", code="not_held", rule="NB-24"
        )


def check_may_concentrate(name: str, concentration: dict[str, Any] | None, hp: int) -> None:
    """NB-25: one effect at a time, and not at 0 HP."""
    if concentration is not None:
        raise Conflict(
            f"{name} already concentrates on {concentration['effect']}: "
            "end it first (a free action)",
            field="effect",
            code="already_concentrating",
            rule="NB-25",
        )
    if hp == 0:
        raise Conflict(
            f"{name} is at 0 HP and cannot concentrate",
            field="character_id",
            code="cannot_concentrate",
            rule="NB-25",
        )


def check_concentrating(name: str, concentration: dict[str, Any] | None) -> dict[str, Any]:
    """NB-25: ending Concentration needs some; returns it."""
    if concentration is None:
        raise Conflict(
            f"{name} concentrates on nothing",
            field="character_id",
            code="not_concentrating",
            rule="NB-25",
        )
    return concentration


def check_save_due(name: str, concentration: dict[str, Any] | None) -> dict[str, Any]:
    """NB-25: a Concentration save only after a critical hit called for one; returns it."""
    if concentration is None or concentration["saves_due"] < 1:
        raise Conflict(
            f"{name} owes no Concentration save",
            field="character_id",
            code="no_save_due",
            rule="NB-25",
        )
    return concentration


def check_cover_change(name: str, conditions: Conditions, level: str) -> None:
    """NB-26: cover is none, partial or full, and a change changes it."""
    if level not in ("none", "partial", "full"):
        raise InvalidInput("level is none, partial or full", field="level", rule="NB-26")
    current = conditions.get(COVER, {}).get("level", "none")
    if level == current:
        raise Conflict(
            f"{name}'s cover is already {level}", field="level", code="no_change", rule="NB-26"
        )


def cover_to_hide_in(name: str, conditions: Conditions) -> str:
    """NB-26: a character hides once, behind some cover; returns its level."""
    if HIDDEN in conditions:
        raise Conflict(
            f"{name} is already hidden",
            field="character_id",
            code="already_hidden",
            rule="NB-26",
        )
    cover = conditions.get(COVER, {}).get("level")
    if cover is None:
        raise Conflict(
            f"{name} has no cover to hide behind",
            field="character_id",
            code="no_cover",
            rule="NB-26",
        )
    return str(cover)
