"""Class D Heroes combat: rounds, the heroes' and villains' turns, attacks, reactions (CD-8..CD-20).

`Fight` holds the commands; the refusals they ask first are pure (rules/combat.py for the round,
rules/refusals.py for the rest), and every change of the round is one `Scene.change_state` of the
system's "round" area."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Character, Roll, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import PageBoundary, PagedPart, Sheeted, Turn
from domain.errors import Conflict, InvalidInput
from domain.rolls import Declared, declared_by
from systems.classd.requests import (
    ClassDActionCreate,
    ClassDAttackCreate,
    ClassDCaptureCreate,
    ClassDFightEnd,
    ClassDGrantCreate,
    ClassDMoveCreate,
    ClassDRetreatCreate,
    ClassDRolled,
    ClassDShieldCreate,
    ClassDStopCreate,
    ClassDVillainAttackCreate,
)
from systems.classd.rules import combat, refusals
from systems.classd.rules.sheet import ClassdSheet, Feature

if TYPE_CHECKING:
    from systems.classd.commands import ClassD

AREA = "round"  # the system's state on the scene (Ruleset.scene_states)


@dataclass(frozen=True)
class ClassDResult:
    """What a combat command tells its presenter: its roll, if any, and what else came of it."""

    roll_id: UUID | None = None
    outcome: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Fighter(Sheeted):
    """A character in a Class D fight, with its parsed sheet."""

    sheet: ClassdSheet

    @property
    def rank(self) -> str:
        return self.sheet.rank or "minion"

    def features(self) -> list[Feature]:
        return [*self.sheet.gear, *self.sheet.powers]

    def best_damage(self, attack_type: str) -> int:
        """Ruling (CD-11/15): a villain hits with its best feature of that attack type, plus its
        class's modifier."""
        best = max((f.damage for f in self.features() if f.attack == attack_type), default=0)
        return best + self.sheet.class_damage(attack_type)

    def damage_with(self, feature: Feature | None, attack_type: str) -> int:
        """CD-11: the damage modifiers of an attack: the power or gear used, and the class."""
        return (feature.damage if feature else 0) + self.sheet.class_damage(attack_type)


@dataclass
class Attack:
    """A hero's attack: who, on whom, with what, and who else it may hit (CD-10, 13, 20)."""

    attack_type: str
    hero: Fighter
    target: Fighter
    feature: Feature | None
    overflow: Fighter | None
    hostage: Character | None
    granted: bool  # the action uses the GM's grant (CD-8/9 override)


