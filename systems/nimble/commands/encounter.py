"""Nimble encounters - initiative, turns, the three actions, attacks, reactions (NB-1..19).

A scene is an encounter and its pages are rounds. The rules are checked in the pure library
systems/nimble/rules/encounter.py before the scene's state changes (area ``encounter``,
``Scene.change_state``); damage goes ONLY through ``Health.nimble_damage``
(systems/nimble/commands/health.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from math import ceil
from typing import Any
from uuid import UUID

from domain.aggregates import Character, Roll, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Loaded, PageBoundary, SceneBoundary, Turn
from domain.errors import Conflict, InvalidInput
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
from systems.nimble.rules.sheet import HERO_ACTIONS, NimbleHero, NimbleMonster

NIMBLE = "nimble"
AREA = "encounter"  # the system's area of the scene's state (Ruleset.scene_states)

Creature = tuple[Character, NimbleHero | NimbleMonster]


@dataclass(frozen=True)
class EncounterResult:
    """What an encounter command tells its presenter: the roll to show, and what came of it."""

    roll_id: UUID | None = None
    outcome: dict[str, Any] = dataclasses.field(default_factory=dict)


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
        self, turn: Turn, state: dict[str, Any], character_id: UUID, field: str
    ) -> Creature:
        """A character in the running encounter that the actor may act for (403 otherwise)."""
        enc.check_running(state)
        character, sheet = self._creature(turn, character_id, field)
        turn.acting(character_id, field)
        enc.check_in(state, str(character.id), character.name, field)
        return character, sheet

    def _max_actions(self, character: Character) -> int:
        """NB-21: 1 while Dying, 0 when dead, else 3 (the health area's rule)."""
        return self.system.health.max_actions(character)

    def _nbe_cap(self, scene: Scene, character: Character) -> dict[str, Any]:
        """NB-21: a hero that fell Dying (or died) since its actions were counted keeps at most
        what it may have now (1, or 0); the encounter records the cap. Returns the state."""
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
        surprised = body.surprised
        turn = self._turn(ctx, scene_id, gm=True)
        actor, scene = turn.actor, turn.scene
        if state_of(scene)["status"] == "running":
            raise Conflict(
                "an encounter is already running in this scene",
                code="encounter_running",
                rule="NB-4",
            )
        if len(set(body.order)) != len(body.order) or not body.order:
            raise InvalidInput("the order names each creature once", field="order", rule="NB-3")
        surprised = surprised or {}
        kinds: dict[str, str] = {}
        fighters: dict[str, Character] = {}
        for index, cid in enumerate(body.order):
            character, sheet = self._creature(turn, cid, f"order.{index}")
            kinds[str(cid)] = "hero" if isinstance(sheet, NimbleHero) else "monster"
            fighters[str(cid)] = character
        for hero_id in surprised:
            if kinds.get(str(hero_id)) != "hero":
                raise InvalidInput(
                    "only heroes in the order can be surprised", field="surprised", rule="NB-2"
                )
        actions: dict[str, int] = {}
        initiative: dict[str, Any] = {}
        touched: list[Any] = []
        chain = None
        rolls: list[str] = []
        for key, kind in kinds.items():
            if kind != "hero":
                continue
            surprise = surprised.get(UUID(key))
            rolled = None
            roll_id = None
            if body.party != "three_actions" and surprise != "one_action":
                request = {
                    "advantage": 1 if body.party == "advantage" else 0,
                    "disadvantage": 1 if surprise == "disadvantage" else 0,
                }
                outcome, made = self.app._roll_check(
                    actor,
                    scene,
                    turn.campaign,
                    "initiative",
                    request,
                    fighters[key],
                    body.client_seed,
                    chain,
                )
                chain = made[1]
                touched.extend(made)
                rolled = int(outcome.result["actions"])
                roll_id = str(made[0].id)
                rolls.append(roll_id)
            actions[key] = enc.starting_actions(rolled, surprise, body.party)
            initiative[key] = {"roll_id": roll_id, "actions": actions[key], "surprise": surprise}
        base = [str(c) for c in body.order]
        round_order = base
        if body.monsters_first:  # NB-2: the monsters act first in the first round
            round_order = [c for c in base if kinds[c] != "hero"] + [
                c for c in base if kinds[c] == "hero"
            ]
        change(
            scene,
            "started",
            {
                "round": scene.page,
                "order": base,
                "round_order": round_order,
                "kinds": kinds,
                "actions": actions,
                "initiative": initiative,
                "party": body.party,
                "monsters_first": body.monsters_first,
            },
        )
        return self._nbe_save(turn, touched, None, initiative=initiative, rolls=rolls)

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
        order = state["round_order"]
        for cid, field in ((body.first_id, "first_id"), (body.second_id, "second_id")):
            if state["kinds"].get(str(cid)) != "hero":
                raise InvalidInput(
                    "only heroes of the encounter swap places", field=field, rule="NB-3"
                )
            if order.index(str(cid)) < state["turn"]:
                raise Conflict(
                    "that hero has had its turn this round",
                    code="turn_taken",
                    field=field,
                    rule="NB-3",
                )
        if body.first_id == body.second_id:
            raise InvalidInput("swap two different heroes", field="second_id", rule="NB-3")
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
        """NB-7: (GM) an effect grants a hero actions beyond the normal limit."""
        turn = self._turn(ctx, scene_id, gm=True)
        scene = turn.scene
        state = state_of(scene)
        character, _ = self._acting(turn, state, body.character_id, "character_id")
        enc.check_hero(state, str(character.id), character.name, "character_id", "NB-7")
        enc.check_standing(character.name, character.status, "character_id")
        state = self._nbe_cap(scene, character)
        cap = self._max_actions(character)
        have = int(state["actions"].get(str(character.id), 0))
        spent = int(state.get("spent", {}).get(str(character.id), 0))  # on this, its own turn
        if cap < HERO_ACTIONS and spent + have + body.actions > cap:
            # NB-21 is the narrower rule: a Dying hero takes at most 1 action per turn.
            raise Conflict(
                f"{character.name} is Dying: at most {cap} action(s) a turn; it has {have} "
                f"and spent {spent} this turn",
                field="actions",
                code="dying",
                rule="NB-21",
                details={"have": have, "spent_this_turn": spent, "max": cap},
            )
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
        cost, free = body.cost, body.free
        turn = self._turn(ctx, scene_id)
        scene = turn.scene
        state = state_of(scene)
        character, _ = self._acting(turn, state, body.character_id, "character_id")
        who, name = str(character.id), character.name
        enc.check_standing(character.name, character.status, "character_id")
        state = self._nbe_cap(scene, character)
        enc.check_turn(state, who, name)
        if (body.use_key is None) != (body.per is None):
            raise InvalidInput("give use_key and per together", field="per", rule="NB-5")
        if body.use_key is not None and body.per is not None:
            enc.check_use(state, who, body.use_key, body.per, "NB-5")
        details: dict[str, Any] = {}
        if free or body.end_concentration:
            enc.check_free(state, who, name)
            if body.end_concentration:
                if who not in state["activities"]:
                    raise Conflict(
                        f"{name} is concentrating on nothing", code="not_concentrating", rule="NB-6"
                    )
                details["activity"] = None
            cost = 0
            free = True
        elif body.activity_cost is not None or who in state["activities"]:
            # NB-6: all the actions the hero has go into the activity until it is paid.
            enc.check_hero(state, who, name, "character_id", "NB-6")
            activity = state["activities"].get(who) or {
                "name": body.action,
                "cost": body.activity_cost,
                "paid": 0,
            }
            if activity["name"] != body.action:
                enc.check_not_concentrating(state, who, name)
            have = int(state["actions"].get(who, 0))
            if have < 1:
                enc.check_actions(state, who, name, 1, "NB-7")
            cost = min(have, int(activity["cost"]) - int(activity["paid"]))
            paid = int(activity["paid"]) + cost
            done = paid >= int(activity["cost"])
            details["activity"] = None if done else {**activity, "paid": paid}
            details["activity_done"] = done
        else:
            if state["kinds"][who] == "hero":
                enc.check_not_concentrating(state, who, name)
                enc.check_actions(state, who, name, cost, "NB-7")
        enc.check_mana(name, int(character.resources.get("mana", 0)), body.mana, "mana")
        if body.save_ability:  # NB-10: each hasty use gives the targets one more step of advantage
            details["target_advantage"] = int(state["attacks"].get(who, 0))
            details["hasty"] = True
        if body.mana:
            character.spend({"mana": body.mana}, reason=f"{body.action} (NB-12)")
            details["mana"] = body.mana
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
        state = state_of(scene)
        character, sheet = self._acting(turn, state, body.character_id, "character_id")
        who, name = str(character.id), character.name
        enc.check_standing(character.name, character.status, "character_id")
        state = self._nbe_cap(scene, character)
        need = enc.movement_cost(body.squares, body.difficult)
        left = int(state["movement"].get(who, 0))
        cost = 0
        if need > left:
            if sheet.speed < 1:
                raise Conflict(f"{name} has speed 0", code="cannot_move", rule="NB-13")
            cost = ceil((need - left) / sheet.speed)
        enc.check_spend(state, who, name, cost, reaction=None)
        left = left + cost * sheet.speed - need
        self._nbe_act(
            scene,
            who,
            "move",
            cost,
            squares=body.squares,
            difficult=body.difficult,
            speed=sheet.speed,
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
        advantage, disadvantage = body.advantage, body.disadvantage
        # NB-11: the steps the roller declares (the conditions' and Assess's come from the record)
        declared = declared_by({"advantage": advantage, "disadvantage": disadvantage}, "body")
        turn = self._turn(ctx, scene_id)
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        attacker, _ = self._acting(turn, state, body.attacker_id, "attacker_id")
        target, _ = self._creature(turn, body.target_id, "target_id")
        enc.check_in(state, str(target.id), target.name, "target_id")
        if target.id == attacker.id:
            raise InvalidInput("a creature does not attack itself", field="target_id")
        if body.hold and (body.defend or body.interpose_by is not None):
            raise InvalidInput(
                "a held attack takes its reactions when it is resolved, after the roll",
                field="hold",
                rule="NB-15",
            )
        enc.check_not_pending(state)
        who, name = str(attacker.id), attacker.name
        enc.check_standing(attacker.name, attacker.status, "attacker_id")
        enc.check_standing(target.name, target.status, "target_id")
        self._nbe_cap(scene, attacker)
        state = self._nbe_cap(scene, target)  # NB-21: a Dying target defends with its 1 action
        if body.opportunity:  # NB-18
            enc.check_hero(state, who, name, "attacker_id", "NB-18")
            enc.check_spend(state, who, name, 1, reaction="opportunity_attack")
        else:
            enc.check_spend(state, who, name, 1, reaction=None)
        loaded = turn.loaded
        interposer = self._nbe_reactions(turn, attacker, target, body.defend, body.interpose_by)
        hit_target = interposer or target
        defender_sheet = self._creature(turn, hit_target.id, "target_id")[1]
        enc.check_mana(name, int(attacker.resources.get("mana", 0)), body.spell_tier, "spell_tier")
        health = self.system.health  # NB-24/NB-26 conditions: systems/nimble/commands/health.py
        edge = health.attack_edge(attacker, hit_target)
        if not edge.get("can_target", True):
            raise Conflict(f"{hit_target.name} is in full cover", code="full_cover", rule="NB-26")
        advantage += int(edge.get("advantage", 0))
        disadvantage += int(edge.get("disadvantage", 0))
        shift, weakness, anticipating = enc.primary_shift(state, str(hit_target.id))
        hasty = 0 if body.opportunity else int(state["attacks"].get(who, 0))
        # NB-21: a Dying hero that attacks first makes a STR save DC 10 or takes 1 Wound; the attack
        # goes on either way (the source), unless that Wound kills the hero (ruling).
        dying, dying_touched = health.dying_attack_save(
            actor, scene, turn.campaign, attacker, body.client_seed
        )
        chain = dying_touched[1] if dying is not None else None
        if dying is not None and dying["dead"]:
            save_roll = dying_touched[0]
            self._nbe_act(
                scene, who, "attack", 1, roll_id=str(save_roll.id), dying_save=dying, died=True
            )
            self._nbe_cap(scene, attacker)
            return self._nbe_save(
                turn,
                dying_touched,
                save_roll,
                target_id=str(hit_target.id),
                attacked=False,
                dying_save=dying,
                hit=None,
            )
        request = {
            "attack": body.attack,
            "advantage": advantage,
            "disadvantage": disadvantage + (1 if body.opportunity else 0),
            "attack_number": hasty + 1,
            "primary_shift": shift,
            # NB-16: a monster's Armor comes off every hit; a hero's only when it Defends.
            "armor": defender_sheet.armor
            if body.defend or isinstance(defender_sheet, NimbleMonster)
            else 0,
            "purpose": body.purpose,
        }
        outcome, touched = self.app._roll_check(
            actor,
            scene,
            turn.campaign,
            "attack",
            request,
            attacker,
            body.client_seed,
            chain,
            declared=declared,
        )
        touched = [*dying_touched, *touched]
        roll = touched[len(dying_touched)]
        assert isinstance(roll, Roll)
        result = outcome.result
        critical, miss = bool(result["critical"]), bool(result["miss"])
        has_primary = result["primary_die"] is not None
        # NB-14: a weakness waits for an attack with a Primary die; it carries over a natural crit.
        natural_crit = has_primary and result["primary_face"] == int(str(result["primary_die"])[1:])
        weakness_used = weakness and has_primary and not natural_crit
        # NB-16: the roll took the Armor off (crits ignore it); it is in the roll's request.
        damage, armor = int(result["damage"]), int(result["armor"])
        health.attacked(attacker, scene.id)
        if body.spell_tier:
            attacker.spend({"mana": body.spell_tier}, reason=f"roll {roll.id} (NB-12)")
        self._nbe_act(
            scene,
            who,
            "opportunity_attack" if body.opportunity else "attack",
            1,
            key="reaction:opportunity_attack" if body.opportunity else None,
            per="round" if body.opportunity else None,
            hasty=not body.opportunity,
            roll_id=str(roll.id),
            target_id=str(hit_target.id),
            weakness_used=weakness_used,
        )
        summary = {
            "attacked": True,
            "dying_save": dying,
            "miss_hits_attacker": bool(edge.get("miss_hits_attacker")),
            "self_hit": None,
            "target_id": str(hit_target.id),
            "rolled_damage": int(result["total"]),
            "armor": armor,
            "damage": 0 if miss else damage,
            "critical": critical,
            "miss": miss,
            "hasty_steps": hasty,
            "primary_shift": shift,
            "weakness": weakness,
            "weakness_used": weakness_used,
            "anticipating": anticipating,
            "interposed_by": str(interposer.id) if interposer else None,
            "defended": body.defend,
            "pending": body.hold and not miss,
            "hit": None,
        }
        if body.hold and not miss:  # NB-15: the reactions come after the roll, before the damage
            change(
                scene,
                "held",
                {
                    "roll_id": str(roll.id),
                    "character_id": who,
                    "target_id": str(target.id),
                    "attack": body.attack,
                    "total": int(result["total"]),
                    "armor": armor,
                    "damage": damage,
                    "critical": critical,
                    "round": state_of(scene)["round"],
                    # NB-14: Help may change whether this attack uses the weakness up
                    "weakness": weakness,
                    "weakness_used": weakness_used,
                    "weakness_entry": (
                        (state["weakness"].get(str(hit_target.id)) or [None])[0]
                        if weakness_used
                        else None
                    ),
                },
            )
            return self._nbe_save(turn, touched, roll, **summary)
        summary["hit"] = self._nbe_land(
            actor,
            scene,
            roll.id,
            target,
            interposer,
            body.defend,
            0 if miss else damage,
            critical,
            loaded,
            defend_armor=armor,
        )
        self_hit: dict[str, Any] | None = None
        if miss and edge.get("miss_hits_attacker"):
            # NB-24 (Mounted): an attack that misses its rider hits the ridden attacker itself.
            # Ruling: for the dice rolled plus the modifier (no crit; no Defend, no Armor).
            amount = max(0, int(result["rolled"]) + int(result["modifier"]))
            if amount > 0:
                self_hit = health.damage(
                    actor, scene, attacker, amount, critical=False, roll_id=roll.id, loaded=loaded
                )
                self._nbe_cap(scene, attacker)
            else:
                self_hit = {"damage": 0}
        summary["self_hit"] = self_hit
        return self._nbe_save(turn, touched, roll, **summary)

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
            if interposer.id in (target.id, attacker.id):
                raise InvalidInput(
                    "an ally of the target interposes", field="interpose_by", rule="NB-17"
                )
            enc.check_standing(interposer.name, interposer.status, "interpose_by")
            state = self._nbe_cap(scene, interposer)
            enc.check_spend(state, str(interposer.id), interposer.name, 1, reaction="interpose")
        hit_target = interposer or target
        if defend:  # NB-16
            enc.check_hero(state, str(hit_target.id), hit_target.name, "defend", "NB-16")
            if interposer is not None:
                # NB-17: Interpose and Defend both, if actions allow: two of the interposer's.
                enc.check_use(state, str(hit_target.id), "reaction:defend", "round", "NB-15")
                enc.check_actions(state, str(hit_target.id), hit_target.name, 2, "NB-15")
            else:
                enc.check_spend(state, str(hit_target.id), hit_target.name, 1, reaction="defend")
        return interposer

    def _nbe_land(
        self,
        actor: Actor,
        scene: Scene,
        roll_id: UUID,
        target: Character,
        interposer: Character | None,
        defend: bool,
        damage: int,
        critical: bool,
        loaded: Loaded,
        *,
        defend_armor: int | None = None,
    ) -> dict[str, Any] | None:
        """NB-15..17, NB-20..25: the reactions are spent, then the damage lands on the final
        target through the health contract. Returns its summary (None when no damage)."""
        hit_target = interposer or target
        if interposer is not None:
            self._nbe_act(
                scene,
                str(interposer.id),
                "interpose",
                1,
                key="reaction:interpose",
                per="round",
                roll_id=str(roll_id),
                instead_of=str(target.id),
            )
        if defend:
            self._nbe_act(
                scene,
                str(hit_target.id),
                "defend",
                1,
                key="reaction:defend",
                per="round",
                roll_id=str(roll_id),
                armor=defend_armor if defend_armor is not None else 0,
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
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        enc.check_running(state)
        pending = state.get("pending")
        if not pending or pending["roll_id"] != str(roll_id):
            raise Conflict(
                "that roll is no attack waiting for reactions",
                code="not_pending",
                field="roll_id",
                rule="NB-15",
                details={"pending": pending["roll_id"] if pending else None},
            )
        attacker, _ = self._creature(turn, UUID(pending["character_id"]), "roll_id")
        target, _ = self._creature(turn, UUID(pending["target_id"]), "roll_id")
        if not actor.is_gm:
            # Who answers the roll: the interposer's owner, else the hero target's owner; an
            # attack on a monster is settled by the attacker's side.
            answering = (
                body.interpose_by
                if body.interpose_by is not None
                else target.id
                if state["kinds"].get(str(target.id)) == "hero"
                else attacker.id
            )
            field = "interpose_by" if body.interpose_by is not None else "roll_id"
            turn.acting(answering, field)
        if body.interpose_by is not None and state["kinds"].get(str(target.id)) != "hero":
            raise InvalidInput(
                "heroes interpose for their allies, not for monsters",
                field="interpose_by",
                rule="NB-17",
            )
        loaded = turn.loaded
        state = self._nbe_cap(scene, target)
        interposer = self._nbe_reactions(turn, attacker, target, body.defend, body.interpose_by)
        hit_target = interposer or target
        critical = bool(pending["critical"])
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
                actor,
                scene,
                roll_id,
                target,
                interposer,
                body.defend,
                damage,
                critical,
                loaded,
                defend_armor=defend_armor,
            )
        resolved = {
            "roll_id": str(roll_id),
            "character_id": str(hit_target.id),
            "attacker_id": str(attacker.id),
            "target_id": str(hit_target.id),
            "interposed_by": str(interposer.id) if interposer else None,
            "defended": body.defend,
            "rolled_damage": int(pending["total"]),
            "armor": int(pending["armor"]) + defend_armor,
            "defend_armor": defend_armor,
            "damage": 0 if out_of_fight else damage,
            "critical": critical,
        }
        change(scene, "resolved", resolved)
        return self._nbe_save(turn, [], None, **resolved, hit=hit)

    # ---- NB-14: Assess; NB-19: Help --------------------------------------------------------

    @command
    def nimble_assess(
        self, ctx: CommandContext, scene_id: UUID, body: NimbleAssessCreate
    ) -> Outcome:
        """NB-14: Assess (1 action, a skill check DC 10), each skill once per encounter."""
        turn = self._turn(ctx, scene_id)
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        character, sheet = self._acting(turn, state, body.character_id, "character_id")
        who, name = str(character.id), character.name
        enc.check_hero(state, who, name, "character_id", "NB-14")
        enc.check_standing(character.name, character.status, "character_id")
        state = self._nbe_cap(scene, character)
        assert isinstance(sheet, NimbleHero)
        enc.check_spend(state, who, name, 1, reaction=None)
        enc.check_assess(state, who, body.skill)
        if body.option == "find_weakness":
            if body.target_id is None:
                raise InvalidInput("find a weakness in a target", field="target_id", rule="NB-14")
            target, _ = self._creature(turn, body.target_id, "target_id")
            enc.check_in(state, str(target.id), target.name, "target_id")
        modifier = next(
            (v for k, v in sheet.skills.items() if k.casefold() == body.skill.casefold()), 0
        )
        request = {
            "skill": body.skill,
            "modifier": modifier,
            "option": body.option,
            "advantage": body.advantage,
            "disadvantage": body.disadvantage,
            "purpose": body.question,
        }
        steps = {"advantage": body.advantage, "disadvantage": body.disadvantage}
        declared = declared_by(steps, "body")  # NB-11: the roller's steps, in its request
        outcome, touched = self.app._roll_check(
            actor,
            scene,
            turn.campaign,
            "assess",
            request,
            character,
            body.client_seed,
            declared=declared,
        )
        roll = touched[0]
        result = outcome.result
        assess = {
            "roll_id": str(roll.id),
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
        self._nbe_act(scene, who, "assess", 1, assess=assess)
        return self._nbe_save(turn, touched, roll, assess=assess)

    @command
    def nimble_help(self, ctx: CommandContext, scene_id: UUID, body: NimbleHelpCreate) -> Outcome:
        """NB-19: a hero helps an ally's roll, once per roll: it rerolls the kept d20 of an
        Assess, or one die (``die``) of a held attack (the ``help_die`` follow-up roll); a
        reaction (1 action, 1/round) outside the helper's turn, an action on it."""
        turn = self._turn(ctx, scene_id)
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        helper, _ = self._acting(turn, state, body.helper_id, "helper_id")
        who, name = str(helper.id), helper.name
        enc.check_hero(state, who, name, "helper_id", "NB-19")
        enc.check_standing(helper.name, helper.status, "helper_id")
        state = self._nbe_cap(scene, helper)
        if str(body.roll_id) in state["helped"]:
            raise Conflict("this roll was already helped", code="already_helped", rule="NB-19")
        pending = state.get("pending")
        if pending and pending["roll_id"] == str(body.roll_id):
            return self._nbe_help_attack(turn, helper, body.die, body.purpose, body.client_seed)
        assess = state["assessments"].get(str(body.roll_id))
        if assess is None:
            raise InvalidInput(
                "Help rerolls a die of an Assess roll of this encounter or of a held attack "
                "(NB-15)",
                field="roll_id",
                rule="NB-19",
            )
        if body.die is not None:
            raise InvalidInput(
                "an Assess has one die to reroll: leave out `die`", field="die", rule="NB-19"
            )
        if assess["character_id"] == who:
            raise InvalidInput("Help is for an ally's roll", field="helper_id", rule="NB-19")
        if str(body.roll_id) in state["helped"]:
            raise Conflict("this roll was already helped", code="already_helped", rule="NB-19")
        own_turn = enc.current(state) == who
        enc.check_spend(state, who, name, 1, reaction=None if own_turn else "help")
        roller = self.app.get(actor, Character, UUID(assess["character_id"]))
        request = {
            "helped_roll_id": str(body.roll_id),
            "old_face": assess["natural"],
            "modifier": assess["modifier"],
            "dc": assess["dc"],
            "purpose": body.purpose,
        }
        outcome, touched = self.app._roll_check(
            actor, scene, turn.campaign, "help_reroll", request, roller, body.client_seed
        )
        roll = touched[0]
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

    def _nbe_help_attack(
        self,
        turn: Turn,
        helper: Character,
        die: int | None,
        purpose: str,
        client_seed: str | None,
    ) -> Outcome:
        """NB-19 on a held attack (NB-15): an ally hero rerolls one of its dice before it lands."""
        actor, scene = turn.actor, turn.scene
        state = state_of(scene)
        pending = state["pending"]
        who, name = str(helper.id), helper.name
        attacker_id = pending["character_id"]
        if state["kinds"].get(attacker_id) != "hero":
            raise InvalidInput(
                "heroes help their allies: a monster's attack gets no Help",
                field="roll_id",
                rule="NB-19",
            )
        if attacker_id == who:
            raise InvalidInput("Help is for an ally's roll", field="helper_id", rule="NB-19")
        if pending["target_id"] == who:
            raise InvalidInput(
                "the target of an attack does not help it", field="helper_id", rule="NB-19"
            )
        if die is None:
            raise InvalidInput("name the die to reroll", field="die", rule="NB-19")
        if pending["roll_id"] in state["helped"]:
            raise Conflict("this roll was already helped", code="already_helped", rule="NB-19")
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
                {"die": die, "purpose": purpose},
                client_seed,
                for_ally=True,
            )
        except InvalidInput as exc:
            raise InvalidInput(exc.message, field="die", rule="NB-19") from None
        roll = touched[0]
        result = outcome.result
        primary = result["primary_die"]
        natural_crit = primary is not None and result["primary_face"] == int(str(primary)[1:])
        helped = {
            "roll_id": pending["roll_id"],
            "reroll_id": str(roll.id),
            "die": die,
            "total": result["total"],
            "armor": result["armor"],
            "damage": result["damage"],
            "critical": result["critical"],
            "miss": result["miss"],
            "success": result["success"],
            # NB-14: the weakness is used up unless the (new) Primary die crits by itself
            "weakness_used": bool(pending.get("weakness"))
            and primary is not None
            and not natural_crit,
        }
        return self._nbe_helped(turn, who, own_turn, touched, roll, helped)
