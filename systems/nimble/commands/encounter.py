"""Nimble encounters - initiative, turns, the three actions, attacks, reactions (NB-1..19).

A scene is an encounter and its pages are rounds. The rules are checked in the pure library
systems/nimble/rules/encounter.py before the scene's state changes (area ``encounter``,
``Scene.change_state``); damage goes ONLY through ``Health.nimble_damage``
(systems/nimble/commands/health.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.aggregates import Character, Roll, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import PageBoundary, SceneBoundary, Turn
from domain.errors import Conflict, DomainError, InvalidInput
from domain.rolls import declared_by
from systems.nimble.commands.area import Area
from systems.nimble.requests import (
    NimbleActionCreate,
    NimbleAssessCreate,
    NimbleAttackCreate,
    NimbleGrantCreate,
    NimbleHelpCreate,
    NimbleMoveCreate,
    NimbleResolveCreate,
    NimbleStartCreate,
    NimbleSwapCreate,
    NimbleTurnEnd,
)
from systems.nimble.rules import encounter as enc
from systems.nimble.rules.health import move_speed
from systems.nimble.rules.sheet import HERO_ACTIONS, NimbleHero, NimbleMonster, members_left
from systems.nimble.rules.spells import Cast, attack_cast, spell_cast

NIMBLE = "nimble"
AREA = "encounter"  # the system's area of the scene's state (Ruleset.scene_states)

Creature = tuple[Character, NimbleHero | NimbleMonster]
# What a Help on a held attack tells of the rerolled attack (NB-19).
HELPED_ATTACK = ("total", "armor", "damage", "critical", "miss", "success")


@dataclass(frozen=True)
class EncounterResult:
    """What an encounter command tells its presenter: the roll to show, and what came of it."""

    roll_id: UUID | None = None
    outcome: dict[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Strike:
    """One attack as it is made: who attacks whom (the interposer, if any, is hit instead), the
    encounter's state before it, and what the conditions and the encounter add to its roll."""

    body: NimbleAttackCreate
    state: dict[str, Any]
    attacker: Character
    target: Character
    interposer: Character | None
    edge: dict[str, Any]  # NB-24/NB-26: the conditions' steps, full cover, a rider's miss
    shift: int  # NB-14: the Primary die's shift from a found weakness or anticipated danger
    weakness: bool
    anticipating: bool
    hasty: int  # NB-10: the attacks made before it this turn
    armor: int  # NB-16: the Armor the roll takes off
    hold: bool  # NB-15: a hit waits for the reactions declared on seeing it
    cast: Cast  # NB-12: the sheet's tier and the extra mana chosen (a weapon: no tier)

    @property
    def hit_target(self) -> Character:
        return self.interposer or self.target


def _weakness_used(weakness: bool, result: dict[str, Any]) -> bool:
    """NB-14: a weakness waits for an attack with a Primary die; it carries over a natural crit."""
    primary = result["primary_die"]
    if not weakness or primary is None:
        return False
    return bool(result["primary_face"] != int(str(primary)[1:]))


def _attack_summary(
    strike: Strike, result: dict[str, Any], dying: dict[str, Any] | None, weakness_used: bool
) -> dict[str, Any]:
    """What an attack's response tells (NB-9..18); `hit` and `self_hit` follow when it lands."""
    miss = bool(result["miss"])
    return {
        "attacked": True,
        "dying_save": dying,
        "miss_hits_attacker": bool(strike.edge.get("miss_hits_attacker")),
        "self_hit": None,
        "target_id": str(strike.hit_target.id),
        "rolled_damage": int(result["total"]),
        # NB-16: the roll took the Armor off (crits ignore it); it is in the roll's request.
        "armor": int(result["armor"]),
        "damage": 0 if miss else int(result["damage"]),
        "critical": bool(result["critical"]),
        "miss": miss,
        "hasty_steps": strike.hasty,
        "primary_shift": strike.shift,
        "weakness": strike.weakness,
        "weakness_used": weakness_used,
        "anticipating": strike.anticipating,
        "interposed_by": str(strike.interposer.id) if strike.interposer else None,
        "defended": strike.body.defend,
        # NB-16: a Defend declared before the roll is spent, but says when a crit made it useless
        "defend_wasted": strike.body.defend and bool(result["critical"]),
        "pending": strike.hold and not miss,
        "hit": None,
    }


def _assessment(
    body: NimbleAssessCreate, who: str, modifier: int, roll_id: UUID, result: dict[str, Any]
) -> dict[str, Any]:
    """NB-14: the Assess as the encounter keeps it (for its effect and for Help, NB-19)."""
    return {
        "roll_id": str(roll_id),
        "character_id": who,
        "skill": body.skill,
        "option": body.option,
        "target_id": str(body.target_id) if body.target_id else None,
        "question": body.question,
        "modifier": modifier,
        "natural": result["natural"],
        "total": result["total"],
        "dc": result["dc"],
        "success": result["success"],
        "helped": False,
    }


def _landed(pending: dict[str, Any], defend_armor: int, damage: int) -> dict[str, Any]:
    """NB-15/NB-16: what a held attack did when it landed: its roll's damage, the Armor taken
    off (the roll's, and the Defender's), the damage dealt and whether it was critical."""
    return {
        "rolled_damage": int(pending["total"]),
        "armor": int(pending["armor"]) + defend_armor,
        "defend_armor": defend_armor,
        "damage": damage,
        "critical": bool(pending["critical"]),
    }


def reacting(body: NimbleAttackCreate) -> bool:
    """NB-15..17: reactions declared with the attack, before its roll."""
    return body.defend or body.interpose_by is not None


def _kind(sheet: NimbleHero | NimbleMonster) -> str:
    return "hero" if isinstance(sheet, NimbleHero) else "monster"


