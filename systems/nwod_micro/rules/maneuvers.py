"""nWoD micro firefight decisions, pure: what each maneuver may do and the dice it brings (NW-2,
3, 6, 9..18). The commands (systems/nwod_micro/commands/fight.py) load, ask these, roll, record and
save; every refusal here depends only on the rules, the sheets and the firefight state, and raises
before anything is rolled or recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from domain.errors import Conflict, InvalidInput
from systems.nwod_micro.rules import combat
from systems.nwod_micro.rules import gear as gear_rules
from systems.nwod_micro.rules.sheet import (
    DAMAGE_BONUS,
    NwodSheet,
    Weapon,
    armor,
    attack_kind,
    defense,
)

State = Mapping[str, Any]
MOVING = ("walk", "run", "sprint")


def modifier(source: str, dice: int, rule: str) -> dict[str, Any]:
    """One entry of a roll request's dice modifiers, with where it comes from."""
    return {"source": source, "dice": dice, "rule": rule}


def spoken(maneuver: str) -> str:
    return maneuver.replace("_", " ")


# ---- who may take part -------------------------------------------------------------------------


def check_open(closed: bool) -> None:
    """A closed scene has no firefight left to change."""
    if closed:
        raise Conflict("the scene is closed", code="scene_closed")


def check_active(name: str, status: str, field: str) -> None:
    """NW-8: a character out of action takes no part (the GM says what 0 Health means)."""
    if status != "active":
        raise Conflict(f"{name} is {status}", code="out_of_action", field=field)


def check_not_pinned(state: State, fighter: str, name: str, doing: str) -> None:
    """NW-15: under suppressive fire a character first rolls VIO; a failure leaves it only
    taking cover."""
    pinned = state["suppressed"].get(fighter)
    if not pinned or doing == "take_cover":
        return
    if pinned["status"] == "must_take_cover":
        raise Conflict(
            f"{name} is pinned by suppressive fire and must spend its actions taking cover",
            code="suppressed",
            rule="NW-15",
        )
    if pinned["status"] == "pending":
        raise Conflict(
            f"{name} is under suppressive fire: roll VIO first, or take cover",
            code="suppression_pending",
            rule="NW-15",
        )


def check_pending_suppression(state: State, fighter: str, name: str) -> None:
    """NW-15: only a target of suppressive fire that has not rolled yet rolls against it."""
    pinned = state["suppressed"].get(fighter)
    if pinned is None or pinned["status"] != "pending":
        raise Conflict(
            f"{name} has no suppressive fire to roll against",
            code="not_suppressed",
            field="character_id",
            rule="NW-15",
        )


def check_may_rejoin(state: State, fighter: str, name: str, by_gm: bool) -> None:
    """NW-8: a fighter the GM took out comes back only by the GM's decision (the GM rolls its
    Initiative again)."""
    if fighter in state.get("out", {}) and not by_gm:
        raise Conflict(
            f"{name} was taken out of this fight; only the GM brings it back",
            code="taken_out",
            field="character_id",
            rule="NW-8",
            details=dict(state["out"][fighter]),
        )


def check_first_initiative(state: State, fighter: str, name: str) -> None:
    """NW-14: Initiative is rolled once per fight."""
    if fighter in state["initiative"]:
        raise Conflict(
            f"{name} has already rolled Initiative in this fight",
            code="initiative_rolled",
            field="character_id",
            rule="NW-14",
            details={"total": state["initiative"][fighter]["total"]},
        )


# ---- a sheet's merits and weapons, the situation ------------------------------------------------


def weapon_of(sheet: NwodSheet, owner: str, name: str) -> Weapon:
    """NW-11: a weapon of the sheet, by name (case aside)."""
    for weapon in sheet.weapons:
        if weapon.name.casefold() == name.casefold():
            return weapon
    raise InvalidInput(
        f"{owner} has no weapon {name!r}",
        field="weapon",
        rule="NW-11",
        details={"known": [w.name for w in sheet.weapons]},
    )