class Fight(PagedPart):
    """The Class D combat commands (the system's one area of play)."""

    system: ClassD

    # ---- the command's working set -------------------------------------------------------------

    def _turn(self, ctx: CommandContext, scene_id: UUID, *, gm: bool = False) -> Turn:
        turn = self.system.turn(ctx, scene_id, gm=gm)
        if turn.scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        return turn

    def _fighter(self, turn: Turn, character_id: UUID, field: str, side: str) -> Fighter:
        """A hero or ranked villain (`side`) of the campaign, still in action."""
        found = turn.character(character_id, field)
        assert isinstance(found.sheet, ClassdSheet)
        refusals.check_side(found.name, found.character.side, found.sheet, side, field)
        refusals.check_active(found.name, found.character.status, field)
        return Fighter(found.character, found.sheet)

    def _acting(self, turn: Turn, character_id: UUID, field: str, side: str) -> Fighter:
        """A fighter the sender may act for."""
        fighter = self._fighter(turn, character_id, field, side)
        turn.acting(character_id, field)
        return fighter

    @staticmethod
    def _state(turn: Turn) -> dict[str, Any]:
        return turn.scene.state(turn.rules.id, AREA)

    @staticmethod
    def _change(turn: Turn, change: str, **details: Any) -> None:
        """One change of the round (combat.apply names them), ids as text."""
        plain = {k: str(v) if isinstance(v, UUID) else v for k, v in details.items()}
        turn.scene.change_state(turn.rules.id, AREA, change, plain)

    def _acted(self, turn: Turn, fighter: Fighter, action: str, granted: bool, **more: Any) -> None:
        """The fighter's action of the round; one taken by the GM's grant says so (and uses it)."""
        extra = {"granted": True} if granted else {}
        self._change(turn, "acted", character_id=fighter.id, action=action, **more, **extra)

    @staticmethod
    def _hero_may_act(state: dict[str, Any], hero: Fighter) -> bool:
        """CD-8/9: the heroes' turn and the hero's one action, unless the GM granted one more."""
        return combat.within_turn(
            state,
            hero.key,
            lambda: combat.check_turn(state, "heroes"),
            lambda: combat.check_hero_action(state, hero.key, hero.name),
        )

    @staticmethod
    def _villain_may_act(
        state: dict[str, Any], villain: Fighter, action: str, attack_type: str | None = None
    ) -> bool:
        """CD-8/15/17: the villains' turn and the rank's actions, unless the GM granted one."""
        return combat.within_turn(
            state,
            villain.key,
            lambda: combat.check_turn(state, "villains"),
            lambda: combat.check_villain_action(
                state, villain.key, villain.name, villain.rank, action, attack_type
            ),
        )

    @staticmethod
    def _in_fight(state: dict[str, Any], field: str, *fighters: Fighter) -> None:
        for fighter in fighters:
            combat.check_in_fight(state, fighter.key, fighter.name, field)

    @staticmethod
    def _will_rerolls(hero: Fighter, body: ClassDRolled) -> None:
        refusals.check_will_rerolls(hero.name, hero.level("will"), body.will_rerolls)

    def _rolled(
        self,
        turn: Turn,
        check: str,
        request: dict[str, Any],
        roller: Fighter,
        body: ClassDRolled,
        difficulty: Mapping[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[Aggregate]]:
        """The check rolled for `roller`, with the advantages and disadvantages it declared
        (CD-5: they follow player_modifiers; those of the record, CD-18 high ground and CD-20
        shields, are added) and, for a check against no foe, the `difficulty` fields the body
        gives (CD-18: the GM's difficulty, so a player's follows player_modifiers too). Returns
        the result and what to save (the roll first)."""
        edges = declared_by({"advantage": body.advantage, "disadvantage": body.disadvantage})
        if difficulty is not None:
            numbers = {k: v for k, v in difficulty.items() if v is not None}  # 0 is a difficulty
            edges = Declared({**edges.values, **numbers}, (*edges.fields, *difficulty))
        # Fields of the body itself: a refused one is named as the body's field, and the command
        # runner records where the body sits for the GM's approval (domain.commands.argument_path).
        outcome, touched = turn.roll(
            check,
            request,
            roller,  # with the sheet the turn parsed already
            body.client_seed,
            declared=edges,
        )
        roll = touched[0]
        assert isinstance(roll, Roll)
        if outcome.result.get("will_spent"):  # CD-6 rerolls (and CD-13 overflow) spent in the roll
            rules = "CD-6, CD-13" if outcome.result.get("overflow_moved") else "CD-6"
            roller.character.spend(
                {"will": outcome.result["will_spent"]}, reason=f"roll {roll.id} ({rules})"
            )
            touched.append(roller.character)
        return outcome.result, touched

    @staticmethod
    def _saved(turn: Turn, touched: list[Aggregate] | None = None, **outcome: Any) -> Outcome:
        """The one save: the scene, what the roll touched (the roll first) and every loaded
        character that changed."""
        roll_id = touched[0].id if touched else None
        return turn.save(None, *(touched or []), result=ClassDResult(roll_id, outcome))

    # ---- CD-8: the GM ends the heroes' turn; each page is a round ---------------------------------

    @command
    def classd_end_heroes_turn(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        turn = self._turn(ctx, scene_id, gm=True)
        combat.check_turn(self._state(turn), "heroes")
        self._change(turn, "turn_ended", round=turn.scene.page)
        return self._saved(turn)

    def page_advanced(self, at: PageBoundary) -> None:
        """CD-8/17: each page is a round: actions and reactions reset, the heroes act first;
        villains that fled and were not stopped have escaped (CD-16)."""
        scene = at.scene
        if AREA not in scene.states:
            return
        escaped = combat.fleeing(scene.state(self.system.ruleset_id, AREA))
        scene.change_state(
            self.system.ruleset_id, AREA, "round_started", {"round": scene.page, "escaped": escaped}
        )

    # ---- CD-8: the GM ends the fight, or lets one character act outside the turn order --------

    @command
    def classd_end_fight(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDFightEnd
    ) -> Outcome:
        """CD-8 ruling: the source has no end of a fight; the GM says when it is over (rests,
        CD-22, wait for it). The next change of the round starts another fight."""
        turn = self._turn(ctx, scene_id, gm=True)
        state = turn.scene.states.get(AREA)
        combat.check_fight_under_way(state)
        self._change(turn, "fight_ended", round=turn.scene.page, reason=body.reason)
        return self._saved(turn)

    @command
    def classd_grant_action(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDGrantCreate
    ) -> Outcome:
        """CD-8, 9, 15, 17: the GM's override of the turn order and the action economy, recorded
        with its reason: the character's next action this round is taken whatever the turn and
        however many it has taken; unused, it lapses when the round ends."""
        turn = self._turn(ctx, scene_id, gm=True)
        found = turn.character(body.character_id, "character_id")
        side = "hero" if found.character.side == "hero" else "villain"
        fighter = self._fighter(turn, body.character_id, "character_id", side)
        state = self._state(turn)
        self._in_fight(state, "character_id", fighter)
        combat.check_no_grant(state, fighter.key, fighter.name)
        self._change(turn, "override_granted", character_id=fighter.id, reason=body.reason, by="gm")
        return self._saved(turn)

    # ---- CD-23: heroes captured by the villains, and freed -----------------------------------------

    @command
    def classd_capture(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDCaptureCreate
    ) -> Outcome:
        """CD-23: the source has heroes "captured by the villains" (it lowers the alarm) but no
        rule for how; the GM records it. A captured hero is out of action until freed."""
        turn = self._turn(ctx, scene_id, gm=True)
        found = turn.character(body.hero_id, "hero_id")
        assert isinstance(found.sheet, ClassdSheet)
        refusals.check_side(found.name, found.character.side, found.sheet, "hero", "hero_id")
        hero = found.character
        status = refusals.capture_status(
            found.name, hero.status, hero.resources.get("health", 0), body.release
        )
        hero.change_status(status, body.reason, "CD-23")
        return self._saved(turn)

    # ---- CD-10..13, 19, 20: a hero attacks ----------------------------------------------------------

    @command
    def classd_attack(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDAttackCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id)
        hero = self._acting(turn, body.attacker_id, "attacker_id", "hero")
        target = self._fighter(turn, body.target_id, "target_id", "villain")
        state = self._state(turn)
        attack = self._attack(turn, state, hero, target, body)
        result, touched = self._rolled(
            turn, "hero_attack", _attack_request(state, attack, body), hero, body
        )
        self._acted(turn, hero, f"attack:{body.attack_type}", attack.granted)
        self._attack_lands(turn, attack, result, touched[0].id)
        self._strike_back(turn, attack, result, touched[0].id)
        if body.attack_type == "melee" and not result["target_out"]:
            self._engage(turn, state, hero, target, "heroes")
        return self._saved(turn, touched)

    def _attack(
        self,
        turn: Turn,
        state: dict[str, Any],
        hero: Fighter,
        target: Fighter,
        body: ClassDAttackCreate,
    ) -> Attack:
        """The attack the rules allow (CD-8, 9, 10, 6, 13), and the hostage it may hit (CD-20)."""
        self._in_fight(state, "attacker_id", hero)
        self._in_fight(state, "target_id", target)
        granted = self._hero_may_act(state, hero)
        feature = refusals.feature_used(hero.name, hero.features(), body.using, body.attack_type)
        if body.attack_type == "ranged":
            feature = refusals.ranged_means(hero.name, hero.sheet, hero.level("will"), feature)
        self._will_rerolls(hero, body)
        overflow = None
        if body.overflow_target_id is not None:
            overflow = self._overflow_target(turn, state, target, body.overflow_target_id)
        shield = state["shields"].get(target.key)
        hostage = None
        if shield and shield["hostage_id"]:
            hostage = turn.loaded.character(self.app, turn.actor, UUID(shield["hostage_id"]))
        return Attack(body.attack_type, hero, target, feature, overflow, hostage, granted)

    def _overflow_target(
        self, turn: Turn, state: dict[str, Any], target: Fighter, overflow_target_id: UUID
    ) -> Fighter:
        """CD-13: another villain, in the fight, of a rank not higher than the target's."""
        refusals.check_overflow_other(target.key, str(overflow_target_id))
        other = self._fighter(turn, overflow_target_id, "overflow_target_id", "villain")
        self._in_fight(state, "overflow_target_id", other)
        refusals.check_overflow_rank(target.rank, other.name, other.rank)
        return other

    @staticmethod
    def _attack_lands(turn: Turn, attack: Attack, result: dict[str, Any], roll_id: UUID) -> None:
        """The damage to the target, to the villain the overflow moved to (CD-13) and to the
        hostage (CD-20)."""
        where = (roll_id, turn.scene.id, turn.scene.page)
        if result["damage"]:
            status = (
                "captured" if result["captured"] else "defeated" if result["target_out"] else None
            )
            attack.target.character.take_damage("health", result["target_health"], status, *where)
        if result["overflow_moved"] and attack.overflow is not None:
            left = result["overflow_target_health"]
            status = None
            if left == 0:
                status = "captured" if attack.attack_type == "mental" else "defeated"
            attack.overflow.character.take_damage("health", left, status, *where)
        if result["hostage_damage"] and attack.hostage is not None:
            left = result["hostage_health"]
            attack.hostage.take_damage("health", left, "defeated" if left == 0 else None, *where)

    def _strike_back(
        self, turn: Turn, attack: Attack, result: dict[str, Any], roll_id: UUID
    ) -> None:
        """CD-11/17: the target hits back with its reaction (spent unless it critically failed)."""
        strike = result["strike_back"]
        if strike is None:
            return
        self._change(
            turn,
            "reacted",
            character_id=attack.target.id,
            attack_type=attack.attack_type,
            spent=strike["reaction_spent"],
        )
        _hurt(turn, attack.hero.character, strike["resource"], strike["level"], roll_id)

    def _engage(
        self, turn: Turn, state: dict[str, Any], attacker: Fighter, target: Fighter, side: str
    ) -> None:
        """CD-19 ruling: a melee attack engages the pair unless either moved this round."""
        if attacker.key not in state["moved"] and target.key not in state["moved"]:
            self._change(turn, "engaged", character_id=attacker.id, target_id=target.id, side=side)

    # ---- CD-15, 17: a villain attacks, the hero defends -------------------------------------------

    @command
    def classd_villain_attack(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDVillainAttackCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id, gm=True)
        villain = self._fighter(turn, body.villain_id, "villain_id", "villain")
        hero = self._fighter(turn, body.hero_id, "hero_id", "hero")
        state = self._state(turn)
        self._in_fight(state, "villain_id", villain)
        self._in_fight(state, "hero_id", hero)
        granted = self._villain_may_act(state, villain, "attack", body.attack_type)
        feature = refusals.feature_used(
            villain.name, villain.features(), body.using, body.attack_type
        )
        self._will_rerolls(hero, body)
        request = _defence_request(state, villain, hero, feature, body)
        result, touched = self._rolled(turn, "villain_attack", request, hero, body)
        self._acted(turn, villain, f"attack:{body.attack_type}", granted)
        if result["damage"]:
            _hurt(turn, hero.character, result["resource"], result["level"], touched[0].id)
        if body.attack_type == "melee" and hero.character.status == "active":
            self._engage(turn, state, villain, hero, "villains")
        return self._saved(turn, touched)

    # ---- CD-9, 15: actions without a roll (powers, items; villains' special actions, flight) -------

    @command
    def classd_act(self, ctx: CommandContext, scene_id: UUID, body: ClassDActionCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        acting = turn.acting(body.character_id)
        side = "hero" if acting.character.side == "hero" else "villain"
        fighter = self._fighter(turn, body.character_id, "character_id", side)
        state = self._state(turn)
        self._in_fight(state, "character_id", fighter)
        refusals.check_action_kind(side, body.action)
        refusals.check_has_feature(fighter.name, fighter.sheet, body.action, body.feature)
        if side == "hero":
            granted = self._hero_may_act(state, fighter)
        else:
            granted = self._villain_may_act(state, fighter, body.action)
        plain = body.feature is None or body.action == "flee"
        action = body.action if plain else f"{body.action}:{body.feature}"
        self._acted(turn, fighter, action, granted)
        return self._saved(turn)

    # ---- CD-14: a hero retreats ---------------------------------------------------------------------

    @command
    def classd_retreat(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDRetreatCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id)
        hero = self._acting(turn, body.hero_id, "hero_id", "hero")
        state = self._state(turn)
        self._in_fight(state, "hero_id", hero)
        pursuers, covering = self._retreat_from(turn, state, hero, body)
        granted = self._hero_may_act(state, hero)
        self._will_rerolls(hero, body)
        fastest = max(pursuers, key=lambda p: p.sheet.speed)
        touched: list[Aggregate] = []
        automatic = len(covering) >= len(pursuers)  # CD-14 ruling
        success = automatic
        if not automatic:
            purpose = f"Retreat from {fastest.name} (CD-14)"
            request = _stat_request("speed", body, purpose, target_stat=fastest.sheet.speed)
            result, touched = self._rolled(turn, "action", request, hero, body)
            success = bool(result["success"])
        self._acted(turn, hero, "flee", granted)
        if success:
            self._change(turn, "left", character_id=hero.id, how="retreated")
        return self._saved(
            turn,
            touched,
            retreated=success,
            automatic=automatic,
            fastest_pursuer_id=str(fastest.id),
            pursuers=len(pursuers),
            covering=len(covering),
        )

    def _retreat_from(
        self, turn: Turn, state: dict[str, Any], hero: Fighter, body: ClassDRetreatCreate
    ) -> tuple[list[Fighter], list[Fighter]]:
        """CD-14: the villains who may pursue the hero, and the heroes who cover it."""
        pursuers = [
            self._fighter(turn, p, "pursuer_ids", "villain")
            for p in dict.fromkeys(body.pursuer_ids)
        ]
        covering = [
            self._fighter(turn, c, "covering_ids", "hero") for c in dict.fromkeys(body.covering_ids)
        ]
        refusals.check_retreat(hero.key, [p.key for p in pursuers], [c.key for c in covering])
        self._in_fight(state, "pursuer_ids", *pursuers)
        self._in_fight(state, "covering_ids", *covering)
        return pursuers, covering

    # ---- CD-16: a hero stops a fleeing villain ------------------------------------------------------

    @command
    def classd_stop(self, ctx: CommandContext, scene_id: UUID, body: ClassDStopCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        hero = self._acting(turn, body.hero_id, "hero_id", "hero")
        villain = self._fighter(turn, body.villain_id, "villain_id", "villain")
        state = self._state(turn)
        self._in_fight(state, "hero_id", hero)
        self._in_fight(state, "villain_id", villain)
        combat.check_turn(state, "villains")  # a reaction to the villains' flight
        refusals.check_stop(state, (hero.key, hero.name), (villain.key, villain.name))
        self._will_rerolls(hero, body)
        purpose = f"Stop {villain.name} fleeing (CD-16)"
        request = _stat_request("speed", body, purpose, target_stat=villain.sheet.speed)
        result, touched = self._rolled(turn, "action", request, hero, body)
        stopped = bool(result["success"])
        self._change(
            turn, "stop_attempted", character_id=hero.id, villain_id=villain.id, stopped=stopped
        )
        return self._saved(turn, touched, stopped=stopped)

    # ---- CD-18: moving for an edge ------------------------------------------------------------------

    @command
    def classd_move(self, ctx: CommandContext, scene_id: UUID, body: ClassDMoveCreate) -> Outcome:
        turn = self._turn(ctx, scene_id)
        hero = self._acting(turn, body.hero_id, "hero_id", "hero")
        refusals.check_move(body.stat, body.takes_action, turn.actor.is_gm)
        combat.check_edge_kind(body.edge)
        state = self._state(turn)
        self._in_fight(state, "hero_id", hero)
        if body.takes_action:
            granted = self._hero_may_act(state, hero)
        else:
            granted = combat.within_turn(
                state, hero.key, lambda: combat.check_turn(state, "heroes")
            )
        self._will_rerolls(hero, body)
        purpose = f"Move for {body.edge.replace('_', ' ')} (CD-18)"
        against = {"difficulty": body.difficulty, "difficulty_name": body.difficulty_name}
        request = _stat_request(body.stat, body, purpose, **against)
        result, touched = self._rolled(turn, "action", request, hero, body, against)
        success = bool(result["success"])
        action = "move" if success else "move_failed"
        self._acted(turn, hero, action, granted, free=not body.takes_action)
        if success:
            until = turn.scene.page + 1
            self._change(
                turn, "edge_gained", character_id=hero.id, kind=body.edge, until_round=until
            )
        return self._saved(turn, touched, edge=body.edge if success else None)

    # ---- CD-20: a hostage shield ------------------------------------------------------------------

    @command
    def classd_hostage_shield(
        self, ctx: CommandContext, scene_id: UUID, body: ClassDShieldCreate
    ) -> Outcome:
        turn = self._turn(ctx, scene_id, gm=True)
        villain = self._fighter(turn, body.villain_id, "villain_id", "villain")
        state = self._state(turn)
        hostage_id, hostage = body.hostage_id, body.hostage
        if body.release:
            refusals.check_release(state, villain.key, villain.name)
            hostage_id = hostage = None
        else:
            held = turn.character(hostage_id, "hostage_id") if hostage_id is not None else None
            hostage = hostage or (held.name if held else None)
            refusals.check_hostage(villain.key, held.key if held else None, hostage)
            combat.check_in_fight(state, villain.key, villain.name, "villain_id")
        self._change(
            turn,
            "shield_changed",
            character_id=villain.id,
            hostage_id=hostage_id,
            hostage=hostage,
        )
        return self._saved(turn)

    # ---- reads ------------------------------------------------------------------------------------

    def classd_combat(self, actor: Actor, scene_id: UUID) -> Scene:
        """The scene, for its Class D combat state (any member may read it)."""
        scene = self.app.get(actor, Scene, scene_id)
        if self.app.campaign_of(actor).ruleset != self.system.ruleset_id:
            raise InvalidInput(
                "Class D Heroes combat needs a campaign of the classd ruleset", field="scene_id"
            )
        return scene


def _hurt(turn: Turn, hero: Character, resource: str, level: int, roll_id: UUID) -> None:
    """A hero's Health (or Will) falls to `level`; at 0 Health the hero is defeated (CD-12, CD-15)."""
    out = resource == "health" and level == 0
    hero.take_damage(
        resource, level, "defeated" if out else None, roll_id, turn.scene.id, turn.scene.page
    )


# ---- what the rolls read (every number is in the request, so the record recomputes offline) ------


def _stat_request(stat: str, body: ClassDRolled, purpose: str, **against: Any) -> dict[str, Any]:
    """An action check of the hero's `stat` (CD-14, 16, 18) `against` a stat or a difficulty."""
    return {
        "stat": stat,
        **against,
        "advantage": body.advantage,
        "disadvantage": body.disadvantage,
        "will_rerolls": body.will_rerolls,
        "purpose": purpose,
    }


def _stats(
    body: ClassDAttackCreate | ClassDVillainAttackCreate, hero: Fighter, foe: Fighter, edge: bool
) -> dict[str, Any]:
    """CD-10: the hero's stat of the attack type against the foe's; `edge`: one more advantage
    from the hero's position (CD-18)."""
    stat = combat.ATTACK_STAT[body.attack_type]
    return {
        "attack_type": body.attack_type,
        "stat_value": getattr(hero.sheet, stat),
        "target_stat": getattr(foe.sheet, stat),
        "advantage": body.advantage + (1 if edge else 0),
        "disadvantage": body.disadvantage,
    }


def _attack_request(
    state: dict[str, Any], attack: Attack, body: ClassDAttackCreate
) -> dict[str, Any]:
    """CD-10..13, 17..20: the hero's attack check, its damage and what may follow."""
    hero, target, overflow, hostage = attack.hero, attack.target, attack.overflow, attack.hostage
    edge = state["edges"].get(hero.key, {}).get("kind")
    high_ground = edge == "high_ground" and body.attack_type == "ranged"  # CD-18 ruling
    return {
        **_stats(body, hero, target, high_ground),
        "hostage_shield": target.key in state["shields"],
        "will_rerolls": body.will_rerolls,
        "damage_modifier": hero.damage_with(attack.feature, body.attack_type),
        "target_health": target.level("health"),
        "reaction": combat.has_reaction(state, target.key, target.rank, body.attack_type),
        "strike_back_modifier": target.best_damage(body.attack_type),
        "attacker_health": hero.level("health"),
        "attacker_will": hero.level("will"),
        "overflow_target_health": overflow.level("health") if overflow else None,
        "hostage_health": hostage.resources.get("health") if hostage else None,
        "area": body.area,
        "engaged_with": [c for c in combat.engaged_with(state, target.key) if c != hero.key],
        "purpose": body.purpose,
    }


def _defence_request(
    state: dict[str, Any],
    villain: Fighter,
    hero: Fighter,
    feature: Feature | None,
    body: ClassDVillainAttackCreate,
) -> dict[str, Any]:
    """CD-15, 18: the hero's defence against the villain's attack."""
    edge = state["edges"].get(hero.key, {}).get("kind")
    # CD-18 rulings: cover helps against ranged attacks, high ground against melee.
    helped = (edge, body.attack_type) in (("cover", "ranged"), ("high_ground", "melee"))
    return {
        **_stats(body, hero, villain, helped),
        "will_rerolls": body.will_rerolls,
        "damage_modifier": (
            villain.damage_with(feature, body.attack_type)
            if feature
            else villain.best_damage(body.attack_type)
        ),
        "defender_health": hero.level("health"),
        "defender_will": hero.level("will"),
        "purpose": body.purpose,
    }