def state_of(scene: Scene) -> dict[str, Any]:
    """A copy of the scene's encounter state (order, turn, actions, uses, reactions...)."""
    return scene.state(NIMBLE, AREA)


def change(scene: Scene, name: str, details: dict[str, Any]) -> None:
    """One change of the encounter (``name``: started, acted, turn_ended, round_started...)."""
    scene.change_state(NIMBLE, AREA, name, details)


class Encounter(Area):
    """The encounter's commands (NB-1..19), an area of the Nimble component."""

    # ---- loading ---------------------------------------------------------------------------------

    def _turn(self, ctx: CommandContext, scene_id: UUID, *, gm: bool = False) -> Turn:
        """A command on the encounter of an open scene of a Nimble campaign."""
        turn = self.system.turn(ctx, scene_id, gm=gm)
        if turn.scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        return turn

    @staticmethod
    def _creature(turn: Turn, character_id: UUID, field: str) -> Creature:
        sheeted = turn.character(character_id, field)
        sheet = getattr(sheeted.sheet, "root", sheeted.sheet)
        assert isinstance(sheet, NimbleHero | NimbleMonster)
        return sheeted.character, sheet

    def _acting(
        self,
        turn: Turn,
        state: dict[str, Any],
        character_id: UUID,
        field: str,
        *,
        acts: bool = True,
    ) -> Creature:
        """A character in the running encounter that the actor may act for (403 otherwise); one
        that `acts` has no Concentration save owed (NB-25)."""
        enc.check_running(state)
        character, sheet = self._creature(turn, character_id, field)
        turn.acting(character_id, field)
        enc.check_in(state, str(character.id), character.name, field)
        if acts:
            enc.check_no_save_due(character.name, character.concentration)
        return character, sheet

    def _standing(self, turn: Turn, character_id: UUID) -> tuple[Creature, dict[str, Any]]:
        """The acting creature (`_acting`), not out of the fight (NB-21), and the encounter's
        state once its actions are capped to what it may have now."""
        character, sheet = self._acting(turn, state_of(turn.scene), character_id, "character_id")
        enc.check_standing(character.name, character.status, "character_id")
        return (character, sheet), self._nbe_cap(turn.scene, character)

    def sync_activity(self, scene: Scene, character: Character) -> bool:
        """NB-6/NB-25: the character's activity spread over turns ends with its Concentration
        (0 HP, a failed save after a crit, dropped); records `activity_ended` when it learns of
        it. Returns whether it did."""
        state = state_of(scene)
        who = str(character.id)
        if state["status"] != "running":
            return False
        if not enc.activity_lapsed(state, who, character.concentration):
            return False
        down = int(character.resources.get("hp", 1)) == 0
        reason = "fell to 0 HP (NB-25)" if down else "its Concentration ended (NB-25)"
        activity = state["activities"][who]["name"]
        change(
            scene, "activity_ended", {"character_id": who, "activity": activity, "reason": reason}
        )
        return True

    @staticmethod
    def _members_left(creature: Creature) -> int | None:
        """A monster group's members left at its HP now (ruling, NB-3/NB-4); None for a hero or
        a single monster, whose attacks its stat block governs."""
        character, sheet = creature
        if not isinstance(sheet, NimbleMonster) or sheet.count < 2:
            return None
        return members_left(sheet.hp, int(character.resources.get("hp", sheet.hp * sheet.count)))

    def check_members(self, state: dict[str, Any], creature: Creature) -> None:
        """A monster group attacks (grapples, uses a save ability) once per member left."""
        character = creature[0]
        enc.check_members(state, str(character.id), character.name, self._members_left(creature))

    def _max_actions(self, character: Character) -> int:
        """NB-21: 1 while Dying, 0 when dead, else 3 (the health area's rule)."""
        return self.system.health.max_actions(character)

    def _nbe_cap(self, scene: Scene, character: Character) -> dict[str, Any]:
        """NB-21: a hero that fell Dying (or died) since its actions were counted keeps at most
        what it may have now (1, or 0); the encounter records the cap. Returns the state."""
        self.sync_activity(scene, character)
        state = state_of(scene)
        who = str(character.id)
        if state["status"] != "running" or state["kinds"].get(who) != "hero":
            return state
        cap = self._max_actions(character)
        known = int(state.get("max_actions", {}).get(who, HERO_ACTIONS))
        # Also when it rises again (healed above 0 HP): the view's `actions_back_to` follows;
        # a healthy hero keeps any actions granted beyond 3 (NB-7).
        over = cap < HERO_ACTIONS and int(state["actions"].get(who, 0)) > cap
        if known != cap or over:
            change(
                scene, "capped", {"character_id": who, "actions": cap, "status": character.status}
            )
        return state_of(scene)

    @staticmethod
    def _nbe_save(
        turn: Turn, others: list[Any], roll: Roll | None = None, **outcome: Any
    ) -> Outcome:
        result = EncounterResult(roll.id if roll else None, outcome)
        return turn.save(turn.scene, *others, result=result)

    @staticmethod
    def _nbe_act(
        scene: Scene,
        who: str,
        action: str,
        cost: int,
        *,
        free: bool = False,
        key: str | None = None,
        per: str | None = None,
        **details: Any,
    ) -> None:
        change(
            scene,
            "acted",
            {
                "character_id": who,
                "action": action,
                "cost": cost,
                "free": free,
                "key": key,
                "per": per,
                "round": state_of(scene)["round"],
                "details": enc._plain(details),
            },
        )

    # ---- NB-1..NB-4: the encounter, its turns and rounds ----------------------------------------

    @command
    def nimble_start(self, ctx: CommandContext, scene_id: UUID, body: NimbleStartCreate) -> Outcome:
        """NB-1..NB-3: (GM) roll Initiative for every hero and fix the order of turns."""
        turn = self._turn(ctx, scene_id, gm=True)
        scene = turn.scene
        enc.check_can_start(state_of(scene), [str(c) for c in body.order])
        fighters: dict[str, Creature] = {
            str(cid): self._creature(turn, cid, f"order.{index}")
            for index, cid in enumerate(body.order)
        }
        kinds = {key: _kind(sheet) for key, (_, sheet) in fighters.items()}
        enc.check_surprised(kinds, [str(h) for h in body.surprised])
        initiative, touched = self._initiative(turn, body, fighters, kinds)
        base = [str(c) for c in body.order]
        change(
            scene,
            "started",
            {
                "round": scene.page,
                "order": base,
                "round_order": enc.first_round_order(base, kinds, body.monsters_first),
                "kinds": kinds,
                "actions": {key: entry["actions"] for key, entry in initiative.items()},
                "initiative": initiative,
                "party": body.party,
                "monsters_first": body.monsters_first,
            },
        )
        rolls = [entry["roll_id"] for entry in initiative.values() if entry["roll_id"]]
        return self._nbe_save(turn, touched, None, initiative=initiative, rolls=rolls)

    def _initiative(
        self,
        turn: Turn,
        body: NimbleStartCreate,
        fighters: dict[str, Creature],
        kinds: dict[str, str],
    ) -> tuple[dict[str, Any], list[Any]]:
        """NB-1/NB-2: each hero's Initiative roll (none when it starts with set actions) and the
        actions it starts with; returns them by hero and what the rolls touched."""
        initiative: dict[str, Any] = {}
        touched: list[Any] = []
        for key in (k for k, kind in kinds.items() if kind == "hero"):
            surprise = body.surprised.get(UUID(key))
            rolled, roll_id = None, None
            if body.party != "three_actions" and surprise != "one_action":
                request = {
                    "advantage": 1 if body.party == "advantage" else 0,
                    "disadvantage": 1 if surprise == "disadvantage" else 0,
                }
                chain = touched[1] if touched else None  # the rolls of one command, one chain
                outcome, made = turn.roll(
                    "initiative", request, fighters[key][0], body.client_seed, chain=chain
                )
                touched.extend(made)
                rolled, roll_id = int(outcome.result["actions"]), str(made[0].id)
            actions = enc.starting_actions(rolled, surprise, body.party)
            initiative[key] = {"roll_id": roll_id, "actions": actions, "surprise": surprise}
        return initiative, touched

    @command
    def nimble_end_turn(self, ctx: CommandContext, scene_id: UUID, body: NimbleTurnEnd) -> Outcome:
        """NB-4/NB-5/NB-7: the current creature ends its turn; its actions come back."""
        turn = self._turn(ctx, scene_id)
        scene = turn.scene
        state = state_of(scene)
        character, _ = self._acting(turn, state, body.character_id, "character_id")
        enc.check_turn(state, str(character.id), character.name)
        enc.check_not_pending(state)
        details: dict[str, Any] = {"character_id": str(character.id), "round": state["round"]}
        if state["kinds"].get(str(character.id)) == "hero":
            # NB-7/NB-21: back to 3 actions; a Dying hero to 1, a dead one to none.
            details["actions_back_to"] = self._max_actions(character)
        change(scene, "turn_ended", details)
        return self._nbe_save(turn, [])

    @command
    def nimble_swap(self, ctx: CommandContext, scene_id: UUID, body: NimbleSwapCreate) -> Outcome:
        """NB-3: (GM) two heroes swap places for this round (neither has had its turn yet)."""
        turn = self._turn(ctx, scene_id, gm=True)
        scene = turn.scene
        state = state_of(scene)
        enc.check_running(state)
        enc.check_swap(state, str(body.first_id), str(body.second_id))
        change(
            scene,
            "swapped",
            {
                "first_id": str(body.first_id),
                "second_id": str(body.second_id),
                "round": state["round"],
            },
        )
        return self._nbe_save(turn, [])

    @command
    def nimble_grant(self, ctx: CommandContext, scene_id: UUID, body: NimbleGrantCreate) -> Outcome:
        """NB-7: (GM) an effect grants a hero actions beyond the normal limit; for a monster
        group, attacks this turn beyond one per member left (the GM's recorded decision)."""
        turn = self._turn(ctx, scene_id, gm=True)
        scene = turn.scene
        state = state_of(scene)
        character, sheet = self._acting(turn, state, body.character_id, "character_id", acts=False)
        enc.check_standing(character.name, character.status, "character_id")
        if self._members_left((character, sheet)) is None:  # a group: attacks beyond its members
            enc.check_hero(state, str(character.id), character.name, "character_id", "NB-7")
        state = self._nbe_cap(scene, character)
        cap = self._max_actions(character)
        enc.check_grant(state, str(character.id), character.name, cap, body.actions)
        change(
            scene,
            "granted",
            {"character_id": str(character.id), "actions": body.actions, "reason": body.reason},
        )
        return self._nbe_save(turn, [])

    @command
    def nimble_end(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        """NB-4: (GM) the encounter is over; per-encounter uses and Assess skills refresh."""
        turn = self._turn(ctx, scene_id, gm=True)
        scene = turn.scene
        enc.check_running(state_of(scene))
        change(scene, "ended", {"round": state_of(scene)["round"]})
        return self._nbe_save(turn, [])

    def page_advanced(self, at: PageBoundary) -> None:
        """NB-4: each page is a round: the order starts again (swaps were for one round)."""
        if state_of(at.scene)["status"] == "running":
            change(at.scene, "round_started", {"round": at.scene.page})

    def scene_closed(self, at: SceneBoundary) -> None:
        """NB-4: closing the scene ends its encounter."""
        scene = at.scene
        state = state_of(scene)
        if state["status"] == "running":
            # the scene is closed already, so not through change_state (it refuses closed scenes)
            scene._state_changed(NIMBLE, AREA, "ended", {"round": state["round"]}, scene.page)

    def in_turn(
        self,
        scene: Scene,
        character: Character,
        action: str,
        cost: int,
        *,
        free: bool = False,
        own_turn: bool = True,
        **details: Any,
    ) -> bool:
        """NB-7/NB-8/NB-15 for the health area's verbs done in a running encounter of `scene`
        that `character` is in (Hide and Escape 1 action, cover and Concentration on its turn,
        release and ending Concentration its free action): checks the turn and the actions, then
        records the `acted` change. False (nothing checked) outside such an encounter."""
        state = state_of(scene)
        who, name = str(character.id), character.name
        if state["status"] != "running" or who not in state["kinds"]:
            return False
        enc.check_standing(name, character.status, "character_id")
        if action != "end_concentration":  # dropping the effect needs no save first
            enc.check_no_save_due(name, character.concentration)
        state = self._nbe_cap(scene, character)
        if free:
            if own_turn:
                enc.check_turn(state, who, name)
            enc.check_free(state, who, name)
        else:
            enc.check_spend(state, who, name, cost, reaction=None)
        self._nbe_act(scene, who, action, 0 if free else cost, free=free, **details)
        return True

    def nimble_max_actions_now(self, scene: Scene) -> dict[str, int]:
        """NB-7/NB-21: the actions each hero of the encounter gets back at its turn's end, from
        its health now (a Dying hero healed by the GM gets 3 again; the state learns of it at its
        next action)."""
        out: dict[str, int] = {}
        for who, kind in state_of(scene)["kinds"].items():
            if kind == "hero":
                character: Character = self.app.repository.get(UUID(who))  # of this campaign
                out[who] = self._max_actions(character)
        return out

    def nimble_encounter(self, actor: Actor, scene_id: UUID) -> Scene:
        """The scene, for its encounter state (any member may read it)."""
        scene = self.app.get(actor, Scene, scene_id)
        if self.app.campaign_of(actor).ruleset != NIMBLE:
            raise InvalidInput("Nimble encounters need a nimble campaign", field="scene_id")
        return scene

    # ---- NB-5..NB-8, NB-12, NB-13: actions without an attack roll -------------------------------

    @command
    def nimble_act(self, ctx: CommandContext, scene_id: UUID, body: NimbleActionCreate) -> Outcome:
        """An action: `cost` actions (NB-7), or the free action of the turn (NB-8); a limited use
        (NB-5); a spell's mana (NB-12); a save ability (hasty: targets gain advantage, NB-10); an
        activity spread over turns with Concentration (NB-6)."""
        turn = self._turn(ctx, scene_id)
        scene = turn.scene
        (character, sheet), state = self._standing(turn, body.character_id)
        who, name = str(character.id), character.name
        enc.check_turn(state, who, name)
        if body.save_ability:
            self.check_members(state, (character, sheet))
        enc.check_limited_use(body.use_key, body.per)
        if body.use_key is not None and body.per is not None:
            enc.check_use(state, who, body.use_key, body.per, "NB-5")
        cost, free, details = enc.action_cost(state, who, name, body)
        begins = details.get("activity") is not None and who not in state["activities"]
        if begins:  # NB-6: spread over turns "while keeping Concentration"
            hp = int(character.resources.get("hp", 0))
            enc.check_may_spread(name, character.concentration, hp)
        cast = spell_cast(sheet, body.spell, body.mana, body.extra_mana)  # NB-12: the sheet's
        cost_of = cast.mana if cast is not None else 0
        enc.check_mana(name, int(character.resources.get("mana", 0)), cost_of, "spell")
        if body.save_ability:  # NB-10: each hasty use gives the targets one more step of advantage
            details["target_advantage"] = enc.hasty_steps(state, who)
            details["hasty"] = True
        if cast is not None:
            details["spell"] = cast.name
            details.update(cast.details())
            if cast.mana:
                character.spend({"mana": cast.mana}, reason=f"{body.action}: {cast.name} (NB-12)")
        if begins:
            character.start_concentration(str(details["activity"]["name"]), scene.id)
        elif "activity" in details and who in state["activities"]:  # done, or dropped (NB-8)
            ended = "dropped (a free action, NB-8)" if free else "the activity is done (NB-6)"
            character.end_concentration(ended, scene.id)
        self._nbe_act(
            scene, who, body.action, cost, free=free, key=body.use_key, per=body.per, **details
        )
        return self._nbe_save(turn, [character], None, **details)

    @command
    def nimble_move(self, ctx: CommandContext, scene_id: UUID, body: NimbleMoveCreate) -> Outcome:
        """NB-13: move; each Move action gives Speed squares, spent over the turn; difficult
        terrain costs double."""
        turn = self._turn(ctx, scene_id)
        scene = turn.scene
        (character, sheet), state = self._standing(turn, body.character_id)
        who, name = str(character.id), character.name
        need = enc.movement_cost(body.squares, body.difficult)
        # NB-24: Restrained, held by a bigger creature or riding: no move; same size: half speed
        speed = move_speed(name, character.nimble_conditions, sheet.speed) if need else sheet.speed
        cost, left = enc.move_actions(name, int(state["movement"].get(who, 0)), need, speed)
        enc.check_spend(state, who, name, cost, reaction=None)
        self._nbe_act(
            scene,
            who,
            "move",
            cost,
            squares=body.squares,
            difficult=body.difficult,
            speed=speed,
            movement_left=left,
        )
        return self._nbe_save(
            turn, [], None, actions_spent=cost, movement_left=left, movement_cost=need
        )

    # ---- NB-9..NB-11, NB-14..NB-18: attacks and the reactions to them -------------------------

    @command
    def nimble_attack(
        self, ctx: CommandContext, scene_id: UUID, body: NimbleAttackCreate
    ) -> Outcome:
        """An attack with the sheet's attack (NB-9..11): hasty attacks (NB-10), a found weakness or
        anticipated danger (NB-14), an opportunity attack (NB-18), the target's Defend (NB-16) and
        an ally's Interpose (NB-17); damage through the health contract. ``hold``: a hit waits
        for the reactions declared after seeing it (NB-15; ``nimble_resolve_attack``)."""
        turn = self._turn(ctx, scene_id)
        strike = self._strike(turn, body)
        # NB-21: a Dying hero that attacks first makes a STR save DC 10 or takes 1 Wound; the attack
        # goes on either way (the source), unless that Wound kills the hero (ruling).
        dying, dying_touched = self.system.health.dying_attack_save(
            turn.actor, turn.scene, turn.campaign, strike.attacker, body.client_seed
        )
        if dying is not None and dying["dead"]:
            return self._died_attacking(turn, strike, dying, dying_touched)
        chain = dying_touched[1] if dying is not None else None
        roll, result, touched = self._attack_roll(turn, strike, chain)
        summary = self._struck(turn, strike, roll, result, dying)
        touched = [*dying_touched, *touched]
        if summary["pending"]:  # NB-15: the reactions come after the roll, before the damage
            self._hold(turn, strike, roll, result, summary["weakness_used"])
            return self._nbe_save(turn, touched, roll, **summary)
        summary["hit"] = self._nbe_land(
            turn,
            roll.id,
            strike.target,
            strike.interposer,
            body.defend,
            summary["damage"],
            summary["critical"],
            summary["armor"],
        )
        summary["self_hit"] = self._self_hit(turn, strike, roll, result)
        return self._nbe_save(turn, touched, roll, **summary)

    def _strike(self, turn: Turn, body: NimbleAttackCreate) -> Strike:
        """NB-9..18: the attack's checks, its reactions declared with it, and what the conditions
        (NB-24, NB-26) and the encounter (NB-10, NB-14) add to it."""
        state, attacker, target = self._attack_ready(turn, body)
        interposer = self._nbe_reactions(turn, attacker, target, body.defend, body.interpose_by)
        hit_target = interposer or target
        defender_sheet = self._creature(turn, hit_target.id, "target_id")[1]
        cast = self._cast(turn, attacker, body)
        have_mana = int(attacker.resources.get("mana", 0))
        field = "extra_mana" if body.extra_mana else "attack"
        enc.check_mana(attacker.name, have_mana, cast.mana, field)
        edge = self.system.health.attack_edge(attacker, hit_target)
        enc.check_targetable(hit_target.name, bool(edge.get("can_target", True)))
        shift, weakness, anticipating = enc.primary_shift(state, str(hit_target.id))
        # NB-16: a monster's Armor comes off every hit; a hero's only when it Defends.
        armor = defender_sheet.armor
        if not (body.defend or isinstance(defender_sheet, NimbleMonster)):
            armor = 0
        return Strike(
            body,
            state,
            attacker,
            target,
            interposer,
            edge,
            shift,
            weakness,
            anticipating,
            hasty=enc.hasty_steps(state, str(attacker.id), reaction=body.opportunity),
            armor=armor,
            hold=enc.holds(state, str(target.id), body.hold, reacting(body)),
            cast=cast,
        )

    def _cast(self, turn: Turn, attacker: Character, body: NimbleAttackCreate) -> Cast:
        """NB-12: the attack's tier from the attacker's sheet; the request may only confirm it
        and choose extra mana up to the sheet's `upcast`. An attack the sheet lacks is the
        roll's refusal (``request.attack``)."""
        sheet = self._creature(turn, attacker.id, "attacker_id")[1]
        folded = body.attack.casefold()
        attack = next((a for a in sheet.attacks if a.name.casefold() == folded), None)
        if attack is None:
            return Cast(body.attack, None, 0)
        return attack_cast(attack, body.spell_tier, body.extra_mana)

    def _attack_ready(
        self, turn: Turn, body: NimbleAttackCreate
    ) -> tuple[dict[str, Any], Character, Character]:
        """Who attacks whom, both standing, and the attacker's action or reaction for it."""
        state = state_of(turn.scene)
        attacker, attacker_sheet = self._acting(turn, state, body.attacker_id, "attacker_id")
        target, _ = self._creature(turn, body.target_id, "target_id")
        enc.check_in(state, str(target.id), target.name, "target_id")
        enc.check_attack(str(attacker.id), str(target.id), bool(body.hold), reacting(body))
        enc.check_not_pending(state)
        who, name = str(attacker.id), attacker.name
        enc.check_standing(attacker.name, attacker.status, "attacker_id")
        enc.check_standing(target.name, target.status, "target_id")
        self._nbe_cap(turn.scene, attacker)
        state = self._nbe_cap(turn.scene, target)  # NB-21: a Dying target defends with 1 action
        if body.opportunity:  # NB-18
            enc.check_hero(state, who, name, "attacker_id", "NB-18")
            enc.check_spend(state, who, name, 1, reaction="opportunity_attack")
        else:
            enc.check_spend(state, who, name, 1, reaction=None)
        self.check_members(state, (attacker, attacker_sheet))
        return state, attacker, target

    def _died_attacking(
        self, turn: Turn, strike: Strike, dying: dict[str, Any], touched: list[Any]
    ) -> Outcome:
        """NB-21/NB-22 (ruling): the Dying save's Wound killed the attacker: its action is spent
        and nothing is rolled for the attack."""
        save_roll = touched[0]
        who = str(strike.attacker.id)
        self._nbe_act(
            turn.scene, who, "attack", 1, roll_id=str(save_roll.id), dying_save=dying, died=True
        )
        self._nbe_cap(turn.scene, strike.attacker)
        return self._nbe_save(
            turn,
            touched,
            save_roll,
            target_id=str(strike.hit_target.id),
            attacked=False,
            dying_save=dying,
            hit=None,
        )

    def _attack_roll(
        self, turn: Turn, strike: Strike, chain: Any
    ) -> tuple[Roll, dict[str, Any], list[Any]]:
        """The attack's fair roll: its request holds every number (NB-9..11, NB-14, NB-16)."""
        body = strike.body
        # NB-11: the steps the roller declares (the conditions' and Assess's come from the record)
        declared = declared_by({"advantage": body.advantage, "disadvantage": body.disadvantage})
        request = {
            "attack": body.attack,
            "advantage": body.advantage + int(strike.edge.get("advantage", 0)),
            "disadvantage": body.disadvantage
            + int(strike.edge.get("disadvantage", 0))
            + (1 if body.opportunity else 0),
            "attack_number": strike.hasty + 1,
            "primary_shift": strike.shift,
            "armor": strike.armor,
            "purpose": body.purpose,
        }
        outcome, touched = turn.roll(
            "attack", request, strike.attacker, body.client_seed, chain=chain, declared=declared
        )
        roll = touched[0]
        assert isinstance(roll, Roll)
        return roll, outcome.result, touched

    def _struck(
        self,
        turn: Turn,
        strike: Strike,
        roll: Roll,
        result: dict[str, Any],
        dying: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The attack is made: the attacker is hidden no more (NB-26), pays the spell's mana
        (NB-12) and has spent its action or reaction; returns what came of the roll."""
        body, attacker = strike.body, strike.attacker
        weakness_used = _weakness_used(strike.weakness, result)
        self.system.health.attacked(attacker, turn.scene.id)
        if strike.cast.mana:
            attacker.spend({"mana": strike.cast.mana}, reason=f"roll {roll.id} (NB-12)")
        self._nbe_act(
            turn.scene,
            str(attacker.id),
            "opportunity_attack" if body.opportunity else "attack",
            1,
            key="reaction:opportunity_attack" if body.opportunity else None,
            per="round" if body.opportunity else None,
            hasty=not body.opportunity,
            roll_id=str(roll.id),
            target_id=str(strike.hit_target.id),
            weakness_used=weakness_used,
            **strike.cast.details(),
        )
        return _attack_summary(strike, result, dying, weakness_used)

    @staticmethod
    def _hold(
        turn: Turn, strike: Strike, roll: Roll, result: dict[str, Any], weakness_used: bool
    ) -> None:
        """NB-15: a hit waits for the reactions declared on seeing it (and for Help, NB-19)."""
        entries = strike.state["weakness"].get(str(strike.hit_target.id)) or [None]
        change(
            turn.scene,
            "held",
            {
                "roll_id": str(roll.id),
                "character_id": str(strike.attacker.id),
                "target_id": str(strike.target.id),
                "attack": strike.body.attack,
                "total": int(result["total"]),
                "armor": int(result["armor"]),
                "damage": int(result["damage"]),
                "critical": bool(result["critical"]),
                "round": state_of(turn.scene)["round"],
                # NB-14: Help may change whether this attack uses the weakness up
                "weakness": strike.weakness,
                "weakness_used": weakness_used,
                "weakness_entry": entries[0] if weakness_used else None,
            },
        )

    def _self_hit(
        self, turn: Turn, strike: Strike, roll: Roll, result: dict[str, Any]
    ) -> dict[str, Any] | None:
        """NB-24 (Mounted): an attack that misses its rider hits the ridden attacker itself.
        Ruling: for the dice rolled plus the modifier (no crit; no Defend, no Armor)."""
        if not (result["miss"] and strike.edge.get("miss_hits_attacker")):
            return None
        amount = max(0, int(result["rolled"]) + int(result["modifier"]))
        if amount <= 0:
            return {"damage": 0}
        hit = self.system.health.damage(
            turn.actor,
            turn.scene,
            strike.attacker,
            amount,
            critical=False,
            roll_id=roll.id,
            loaded=turn.loaded,
        )
        self._nbe_cap(turn.scene, strike.attacker)
        return hit

    def _nbe_reactions(
        self,
        turn: Turn,
        attacker: Character,
        target: Character,
        defend: bool,
        interpose_by: UUID | None,
    ) -> Character | None:
        """NB-15..17: check (and budget) an ally's Interpose and the final target's Defend.
        Returns the interposer, who becomes the target; the actions are spent by ``_nbe_land``."""
        scene = turn.scene
        state = state_of(scene)
        interposer = None
        if interpose_by is not None:  # NB-17
            interposer, _ = self._creature(turn, interpose_by, "interpose_by")
            enc.check_in(state, str(interposer.id), interposer.name, "interpose_by")
            enc.check_hero(state, str(interposer.id), interposer.name, "interpose_by", "NB-17")
            enc.check_interposer(str(interposer.id), str(target.id), str(attacker.id))
            enc.check_standing(interposer.name, interposer.status, "interpose_by")
            state = self._nbe_cap(scene, interposer)
            enc.check_spend(state, str(interposer.id), interposer.name, 1, reaction="interpose")
        hit_target = interposer or target
        if defend:  # NB-16
            enc.check_defend(state, str(hit_target.id), hit_target.name, interposer is not None)
        return interposer

    def _nbe_land(
        self,
        turn: Turn,
        roll_id: UUID,
        target: Character,
        interposer: Character | None,
        defend: bool,
        damage: int,
        critical: bool,
        defend_armor: int,
    ) -> dict[str, Any] | None:
        """NB-15..17, NB-20..25: the reactions are spent, then the damage lands on the final
        target through the health contract. Returns its summary (None when no damage)."""
        actor, scene, loaded = turn.actor, turn.scene, turn.loaded
        hit_target = interposer or target
        reactions: list[tuple[Character, str, dict[str, Any]]] = (
            [(interposer, "interpose", {"instead_of": str(target.id)})] if interposer else []
        )
        if defend:
            reactions.append((hit_target, "defend", {"armor": defend_armor}))
        for who, reaction, details in reactions:
            key = f"reaction:{reaction}"
            self._nbe_act(
                scene,
                str(who.id),
                reaction,
                1,
                key=key,
                per="round",
                roll_id=str(roll_id),
                **details,
            )
        if damage <= 0:
            return None
        hit = self.system.health.damage(
            actor, scene, hit_target, damage, critical=critical, roll_id=roll_id, loaded=loaded
        )
        self._nbe_cap(scene, hit_target)  # NB-21: it may have fallen Dying
        return hit

    @command
    def nimble_resolve_attack(
        self, ctx: CommandContext, scene_id: UUID, roll_id: UUID, body: NimbleResolveCreate
    ) -> Outcome:
        """NB-15..17: a held attack lands, after the reactions declared on seeing its roll: the
        target's Defend (its Armor off unless critical), an ally's Interpose, or none."""
        turn = self._turn(ctx, scene_id)
        scene = turn.scene
        state = state_of(scene)
        enc.check_running(state)
        pending = enc.held_attack(state, str(roll_id))
        attacker, _ = self._creature(turn, UUID(pending["character_id"]), "roll_id")
        target, _ = self._creature(turn, UUID(pending["target_id"]), "roll_id")
        self._check_answers(turn, state, attacker, target, body.interpose_by)
        if body.interpose_by is not None:
            enc.check_interposed_for(state, str(target.id))
        self._nbe_cap(scene, target)
        critical = bool(pending["critical"])
        interposer = self._nbe_reactions(turn, attacker, target, body.defend, body.interpose_by)
        if body.defend:  # NB-16: seen to be critical, a Defend would be wasted
            enc.check_defend_helps(critical)
        hit_target = interposer or target
        # NB-16: the Defender's Armor comes off unless the hit is critical. A monster target's
        # Armor was taken off by the roll itself (its request's `armor`).
        defend_armor = 0
        if body.defend and not critical:
            defend_armor = int(self._creature(turn, hit_target.id, "roll_id")[1].armor)
        damage = max(0, int(pending["damage"]) - defend_armor)
        out_of_fight = hit_target.status in ("dead", "defeated")
        hit = None
        if not out_of_fight:
            hit = self._nbe_land(
                turn, roll_id, target, interposer, body.defend, damage, critical, defend_armor
            )
        resolved = {
            "roll_id": str(roll_id),
            "character_id": str(hit_target.id),
            "attacker_id": str(attacker.id),
            "target_id": str(hit_target.id),
            "interposed_by": str(interposer.id) if interposer else None,
            "defended": body.defend,
            **_landed(pending, defend_armor, 0 if out_of_fight else damage),
        }
        change(scene, "resolved", resolved)
        return self._nbe_save(turn, [], None, **resolved, hit=hit)

    @staticmethod
    def _check_answers(
        turn: Turn,
        state: dict[str, Any],
        attacker: Character,
        target: Character,
        interpose_by: UUID | None,
    ) -> None:
        """NB-15: who answers a held roll: the interposer's owner, else the hero target's owner;
        an attack on a monster is settled by the attacker's side (the GM answers for anyone)."""
        if turn.actor.is_gm:
            return
        if interpose_by is not None:
            turn.acting(interpose_by, "interpose_by")
        elif state["kinds"].get(str(target.id)) == "hero":
            turn.acting(target.id, "roll_id")
        else:
            turn.acting(attacker.id, "roll_id")

    # ---- NB-14: Assess; NB-19: Help --------------------------------------------------------

    @command
    def nimble_assess(
        self, ctx: CommandContext, scene_id: UUID, body: NimbleAssessCreate
    ) -> Outcome:
        """NB-14: Assess (1 action, a skill check DC 10), each skill once per encounter."""
        turn = self._turn(ctx, scene_id)
        character, modifier = self._assessor(turn, body)
        request = {
            "skill": body.skill,
            "modifier": modifier,
            "option": body.option,
            "advantage": body.advantage,
            "disadvantage": body.disadvantage,
            "purpose": body.question,
        }
        steps = {"advantage": body.advantage, "disadvantage": body.disadvantage}
        declared = declared_by(steps)  # NB-11: the roller's steps, fields of its body
        outcome, touched = turn.roll(
            "assess", request, character, body.client_seed, declared=declared
        )
        roll = touched[0]
        assert isinstance(roll, Roll)  # a roll's first touched aggregate is its record
        assess = _assessment(body, str(character.id), modifier, roll.id, outcome.result)
        self._nbe_act(turn.scene, str(character.id), "assess", 1, assess=assess)
        return self._nbe_save(turn, touched, roll, assess=assess)

    def _assessor(self, turn: Turn, body: NimbleAssessCreate) -> tuple[Character, int]:
        """NB-14: a hero standing, on its turn with an action, with a skill it has not assessed
        with in this encounter (and a target of it, to find a weakness); its skill's modifier."""
        state = state_of(turn.scene)
        character, sheet = self._acting(turn, state, body.character_id, "character_id")
        who, name = str(character.id), character.name
        enc.check_hero(state, who, name, "character_id", "NB-14")
        enc.check_standing(character.name, character.status, "character_id")
        state = self._nbe_cap(turn.scene, character)
        assert isinstance(sheet, NimbleHero)
        enc.check_spend(state, who, name, 1, reaction=None)
        enc.check_assess(state, who, body.skill)
        enc.check_weakness_target(body.option, body.target_id)
        if body.option == "find_weakness" and body.target_id is not None:
            target, _ = self._creature(turn, body.target_id, "target_id")
            enc.check_in(state, str(target.id), target.name, "target_id")
        skill = body.skill.casefold()
        return character, next((v for k, v in sheet.skills.items() if k.casefold() == skill), 0)

    @command
    def nimble_help(self, ctx: CommandContext, scene_id: UUID, body: NimbleHelpCreate) -> Outcome:
        """NB-19: a hero helps an ally's roll, once per roll: it rerolls the kept d20 of an
        Assess, or one die (``die``) of a held attack (the ``help_die`` follow-up roll); a
        reaction (1 action, 1/round) outside the helper's turn, an action on it."""
        turn = self._turn(ctx, scene_id)
        state = state_of(turn.scene)
        pending = state.get("pending")
        on_attack = bool(pending and pending["roll_id"] == str(body.roll_id))
        if (
            on_attack
        ):  # NB-19 «Дай союзнику перебросить кость»: the reroll, and its die, are the ally's
            enc.check_running(state)
            helper, _ = self._creature(turn, body.helper_id, "helper_id")
            enc.check_in(state, str(helper.id), helper.name, "helper_id")
            enc.check_no_save_due(helper.name, helper.concentration)
            self._check_picks_die(turn, UUID(str(pending["character_id"])))  # type: ignore[index]
        else:
            helper, _ = self._acting(turn, state, body.helper_id, "helper_id")
        who = str(helper.id)
        enc.check_hero(state, who, helper.name, "helper_id", "NB-19")
        enc.check_standing(helper.name, helper.status, "helper_id")
        state = self._nbe_cap(turn.scene, helper)
        enc.check_not_helped(state, str(body.roll_id))
        if on_attack:
            return self._nbe_help_attack(turn, helper, body)
        return self._help_assess(turn, state, helper, body)

    @staticmethod
    def _check_picks_die(turn: Turn, helped: UUID) -> None:
        """NB-19 (ruling): on a held attack the helped hero's player (or the GM) sends the Help
        naming the helper and the die: the source gives the ally the reroll, so the ally picks."""
        try:
            turn.acting(helped, "die")
        except DomainError as exc:
            raise type(exc)(
                "the helped hero's player picks the die to reroll (NB-19: the reroll is the "
                "ally's): send the Help as that player, naming the helper",
                field="die",
                code=exc.code,
                rule="NB-19",
            ) from None

    def _help_assess(
        self, turn: Turn, state: dict[str, Any], helper: Character, body: NimbleHelpCreate
    ) -> Outcome:
        """NB-19 on an ally's Assess (NB-14): its d20 rerolled (the ``help_reroll`` check)."""
        who = str(helper.id)
        assess = enc.helped_assessment(state, str(body.roll_id), who, body.die)
        own_turn = enc.current(state) == who
        enc.check_spend(state, who, helper.name, 1, reaction=None if own_turn else "help")
        # through the turn: the one instance of the character this command loads and saves
        roller = turn.character(UUID(assess["character_id"]), "roll_id").character
        request = {
            "helped_roll_id": str(body.roll_id),
            "old_face": assess["natural"],
            "modifier": assess["modifier"],
            "dc": assess["dc"],
            "purpose": body.purpose,
        }
        outcome, touched = turn.roll("help_reroll", request, roller, body.client_seed)
        roll = touched[0]
        assert isinstance(roll, Roll)  # a roll's first touched aggregate is its record
        helped = {
            "roll_id": str(body.roll_id),
            "reroll_id": str(roll.id),
            "total": outcome.result["total"],
            "success": outcome.result["success"],
            "natural": outcome.result["natural"],
        }
        return self._nbe_helped(turn, who, own_turn, touched, roll, helped)

    def _nbe_helped(
        self,
        turn: Turn,
        who: str,
        own_turn: bool,
        touched: list[Any],
        roll: Roll,
        helped: dict[str, Any],
    ) -> Outcome:
        """NB-19: the Help is an action on the helper's own turn, else a reaction (1/round)."""
        self._nbe_act(
            turn.scene,
            who,
            "help",
            1,
            key=None if own_turn else "reaction:help",
            per=None if own_turn else "round",
            help=helped,
        )
        return self._nbe_save(turn, touched, roll, help=helped)

    def _nbe_help_attack(self, turn: Turn, helper: Character, body: NimbleHelpCreate) -> Outcome:
        """NB-19 on a held attack (NB-15): an ally hero rerolls one of its dice before it lands."""
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        pending = state["pending"]
        who, name = str(helper.id), helper.name
        enc.check_help_on_attack(state, who, body.die)
        own_turn = enc.current(state) == who
        enc.check_spend(state, who, name, 1, reaction=None if own_turn else "help")
        original = self.app.get(actor, Roll, UUID(pending["roll_id"]))
        try:
            outcome, touched = self.app._follow_up_roll(
                actor,
                scene,
                turn.campaign,
                original,
                "help_die",
                {"die": body.die, "purpose": body.purpose},
                body.client_seed,
                for_ally=True,
            )
        except InvalidInput as exc:
            raise InvalidInput(exc.message, field="die", rule="NB-19") from None
        roll = touched[0]
        assert isinstance(roll, Roll)  # a roll's first touched aggregate is its record
        helped = {
            "roll_id": pending["roll_id"],
            "reroll_id": str(roll.id),
            "die": body.die,
            **{k: outcome.result[k] for k in HELPED_ATTACK},
            # NB-14: the weakness is used up unless the (new) Primary die crits by itself
            "weakness_used": _weakness_used(bool(pending.get("weakness")), outcome.result),
        }
        return self._nbe_helped(turn, who, own_turn, touched, roll, helped)