def merit_dice(sheet: NwodSheet, owner: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """NW-3/NW-18: a named merit's dice modifier applies exactly as written on the sheet."""
    found: list[dict[str, Any]] = []
    for name in dict.fromkeys(names):
        merit = next((m for m in sheet.merits if m.name.casefold() == name.casefold()), None)
        if merit is None:
            raise InvalidInput(
                f"{owner} has no merit {name!r}",
                field="merits",
                rule="NW-3",
                details={"known": [m.name for m in sheet.merits]},
            )
        if merit.dice_modifier is None:
            raise InvalidInput(
                f"the merit {merit.name!r} has no dice modifier; it works as its text says "
                "(the GM applies it)",
                field="merits",
                rule="NW-18",
            )
        found.append(modifier(f"merit: {merit.name}", merit.dice_modifier, "NW-18"))
    return found


def situation_dice(conditions: Sequence[str], gm_dice: int) -> list[dict[str, Any]]:
    """NW-17: bad weather, smoke, fog, too little or too much light -2d10 (ruling: once, they
    do not stack); a GM's other modifier as given."""
    if any(condition not in combat.CONDITIONS for condition in conditions):
        raise InvalidInput(
            f"conditions are {', '.join(combat.CONDITIONS)}", field="conditions", rule="NW-17"
        )
    mods: list[dict[str, Any]] = []
    if conditions:
        label = ", ".join(dict.fromkeys(conditions))
        mods.append(modifier(label, combat.CONDITION_PENALTY, "NW-17"))
    if gm_dice:
        mods.append(modifier("situation (GM)", gm_dice, "NW-17"))
    return mods


# ---- attacks (NW-6, 8, 10, 11, 13, 15..18) ---------------------------------------------------


def attack_spec(maneuver: str, kind: str) -> dict[str, Any]:
    """NW-15: the maneuver's dice, rounds and targets; some are ranged or melee only."""
    spec = combat.ATTACKS.get(maneuver)
    if spec is None:
        raise InvalidInput(
            f"attack maneuvers are {', '.join(combat.ATTACKS)}", field="maneuver", rule="NW-15"
        )
    if spec["kind"] is not None and spec["kind"] != kind:
        raise InvalidInput(
            f"a {spoken(maneuver)} is a {spec['kind']} attack", field="kind", rule="NW-15"
        )
    return spec


def check_target_ids(
    target_ids: Sequence[UUID], attacker_id: UUID, maneuver: str, spec: Mapping[str, Any]
) -> list[UUID]:
    """NW-15: each target once, as many as the maneuver reaches; never the attacker itself."""
    ids = list(dict.fromkeys(target_ids))
    if len(ids) != len(target_ids):
        raise InvalidInput("each target once", field="target_ids")
    most = spec["targets"]
    if not ids or len(ids) > most:
        raise InvalidInput(
            f"a {spoken(maneuver)} has 1" + (f" to {most} targets" if most > 1 else " target"),
            field="target_ids",
            rule="NW-15",
        )
    if attacker_id in ids:
        raise InvalidInput("a character does not attack itself", field="target_ids")
    return ids


class _Shot(Protocol):
    """What every attack names: its maneuver, its range band and, for a precise shot, where it
    hits."""

    @property
    def maneuver(self) -> str: ...
    @property
    def range(self) -> str: ...
    @property
    def hit_location(self) -> str | None: ...


class Aim(_Shot, Protocol):
    """How an attack is aimed (an nWoD attack request is one): a shot of a known kind."""

    @property
    def kind(self) -> str: ...


class Aiming(_Shot, Protocol):
    """An attack as sent (an nWoD attack request): its kind may be left to the weapon."""

    @property
    def kind(self) -> str | None: ...


def check_attack(state: State, attacker: str, name: str, aim: Aim) -> None:
    """An attack is one action of the attacker's turn (NW-14, 15), within what its maneuver,
    range (NW-17) and cover (NW-13) allow."""
    if aim.hit_location is not None and aim.maneuver != "precise":
        raise InvalidInput(
            "only a precise shot chooses the hit location", field="hit_location", rule="NW-15"
        )
    if aim.kind == "melee" and aim.range != "close":
        raise InvalidInput("melee attacks are at close range", field="range", rule="NW-17")
    cover = state["cover"].get(attacker)
    if aim.kind == "melee" and cover and cover["kind"] == "full":
        raise Conflict(
            f"{name} is in full cover: it can only fire back blind",
            code="in_full_cover",
            field="kind",
            rule="NW-13",
        )
    combat.check_turn(state, attacker, name)
    combat.check_actions(state, attacker, name, 1)
    check_not_pinned(state, attacker, name, "attack")


@dataclass(frozen=True)
class Firing:
    """The weapon an attack uses (NW-11): its name, damage bonus and, with a magazine, its
    ammunition after the attack (NW-16)."""

    weapon: str | None = None
    bonus: int = 0
    gear: Mapping[str, int] | None = None

    @property
    def rounds_left(self) -> int | None:
        return None if self.gear is None else int(self.gear["loaded"])


def firing(
    gun: Weapon | None, aim: Aim, rounds: int | None, gear: Mapping[str, int] | None
) -> Firing:
    """NW-11, 16: a ranged attack names its weapon; bursts need a magazine, whose loaded rounds
    (`gear`, the character's ammunition) must hold the rounds they spend; a weapon without a
    magazine spends none."""
    if gun is None:
        if aim.kind == "ranged":
            raise InvalidInput(
                "a ranged attack names the weapon it fires", field="weapon", rule="NW-11"
            )
        if rounds is not None:
            raise InvalidInput("rounds need a weapon with a magazine", field="rounds", rule="NW-16")
        return Firing()
    bonus = DAMAGE_BONUS[gun.damage_class]
    if combat.ATTACKS[aim.maneuver]["rounds"] not in (None, 0) and gun.magazine is None:
        raise InvalidInput(
            f"{gun.name} has no magazine to fire bursts from", field="weapon", rule="NW-16"
        )
    if aim.kind == "ranged" and gear is not None:
        spent = combat.check_rounds(aim.maneuver, rounds, int(gear["loaded"]), gun.name)
        return Firing(gun.name, bonus, gear_rules.fired(gear, spent))
    if rounds is not None:
        raise InvalidInput(f"{gun.name} spends no rounds", field="rounds", rule="NW-16")
    return Firing(gun.name, bonus)


@dataclass(frozen=True)
class Aimed:
    """An attack's aim with its kind decided (`aimed`)."""

    kind: str
    maneuver: str
    range: str
    hit_location: str | None


def aimed(request: Aiming, gun: Weapon | None) -> Aimed:
    """The attack as sent, with its kind decided (`kind_of`)."""
    kind = kind_of(request.kind, request.maneuver, gun)
    return Aimed(kind, request.maneuver, request.range, request.hit_location)


def kind_of(kind: str | None, maneuver: str, gun: Weapon | None) -> str:
    """NW-6: an attack's kind as sent; else the maneuver's own (a burst is ranged, a reckless
    attack melee, NW-15), else the weapon's (sheet.attack_kind); no weapon: a melee blow."""
    if kind is not None:
        return kind
    own = combat.ATTACKS.get(maneuver, {}).get("kind")
    if own is not None:
        return str(own)
    return attack_kind(gun) if gun is not None else "melee"


def attack_dice(state: State, attacker: str, aim: Aim) -> list[dict[str, Any]]:
    """The attacker's own dice: maneuver and aim (NW-15), dodging (NW-15), blind fire from full
    cover (NW-13), range (NW-17)."""
    spec = combat.ATTACKS[aim.maneuver]
    dice: list[dict[str, Any]] = []
    if spec["dice"]:
        dice.append(modifier(spoken(aim.maneuver), spec["dice"], "NW-15"))
    aimed = int(state["aim"].get(attacker, 0))
    if aimed and aim.kind == "ranged":
        dice.append(modifier(f"aim ({aimed} action(s))", aimed, "NW-15"))
    if combat.dodging_now(state, attacker):
        dice.append(modifier("dodging this turn", combat.DODGE_OWN_PENALTY, "NW-15"))
    cover = state["cover"].get(attacker)
    if cover and cover["kind"] == "full":
        dice.append(modifier("blind fire from full cover", combat.BLIND_FIRE_PENALTY, "NW-13"))
    band = combat.RANGES[aim.range]
    if aim.kind == "ranged" and band:
        dice.append(modifier(f"{spoken(aim.range)} range", band, "NW-17"))
    return dice


@dataclass(frozen=True)
class Shot:
    """What every roll of one attack shares: its kind, the attacker's VIO and dice, the weapon's
    damage bonus, and whether it is blind (NW-5) or unseen by the target (NW-15)."""

    kind: str
    violence: int
    dice: list[dict[str, Any]]
    bonus: int = 0
    darkness: bool = False
    sneak: bool = False

    def at(
        self,
        state: State,
        target: str,
        sheet: NwodSheet,
        health: int,
        will_power: int,
        penalty: int,
        purpose: str,
    ) -> dict[str, Any]:
        """The fight_roll request against one target: its cover (NW-13), Defense (NW-6, 9, 10,
        12, 15) and armour (NW-12, plus full cover's DUR); `penalty`: a long burst's (NW-15)."""
        mods = list(self.dice)
        cover = state["cover"].get(target)
        durability = 0
        if cover:
            partial = cover["kind"] == "partial"
            label = "target in partial cover" if partial else "no line of sight (full cover)"
            mods.append(modifier(label, combat.COVER_PENALTY, "NW-13"))
            durability = 0 if partial else int(cover["durability"])
        guard = combat.defense_against(state, target, defense(sheet), self.kind, self.sneak)
        return {
            "kind": self.kind,
            "affinity": "VIO",
            "affinity_value": self.violence,
            "modifiers": mods,
            "target_defense": guard["value"],
            "chance_only": self.darkness,
            "will_power": will_power,
            "damage_bonus": self.bonus,
            "damage_penalty": penalty,
            "target_armor": armor(sheet) + durability,
            "target_health": health,
            "purpose": purpose,
        }


def universal(
    affinity: str,
    value: int,
    dice: list[dict[str, Any]],
    darkness: bool,
    will_power: int,
    purpose: str,
) -> dict[str, Any]:
    """A fight_roll request of an Affinity alone (NW-4, 5, 9, 17, 18): no target."""
    return {
        "kind": "universal",
        "affinity": affinity,
        "affinity_value": value,
        "modifiers": dice,
        "chance_only": darkness,
        "will_power": will_power,
        "purpose": purpose,
    }


def burst_penalty(maneuver: str, index: int) -> int:
    """NW-15: a long burst's second target takes -1 damage, its third -2."""
    return combat.LONG_BURST_PENALTY[index] if maneuver == "long_burst" else 0


# ---- maneuvers without a roll (NW-2, 13, 15..17) -----------------------------------------------


class Move(Protocol):
    """A maneuver without a roll and its options (an nWoD action request is one)."""

    @property
    def maneuver(self) -> str: ...
    @property
    def cover(self) -> str | None: ...
    @property
    def cover_durability(self) -> int: ...
    @property
    def weapon(self) -> str | None: ...
    @property
    def dodge(self) -> bool: ...
    @property
    def difficult_terrain(self) -> bool: ...


def check_move(move: Move) -> None:
    """What each maneuver combines with: dodging and difficult terrain with a movement only,
    cover with taking cover, a weapon with reloading."""
    if move.maneuver not in combat.MOVES:
        raise InvalidInput(
            f"maneuvers are {', '.join(combat.MOVES)}", field="maneuver", rule="NW-15"
        )
    moving = move.maneuver in MOVING
    if move.dodge and not moving:
        raise InvalidInput("dodging combines with a movement only", field="dodge", rule="NW-15")
    if move.difficult_terrain and not moving:
        raise InvalidInput(
            "difficult terrain slows movement", field="difficult_terrain", rule="NW-17"
        )
    if move.maneuver == "take_cover":
        combat.check_cover(move.cover, move.cover_durability)
    elif move.cover is not None or move.cover_durability:
        raise InvalidInput("cover is for take_cover", field="cover", rule="NW-13")
    if move.weapon is not None and move.maneuver != "reload":
        raise InvalidInput("a weapon is named to reload it", field="weapon")


def move_cost(move: Move) -> int | str:
    """NW-15: what the maneuver costs. Dodging "combines with movement": it rides on a run's or
    a sprint's action at no extra cost; walking takes no action, so a walk while dodging costs the
    dodge's one."""
    cost = combat.MOVES[move.maneuver]
    if move.dodge and cost == 0:
        return combat.MOVES["dodge"]
    return cost


def check_may_move(state: State, fighter: str, name: str, move: Move) -> int:
    """The maneuver in the fighter's turn (NW-14), with actions enough (NW-15), not pinned by
    suppressive fire (NW-15); returns the actions it costs."""
    combat.check_turn(state, fighter, name)
    cost = combat.check_actions(state, fighter, name, move_cost(move))
    check_not_pinned(state, fighter, name, move.maneuver)
    if move.maneuver == "aim":
        combat.check_aim(state, fighter, name)
    return cost


def reloaded(sheet: NwodSheet, owner: str, weapon: str | None) -> Weapon:
    """NW-16: a reload names a weapon of the sheet that has a magazine."""
    if weapon is None:
        raise InvalidInput("name the weapon to reload", field="weapon", rule="NW-16")
    gun = weapon_of(sheet, owner, weapon)
    if gun.magazine is None:
        raise InvalidInput(f"{gun.name} has no magazine", field="weapon", rule="NW-16")
    return gun


# ---- Will Power (NW-9) and contests (NW-6) ---------------------------------------------------


def check_boost(boost: str, points: int) -> None:
    """NW-9: Will Power raises Defense or Initiative, a point or more at a time."""
    if boost not in ("defense", "initiative"):
        raise InvalidInput("Will Power raises defense or initiative", field="boost", rule="NW-9")
    if points < 1:
        raise InvalidInput("spend at least 1 Will Power", field="points", rule="NW-9")


def check_sides(character_ids: Sequence[UUID]) -> None:
    """NW-6: a contest has two sides or more, each a different character."""
    if len(character_ids) < 2:
        raise InvalidInput("a contest has at least two sides", field="sides", rule="NW-6")
    if len(set(character_ids)) != len(character_ids):
        raise InvalidInput("each character takes one side", field="sides", rule="NW-6")


@dataclass(frozen=True)
class Standing:
    """One side's result in a contest (NW-6)."""

    character_id: str
    roll_id: str
    successes: int


def winner(sides: Sequence[Standing]) -> str | None:
    """NW-6: more successes win. Ruling: equal best results are a tie, which the GM resolves."""
    best = max(side.successes for side in sides)
    leaders = [side.character_id for side in sides if side.successes == best]
    return leaders[0] if len(leaders) == 1 else None
