"""Class D Heroes combat: rounds, the heroes' and villains' turns, attacks, reactions (CD-8..CD-20)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Campaign, Character, Roll, Scene
from domain.aggregates._checks import not_enough
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks, Loaded, Sheeted
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.rolls import declared_by
from domain.rulesets import get_ruleset
from systems.classd.rules import combat
from systems.classd.rules.sheet import ClassdSheet, Feature

VILLAIN_SIDES = ("villain", "opponent", "minion")
MOVE_STATS = ("speed", "might")  # CD-18: Speed to move, Might to force through


@dataclass
class Fighter(Sheeted):
    sheet: ClassdSheet

    @property
    def rank(self) -> str:
        return self.sheet.rank or "minion"

    def features(self) -> list[Feature]:
        return [*self.sheet.gear, *self.sheet.powers]

    def best_damage(self, attack_type: str) -> int:
        """Ruling (CD-11/15): a villain hits with its best feature of that attack type."""
        return max((f.damage for f in self.features() if f.attack == attack_type), default=0)


class ClassDFightCommands(Hooks):
    """Mixed into the Chronicle application."""

    # ---- loading ---------------------------------------------------------------------------------

    def _classd_scene(
        self, ctx: CommandContext, actor: Actor, scene_id: UUID
    ) -> tuple[Scene, Campaign]:
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self.campaign_of(actor)
        if campaign.ruleset != "classd":
            raise InvalidInput(
                "Class D Heroes combat needs a campaign of the classd ruleset", field="scene_id"
            )
        if scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        return scene, campaign

    def _cd_fighter(
        self, actor: Actor, campaign: Campaign, character_id: UUID, field: str, side: str
    ) -> Fighter:
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
        assert isinstance(sheet, ClassdSheet)
        if side == "hero" and character.side != "hero":
            raise InvalidInput(f"{character.name} is no hero", field=field, rule="CD-1")
        if side == "villain" and (character.side not in VILLAIN_SIDES or sheet.rank is None):
            raise InvalidInput(
                f"{character.name} is no villain with a rank", field=field, rule="CD-1"
            )
        if character.status != "active":
            raise Conflict(
                f"{character.name} is {character.status}", code="out_of_action", field=field
            )
        return Fighter(character, sheet)

    @staticmethod
    def _cd_in_fight(state: dict[str, Any], *fighters: tuple[Fighter, str]) -> None:
        for fighter, field in fighters:
            combat.check_in_fight(state, fighter.key, fighter.name, field)

    @staticmethod
    def _cd_will_rerolls(fighter: Fighter, will_rerolls: int) -> None:
        if will_rerolls > fighter.level("will"):
            raise not_enough(
                fighter.name, "resource", "will", fighter.level("will"), will_rerolls, "CD-6"
            )

    def _cd_feature(self, fighter: Fighter, using: str | None, attack_type: str) -> Feature | None:
        """CD-10: the weapon or power an attack is made with (must be of the attack's type)."""
        if using is None:
            return None
        found = next((f for f in fighter.features() if f.name == using), None)
        if found is None:
            raise InvalidInput(f"{fighter.name} has no power or gear {using!r}", field="using")
        if found.attack != attack_type:
            raise InvalidInput(
                f"{using} makes no {attack_type} attacks", field="using", rule="CD-10"
            )
        return found

    def _cd_ranged_means(self, hero: Fighter, feature: Feature | None) -> Feature:
        """CD-10: a ranged attack needs a ranged weapon, or a ranged power and at least 1 Will
        (ruling: the Will is needed, not spent)."""
        if feature is None:
            gear = [g for g in hero.sheet.gear if g.attack == "ranged"]
            powers = [p for p in hero.sheet.powers if p.attack == "ranged"]
            if not gear and not powers:
                raise Conflict(
                    f"{hero.name} has no ranged weapon and no ranged power",
                    code="no_ranged_attack",
                    field="attack_type",
                    rule="CD-10",
                )
            feature = (gear or powers)[0]
        is_power = feature in hero.sheet.powers and feature not in hero.sheet.gear
        if is_power and hero.level("will") < 1:
            raise not_enough(hero.name, "resource", "will", 0, 1, "CD-10")
        return feature

    def _cd_rolled(
        self,
        ctx: CommandContext,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        check: str,
        request: dict[str, Any],
        roller: Character,
        client_seed: str | None,
        edges: dict[str, int],
    ) -> tuple[dict[str, Any], Roll, list[Aggregate]]:
        """`edges`: the advantages and disadvantages the roller declared (CD-5), which follow
        player_modifiers; those of the record (CD-18 high ground, CD-20 shields) are added."""
        outcome, touched = self._roll_check(
            actor, scene, campaign, check, request, roller, client_seed, declared=declared_by(edges)
        )
        roll = touched[0]
        assert isinstance(roll, Roll)
        if outcome.result.get("will_spent"):  # CD-6 rerolls (and CD-13 overflow) spent in the roll
            rules = "CD-6, CD-13" if outcome.result.get("overflow_moved") else "CD-6"
            roller.spend({"will": outcome.result["will_spent"]}, reason=f"roll {roll.id} ({rules})")
            touched.append(roller)
        return outcome.result, roll, touched

    def _cd_save(
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

    # ---- CD-8: the GM ends the heroes' turn ---------------------------------------------------------

    @command
    def classd_end_heroes_turn(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        actor = self._gm(ctx)
        scene, _ = self._classd_scene(ctx, actor, scene_id)
        scene.end_heroes_turn()
        return self._cd_save(ctx, scene, [])

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """CD-8/17: each page is a round: actions and reactions reset, the heroes act first;
        villains that fled and were not stopped have escaped (CD-16)."""
        super()._page_advanced(actor, scene, loaded)
        if scene.classd_state is None:
            return
        scene.start_classd_round([UUID(v) for v in combat.fleeing(scene.classd)])

    # ---- CD-10..13, 19, 20: a hero attacks ----------------------------------------------------------

    @command
    def classd_attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        target_id: UUID,
        attack_type: str,
        *,
        using: str | None = None,
        advantage: int = 0,
        disadvantage: int = 0,
        will_rerolls: int = 0,
        overflow_target_id: UUID | None = None,
        area: bool = False,
        purpose: str = "",
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        hero = self._cd_fighter(actor, campaign, attacker_id, "attacker_id", "hero")
        self._check_may_act_for(actor, hero.character)
        target = self._cd_fighter(actor, campaign, target_id, "target_id", "villain")
        state = scene.classd
        self._cd_in_fight(state, (hero, "attacker_id"), (target, "target_id"))
        combat.check_turn(state, "heroes")  # CD-8
        combat.check_hero_action(state, hero.key, hero.name)  # CD-9
        feature = self._cd_feature(hero, using, attack_type)
        if attack_type == "ranged":
            feature = self._cd_ranged_means(hero, feature)
        self._cd_will_rerolls(hero, will_rerolls)
        overflow = None
        if overflow_target_id is not None:
            overflow = self._cd_overflow_target(actor, campaign, state, target, overflow_target_id)
        shield = state["shields"].get(target.key)
        hostage = None
        if shield and shield["hostage_id"]:
            hostage = self.get(actor, Character, UUID(shield["hostage_id"]))
        edge = state["edges"].get(hero.key, {}).get("kind")
        request = {
            "attack_type": attack_type,
            "stat_value": getattr(hero.sheet, combat.ATTACK_STAT[attack_type]),
            "target_stat": getattr(target.sheet, combat.ATTACK_STAT[attack_type]),
            # CD-18 ruling: high ground gives advantage on ranged attacks.
            "advantage": advantage
            + (1 if edge == "high_ground" and attack_type == "ranged" else 0),
            "disadvantage": disadvantage,
            "hostage_shield": shield is not None,
            "will_rerolls": will_rerolls,
            "damage_modifier": feature.damage if feature else 0,
            "target_health": target.level("health"),
            "reaction": combat.has_reaction(state, target.key, target.rank, attack_type),
            "strike_back_modifier": target.best_damage(attack_type),
            "attacker_health": hero.level("health"),
            "attacker_will": hero.level("will"),
            "overflow_target_health": overflow.level("health") if overflow else None,
            "hostage_health": hostage.resources.get("health") if hostage else None,
            "area": area,
            "engaged_with": [c for c in combat.engaged_with(state, target.key) if c != hero.key],
            "purpose": purpose,
        }
        result, roll, touched = self._cd_rolled(
            ctx,
            actor,
            scene,
            campaign,
            "hero_attack",
            request,
            hero.character,
            client_seed,
            {"advantage": advantage, "disadvantage": disadvantage},
        )
        scene.classd_act(hero.id, f"attack:{attack_type}")
        where = (roll.id, scene.id, scene.page)
        if result["damage"]:
            status = (
                "captured" if result["captured"] else "defeated" if result["target_out"] else None
            )
            target.character.take_damage("health", result["target_health"], status, *where)
        if result["overflow_moved"] and overflow is not None:
            left = result["overflow_target_health"]
            status = None
            if left == 0:
                status = "captured" if attack_type == "mental" else "defeated"
            overflow.character.take_damage("health", left, status, *where)
        if result["hostage_damage"] and hostage is not None:
            left = result["hostage_health"]
            hostage.take_damage("health", left, "defeated" if left == 0 else None, *where)
        strike = result["strike_back"]
        if strike is not None:
            scene.classd_react(target.id, attack_type, strike["reaction_spent"])
            out = strike["resource"] == "health" and strike["level"] == 0
            hero.character.take_damage(
                strike["resource"], strike["level"], "defeated" if out else None, *where
            )
        if attack_type == "melee" and not result["target_out"]:
            self._cd_engage(scene, state, hero, target, "heroes")
        extra = [hero.character, target.character]
        extra += [overflow.character] if overflow else []
        extra += [hostage] if hostage else []
        return self._cd_save(ctx, scene, [*touched, *extra], roll)

    def _cd_overflow_target(
        self,
        actor: Actor,
        campaign: Campaign,
        state: dict[str, Any],
        target: Fighter,
        overflow_target_id: UUID,
    ) -> Fighter:
        """CD-13: another villain, in the fight, of a rank not higher than the target's."""
        if overflow_target_id == target.id:
            raise InvalidInput(
                "overflow moves to another target", field="overflow_target_id", rule="CD-13"
            )
        other = self._cd_fighter(
            actor, campaign, overflow_target_id, "overflow_target_id", "villain"
        )
        combat.check_in_fight(state, other.key, other.name, "overflow_target_id")
        if not combat.rank_allows_overflow(target.rank, other.rank):
            raise InvalidInput(
                f"{other.name} is a {other.rank}: overflow from a {target.rank} moves only to a "
                "rank not higher",
                field="overflow_target_id",
                rule="CD-13",
            )
        return other

    @staticmethod
    def _cd_engage(
        scene: Scene, state: dict[str, Any], attacker: Fighter, target: Fighter, side: str
    ) -> None:
        """CD-19 ruling: a melee attack engages the pair unless either moved this round."""
        if attacker.key not in state["moved"] and target.key not in state["moved"]:
            scene.classd_engage(attacker.id, target.id, side)

    # ---- CD-15, 17: a villain attacks, the hero defends -------------------------------------------

    @command
    def classd_villain_attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        villain_id: UUID,
        hero_id: UUID,
        attack_type: str,
        *,
        using: str | None = None,
        advantage: int = 0,
        disadvantage: int = 0,
        will_rerolls: int = 0,
        purpose: str = "",
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._gm(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        villain = self._cd_fighter(actor, campaign, villain_id, "villain_id", "villain")
        hero = self._cd_fighter(actor, campaign, hero_id, "hero_id", "hero")
        state = scene.classd
        self._cd_in_fight(state, (villain, "villain_id"), (hero, "hero_id"))
        combat.check_turn(state, "villains")  # CD-8
        combat.check_villain_action(
            state, villain.key, villain.name, villain.rank, "attack", attack_type
        )  # CD-15, CD-17
        feature = self._cd_feature(villain, using, attack_type)
        self._cd_will_rerolls(hero, will_rerolls)
        edge = state["edges"].get(hero.key, {}).get("kind")
        # CD-18 rulings: cover helps against ranged attacks, high ground against melee.
        helped = (edge, attack_type) in (("cover", "ranged"), ("high_ground", "melee"))
        request = {
            "attack_type": attack_type,
            "stat_value": getattr(hero.sheet, combat.ATTACK_STAT[attack_type]),
            "target_stat": getattr(villain.sheet, combat.ATTACK_STAT[attack_type]),
            "advantage": advantage + (1 if helped else 0),
            "disadvantage": disadvantage,
            "will_rerolls": will_rerolls,
            "damage_modifier": feature.damage if feature else villain.best_damage(attack_type),
            "defender_health": hero.level("health"),
            "defender_will": hero.level("will"),
            "purpose": purpose,
        }
        result, roll, touched = self._cd_rolled(
            ctx,
            actor,
            scene,
            campaign,
            "villain_attack",
            request,
            hero.character,
            client_seed,
            {"advantage": advantage, "disadvantage": disadvantage},
        )
        scene.classd_act(villain.id, f"attack:{attack_type}")
        if result["damage"]:
            out = result["resource"] == "health" and result["level"] == 0
            hero.character.take_damage(
                result["resource"],
                result["level"],
                "defeated" if out else None,
                roll.id,
                scene.id,
                scene.page,
            )
        if attack_type == "melee" and hero.character.status == "active":
            self._cd_engage(scene, state, villain, hero, "villains")
        return self._cd_save(ctx, scene, [*touched, hero.character], roll)

    # ---- CD-9, 15: actions without a roll (powers, items; villains' special actions, flight) -------

    @command
    def classd_act(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        action: str,
        feature: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        try:
            character = self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                "character_id names no character of this campaign", field="character_id"
            ) from None
        self._check_may_act_for(actor, character)
        side = "hero" if character.side == "hero" else "villain"
        fighter = self._cd_fighter(actor, campaign, character_id, "character_id", side)
        state = scene.classd
        self._cd_in_fight(state, (fighter, "character_id"))
        allowed = ("power", "item") if side == "hero" else ("special", "flee")
        if action not in allowed:
            raise InvalidInput(
                f"a {side}'s action here is one of {', '.join(allowed)}",
                field="action",
                rule="CD-9" if side == "hero" else "CD-15",
            )
        if feature is not None and not any(f.name == feature for f in fighter.features()):
            raise InvalidInput(f"{fighter.name} has no power or gear {feature!r}", field="feature")
        combat.check_turn(state, "heroes" if side == "hero" else "villains")
        if side == "hero":
            combat.check_hero_action(state, fighter.key, fighter.name)
        else:
            combat.check_villain_action(state, fighter.key, fighter.name, fighter.rank, action)
        scene.classd_act(
            fighter.id, action if feature is None or action == "flee" else f"{action}:{feature}"
        )
        return self._cd_save(ctx, scene, [])

    # ---- CD-14: a hero retreats ---------------------------------------------------------------------

    @command
    def classd_retreat(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        hero_id: UUID,
        pursuer_ids: list[UUID],
        covering_ids: list[UUID],
        *,
        advantage: int = 0,
        disadvantage: int = 0,
        will_rerolls: int = 0,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        hero = self._cd_fighter(actor, campaign, hero_id, "hero_id", "hero")
        self._check_may_act_for(actor, hero.character)
        state = scene.classd
        self._cd_in_fight(state, (hero, "hero_id"))
        pursuers = [
            self._cd_fighter(actor, campaign, p, "pursuer_ids", "villain")
            for p in dict.fromkeys(pursuer_ids)
        ]
        covering = [
            self._cd_fighter(actor, campaign, c, "covering_ids", "hero")
            for c in dict.fromkeys(covering_ids)
        ]
        if hero.id in {c.id for c in covering}:
            raise InvalidInput("a hero cannot cover its own retreat", field="covering_ids")
        if not pursuers:
            raise InvalidInput(
                "name the villains who may pursue", field="pursuer_ids", rule="CD-14"
            )
        self._cd_in_fight(state, *((p, "pursuer_ids") for p in pursuers))
        self._cd_in_fight(state, *((c, "covering_ids") for c in covering))
        combat.check_turn(state, "heroes")
        combat.check_hero_action(state, hero.key, hero.name)
        self._cd_will_rerolls(hero, will_rerolls)
        fastest = max(pursuers, key=lambda p: p.sheet.speed)
        touched: list[Aggregate] = []
        roll = None
        automatic = len(covering) >= len(pursuers)  # CD-14 ruling
        if automatic:
            success = True
        else:
            request = {
                "stat": "speed",
                "target_stat": fastest.sheet.speed,
                "advantage": advantage,
                "disadvantage": disadvantage,
                "will_rerolls": will_rerolls,
                "purpose": f"Retreat from {fastest.name} (CD-14)",
            }
            result, roll, touched = self._cd_rolled(
                ctx,
                actor,
                scene,
                campaign,
                "action",
                request,
                hero.character,
                client_seed,
                {"advantage": advantage, "disadvantage": disadvantage},
            )
            success = bool(result["success"])
        scene.classd_act(hero.id, "flee")
        if success:
            scene.classd_leave(hero.id, "retreated")
        return self._cd_save(
            ctx,
            scene,
            touched,
            roll,
            retreated=success,
            automatic=automatic,
            fastest_pursuer_id=str(fastest.id),
            pursuers=len(pursuers),
            covering=len(covering),
        )

    # ---- CD-16: a hero stops a fleeing villain ------------------------------------------------------

    @command
    def classd_stop(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        hero_id: UUID,
        villain_id: UUID,
        *,
        advantage: int = 0,
        disadvantage: int = 0,
        will_rerolls: int = 0,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        hero = self._cd_fighter(actor, campaign, hero_id, "hero_id", "hero")
        self._check_may_act_for(actor, hero.character)
        villain = self._cd_fighter(actor, campaign, villain_id, "villain_id", "villain")
        state = scene.classd
        self._cd_in_fight(state, (hero, "hero_id"), (villain, "villain_id"))
        combat.check_turn(state, "villains")  # a reaction to the villains' flight
        if villain.key not in combat.fleeing(state):
            raise Conflict(
                f"{villain.name} is not fleeing this turn", code="not_fleeing", rule="CD-16"
            )
        tried = state["stops"].get(hero.key)
        if tried is not None:
            raise Conflict(
                f"{hero.name} already tried to stop a villain this turn",
                code="stop_used",
                rule="CD-16",
                details={"villain_id": tried["villain_id"]},
            )
        self._cd_will_rerolls(hero, will_rerolls)
        request = {
            "stat": "speed",
            "target_stat": villain.sheet.speed,
            "advantage": advantage,
            "disadvantage": disadvantage,
            "will_rerolls": will_rerolls,
            "purpose": f"Stop {villain.name} fleeing (CD-16)",
        }
        result, roll, touched = self._cd_rolled(
            ctx,
            actor,
            scene,
            campaign,
            "action",
            request,
            hero.character,
            client_seed,
            {"advantage": advantage, "disadvantage": disadvantage},
        )
        scene.classd_stop(hero.id, villain.id, bool(result["success"]))
        return self._cd_save(ctx, scene, touched, roll, stopped=bool(result["success"]))

    # ---- CD-18: moving for an edge ------------------------------------------------------------------

    @command
    def classd_move(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        hero_id: UUID,
        edge: str,
        *,
        stat: str = "speed",
        difficulty: int | None = None,
        difficulty_name: str | None = None,
        takes_action: bool = True,
        advantage: int = 0,
        disadvantage: int = 0,
        will_rerolls: int = 0,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        hero = self._cd_fighter(actor, campaign, hero_id, "hero_id", "hero")
        self._check_may_act_for(actor, hero.character)
        if not takes_action and not actor.is_gm:
            raise Forbidden(
                "only the GM rules that a move takes no action", field="takes_action", rule="CD-18"
            )
        if stat not in MOVE_STATS:
            raise InvalidInput(
                "a move rolls speed, or might to force through", field="stat", rule="CD-18"
            )
        combat.check_edge_kind(edge)
        state = scene.classd
        self._cd_in_fight(state, (hero, "hero_id"))
        combat.check_turn(state, "heroes")
        if takes_action:
            combat.check_hero_action(state, hero.key, hero.name)
        self._cd_will_rerolls(hero, will_rerolls)
        request = {
            "stat": stat,
            "difficulty": difficulty,
            "difficulty_name": difficulty_name,
            "advantage": advantage,
            "disadvantage": disadvantage,
            "will_rerolls": will_rerolls,
            "purpose": f"Move for {edge.replace('_', ' ')} (CD-18)",
        }
        result, roll, touched = self._cd_rolled(
            ctx,
            actor,
            scene,
            campaign,
            "action",
            request,
            hero.character,
            client_seed,
            {"advantage": advantage, "disadvantage": disadvantage},
        )
        success = bool(result["success"])
        scene.classd_act(hero.id, "move" if success else "move_failed", free=not takes_action)
        if success:
            scene.classd_gain_edge(hero.id, edge, scene.page + 1)
        return self._cd_save(ctx, scene, touched, roll, edge=edge if success else None)

    # ---- CD-20: a hostage shield ------------------------------------------------------------------

    @command
    def classd_hostage_shield(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        villain_id: UUID,
        *,
        hostage: str | None = None,
        hostage_id: UUID | None = None,
        release: bool = False,
    ) -> Outcome:
        actor = self._gm(ctx)
        scene, campaign = self._classd_scene(ctx, actor, scene_id)
        villain = self._cd_fighter(actor, campaign, villain_id, "villain_id", "villain")
        state = scene.classd
        if release:
            if villain.key not in state["shields"]:
                raise Conflict(f"{villain.name} holds no hostage", code="no_hostage", rule="CD-20")
            scene.classd_shield(villain.id, None, None)
            return self._cd_save(ctx, scene, [])
        if hostage_id is not None:
            try:
                held = self.get(actor, Character, hostage_id)
            except NotFound:
                raise InvalidInput(
                    "hostage_id names no character of this campaign", field="hostage_id"
                ) from None
            if held.id == villain.id:
                raise InvalidInput("a villain is not its own hostage", field="hostage_id")
            hostage = hostage or held.name
        if not hostage:
            raise InvalidInput(
                "name the hostage, or give hostage_id", field="hostage", rule="CD-20"
            )
        combat.check_in_fight(state, villain.key, villain.name, "villain_id")
        scene.classd_shield(villain.id, hostage_id, hostage)
        return self._cd_save(ctx, scene, [])

    # ---- reads ------------------------------------------------------------------------------------

    def classd_combat(self, actor: Actor, scene_id: UUID) -> Scene:
        """The scene, for its Class D combat state (any member may read it)."""
        scene = self.get(actor, Scene, scene_id)
        if self.campaign_of(actor).ruleset != "classd":
            raise InvalidInput(
                "Class D Heroes combat needs a campaign of the classd ruleset", field="scene_id"
            )
        return scene
