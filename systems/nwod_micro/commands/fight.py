"""nWoD micro firefights: initiative, two actions, maneuvers, weapons, armour, cover, ammunition,
Will Power (NW-1..18). Each command loads through a `Turn`, asks the pure rules
(systems/nwod_micro/rules/maneuvers.py, combat.py), rolls, records and saves once."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Roll, RollChain, Scene
from domain.aggregates._checks import not_enough
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import PageBoundary, PagedPart, Sheeted, Turn
from domain.errors import InvalidInput
from domain.rolls import declared_by
from domain.rulesets.base import modifier_entry
from systems.nwod_micro.requests import (
    ActionCreate,
    AttackCreate,
    InitiativeCreate,
    NwodContestCreate,
    NwodRollCreate,
    NwodSituation,
    SuppressionRollCreate,
    TakeOut,
    TurnEnd,
    TurnOverride,
    WillPowerCreate,
)
from systems.nwod_micro.rules import combat, gear, maneuvers
from systems.nwod_micro.rules.maneuvers import Standing
from systems.nwod_micro.rules.sheet import NwodSheet, Weapon, actions_per_turn, speeds

if TYPE_CHECKING:
    from systems.nwod_micro.commands import Nwod

RULESET = "nwod-micro"
AREA = "fight"  # the firefight's state on the scene (Ruleset.scene_states)


@dataclass
class NwFighter(Sheeted):
    """A character in a firefight, with its nWoD sheet."""

    sheet: NwodSheet


def check_will_power(fighter: NwFighter, points: int) -> None:
    """NW-9: Will Power never goes below 0."""
    have = fighter.level("will_power")
    if points > have:
        raise not_enough(fighter.name, "resource", "will_power", have, points, "NW-9")


def out_of_turn(state: dict[str, Any], fighter: NwFighter) -> dict[str, bool]:
    """An action taken by the GM's leave while another fighter's turn is on (NW-14)."""
    return {"out_of_turn": True} if combat.current(state) != fighter.key else {}


# ---- what each command tells its presenter --------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FightResult:
    """A firefight command's answer: its (first) roll, if any, and what came of it (`outcome`)."""

    roll_id: UUID | None = None

    def outcome(self) -> dict[str, Any]:
        """By default every field but the roll, as it is (answers with more to say override it)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "roll_id"}


@dataclass(frozen=True, kw_only=True)
class InitiativeRolled(FightResult):
    total: int


@dataclass(frozen=True, kw_only=True)
class Attacked(FightResult):
    """One roll per target (`rolls`), or one for suppressive fire, and whom it pins."""

    maneuver: str
    rolls: tuple[dict[str, Any], ...]
    rounds_left: int | None
    suppressed: tuple[str, ...]

    def outcome(self) -> dict[str, Any]:
        return {
            "maneuver": self.maneuver,
            "rolls": list(self.rolls),
            "rounds_left": self.rounds_left,
            "suppressed": list(self.suppressed),
            # NW-8: the consequences of 0 Health are narrative: the GM says what happens.
            "at_zero_health": [r["target_id"] for r in self.rolls if r.get("at_zero_health")],
        }


@dataclass(frozen=True, kw_only=True)
class Moved(FightResult):
    """A maneuver without a roll; the numbers of the maneuvers that have them."""

    maneuver: str
    actions: int
    aim: int | None = None
    rounds_left: int | None = None
    spare_magazines: int | None = None
    metres: int | None = None
    dodging: bool | None = None

    def outcome(self) -> dict[str, Any]:
        shown = {"maneuver": self.maneuver, "actions": self.actions}
        extra = {"aim": self.aim, "rounds_left": self.rounds_left, "metres": self.metres}
        extra["spare_magazines"] = self.spare_magazines
        extra["dodging"] = self.dodging
        return shown | {k: v for k, v in extra.items() if v is not None}


@dataclass(frozen=True, kw_only=True)
class Boosted(FightResult):
    boost: str
    points: int
    will_power: int


@dataclass(frozen=True, kw_only=True)
class SuppressionRolled(FightResult):
    held: bool


@dataclass(frozen=True, kw_only=True)
class PoolRolled(FightResult):
    successes: int


@dataclass(frozen=True, kw_only=True)
class Contested(FightResult):
    sides: tuple[Standing, ...]
    winner_id: str | None

    def outcome(self) -> dict[str, Any]:
        sides = [asdict(side) for side in self.sides]
        return {"sides": sides, "winner_id": self.winner_id, "tie": self.winner_id is None}


# ---- the rolls of one command ---------------------------------------------------------------


@dataclass
class Dice:
    """The rolls one command makes, linked into one chain in order, with the roller's client
    seed and declared situational modifier (NW-17, under player_modifiers)."""

    turn: Turn
    seed: str | None
    modifier: int = 0
    chain: RollChain | None = None
    made: list[Aggregate] = field(default_factory=list)
    first: Roll | None = None

    def took(self, new: list[Any]) -> Roll:
        """The aggregates one roll made (its roll first, then its chain link): kept to save."""
        roll, self.chain = new[0], new[1]
        assert isinstance(roll, Roll) and isinstance(self.chain, RollChain)
        self.made.extend(new)
        self.first = self.first or roll
        return roll

    @property
    def first_id(self) -> UUID | None:
        return self.first.id if self.first else None

    def save(self, result: FightResult) -> Outcome:
        return self.turn.save(None, *self.made, result=result)


@dataclass(frozen=True)
class Rolled:
    result: dict[str, Any]
    roll: Roll


# ---- the firefight --------------------------------------------------------------------------


class Fight(PagedPart):
    """The firefight commands of nWoD micro, a part of its system (`Nwod.fight`)."""

    system: Nwod

    # ---- loading ----------------------------------------------------------------------------

    def _turn(self, ctx: CommandContext, scene_id: UUID, *, gm: bool = False) -> Turn:
        turn = self.system.turn(ctx, scene_id, gm=gm)
        maneuvers.check_open(turn.scene.closed)
        return turn

    @staticmethod
    def _fighter(turn: Turn, character_id: UUID, field: str) -> NwFighter:
        found = turn.character(character_id, field)
        maneuvers.check_active(found.name, found.character.status, field)
        assert isinstance(found.sheet, NwodSheet)
        return NwFighter(found.character, found.sheet)

    def _acting(self, turn: Turn, character_id: UUID, field: str = "character_id") -> NwFighter:
        fighter = self._fighter(turn, character_id, field)
        turn.acting(character_id, field)
        return fighter

    @staticmethod
    def _state(turn: Turn) -> dict[str, Any]:
        return turn.scene.state(RULESET, AREA)

    @staticmethod
    def _change(turn: Turn, change: str, details: dict[str, Any]) -> None:
        turn.scene.change_state(RULESET, AREA, change, details)

    def _roll(
        self,
        dice: Dice,
        fighter: NwFighter,
        request: dict[str, Any],
        check: str = "fight_roll",
        earlier_modifiers: tuple[dict[str, Any], ...] = (),
    ) -> Rolled:
        """One roll of the command's dice, by the fighter, on the scene's commitment; `earlier_modifiers`:
        modifier entries of numbers the record took from someone earlier (a cover's DUR)."""
        turn = dice.turn
        # The modifier is a field of the body itself (path ""); the command runner records where
        # the body sits in the command's arguments (domain.commands.argument_path).
        outcome, new = turn.roll(
            check,
            request,
            fighter.character,
            dice.seed,
            chain=dice.chain,
            declared=declared_by({"modifier": dice.modifier}),
            earlier_modifiers=earlier_modifiers,
        )
        return Rolled(outcome.result, dice.took(new))

    def page_advanced(self, at: PageBoundary) -> None:
        """NW-7/NW-15: each page is a turn: actions and Initiative boosts reset (defences last until
        their fighter's next turn, combat._expire)."""
        if AREA in at.scene.states:
            at.scene.change_state(RULESET, AREA, "turn_started", {"turn": at.scene.page})

    # ---- NW-14: Initiative ------------------------------------------------------------------

    @command
    def nwod_initiative(
        self, ctx: CommandContext, scene_id: UUID, body: InitiativeCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        state = self._state(turn)
        maneuvers.check_may_rejoin(state, fighter.key, fighter.name, turn.actor.is_gm)
        maneuvers.check_first_initiative(state, fighter.key, fighter.name)
        request = {
            "intelligence": fighter.sheet.affinities.INT,
            "modifier": body.modifier,
            "purpose": f"Initiative of {fighter.name} (NW-14)",
        }
        dice = Dice(turn, body.client_seed, body.modifier)
        result = self._roll(dice, fighter, request, "initiative").result
        rolled = {"roll": result["roll"], "bonus": result["intelligence"], "total": result["total"]}
        rolled["actions_per_turn"] = actions_per_turn(fighter.sheet)  # NW-15, NW-18
        self._change(
            turn, "initiative", {"character_id": fighter.key, "modifier": body.modifier} | rolled
        )
        return dice.save(InitiativeRolled(roll_id=dice.first_id, total=result["total"]))

    # ---- NW-6, 8, 10, 11, 13, 15..18: attacks -------------------------------------------------

    @command
    def nwod_attack(self, ctx: CommandContext, scene_id: UUID, body: AttackCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        attacker = self._acting(turn, body.attacker_id, "attacker_id")
        state = self._state(turn)
        combat.check_fighter(state, attacker.key, attacker.name, "attacker_id")
        gun = (
            maneuvers.weapon_of(attacker.sheet, attacker.name, body.weapon) if body.weapon else None
        )
        aim = maneuvers.aimed(body, gun)
        targets, fired = self._ready_to_attack(turn, state, attacker, body, aim, gun)
        shot = self._shot(state, attacker, body, aim, fired)
        dice = Dice(turn, body.client_seed, body.modifier)
        if body.maneuver == "suppressive":
            hits = [self._suppressive_fire(dice, attacker, shot, body)]
        else:
            hits = [
                self._hit(dice, state, attacker, shot, target, index, body)
                for index, target in enumerate(targets)
            ]
        return dice.save(self._record_attack(dice, attacker, targets, fired, aim, body, hits))

    def _ready_to_attack(
        self,
        turn: Turn,
        state: dict[str, Any],
        attacker: NwFighter,
        body: AttackCreate,
        aim: maneuvers.Aimed,
        gun: Weapon | None,
    ) -> tuple[list[NwFighter], maneuvers.Firing]:
        """The attack's targets and weapon, once the rules allow it (in this order)."""
        spec = maneuvers.attack_spec(body.maneuver, aim.kind)
        targets = self._targets(turn, state, attacker, body, spec)
        maneuvers.check_attack(state, attacker.key, attacker.name, aim)
        check_will_power(attacker, body.will_power)
        return targets, maneuvers.firing(gun, aim, body.rounds, self._gear(state, attacker, gun))

    @staticmethod
    def _gear(
        state: dict[str, Any], fighter: NwFighter, gun: Weapon | None
    ) -> dict[str, int] | None:
        """NW-16: the ammunition of a weapon with a magazine, as the character's gear holds it."""
        if gun is None or gun.magazine is None:
            return None
        recorded = fighter.character.ammunition.get(gun.name)
        return gear.ammunition(recorded, gun, combat.scene_rounds(state, fighter.key, gun.name))

    def _targets(
        self,
        turn: Turn,
        state: dict[str, Any],
        attacker: NwFighter,
        body: AttackCreate,
        spec: dict[str, Any],
    ) -> list[NwFighter]:
        ids = maneuvers.check_target_ids(body.target_ids, attacker.id, body.maneuver, spec)
        targets = []
        for target_id in ids:
            target = self._fighter(turn, target_id, "target_ids")
            combat.check_fighter(state, target.key, target.name, "target_ids")
            targets.append(target)
        return targets

    @staticmethod
    def _shot(
        state: dict[str, Any],
        attacker: NwFighter,
        body: AttackCreate,
        aim: maneuvers.Aimed,
        fired: maneuvers.Firing,
    ) -> maneuvers.Shot:
        """The attacker's dice: maneuver, aim, dodging, blind fire, range, situation, merits."""
        dice = maneuvers.attack_dice(state, attacker.key, aim)
        dice += maneuvers.situation_dice(body.conditions, body.modifier)
        dice += maneuvers.merit_dice(attacker.sheet, attacker.name, body.merits)
        vio = attacker.sheet.affinities.VIO
        return maneuvers.Shot(aim.kind, vio, dice, fired.bonus, body.darkness, body.sneak)

    def _suppressive_fire(
        self, dice: Dice, attacker: NwFighter, shot: maneuvers.Shot, body: AttackCreate
    ) -> dict[str, Any]:
        """NW-15: one VIO roll for the whole area; a success pins every target."""
        purpose = body.purpose or f"Suppressive fire by {attacker.name} (NW-15)"
        request = maneuvers.universal(
            "VIO", shot.violence, shot.dice, shot.darkness, body.will_power, purpose
        )
        rolled = self._roll(dice, attacker, request)
        result = rolled.result
        return {
            "roll_id": str(rolled.roll.id),
            "successes": result["successes"],
            "pool": result["pool"],
        }

    def _hit(
        self,
        dice: Dice,
        state: dict[str, Any],
        attacker: NwFighter,
        shot: maneuvers.Shot,
        target: NwFighter,
        index: int,
        body: AttackCreate,
    ) -> dict[str, Any]:
        """One roll at one target, and the damage to its Health on a hit (NW-8, 11, 12)."""
        purpose = body.purpose or f"{maneuvers.spoken(body.maneuver).capitalize()} at {target.name}"
        request = shot.at(
            state,
            target.key,
            target.sheet,
            target.level("health"),
            body.will_power if index == 0 else 0,  # NW-9: Will Power boosts one roll
            maneuvers.burst_penalty(body.maneuver, index),
            purpose,
        )
        # who gave the DUR of the target's full cover, when it is in the target's armour (NW-13)
        cover = state["cover"].get(target.key) or {}
        earlier = tuple(cover.get("set_by", ())) if cover.get("kind") == "full" else ()
        rolled = self._roll(dice, attacker, request, earlier_modifiers=earlier)
        return self._harm(dice.turn.scene, target, rolled)

    @staticmethod
    def _harm(scene: Scene, target: NwFighter, rolled: Rolled) -> dict[str, Any]:
        """The damage of a hit to the target's Health (NW-8, 11, 12), and what the roll did."""
        result = rolled.result
        if result["target_health"] != target.level("health"):
            target.character.take_damage(
                "health", result["target_health"], None, rolled.roll.id, scene.id, scene.page
            )
        return {
            "target_id": target.key,
            "roll_id": str(rolled.roll.id),
            "pool": result["pool"],
            "successes": result["successes"],
            "hit": result["success"],
            "damage": result["damage"],
            "health": target.level("health"),
            "at_zero_health": target.level("health") == 0,
        }

    def _record_attack(
        self,
        dice: Dice,
        attacker: NwFighter,
        targets: list[NwFighter],
        fired: maneuvers.Firing,
        aim: maneuvers.Aimed,
        body: AttackCreate,
        hits: list[dict[str, Any]],
    ) -> Attacked:
        """The attack as the attacker's action, the rounds it fired from the attacker's gear
        (NW-16); suppressive fire that succeeds pins its targets."""
        target_ids = [t.key for t in targets]
        scene = dice.turn.scene
        if fired.gear is not None and fired.weapon is not None:
            attacker.character.change_ammunition(fired.weapon, dict(fired.gear), "fired", scene.id)
        acted = {"character_id": attacker.key, "maneuver": body.maneuver, "cost": 1}
        acted |= out_of_turn(self._state(dice.turn), attacker)
        acted |= {"kind": aim.kind, "weapon": fired.weapon, "rounds_left": fired.rounds_left}
        acted |= {"target_ids": target_ids, "hit_location": body.hit_location}
        self._change(dice.turn, "acted", acted)
        pinned = body.maneuver == "suppressive" and hits[0]["successes"] >= 1
        if pinned:
            suppressed = {"character_id": attacker.key, "target_ids": target_ids}
            self._change(dice.turn, "suppressed", suppressed)
        return Attacked(
            roll_id=dice.first_id,
            maneuver=body.maneuver,
            rolls=tuple(hits),
            rounds_left=fired.rounds_left,
            suppressed=tuple(target_ids if pinned else ()),
        )

    # ---- NW-2, NW-13, NW-15, NW-16: maneuvers without a roll --------------------------------

    @command
    def nwod_act(self, ctx: CommandContext, scene_id: UUID, body: ActionCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        state = self._state(turn)
        combat.check_fighter(state, fighter.key, fighter.name, "character_id")
        maneuvers.check_move(body)
        cost = maneuvers.check_may_move(state, fighter.key, fighter.name, body)
        details, moved, reloaded = self._moved(state, fighter, body, cost)
        details |= out_of_turn(state, fighter)
        if reloaded is not None:  # NW-16: a spare magazine from the character's gear
            weapon = details["weapon"]
            fighter.character.change_ammunition(weapon, reloaded, "reloaded", turn.scene.id)
        if body.maneuver == "take_cover":
            # NW-13: full cover's DUR adds to the fighter's armour against every attack at it; no
            # sheet holds it, so a player who names one declares a number for later rolls: it
            # follows player_modifiers, and the attacks' records say who gave it.
            durability = declared_by({"cover_durability": body.cover_durability})
            set_by = self.system.app.modifiers_of(
                turn.actor, turn.settings, turn.scene, fighter.character, durability
            )
            if set_by:
                details["cover_durability_set_by"] = set_by
        self._change(turn, "acted", details)
        return turn.save(result=moved)

    @staticmethod
    def _reloaded(state: dict[str, Any], fighter: NwFighter, gun: Weapon) -> dict[str, int]:
        """NW-16: the weapon's ammunition after a reload (refused without a spare magazine)."""
        ammunition = Fight._gear(state, fighter, gun)
        assert ammunition is not None
        return gear.reloaded(ammunition, fighter.name, gun.name)

    @staticmethod
    def _moved(
        state: dict[str, Any], fighter: NwFighter, body: ActionCreate, cost: int
    ) -> tuple[dict[str, Any], Moved, dict[str, int] | None]:
        """What the maneuver records, what the response shows of it, and a reload's ammunition."""
        details: dict[str, Any] = {"character_id": fighter.key, "maneuver": body.maneuver}
        details["cost"] = cost
        moved = Moved(maneuver=body.maneuver, actions=cost)
        after: dict[str, int] | None = None
        if body.maneuver == "aim":
            aim = int(state["aim"].get(fighter.key, 0)) + 1
            moved = Moved(maneuver="aim", actions=cost, aim=aim)
        elif body.maneuver == "take_cover":
            details |= {"cover": body.cover, "cover_durability": body.cover_durability}
        elif body.maneuver == "reload":
            gun = maneuvers.reloaded(fighter.sheet, fighter.name, body.weapon)
            after = Fight._reloaded(state, fighter, gun)
            details |= {"weapon": gun.name, "rounds_left": after["loaded"]}
            details["spare_magazines"] = after["spare"]
            moved = Moved(
                maneuver="reload",
                actions=cost,
                rounds_left=after["loaded"],
                spare_magazines=after["spare"],
            )
        elif body.maneuver in maneuvers.MOVING:
            # NW-2: walk X, run 2X, sprint 3X; NW-17: difficult terrain halves it (rounded down).
            metres = speeds(fighter.sheet)[body.maneuver]
            metres = metres // 2 if body.difficult_terrain else metres
            details["dodge"] = body.dodge
            moved = Moved(maneuver=body.maneuver, actions=cost, metres=metres, dodging=body.dodge)
        return details, moved, after

    # ---- NW-9: Will Power for Defense or Initiative -----------------------------------------

    @command
    def nwod_will_power(
        self, ctx: CommandContext, scene_id: UUID, body: WillPowerCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        combat.check_fighter(self._state(turn), fighter.key, fighter.name, "character_id")
        maneuvers.check_boost(body.boost, body.points)
        check_will_power(fighter, body.points)
        fighter.character.spend(
            {"will_power": body.points}, reason=f"+{2 * body.points} {body.boost} this turn (NW-9)"
        )
        boost = {"character_id": fighter.key, "kind": body.boost, "points": body.points}
        self._change(turn, "boosted", boost)
        left = fighter.level("will_power")
        return turn.save(result=Boosted(boost=body.boost, points=body.points, will_power=left))

    # ---- NW-14: ending a turn early ---------------------------------------------------------

    @command
    def nwod_end_turn(self, ctx: CommandContext, scene_id: UUID, body: TurnEnd) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        state = self._state(turn)
        combat.check_fighter(state, fighter.key, fighter.name, "character_id")
        combat.check_turn(state, fighter.key, fighter.name)
        self._change(turn, "turn_ended", {"character_id": fighter.key})
        return turn.save(result=FightResult())

    # ---- NW-14, NW-15: the GM's recorded leave to act out of turn, or an extra action -------

    @command
    def nwod_override(self, ctx: CommandContext, scene_id: UUID, body: TurnOverride) -> Outcome:
        """(GM) lets a fighter act out of turn, or gives it an extra action, this turn; recorded
        with the GM's reason (the rules' order and actions hold for everyone else)."""
        turn = self._turn(ctx, scene_id, gm=True)
        found = turn.character(body.character_id)
        combat.check_fighter(self._state(turn), found.key, found.name, "character_id")
        details = {"character_id": found.key, "grant": body.grant, "reason": body.reason}
        self._change(turn, "overridden", details)
        return turn.save(result=FightResult())

    # ---- NW-8: the GM takes a fighter out of the order ----------------------------------------

    @command
    def nwod_take_out(self, ctx: CommandContext, scene_id: UUID, body: TakeOut) -> Outcome:
        """NW-8: (GM) the fighter leaves the Initiative order, with the reason (0 Health: the GM
        says what it means); it comes back only if the GM rolls its Initiative again."""
        turn = self._turn(ctx, scene_id, gm=True)
        found = turn.character(body.character_id)
        combat.check_fighter(self._state(turn), found.key, found.name, "character_id")
        health = found.character.resources.get("health", 0)
        details = {"character_id": found.key, "reason": body.reason, "health": health}
        self._change(turn, "taken_out", details)
        return turn.save(result=FightResult())

    # ---- NW-15: the VIO roll of a target of suppressive fire --------------------------------

    @command
    def nwod_suppression_roll(
        self, ctx: CommandContext, scene_id: UUID, body: SuppressionRollCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        maneuvers.check_pending_suppression(self._state(turn), fighter.key, fighter.name)
        purpose = f"{fighter.name} keeps acting under suppressive fire (NW-15)"
        dice = Dice(turn, body.client_seed, body.modifier)
        request = self._side_request(fighter, "VIO", body, purpose)
        held = bool(self._roll(dice, fighter, request).result["success"])
        self._change(turn, "suppression_resolved", {"character_id": fighter.key, "held": held})
        return dice.save(SuppressionRolled(roll_id=dice.first_id, held=held))

    # ---- NW-4..6, 17, 18: a situational roll, and contests ----------------------------------

    @staticmethod
    def _side_request(
        fighter: NwFighter,
        affinity: str,
        side: NwodSituation,
        purpose: str,
    ) -> dict[str, Any]:
        """An Affinity roll with the situation's dice, the merits named and Will Power."""
        check_will_power(fighter, side.will_power)
        dice = maneuvers.situation_dice(side.conditions, side.modifier)
        dice += maneuvers.merit_dice(fighter.sheet, fighter.name, side.merits)
        value = getattr(fighter.sheet.affinities, affinity)
        return maneuvers.universal(affinity, value, dice, side.darkness, side.will_power, purpose)

    @command
    def nwod_roll(self, ctx: CommandContext, scene_id: UUID, body: NwodRollCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        fighter = self._acting(turn, body.character_id)
        request = self._side_request(fighter, body.affinity, body, body.purpose)
        dice = Dice(turn, body.client_seed, body.modifier)
        successes = self._roll(dice, fighter, request).result["successes"]
        return dice.save(PoolRolled(roll_id=dice.first_id, successes=successes))

    @command
    def nwod_contest(self, ctx: CommandContext, scene_id: UUID, body: NwodContestCreate) -> Outcome:
        """NW-6: (GM) all sides roll, the better result (more successes) wins."""
        turn = self._turn(ctx, scene_id, gm=True)
        fighters = [self._fighter(turn, side.character_id, "sides") for side in body.sides]
        maneuvers.check_sides([f.id for f in fighters])
        purpose = body.purpose or "Contest (NW-6)"
        requests = [
            self._side_request(fighter, side.affinity, side, purpose)
            for fighter, side in zip(fighters, body.sides, strict=True)
        ]
        dice = Dice(turn, body.client_seed)
        standings = []
        gm = str(turn.actor.member_id)
        for index, (fighter, request) in enumerate(zip(fighters, requests, strict=True)):
            # the GM's situational dice for this side: the record says the GM set them (NW-17)
            dice_of_side = body.sides[index].modifier
            earlier = (
                (
                    modifier_entry(
                        f"sides.{index}.modifier", dice_of_side, by=gm, role="gm", rule="gm"
                    ),
                )
                if dice_of_side
                else ()
            )
            rolled = self._roll(dice, fighter, request, earlier_modifiers=earlier)
            successes = rolled.result["successes"]
            standings.append(Standing(fighter.key, str(rolled.roll.id), successes))
        winner = maneuvers.winner(standings)
        return dice.save(Contested(roll_id=dice.first_id, sides=tuple(standings), winner_id=winner))

    # ---- reads ------------------------------------------------------------------------------

    def nwod_fight(self, actor: Actor, scene_id: UUID) -> Scene:
        """The scene, for its firefight state (any member may read it)."""
        scene = self.app.get(actor, Scene, scene_id)
        if self.app.campaign_of(actor).ruleset != RULESET:
            raise InvalidInput(
                "nWoD micro firefights need a campaign of the nwod-micro ruleset",
                field="scene_id",
            )
        return scene
