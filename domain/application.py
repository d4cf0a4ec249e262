"""The Chronicle application: command verbs in, aggregates and log positions out; domain errors only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

from domain.aggregates import Campaign, Character, Issue, Scene, Story
from domain.commands import (
    Actor,
    CommandContext,
    IdempotencyRequest,
    Outcome,
    StoredResponse,
    command,
)
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.rulesets import get_ruleset
from domain.secrets import hash_token, mint_token
from domain.verbs.base import Loaded
from domain.verbs.classd_fight import ClassDFightCommands
from domain.verbs.fight import FightCommands
from domain.verbs.missions import MissionCommands
from domain.verbs.nimble_encounter import NimbleEncounterCommands
from domain.verbs.nimble_grapple import NimbleEncounterGrappleCommands
from domain.verbs.nimble_health import NimbleHealthCommands
from domain.verbs.nwod_fight import NwodFightCommands
from domain.verbs.resolve import ResolveCommands
from domain.verbs.scene_play import ScenePlayCommands

__all__ = [
    "Actor",
    "Chronicle",
    "CommandContext",
    "IdempotencyRequest",
    "Outcome",
    "StoredResponse",
]


class Chronicle(
    FightCommands,
    ScenePlayCommands,
    ResolveCommands,
    ClassDFightCommands,
    NimbleEncounterCommands,
    NimbleEncounterGrappleCommands,
    NimbleHealthCommands,
    NwodFightCommands,
    MissionCommands,
):
    """The lifecycle of campaigns, members, characters, stories, game Issues, scenes and missions.

    The verbs of each area of play live in their own mixin (domain/verbs/); the lifecycle verbs here
    call the boundary hooks of `domain.verbs.base.Hooks` so that each area adds what changes at a page,
    a scene or a game Issue boundary to the same atomic save."""

    # ---- commands ----------------------------------------------------------------------------

    @command
    def create_campaign(
        self,
        ctx: CommandContext,
        name: str,
        ruleset: str,
        settings: Mapping[str, Any] | None,
        gm_name: str = "GM",
    ) -> Outcome:
        rules = get_ruleset(ruleset)
        parsed = rules.parse_settings(settings).model_dump(mode="json")
        campaign_id, gm_member_id = uuid4(), uuid4()
        gm_token = mint_token(campaign_id, gm_member_id)
        campaign = Campaign.create(
            campaign_id, name, ruleset, parsed, gm_member_id, gm_name, hash_token(gm_token)
        )
        return self._commit(
            ctx, campaign, revealed={"gm_token": gm_token, "gm_member_id": gm_member_id}
        )

    @command
    def add_member(self, ctx: CommandContext, campaign_id: UUID, name: str, role: str) -> Outcome:
        actor = self._gm(ctx)
        campaign = self._target(ctx, actor, Campaign, campaign_id)
        member_id = uuid4()
        token = mint_token(campaign.id, member_id)
        campaign.join(member_id, name, role, hash_token(token))
        return self._commit(ctx, campaign, revealed={"member_id": member_id, "token": token})

    @command
    def create_character(
        self,
        ctx: CommandContext,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: Any,
    ) -> Outcome:
        actor = self._member(ctx)
        campaign = self._target(ctx, actor, Campaign, campaign_id)
        if not actor.is_gm:
            if owner_member_id is None:
                owner_member_id = actor.member_id
            if actor.role != "player" or owner_member_id != actor.member_id:
                raise Forbidden(
                    "a player may create only characters it owns; observers create none",
                    field="owner_member_id",
                )
        if owner_member_id is not None:
            owner = campaign.members.get(owner_member_id)
            if owner is None or owner.role == "observer":
                raise InvalidInput(
                    "owner_member_id must name a player or the GM of this campaign",
                    field="owner_member_id",
                )
            if owner.role == "gm":
                owner_member_id = None  # the GM owns characters as "no owner"
        valid = self._validated_sheet(campaign, sheet, side)
        character = Character.create(
            campaign.id,
            name,
            side,
            owner_member_id,
            valid,
            self._starting_resources(campaign, valid, side),
        )
        campaign.enrol(character.id)
        return self._commit(ctx, character, campaign)

    @command
    def change_sheet(self, ctx: CommandContext, character_id: UUID, sheet: Any) -> Outcome:
        actor = self._member(ctx)
        character = self._target(ctx, actor, Character, character_id)
        self._check_may_act_for(actor, character)
        campaign = self.campaign_of(actor)
        character.change_sheet(self._validated_sheet(campaign, sheet, character.side))
        return self._commit(ctx, character)

    @command
    def adjust_resource(
        self, ctx: CommandContext, character_id: UUID, resource: str, change: int, reason: str
    ) -> Outcome:
        """The GM awards or takes a resource (Resolve awards with a reason, WCBH-18)."""
        actor = self._gm(ctx)
        character = self._target(ctx, actor, Character, character_id)
        character.adjust(resource, change, reason)
        return self._commit(ctx, character)

    @command
    def change_pool(
        self, ctx: CommandContext, issue_id: UUID, pool: str, change: int, reason: str
    ) -> Outcome:
        """The GM gains or spends from a pool of the game Issue (Adversity, WCBH-21)."""
        actor = self._gm(ctx)
        issue = self._target(ctx, actor, Issue, issue_id)
        if issue.ended:
            raise Conflict("the game Issue has ended", code="issue_ended")
        issue.change_pool(pool, change, reason)
        return self._commit(ctx, issue)

    @command
    def join_fight(self, ctx: CommandContext, scene_id: UUID, character_ids: list[UUID]) -> Outcome:
        """The GM puts characters into the scene's fight (WCBH-22)."""
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        for character_id in character_ids:
            try:
                self.get(actor, Character, character_id)
            except NotFound:
                raise InvalidInput(
                    f"character {character_id} is not in this campaign", field="character_ids"
                ) from None
        scene.join_fight(character_ids)
        return self._commit(ctx, scene)

    @command
    def act_first(self, ctx: CommandContext, scene_id: UUID, character_id: UUID) -> Outcome:
        """WCBH-24 (and WCBH-20d): 1 Resolve, and the character acts first every page from now on."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        character = self.get(actor, Character, character_id)
        self._check_may_act_for(actor, character)
        scene.act_first(character.id)
        character.spend({"resolve": 1}, reason=f"act first in scene {scene.id} (WCBH-24)")
        return self._commit(ctx, scene, character)

    def order_of_action(self, actor: Actor, scene: Scene) -> list[list[UUID]] | None:
        """The scene's order of action, as the campaign's ruleset defines it (None if none)."""
        if not scene.combatants:
            return None
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        fighters = []
        for character_id in scene.combatants:
            character = self.get(actor, Character, character_id)
            sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
            fighters.append((str(character.id), character.side, sheet))
        order = rules.order_of_action(fighters, {str(c) for c in scene.acting_first}, settings)
        return None if order is None else [[UUID(c) for c in group] for group in order]

    @command
    def start_story(self, ctx: CommandContext, campaign_id: UUID, title: str) -> Outcome:
        actor = self._gm(ctx)
        campaign = self._target(ctx, actor, Campaign, campaign_id)
        return self._commit(ctx, Story.start(campaign.id, title))

    @command
    def complete_story(self, ctx: CommandContext, story_id: UUID) -> Outcome:
        actor = self._gm(ctx)
        story = self._target(ctx, actor, Story, story_id)
        story.complete()
        return self._commit(ctx, story)

    @command
    def start_issue(self, ctx: CommandContext, story_id: UUID, title: str) -> Outcome:
        actor = self._gm(ctx)
        story = self._target(ctx, actor, Story, story_id)
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        characters = [self.get(actor, Character, c) for c in campaign.character_ids]
        heroes = sum(1 for c in characters if c.side == "hero")
        issue = Issue.start(
            story.campaign_id,
            story.id,
            title,
            number=len(story.issue_ids) + 1,
            pools=rules.issue_pools(heroes, settings),
        )
        story.begin_issue(issue.id)
        for character in characters:
            # WCBH-17 and the like: what refreshes "per game Issue" goes back to its start level.
            sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
            levels = {
                name: int(spec["start"])
                for name, spec in rules.resources(sheet, settings).items()
                if spec["refresh"] == "issue"
            }
            if levels:
                character.refresh(levels, "issue", issue.id)
        loaded = Loaded({c.id: c for c in characters})
        self._issue_started(actor, issue, story, loaded)
        return self._commit(ctx, issue, story, *loaded.touched(issue, story))

    @command
    def end_issue(self, ctx: CommandContext, issue_id: UUID) -> Outcome:
        actor = self._gm(ctx)
        issue = self._target(ctx, actor, Issue, issue_id)
        scenes = [self.get(actor, Scene, scene_id) for scene_id in issue.open_scene_ids]
        issue.end()
        loaded = Loaded()
        for scene in scenes:
            scene.close(self._reveal(scene))
            self._end_effects(actor, scene, loaded)
            self._scene_closed(actor, scene, issue, loaded)
        story = self.get(actor, Story, issue.story_id)
        story.finish_issue(issue.id)
        self._issue_ended(actor, issue, story, loaded)
        return self._commit(ctx, issue, story, *scenes, *loaded.touched(issue, story, *scenes))

    @command
    def open_scene(self, ctx: CommandContext, issue_id: UUID, title: str) -> Outcome:
        actor = self._gm(ctx)
        issue = self._target(ctx, actor, Issue, issue_id)
        scene = Scene.open(
            issue.campaign_id, issue.story_id, issue.id, title, *self._new_sealed_seed()
        )
        issue.add_scene(scene.id)
        loaded = Loaded()
        self._scene_opened(actor, scene, issue, loaded)
        return self._commit(ctx, scene, issue, *loaded.touched(scene, issue))

    @command
    def advance_page(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        scene.advance_page()
        loaded = Loaded()
        for character_id in scene.affected:  # WCBH-35: effects lose a page
            loaded.character(self, actor, character_id).tick_effects(scene.id, scene.page)
        self._page_advanced(actor, scene, loaded)
        return self._commit(ctx, scene, *loaded.touched(scene))

    @command
    def close_scene(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        scene.close(self._reveal(scene))
        issue = self.get(actor, Issue, scene.issue_id)
        issue.scene_closed(scene.id)
        loaded = Loaded()
        self._end_effects(actor, scene, loaded)
        self._scene_closed(actor, scene, issue, loaded)
        return self._commit(ctx, scene, issue, *loaded.touched(scene, issue))

    def _end_effects(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """WCBH-36: closing a scene ends the effects on the characters it affected."""
        for character_id in scene.affected:
            character = loaded.character(self, actor, character_id)
            if character.effects:
                character.end_scene_effects(scene.id)
