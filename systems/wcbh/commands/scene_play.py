"""Help, group checks, contests, chases, recovery and what happens to effects (WCBH-10..14, 27, 34, 37..39).

Every roll here is a fair, audited roll record of the ruleset's `trait` check, made through
`RollCommands._roll_check`; what a rule adds to a roll (help dice, a contest or chase win, half a
trait on foot) goes into that roll's request, so the record recomputes offline. The state of group
checks, contests and chases lives on the Scene; recovery and effects on the Character; effects
extended past their scene (WCBH-38) are booked on the game Issue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

from domain.aggregates import Campaign, Character, Issue, Scene, Story
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks, Loaded
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.rolls import declared_by
from domain.rulesets import get_ruleset
from domain.rulesets.base import CheckOutcome, form_of, parse_request
from systems.wcbh.rules.checks import TraitRequest, trait_rank
from systems.wcbh.rules.combat import recover, recovery_difficulty
from systems.wcbh.rules.effects import Effect, come_back, extend_effect, shake_off
from systems.wcbh.rules.play import HELP_DIFFICULTY, best_help, help_bonus
from systems.wcbh.rules.pools import halve
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

TRAIT = "trait"
BACK_IN_THE_FIGHT = "back_in_the_fight"  # the scene's once-per-scene key (WCBH-39)
RECOVERY = "recovery"  # the scene's once-per-scene key (WCBH-34 ruling)
AGILITY = "Agility"
MAX_HELPERS = 10


class ScenePlayCommands(Hooks):
    """Mixed into the Chronicle application."""

    # ---- WCBH-10: help ------------------------------------------------------------------------

    @command
    def assisted_roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        request: Mapping[str, Any],
        helpers: list[tuple[UUID, str]],
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-10: each helper rolls its trait at difficulty 2 (a roll record each); the helped
        character's roll gets +1 die per 2 net successes of the best helper, in its modifier."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        req = self._play_request(request)
        if not helpers or len(helpers) > MAX_HELPERS:
            raise InvalidInput(f"name 1 to {MAX_HELPERS} helpers", field="helpers", rule="WCBH-10")
        helper_ids = [h for h, _ in helpers]
        if len(set(helper_ids)) != len(helper_ids) or character.id in helper_ids:
            raise InvalidInput(
                "helpers are different characters, other than the one helped",
                field="helpers",
                rule="WCBH-10",
            )
        helping = [(self._play_character(actor, h, "helpers"), trait) for h, trait in helpers]
        touched: list[Any] = []
        rows = []
        for helper, trait in helping:
            purpose = f"helps {character.name} (WCBH-10): {req.purpose}"[:2000]
            help_request = {"trait": trait, "difficulty": HELP_DIFFICULTY, "purpose": purpose}
            outcome, made = self._play_roll(
                actor, scene, campaign, helper, help_request, None, touched
            )
            successes = outcome.result["successes"]
            rows.append(
                {
                    "character_id": str(helper.id),
                    "roll_id": str(made[0].id),
                    "successes": successes,
                    "net": outcome.result["net"],
                    "bonus": help_bonus(successes),
                }
            )
            touched.extend(made)
        bonus = best_help(row["successes"] for row in rows)
        helped = _raw(req, modifier=req.modifier + bonus)
        _, made = self._play_roll(
            actor, scene, campaign, character, helped, client_seed, touched, declared=req
        )
        return self._commit(
            ctx, *made, *touched, revealed={"help": rows, "bonus": bonus, "scene": scene}
        )

    # ---- WCBH-11: group checks ----------------------------------------------------------------

    @command
    def open_group_check(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        participants: list[UUID],
        difficulty: int,
        purpose: str,
    ) -> Outcome:
        """WCBH-11: the GM, or a player with a character in it, opens a group check."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._play_wcbh(actor)
        members = [self._play_named(actor, c, "participants") for c in participants]
        self._play_check_takes_part(actor, members)
        group_id = uuid4()
        scene.open_group_check(group_id, [c.id for c in members], difficulty, purpose)
        return self._commit(ctx, scene, revealed={"group_id": group_id})

    @command
    def group_check_roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        group_id: UUID,
        character_id: UUID,
        request: Mapping[str, Any],
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-11: one participant's own roll, at the group check's difficulty."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        group = scene.check_group_roll(group_id, character.id)
        req = self._play_request(request)
        if "difficulty" in request and req.difficulty != group["difficulty"]:
            raise InvalidInput(
                f"the group check is at difficulty {group['difficulty']}",
                field="request.difficulty",
                rule="WCBH-11",
            )
        raw = _raw(req, difficulty=group["difficulty"])
        # the group's difficulty is the GM's (WCBH-11): only the roller's modifier is its own
        own = req.model_copy(update={"difficulty": 0})
        outcome, made = self._play_roll(
            actor, scene, campaign, character, raw, client_seed, [], declared=own
        )
        scene.group_roll(group_id, character.id, made[0].id, outcome.result["successes"])
        return self._commit(ctx, scene, *made, revealed={"group_id": group_id, "roll": made[0]})

    @command
    def hand_over_successes(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        group_id: UUID,
        giver_id: UUID,
        receiver_id: UUID,
        successes: int,
    ) -> Outcome:
        """WCBH-11: after seeing the rolls, the giver's owner (or the GM) hands successes above 3
        to another participant."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._play_wcbh(actor)
        self._play_character(actor, giver_id, "giver_id")
        scene.hand_over(group_id, giver_id, receiver_id, successes)
        return self._commit(ctx, scene, revealed={"group_id": group_id})

    # ---- WCBH-12: contests --------------------------------------------------------------------

    @command
    def start_contest(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        first_id: UUID,
        second_id: UUID,
        rolls: int,
        purpose: str,
    ) -> Outcome:
        """WCBH-12: the GM, or the owner of a side, starts a contest of `rolls` rolls."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._play_wcbh(actor)
        sides = [self._play_named(actor, first_id, "first_id")]
        sides.append(self._play_named(actor, second_id, "second_id"))
        self._play_check_takes_part(actor, sides)
        contest_id = uuid4()
        scene.start_contest(contest_id, first_id, second_id, rolls, purpose)
        return self._commit(ctx, scene, revealed={"contest_id": contest_id})

    @command
    def contest_roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        contest_id: UUID,
        character_id: UUID,
        request: Mapping[str, Any],
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-12: one side's roll of the current round, +2 dice if it won the previous one."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        bonus = scene.contest_bonus(contest_id, character.id)
        req = self._play_request(request)
        raw = _raw(req, modifier=req.modifier + bonus)
        outcome, made = self._play_roll(
            actor, scene, campaign, character, raw, client_seed, [], declared=req
        )
        scene.contest_roll(contest_id, character.id, made[0].id, outcome.result["successes"], bonus)
        return self._commit(ctx, scene, *made, revealed={"contest_id": contest_id, "roll": made[0]})

    # ---- WCBH-27: chases ----------------------------------------------------------------------

    @command
    def start_chase(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        pairs: list[tuple[UUID, UUID]],
        distance: str,
    ) -> Outcome:
        """WCBH-27: the GM, or a player with a character in it, starts a chase: pursuers, each
        after one target, at a range class."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._play_wcbh(actor)
        everyone = {}
        for pursuer, target in pairs:
            everyone[pursuer] = self._play_named(actor, pursuer, "pairs")
            everyone[target] = self._play_named(actor, target, "pairs")
        self._play_check_takes_part(actor, list(everyone.values()))
        chase_id = uuid4()
        scene.start_chase(chase_id, pairs, distance)
        return self._commit(ctx, scene, revealed={"chase_id": chase_id})

    @command
    def chase_check(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        chase_id: UUID,
        character_id: UUID,
        request: Mapping[str, Any],
        on_foot_against_faster: bool = False,
        shift: int | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-27: a participant's chase check of this page (Agility or a movement Power; not an
        action): half the trait on foot with only Agility against a faster Power, +2 dice after
        winning; a pair is decided once both of its sides have rolled in the page."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        bonus = scene.chase_bonus(chase_id, character.id)
        req = self._play_request(request)
        if shift not in (None, -1, 0, 1):
            raise InvalidInput("shift is -1 (closer), 0 or 1 (farther)", field="shift")
        halved = 0
        if on_foot_against_faster:
            if req.trait is None or req.trait.casefold() != AGILITY.casefold():
                raise InvalidInput(
                    "on foot against a faster Power is a roll of Agility only",
                    field="request.trait",
                    rule="WCBH-27",
                )
            _, rank = trait_rank(req, self._play_sheet(campaign, character))
            halved = rank - halve(rank)
        raw = _raw(req, modifier=req.modifier + bonus - halved)
        outcome, made = self._play_roll(
            actor, scene, campaign, character, raw, client_seed, [], action=False, declared=req
        )
        successes = outcome.result["successes"]
        scene.chase_check(chase_id, character.id, made[0].id, successes, bonus, shift)
        return self._commit(ctx, scene, *made, revealed={"chase_id": chase_id, "roll": made[0]})

    # ---- WCBH-34: recovery --------------------------------------------------------------------

    @command
    def recover_health(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        rested_whole_day: bool = False,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-34: a Stamina check at difficulty 2 (1 after a whole day of rest) restores 1 Health
        per net success, never above the maximum; once per character per scene (ruling)."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        if character.id in scene.uses.get(RECOVERY, []):
            raise Conflict(
                f"{character.name} has already made its recovery check in this scene",
                code="once_per_scene",
                rule="WCBH-34",
                details={"use": RECOVERY},
            )
        difficulty = recovery_difficulty(rested_whole_day=rested_whole_day)
        rest = "after a whole day of rest" if rested_whole_day else "after the fight"
        raw = {
            "trait": "Stamina",
            "difficulty": difficulty,
            "purpose": f"recovery {rest} (WCBH-34)",
        }
        outcome, made = self._play_roll(
            actor, scene, campaign, character, raw, client_seed, [], action=False
        )
        scene.use_once(RECOVERY, character.id, "WCBH-34", exclusive=False)
        before = character.resources.get("health", 0)
        maximum = self._play_max_health(campaign, character)
        health = recover(
            before, maximum, outcome.result["successes"], rested_whole_day=rested_whole_day
        )
        health = max(health, before)  # a character above its maximum keeps what it has
        if health != before:
            character.recover(health, made[0].id, scene.id)
        return self._commit(
            ctx,
            character,
            *made,
            revealed={"roll": made[0], "health_before": before, "max_health": maximum},
        )

    # ---- WCBH-37: shaking off an effect -------------------------------------------------------

    @command
    def shake_off_effect(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        effect: str,
        request: Mapping[str, Any],
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-37: the affected character rolls as the power says (trait and difficulty in the
        request); success takes half its net successes (rounded up) off the pages left; at 0 the
        effect ends and the character is free to act this page."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        character = self._play_character(actor, character_id, "character_id")
        current = self._play_effect(character, effect)
        if current.whole_scene:
            raise Conflict(
                f"{effect!r} defeated {character.name} and lasts to the end of the scene: it "
                "cannot be shaken off, only dropped with Resolve (WCBH-39)",
                code="effect_defeated",
                rule="WCBH-36",
            )
        req = self._play_request(request)
        purpose = req.purpose or f"shake off {effect} (WCBH-37)"
        raw = _raw(req, purpose=purpose)
        outcome, made = self._play_roll(
            actor, scene, campaign, character, raw, client_seed, [], action=False, declared=req
        )
        left = shake_off(current, outcome.result["net"])
        pages = left.pages if left is not None else 0
        if pages != current.pages:
            character.shake_off_effect(effect, pages, made[0].id, scene.id)
        return self._commit(
            ctx,
            character,
            *made,
            revealed={"roll": made[0], "effect": effect, "pages_before": current.pages},
        )

    # ---- WCBH-38: extending an effect ---------------------------------------------------------

    @command
    def extend_effect_past_scene(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        target_id: UUID,
        effect: str,
    ) -> Outcome:
        """WCBH-38: 1 Resolve of `character_id` in this scene extends `effect` on the defeated
        `target_id` to the end of the next scene of this game Issue; once per scene per effect."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._play_wcbh(actor)
        if scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        spender = self._play_character(actor, character_id, "character_id")
        target = self._play_named(actor, target_id, "target_id")
        if target.id == spender.id:
            raise InvalidInput(
                "an effect is extended on an opponent, not on oneself",
                field="target_id",
                rule="WCBH-38",
            )
        current = self._play_effect(target, effect)
        if target.status != "defeated":
            raise Conflict(
                f"{target.name} is not defeated: only an effect on a defeated opponent is extended",
                code="target_not_defeated",
                rule="WCBH-38",
            )
        extend_effect(Effect(current.name, current.pages, whole_scene=True))
        issue = self.get(actor, Issue, scene.issue_id)
        target.extend_effect(effect, scene.id, spender.id)
        issue.book_extension(target.id, effect, scene.id)
        spender.spend({"resolve": 1}, reason=f"extend {effect} on {target.name} (WCBH-38)")
        return self._commit(ctx, target, spender, issue, revealed={"scene": scene})

    # ---- WCBH-39: back in the fight -----------------------------------------------------------

    @command
    def back_in_the_fight(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        use: str,
        effect: str | None = None,
    ) -> Outcome:
        """WCBH-39: 1 Resolve: on the page after its defeat by damage the character wakes with 3
        Health (`come_back`), or it is rid of a special effect from the next page (`drop_effect`);
        either once per scene per character."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self._play_wcbh(actor)
        if scene.closed:
            raise Conflict("the scene is closed", code="scene_closed")
        character = self._play_character(actor, character_id, "character_id")
        used = character.id in scene.uses.get(BACK_IN_THE_FIGHT, [])
        if used:
            raise Conflict(
                f"{character.name} is already back in the fight once in this scene",
                code="once_per_scene",
                rule="WCBH-39",
                details={"use": BACK_IN_THE_FIGHT},
            )
        if use == "come_back":
            if effect is not None:
                raise InvalidInput("coming back names no effect", field="effect", rule="WCBH-39")
            health = self._play_come_back(campaign, scene, character)
            character.come_back(health, scene.id, scene.page)
            what = "come back with 3 Health"
        elif use == "drop_effect":
            if effect is None:
                raise InvalidInput("name the effect to drop", field="effect", rule="WCBH-39")
            self._play_effect(character, effect)
            character.declare_effect_drop(effect, scene.id, scene.page)
            what = f"be rid of {effect} from the next page"
        else:
            raise InvalidInput("use is come_back or drop_effect", field="use", rule="WCBH-39")
        scene.use_once(BACK_IN_THE_FIGHT, character.id, "WCBH-39", exclusive=False)
        character.spend({"resolve": 1}, reason=f"back in the fight: {what} (WCBH-39)")
        return self._commit(ctx, character, scene, revealed={"scene": scene, "use": use})

    def _play_come_back(self, campaign: Campaign, scene: Scene, character: Character) -> int:
        defeated = character.defeated_at
        health = character.resources.get("health", 0)
        if character.status != "defeated" or health > 0 or defeated is None:
            raise Conflict(
                f"{character.name} is not defeated by damage",
                code="not_defeated",
                rule="WCBH-39",
            )
        if defeated.get("scene_id") != scene.id or scene.page != defeated.get("page", 0) + 1:
            raise Conflict(
                "coming back is done on the page right after the defeat, in its scene",
                code="wrong_page",
                rule="WCBH-39",
                details={
                    "defeated_in": str(defeated.get("scene_id")),
                    "defeated_on_page": defeated.get("page"),
                    "page": scene.page,
                },
            )
        return come_back(
            health,
            self._play_max_health(campaign, character),
            defeated_on_page=int(defeated["page"]),
            page=scene.page,
            used_this_scene=False,
        )

    # ---- boundary hooks -----------------------------------------------------------------------

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """WCBH-39: effects declared dropped on the last page are gone."""
        super()._page_advanced(actor, scene, loaded)
        for character_id in scene.uses.get(BACK_IN_THE_FIGHT, []):
            loaded.character(self, actor, character_id).drop_declared_effects(scene.id, scene.page)

    def _scene_closed(self, actor: Actor, scene: Scene, issue: Issue, loaded: Loaded) -> None:
        """WCBH-38: an effect extended in this scene outlives it (defeated through the next scene
        of the game Issue); one carried into this scene from the one before ends with it."""
        super()._scene_closed(actor, scene, issue, loaded)
        if issue.ended:
            return  # the game Issue's end ends them all (_issue_ended)
        for entry in issue.extended_effects:
            from_scene, name = UUID(entry["scene_id"]), entry["effect"]
            character_id = UUID(entry["character_id"])
            if from_scene == scene.id:
                stored = self.get(actor, Character, character_id)  # as it was before this close
                if stored.effects.get(name, {}).get("extended_in") != str(scene.id):
                    continue  # shaken off or dropped before the scene closed
                character = loaded.character(self, actor, character_id)
                after = issue.scene_after(scene.id)
                if after is not None and after not in issue.open_scene_ids:
                    character.end_carried_effect(name, scene.id)  # its next scene is over too
                else:
                    character.carry_effect(name, scene.id)
            elif issue.scene_after(from_scene) == scene.id:
                character = loaded.character(self, actor, character_id)
                if character.effects.get(name, {}).get("carried_from") == str(from_scene):
                    character.end_carried_effect(name, scene.id)

    def _issue_ended(self, actor: Actor, issue: Issue, story: Story, loaded: Loaded) -> None:
        """WCBH-38 ruling: the end of the game Issue ends every extended effect."""
        super()._issue_ended(actor, issue, story, loaded)
        for entry in issue.extended_effects:
            character = loaded.character(self, actor, UUID(entry["character_id"]))
            found = character.effects.get(entry["effect"])
            if found is not None and (found.get("carried_from") or found.get("extended_in")):
                character.end_carried_effect(entry["effect"], None)

    # ---- helpers ------------------------------------------------------------------------------

    def _play_wcbh(self, actor: Actor) -> Campaign:
        campaign = self.campaign_of(actor)
        if campaign.ruleset != "wcbh":
            raise InvalidInput(
                f"this is a rule of We Can Be Heroes; the campaign plays {campaign.ruleset}",
                field="scene_id",
                code="wrong_ruleset",
            )
        return campaign

    def _play_named(self, actor: Actor, character_id: UUID, field: str) -> Character:
        try:
            return self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                f"{field} names no character of this campaign", field=field
            ) from None

    def _play_character(self, actor: Actor, character_id: UUID, field: str) -> Character:
        """A character the actor may act for (the GM: any; a player: its own), else 403."""
        character = self._play_named(actor, character_id, field)
        self._check_may_act_for(actor, character)
        return character

    @staticmethod
    def _play_check_takes_part(actor: Actor, characters: list[Character]) -> None:
        """Ruling: the GM, or a player owning one of the characters, starts a group thing."""
        if actor.is_gm:
            return
        if actor.role != "player" or not any(
            c.owner_member_id == actor.member_id for c in characters
        ):
            raise Forbidden("a player starts this only with one of its own characters in it")

    @staticmethod
    def _play_request(request: Mapping[str, Any]) -> TraitRequest:
        req = parse_request(TraitRequest, request, "request")
        if req.trait is None or req.pool is not None:
            raise InvalidInput("name the trait to roll", field="request.trait")
        return req

    @staticmethod
    def _play_sheet(campaign: Campaign, character: Character) -> WcbhCharacter | WcbhMinion:
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
        return form_of(sheet, WcbhCharacter, WcbhMinion)

    @staticmethod
    def _play_max_health(campaign: Campaign, character: Character) -> int:
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
        return int(rules.resources(sheet, settings)["health"]["max"])

    @staticmethod
    def _play_effect(character: Character, name: str) -> Effect:
        found = character.effects.get(name)
        if found is None:
            raise Conflict(
                f"{character.name} is under no effect {name!r}",
                field="effect",
                code="no_such_effect",
                details={"effects": list(character.effects)},
            )
        return Effect(name, int(found.get("pages", 0)), bool(found.get("whole_scene")))

    def _play_roll(
        self,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        character: Character,
        request: Mapping[str, Any],
        client_seed: str | None,
        earlier: list[Any],
        *,
        action: bool = True,
        declared: TraitRequest | None = None,
    ) -> tuple[CheckOutcome, list[Any]]:
        """One trait roll; a command's later rolls link to the chain its earlier ones did. Chases,
        recovery and shaking off are no actions of the page (`action` False, WCBH-25).
        `declared`: the roller's own request, whose modifier and difficulty follow
        player_modifiers (what the rule adds, help or a contest win, is not the roller's)."""
        chain = earlier[1] if len(earlier) > 1 else None
        return self._roll_check(
            actor,
            scene,
            campaign,
            TRAIT,
            request,
            character,
            client_seed,
            chain=chain,
            action=action,
            declared=None
            if declared is None
            else declared_by(
                {"modifier": declared.modifier, "difficulty": declared.difficulty}, "request"
            ),
        )


def _raw(req: TraitRequest, **changes: Any) -> dict[str, Any]:
    """The request as sent (server-filled fields left to the server) with the rule's changes."""
    raw = req.model_dump(mode="json", exclude_defaults=True)
    raw.update(changes)
    return {k: v for k, v in raw.items() if v is not None}
