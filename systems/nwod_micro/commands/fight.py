"""nWoD micro firefights - initiative, two actions, maneuvers, weapons, armour, cover, ammunition, Will Power (NW-1..18)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Campaign, Character, Roll, RollChain, Scene
from domain.aggregates._checks import not_enough
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks, Loaded, Sheeted
from domain.errors import Conflict, InvalidInput, NotFound
from domain.rolls import declared_by
from domain.rulesets import get_ruleset
from systems.nwod_micro.rules import combat
from systems.nwod_micro.rules.sheet import DAMAGE_BONUS, NwodSheet, Weapon, armor, defense, speeds

RULESET = "nwod-micro"
MAX_SUPPRESSED = 10


@dataclass
class NwFighter(Sheeted):
    sheet: NwodSheet

    def weapon(self, name: str) -> Weapon:
        for weapon in self.sheet.weapons:
            if weapon.name.casefold() == name.casefold():
                return weapon
        raise InvalidInput(
            f"{self.name} has no weapon {name!r}",
            field="weapon",
            rule="NW-11",
            details={"known": [w.name for w in self.sheet.weapons]},
        )


def _modifier(source: str, dice: int, rule: str) -> dict[str, Any]:
    return {"source": source, "dice": dice, "rule": rule}


class NwodFightCommands(Hooks):
    """Mixed into the Chronicle application."""

    # ---- loading ---------------------------------------------------------------------------------

    def _nw_scene(
        self, ctx: CommandContext, actor: Actor, scene_id: UUID
    ) -> tuple[Scene, Campaign]:
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._nw_campaign(actor)
        if scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        return scene, campaign

    def _nw_campaign(self, actor: Actor) -> Campaign:
        campaign = self.campaign_of(actor)
        if campaign.ruleset != RULESET:
            raise InvalidInput(
                "nWoD micro firefights need a campaign of the nwod-micro ruleset",
                field="scene_id",
            )
        return campaign

    def _nw_fighter(
        self, actor: Actor, campaign: Campaign, character_id: UUID, field: str
    ) -> NwFighter:
        try:
            character = self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                f"{field} names no character of this campaign", field=field
            ) from None
        rules = get_ruleset(campaign.ruleset)
        sheet = rules.parse_sheet(
            character.sheet, rules.parse_settings(campaign.settings), side=character.side
        )
        assert isinstance(sheet, NwodSheet)
        if character.status != "active":
            raise Conflict(
                f"{character.name} is {character.status}", code="out_of_action", field=field
            )
        return NwFighter(character, sheet)

    def _nw_actor_fighter(
        self, actor: Actor, campaign: Campaign, character_id: UUID, field: str
    ) -> NwFighter:
        fighter = self._nw_fighter(actor, campaign, character_id, field)
        self._check_may_act_for(actor, fighter.character)
        return fighter

    @staticmethod
    def _nw_will_power(fighter: NwFighter, points: int) -> None:
        """NW-9: Will Power never goes below 0."""
        if points > fighter.level("will_power"):
            raise not_enough(
                fighter.name, "resource", "will_power", fighter.level("will_power"), points, "NW-9"
            )

    @staticmethod
    def _nw_merits(fighter: NwFighter, names: list[str]) -> list[dict[str, Any]]:
        """NW-3/NW-18: a named merit's dice modifier applies exactly as written on the sheet."""
        found: list[dict[str, Any]] = []
        for name in dict.fromkeys(names):
            merit = next(
                (m for m in fighter.sheet.merits if m.name.casefold() == name.casefold()), None
            )
            if merit is None:
                raise InvalidInput(
                    f"{fighter.name} has no merit {name!r}",
                    field="merits",
                    rule="NW-3",
                    details={"known": [m.name for m in fighter.sheet.merits]},
                )
            if merit.dice_modifier is None:
                raise InvalidInput(
                    f"the merit {merit.name!r} has no dice modifier; it works as its text says "
                    "(the GM applies it)",
                    field="merits",
                    rule="NW-18",
                )
            found.append(_modifier(f"merit: {merit.name}", merit.dice_modifier, "NW-18"))
        return found

    @staticmethod
    def _nw_situation(conditions: list[str], modifier: int) -> list[dict[str, Any]]:
        """NW-17: bad weather, smoke, fog, too little or too much light -2d10 (ruling: once, they
        do not stack); a GM's other modifier as given."""
        mods: list[dict[str, Any]] = []
        for condition in conditions:
            if condition not in combat.CONDITIONS:
                raise InvalidInput(
                    f"conditions are {', '.join(combat.CONDITIONS)}",
                    field="conditions",
                    rule="NW-17",
                )
        if conditions:
            mods.append(
                _modifier(", ".join(dict.fromkeys(conditions)), combat.CONDITION_PENALTY, "NW-17")
            )
        if modifier:
            mods.append(_modifier("situation (GM)", modifier, "NW-17"))
        return mods

    def _nw_roll(
        self,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        check: str,
        request: dict[str, Any],
        fighter: NwFighter,
        client_seed: str | None,
        chain: RollChain | None,
        touched: list[Aggregate],
        modifier: int = 0,
    ) -> tuple[dict[str, Any], Roll, RollChain]:
        """`modifier`: the situational dice the roller declared (NW-17), under player_modifiers."""
        outcome, new = self._roll_check(
            actor,
            scene,
            campaign,
            check,
            request,
            fighter.character,
            client_seed,
            chain,
            declared=declared_by({"modifier": modifier}),
        )
        roll, linked = new[0], new[1]
        assert isinstance(roll, Roll) and isinstance(linked, RollChain)
        touched.extend(new)
        return outcome.result, roll, linked

    def _nw_save(
        self,
        ctx: CommandContext,
        scene: Scene,
        touched: list[Aggregate],
        roll: Roll | None = None,
        **outcome: Any,
    ) -> Outcome:
        unique: dict[UUID, Aggregate] = {scene.id: scene}
        for aggregate in touched:
            unique.setdefault(aggregate.id, aggregate)
        others = [a for a in unique.values() if a.id != scene.id]
        revealed = {"roll_id": roll.id if roll else None, "outcome": outcome}
        return self._commit(ctx, scene, *others, revealed=revealed)

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """NW-7/NW-15: each page is a turn: actions, Defend, dodging and Will Power boosts reset."""
        super()._page_advanced(actor, scene, loaded)
        if "fight" not in scene.states:
            return
        scene.nwod_change("turn_started", {"turn": scene.page})

    # ---- NW-14: Initiative ------------------------------------------------------------------------

    @command
    def nwod_initiative(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        *,
        modifier: int = 0,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        state = scene.nwod
        if fighter.key in state["initiative"]:
            raise Conflict(
                f"{fighter.name} has already rolled Initiative in this fight",
                code="initiative_rolled",
                field="character_id",
                rule="NW-14",
                details={"total": state["initiative"][fighter.key]["total"]},
            )
        request = {
            "intelligence": fighter.sheet.affinities.INT,
            "modifier": modifier,
            "purpose": f"Initiative of {fighter.name} (NW-14)",
        }
        touched: list[Aggregate] = []
        result, roll, _ = self._nw_roll(
            actor,
            scene,
            campaign,
            "initiative",
            request,
            fighter,
            client_seed,
            None,
            touched,
            modifier,
        )
        scene.nwod_change(
            "initiative",
            {
                "character_id": fighter.key,
                "roll": result["roll"],
                "bonus": result["intelligence"],
                "modifier": modifier,
                "total": result["total"],
            },
        )
        return self._nw_save(ctx, scene, touched, roll, total=result["total"])

    # ---- NW-6, 8, 10, 11, 13, 15..18: attacks ------------------------------------------------------

    @command
    def nwod_attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        target_ids: list[UUID],
        *,
        kind: str = "ranged",
        maneuver: str = "standard",
        weapon: str | None = None,
        rounds: int | None = None,
        range_band: str = "close",
        conditions: list[str] | None = None,
        darkness: bool = False,
        merits: list[str] | None = None,
        modifier: int = 0,
        will_power: int = 0,
        sneak: bool = False,
        hit_location: str | None = None,
        purpose: str = "",
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        attacker = self._nw_actor_fighter(actor, campaign, attacker_id, "attacker_id")
        state = scene.nwod
        combat.check_fighter(state, attacker.key, attacker.name, "attacker_id")
        spec = combat.ATTACKS.get(maneuver)
        if spec is None:
            raise InvalidInput(
                f"attack maneuvers are {', '.join(combat.ATTACKS)}", field="maneuver", rule="NW-15"
            )
        if spec["kind"] is not None and spec["kind"] != kind:
            raise InvalidInput(
                f"a {maneuver.replace('_', ' ')} is a {spec['kind']} attack",
                field="kind",
                rule="NW-15",
            )
        targets = self._nw_targets(actor, campaign, state, attacker, target_ids, maneuver, spec)
        if hit_location is not None and maneuver != "precise":
            raise InvalidInput(
                "only a precise shot chooses the hit location", field="hit_location", rule="NW-15"
            )
        if kind == "melee" and range_band != "close":
            raise InvalidInput("melee attacks are at close range", field="range", rule="NW-17")
        cover = state["cover"].get(attacker.key)
        if kind == "melee" and cover and cover["kind"] == "full":
            raise Conflict(
                f"{attacker.name} is in full cover: it can only fire back blind",
                code="in_full_cover",
                field="kind",
                rule="NW-13",
            )
        combat.check_turn(state, attacker.key, attacker.name)
        combat.check_actions(state, attacker.key, attacker.name, 1)
        self._nw_not_pinned(state, attacker, "attack")
        self._nw_will_power(attacker, will_power)
        # NW-11, 16: the weapon, its damage class and its magazine.
        bonus, rounds_left = 0, None
        if weapon is None and kind == "ranged":
            raise InvalidInput(
                "a ranged attack names the weapon it fires", field="weapon", rule="NW-11"
            )
        if weapon is not None:
            gun = attacker.weapon(weapon)
            weapon = gun.name
            bonus = DAMAGE_BONUS[gun.damage_class]
            if spec["rounds"] not in (None, 0) and gun.magazine is None:
                raise InvalidInput(
                    f"{gun.name} has no magazine to fire bursts from", field="weapon", rule="NW-16"
                )
            if kind == "ranged" and gun.magazine is not None:
                left = combat.rounds_left(state, attacker.key, gun.name, gun.magazine)
                spent = combat.check_rounds(maneuver, rounds, left, gun.name)
                rounds_left = left - spent
            elif rounds is not None:
                raise InvalidInput(f"{gun.name} spends no rounds", field="rounds", rule="NW-16")
        elif rounds is not None:
            raise InvalidInput("rounds need a weapon with a magazine", field="rounds", rule="NW-16")
        # The attacker's dice: maneuver, aim, dodging, blind fire, range, situation, merits.
        base: list[dict[str, Any]] = []
        if spec["dice"]:
            base.append(_modifier(maneuver.replace("_", " "), spec["dice"], "NW-15"))
        aim = int(state["aim"].get(attacker.key, 0))
        if aim and kind == "ranged":
            base.append(_modifier(f"aim ({aim} action(s))", aim, "NW-15"))
        if attacker.key in state["dodging"]:
            base.append(_modifier("dodging this turn", combat.DODGE_OWN_PENALTY, "NW-15"))
        if cover and cover["kind"] == "full":
            base.append(_modifier("blind fire from full cover", combat.BLIND_FIRE_PENALTY, "NW-13"))
        if kind == "ranged" and combat.RANGES[range_band]:
            base.append(
                _modifier(
                    f"{range_band.replace('_', ' ')} range", combat.RANGES[range_band], "NW-17"
                )
            )
        base += self._nw_situation(conditions or [], modifier)
        base += self._nw_merits(attacker, merits or [])
        touched: list[Aggregate] = [attacker.character]
        chain: RollChain | None = None
        first: Roll | None = None
        hits: list[dict[str, Any]] = []
        if maneuver == "suppressive":
            request = {
                "kind": "universal",
                "affinity": "VIO",
                "affinity_value": attacker.sheet.affinities.VIO,
                "modifiers": base,
                "chance_only": darkness,
                "will_power": will_power,
                "purpose": purpose or f"Suppressive fire by {attacker.name} (NW-15)",
            }
            result, first, chain = self._nw_roll(
                actor,
                scene,
                campaign,
                "fight_roll",
                request,
                attacker,
                client_seed,
                chain,
                touched,
                modifier,
            )
            hits.append(
                {"roll_id": str(first.id), "successes": result["successes"], "pool": result["pool"]}
            )
        else:
            for index, target in enumerate(targets):
                request = self._nw_attack_request(
                    state,
                    attacker,
                    target,
                    kind,
                    base,
                    bonus,
                    darkness,
                    sneak,
                    will_power if index == 0 else 0,
                    combat.LONG_BURST_PENALTY[index] if maneuver == "long_burst" else 0,
                    purpose or f"{maneuver.replace('_', ' ').capitalize()} at {target.name}",
                )
                result, roll, chain = self._nw_roll(
                    actor,
                    scene,
                    campaign,
                    "fight_roll",
                    request,
                    attacker,
                    client_seed,
                    chain,
                    touched,
                    modifier,
                )
                first = first or roll
                if result["target_health"] != target.level("health"):
                    target.character.take_damage(
                        "health", result["target_health"], None, roll.id, scene.id, scene.page
                    )
                touched.append(target.character)
                hits.append(
                    {
                        "target_id": target.key,
                        "roll_id": str(roll.id),
                        "pool": result["pool"],
                        "successes": result["successes"],
                        "hit": result["success"],
                        "damage": result["damage"],
                        "health": target.level("health"),
                        "at_zero_health": target.level("health") == 0,
                    }
                )
        scene.nwod_change(
            "acted",
            {
                "character_id": attacker.key,
                "maneuver": maneuver,
                "cost": 1,
                "kind": kind,
                "weapon": weapon,
                "rounds_left": rounds_left,
                "target_ids": [t.key for t in targets],
                "hit_location": hit_location,
            },
        )
        suppressing = maneuver == "suppressive" and hits[0]["successes"] >= 1
        if suppressing:
            scene.nwod_change(
                "suppressed", {"character_id": attacker.key, "target_ids": [t.key for t in targets]}
            )
        return self._nw_save(
            ctx,
            scene,
            touched,
            first,
            maneuver=maneuver,
            rolls=hits,
            rounds_left=rounds_left,
            suppressed=[t.key for t in targets] if suppressing else [],
            # NW-8: the consequences of 0 Health are narrative: the GM says what happens.
            at_zero_health=[h["target_id"] for h in hits if h.get("at_zero_health")],
        )

    def _nw_targets(
        self,
        actor: Actor,
        campaign: Campaign,
        state: dict[str, Any],
        attacker: NwFighter,
        target_ids: list[UUID],
        maneuver: str,
        spec: dict[str, Any],
    ) -> list[NwFighter]:
        ids = list(dict.fromkeys(target_ids))
        if len(ids) != len(target_ids):
            raise InvalidInput("each target once", field="target_ids")
        if not ids or len(ids) > spec["targets"]:
            most = spec["targets"]
            raise InvalidInput(
                f"a {maneuver.replace('_', ' ')} has 1"
                + (f" to {most} targets" if most > 1 else " target"),
                field="target_ids",
                rule="NW-15",
            )
        if attacker.id in ids:
            raise InvalidInput("a character does not attack itself", field="target_ids")
        targets = []
        for target_id in ids:
            target = self._nw_fighter(actor, campaign, target_id, "target_ids")
            combat.check_fighter(state, target.key, target.name, "target_ids")
            targets.append(target)
        return targets

    @staticmethod
    def _nw_attack_request(
        state: dict[str, Any],
        attacker: NwFighter,
        target: NwFighter,
        kind: str,
        base: list[dict[str, Any]],
        bonus: int,
        darkness: bool,
        sneak: bool,
        will_power: int,
        penalty: int,
        purpose: str,
    ) -> dict[str, Any]:
        mods = list(base)
        cover = state["cover"].get(target.key)
        durability = 0
        if cover:
            label = (
                "target in partial cover"
                if cover["kind"] == "partial"
                else "no line of sight (full cover)"
            )
            mods.append(_modifier(label, combat.COVER_PENALTY, "NW-13"))
            durability = int(cover["durability"]) if cover["kind"] == "full" else 0
        guard = combat.defense_against(state, target.key, defense(target.sheet), kind, sneak)
        return {
            "kind": kind,
            "affinity": "VIO",
            "affinity_value": attacker.sheet.affinities.VIO,
            "modifiers": mods,
            "target_defense": guard["value"],
            "chance_only": darkness,
            "will_power": will_power,
            "damage_bonus": bonus,
            "damage_penalty": penalty,
            "target_armor": armor(target.sheet) + durability,
            "target_health": target.level("health"),
            "purpose": purpose,
        }

    @staticmethod
    def _nw_not_pinned(state: dict[str, Any], fighter: NwFighter, doing: str) -> None:
        pinned = state["suppressed"].get(fighter.key)
        if pinned and pinned["status"] == "must_take_cover" and doing != "take_cover":
            raise Conflict(
                f"{fighter.name} is pinned by suppressive fire and must spend its actions taking cover",
                code="suppressed",
                rule="NW-15",
            )
        if pinned and pinned["status"] == "pending" and doing != "take_cover":
            raise Conflict(
                f"{fighter.name} is under suppressive fire: roll VIO first, or take cover",
                code="suppression_pending",
                rule="NW-15",
            )

    # ---- NW-2, NW-13, NW-15, NW-16: maneuvers without a roll ------------------------------------

    @command
    def nwod_act(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        maneuver: str,
        *,
        cover: str | None = None,
        cover_durability: int = 0,
        weapon: str | None = None,
        dodge: bool = False,
        difficult_terrain: bool = False,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        state = scene.nwod
        combat.check_fighter(state, fighter.key, fighter.name, "character_id")
        if maneuver not in combat.MOVES:
            raise InvalidInput(
                f"maneuvers are {', '.join(combat.MOVES)}", field="maneuver", rule="NW-15"
            )
        moving = maneuver in ("walk", "run", "sprint")
        if dodge and not moving:
            raise InvalidInput("dodging combines with a movement only", field="dodge", rule="NW-15")
        if difficult_terrain and not moving:
            raise InvalidInput(
                "difficult terrain slows movement", field="difficult_terrain", rule="NW-17"
            )
        if maneuver == "take_cover":
            combat.check_cover(cover, cover_durability)
        elif cover is not None or cover_durability:
            raise InvalidInput("cover is for take_cover", field="cover", rule="NW-13")
        if weapon is not None and maneuver != "reload":
            raise InvalidInput("a weapon is named to reload it", field="weapon")
        combat.check_turn(state, fighter.key, fighter.name)
        cost = combat.check_actions(state, fighter.key, fighter.name, combat.MOVES[maneuver])
        self._nw_not_pinned(state, fighter, maneuver)
        details: dict[str, Any] = {"character_id": fighter.key, "maneuver": maneuver, "cost": cost}
        outcome: dict[str, Any] = {"maneuver": maneuver, "actions": cost}
        if maneuver == "aim":
            combat.check_aim(state, fighter.key, fighter.name)
            outcome["aim"] = int(state["aim"].get(fighter.key, 0)) + 1
        elif maneuver == "take_cover":
            details |= {"cover": cover, "cover_durability": cover_durability}
        elif maneuver == "reload":
            if weapon is None:
                raise InvalidInput("name the weapon to reload", field="weapon", rule="NW-16")
            gun = fighter.weapon(weapon)
            if gun.magazine is None:
                raise InvalidInput(f"{gun.name} has no magazine", field="weapon", rule="NW-16")
            details |= {"weapon": gun.name, "rounds_left": gun.magazine}
            outcome["rounds_left"] = gun.magazine
        elif moving:
            # NW-2: walk X, run 2X, sprint 3X; NW-17: difficult terrain halves it (rounded down).
            metres = speeds(fighter.sheet)[maneuver]
            outcome["metres"] = metres // 2 if difficult_terrain else metres
            details["dodge"] = dodge
            outcome["dodging"] = dodge
        scene.nwod_change("acted", details)
        return self._nw_save(ctx, scene, [], None, **outcome)

    # ---- NW-9: Will Power for Defense or Initiative ----------------------------------------------

    @command
    def nwod_will_power(
        self, ctx: CommandContext, scene_id: UUID, character_id: UUID, boost: str, points: int = 1
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        state = scene.nwod
        combat.check_fighter(state, fighter.key, fighter.name, "character_id")
        if boost not in ("defense", "initiative"):
            raise InvalidInput(
                "Will Power raises defense or initiative", field="boost", rule="NW-9"
            )
        if points < 1:
            raise InvalidInput("spend at least 1 Will Power", field="points", rule="NW-9")
        self._nw_will_power(fighter, points)
        fighter.character.spend(
            {"will_power": points}, reason=f"+{2 * points} {boost} this turn (NW-9)"
        )
        scene.nwod_change("boosted", {"character_id": fighter.key, "kind": boost, "points": points})
        return self._nw_save(
            ctx,
            scene,
            [fighter.character],
            None,
            boost=boost,
            points=points,
            will_power=fighter.level("will_power"),
        )

    # ---- NW-14: ending a turn early -------------------------------------------------------------

    @command
    def nwod_end_turn(self, ctx: CommandContext, scene_id: UUID, character_id: UUID) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        state = scene.nwod
        combat.check_fighter(state, fighter.key, fighter.name, "character_id")
        combat.check_turn(state, fighter.key, fighter.name)
        scene.nwod_change("turn_ended", {"character_id": fighter.key})
        return self._nw_save(ctx, scene, [])

    # ---- NW-15: the VIO roll of a target of suppressive fire -------------------------------------

    @command
    def nwod_suppression_roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        *,
        conditions: list[str] | None = None,
        darkness: bool = False,
        merits: list[str] | None = None,
        modifier: int = 0,
        will_power: int = 0,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        state = scene.nwod
        pinned = state["suppressed"].get(fighter.key)
        if pinned is None or pinned["status"] != "pending":
            raise Conflict(
                f"{fighter.name} has no suppressive fire to roll against",
                code="not_suppressed",
                field="character_id",
                rule="NW-15",
            )
        self._nw_will_power(fighter, will_power)
        request = {
            "kind": "universal",
            "affinity": "VIO",
            "affinity_value": fighter.sheet.affinities.VIO,
            "modifiers": self._nw_situation(conditions or [], modifier)
            + self._nw_merits(fighter, merits or []),
            "chance_only": darkness,
            "will_power": will_power,
            "purpose": f"{fighter.name} keeps acting under suppressive fire (NW-15)",
        }
        touched: list[Aggregate] = []
        result, roll, _ = self._nw_roll(
            actor,
            scene,
            campaign,
            "fight_roll",
            request,
            fighter,
            client_seed,
            None,
            touched,
            modifier,
        )
        held = bool(result["success"])
        scene.nwod_change("suppression_resolved", {"character_id": fighter.key, "held": held})
        return self._nw_save(ctx, scene, touched, roll, held=held)

    # ---- NW-4..6, 17, 18: a situational roll, and contests ------------------------------------------

    def _nw_side_request(
        self,
        fighter: NwFighter,
        affinity: str,
        conditions: list[str],
        darkness: bool,
        merits: list[str],
        modifier: int,
        will_power: int,
        purpose: str,
    ) -> dict[str, Any]:
        self._nw_will_power(fighter, will_power)
        return {
            "kind": "universal",
            "affinity": affinity,
            "affinity_value": getattr(fighter.sheet.affinities, affinity),
            "modifiers": self._nw_situation(conditions, modifier)
            + self._nw_merits(fighter, merits),
            "chance_only": darkness,
            "will_power": will_power,
            "purpose": purpose,
        }

    @command
    def nwod_roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        affinity: str,
        *,
        conditions: list[str] | None = None,
        darkness: bool = False,
        merits: list[str] | None = None,
        modifier: int = 0,
        will_power: int = 0,
        purpose: str = "",
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        fighter = self._nw_actor_fighter(actor, campaign, character_id, "character_id")
        request = self._nw_side_request(
            fighter,
            affinity,
            conditions or [],
            darkness,
            merits or [],
            modifier,
            will_power,
            purpose,
        )
        touched: list[Aggregate] = []
        result, roll, _ = self._nw_roll(
            actor,
            scene,
            campaign,
            "fight_roll",
            request,
            fighter,
            client_seed,
            None,
            touched,
            modifier,
        )
        return self._nw_save(ctx, scene, touched, roll, successes=result["successes"])

    @command
    def nwod_contest(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        sides: list[dict[str, Any]],
        *,
        purpose: str = "",
        client_seed: str | None = None,
    ) -> Outcome:
        """NW-6: all sides roll, the better result (more successes) wins. Ruling: equal best
        results are a tie, which the GM resolves."""
        actor = self._gm(ctx)
        scene, campaign = self._nw_scene(ctx, actor, scene_id)
        if len(sides) < 2:
            raise InvalidInput("a contest has at least two sides", field="sides", rule="NW-6")
        fighters = [self._nw_fighter(actor, campaign, s["character_id"], "sides") for s in sides]
        if len({f.id for f in fighters}) != len(fighters):
            raise InvalidInput("each character takes one side", field="sides", rule="NW-6")
        requests = [
            self._nw_side_request(
                f,
                s["affinity"],
                list(s.get("conditions") or []),
                bool(s.get("darkness")),
                list(s.get("merits") or []),
                int(s.get("modifier") or 0),
                int(s.get("will_power") or 0),
                purpose or "Contest (NW-6)",
            )
            for f, s in zip(fighters, sides, strict=True)
        ]
        touched: list[Aggregate] = []
        chain: RollChain | None = None
        first: Roll | None = None
        results = []
        for fighter, request in zip(fighters, requests, strict=True):
            result, roll, chain = self._nw_roll(
                actor, scene, campaign, "fight_roll", request, fighter, client_seed, chain, touched
            )
            first = first or roll
            results.append(
                {
                    "character_id": fighter.key,
                    "roll_id": str(roll.id),
                    "successes": result["successes"],
                }
            )
        best = max(r["successes"] for r in results)
        leaders = [r["character_id"] for r in results if r["successes"] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        return self._nw_save(
            ctx, scene, touched, first, sides=results, winner_id=winner, tie=winner is None
        )

    # ---- reads ------------------------------------------------------------------------------------

    def nwod_fight(self, actor: Actor, scene_id: UUID) -> Scene:
        """The scene, for its firefight state (any member may read it)."""
        scene = self.get(actor, Scene, scene_id)
        self._nw_campaign(actor)
        return scene
