"""The Chronicle application: command verbs in, aggregates and log positions out; domain errors only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar, Unpack
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

import systems
from domain.aggregates import Campaign, Character, Issue, Scene, Story
from domain.commands import (
    Actor,
    CommandContext,
    IdempotencyRequest,
    Outcome,
    StoredResponse,
    command,
)
from domain.components import (
    GameSystem,
    IssueBoundary,
    Loaded,
    PageBoundary,
    SceneBoundary,
)
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.missions import Missions
from domain.requests import (
    ActFirst,
    CampaignCreate,
    CharacterCreate,
    CombatantsJoin,
    IssueCreate,
    MemberCreate,
    PoolChange,
    ProofPagesSet,
    ResourceChange,
    SceneCreate,
    SheetChangeDecision,
    SheetReplace,
    StoryCreate,
    TokenRotate,
)
from domain.rolls import RollCommands
from domain.rulesets import get_ruleset
from domain.secrets import hash_token, mint_token
from domain.service import ServiceOptions
from domain.visibility import VisibilityCommands

__all__ = [
    "Actor",
    "Chronicle",
    "CommandContext",
    "IdempotencyRequest",
    "Outcome",
    "StoredResponse",
]


G = TypeVar("G", bound=GameSystem)


@dataclass(frozen=True)
class TokenMinted:
    """A member's new bearer token, shown once (creating a campaign mints the GM's)."""

    member_id: UUID
    token: str


@dataclass(frozen=True)
class SheetProposed:
    """A player's sheet change waits for the GM (player_sheet_changes: gm_approval)."""

    change_id: UUID


class Chronicle(RollCommands):
    """The lifecycle of campaigns, members, characters, stories, game Issues, scenes and missions.

    It holds the commands that are not the lifecycle's as components: one per game system
    (`systems`, `system(Cls)`) and the missions (`missions`), usable in any ruleset. The lifecycle
    verbs tell the campaign's own system about a page, a scene or a game Issue boundary, so that it
    adds what changes there to the same atomic save (docs/architecture.md)."""

    def __init__(
        self, env: Mapping[str, str] | None = None, **options: Unpack[ServiceOptions]
    ) -> None:
        super().__init__(env, **options)
        # One component per installed game system (systems/<name>/commands: SYSTEM), by ruleset id.
        self.systems: dict[str, GameSystem] = {}
        for commands in systems.parts("commands"):
            component: GameSystem = commands.SYSTEM(self)
            self.systems[component.ruleset_id] = component
        self._no_system = _NoSystem(self)
        self.missions = Missions(self)
        self.visibility = VisibilityCommands(self)

    def system(self, kind: type[G]) -> G:
        """The component of one game system, typed (`app.system(Nwod).attack(...)`)."""
        for component in self.systems.values():
            if isinstance(component, kind):
                return component
        raise LookupError(f"no installed game system is a {kind.__name__}")

    def system_of(self, campaign: Campaign) -> GameSystem:
        """The campaign's own game system: the only one told about its boundaries."""
        return self.systems.get(campaign.ruleset, self._no_system)

    # ---- commands ----------------------------------------------------------------------------

    @command
    def create_campaign(self, ctx: CommandContext, body: CampaignCreate) -> Outcome:
        rules = get_ruleset(body.ruleset)
        parsed = rules.parse_settings(body.settings).model_dump(mode="json")
        campaign_id, gm_member_id = uuid4(), uuid4()
        gm_token = mint_token(campaign_id, gm_member_id)
        campaign = Campaign.create(
            campaign_id,
            body.name,
            body.ruleset,
            parsed,
            gm_member_id,
            body.gm_name,
            hash_token(gm_token),
        )
        return self._commit(ctx, campaign, result=TokenMinted(gm_member_id, gm_token))

    @command
    def add_member(self, ctx: CommandContext, campaign_id: UUID, body: MemberCreate) -> Outcome:
        campaign = self._gm_target(ctx, Campaign, campaign_id)
        member_id = uuid4()
        token = mint_token(campaign.id, member_id)
        expiry = self._expiry(body.expires_in)
        campaign.join(member_id, body.name, body.role, hash_token(token), expiry)
        return self._commit(ctx, campaign, result=TokenMinted(member_id, token))

    @command
    def rotate_token(
        self, ctx: CommandContext, campaign_id: UUID, member_id: UUID, body: TokenRotate
    ) -> Outcome:
        """A new token for a member (the GM for anyone, a member for itself); the old one is dead."""
        actor = self._member(ctx)
        if not actor.is_gm and member_id != actor.member_id:
            raise Forbidden("only the GM may rotate another member's token", field="member_id")
        campaign = self._target(ctx, actor, Campaign, campaign_id)
        token = mint_token(campaign.id, member_id)
        campaign.rotate_token(member_id, hash_token(token), self._expiry(body.expires_in))
        return self._commit(ctx, campaign, result=TokenMinted(member_id, token))

    @command
    def revoke_token(self, ctx: CommandContext, campaign_id: UUID, member_id: UUID) -> Outcome:
        """The GM revokes a member's token: it gets 401 until the GM rotates it a new one."""
        campaign = self._gm_target(ctx, Campaign, campaign_id)
        campaign.revoke_token(member_id)
        return self._commit(ctx, campaign)

    @command
    def remove_member(self, ctx: CommandContext, campaign_id: UUID, member_id: UUID) -> Outcome:
        """The GM removes a member; the characters it owned pass to the GM (they stay in play)."""
        actor, campaign = self._addressed(ctx, Campaign, campaign_id, gm=True)
        name = campaign.member(member_id).name
        campaign.remove_member(member_id)
        owned = [self.get(actor, Character, c) for c in campaign.character_ids]
        owned = [c for c in owned if c.owner_member_id == member_id]
        for character in owned:
            character.release_to_gm(f"{name} left the campaign")
        return self._commit(ctx, campaign, *owned)

    @command
    def set_proof_pages(
        self, ctx: CommandContext, campaign_id: UUID, body: ProofPagesSet
    ) -> Outcome:
        """The GM opens the campaign's proof pages to the public, or closes them (recorded)."""
        campaign = self._gm_target(ctx, Campaign, campaign_id)
        campaign.set_proof_pages(body.public)
        return self._commit(ctx, campaign)

    def _expiry(self, expires_in: int | None) -> str | None:
        if expires_in is None:
            return None
        if expires_in <= 0:
            raise InvalidInput(
                "expires_in must be a positive number of seconds", field="expires_in"
            )
        return (self.clock() + timedelta(seconds=expires_in)).isoformat()

    @command
    def create_character(
        self, ctx: CommandContext, campaign_id: UUID, body: CharacterCreate
    ) -> Outcome:
        actor, campaign = self._addressed(ctx, Campaign, campaign_id)
        side, owner_member_id = body.side, body.owner_member_id
        if not actor.is_gm:
            if owner_member_id is None:
                owner_member_id = actor.member_id
            if actor.role != "player" or owner_member_id != actor.member_id:
                raise Forbidden(
                    "a player may create only characters it owns; observers create none",
                    field="owner_member_id",
                )
            self._check_player_side(campaign, side)
        if owner_member_id is not None:
            owner = campaign.members.get(owner_member_id)
            if owner is None or owner.role == "observer":
                raise InvalidInput(
                    "owner_member_id must name a player or the GM of this campaign",
                    field="owner_member_id",
                )
            if owner.role == "gm":
                owner_member_id = None  # the GM owns characters as "no owner"
        valid = self._validated_sheet(campaign, body.sheet, side)
        character = Character.create(
            campaign.id,
            body.name,
            side,
            owner_member_id,
            valid,
            self._starting_resources(campaign, valid, side),
        )
        campaign.enrol(character.id)
        if body.hidden:
            if not actor.is_gm:
                raise Forbidden("only the GM creates hidden characters", field="hidden")
            campaign.hide_character(character.id)
        return self._commit(ctx, character, campaign)

    @command
    def change_sheet(self, ctx: CommandContext, character_id: UUID, body: SheetReplace) -> Outcome:
        """The GM changes any sheet at any time; a player its own, under the campaign's
        `player_sheet_changes`: outside open scenes, or as a proposal the GM decides."""
        actor, character = self._addressed(ctx, Character, character_id)
        self._check_may_act_for(actor, character)
        campaign = self.campaign_of(actor)
        valid = self._validated_sheet(campaign, body.sheet, character.side)
        if not actor.is_gm:
            mode = self._campaign_settings(campaign).player_sheet_changes
            if mode == "gm_approval":
                change_id = uuid4()
                character.propose_sheet(change_id, valid, body.reason, actor.member_id)
                return self._commit(ctx, character, result=SheetProposed(change_id))
            open_ids = self._open_scene_ids(actor, campaign)
            if open_ids:
                raise Conflict(
                    "a player changes its sheet only while no scene of the campaign is open "
                    "(setting player_sheet_changes = outside_scenes); ask the GM",
                    code="scene_open",
                    details={"open_scene_ids": [str(i) for i in open_ids]},
                )
        resources = self._kept_resources(campaign, character, valid)
        character.change_sheet(valid, body.reason, resources)
        # the campaign when it noted its open scenes just now (saved once, then known)
        return self._commit(ctx, character, *([campaign] if campaign.pending_events else []))

    def _open_scene_ids(self, actor: Actor, campaign: Campaign) -> list[UUID]:
        """Every open scene of the campaign. A campaign from before it kept the list misses the
        scenes opened back then: its game Issues hold them all, so they are read once and noted
        on the campaign (saved with the command; a scene opened meanwhile changes the campaign
        too, so that save clashes and the command retries on fresh state)."""
        if campaign.open_scenes_known:
            return list(campaign.open_scene_ids)
        found = list(campaign.open_scene_ids)
        for story in self._stories_of(campaign.id):
            if story.running_issue_id is None:
                continue  # an ended game Issue closed its scenes
            issue = self.get(actor, Issue, story.running_issue_id)
            found += [i for i in issue.open_scene_ids if i not in found]
        campaign.note_open_scenes(found)
        return found

    def _stories_of(self, campaign_id: UUID) -> list[Story]:
        """The campaign's stories, found in the log (the campaign does not list them): a scan of
        the stories' first events only, made once per campaign from before open scenes were kept."""
        topics = [get_topic(Story.Started)]  # type: ignore[attr-defined]
        stories: list[Story] = []
        start = 1
        while True:
            page = self.recorder.select_notifications(start=start, limit=500, topics=topics)
            for notification in page:
                started = self.mapper.to_domain_event(notification)
                if getattr(started, "campaign_id", None) == campaign_id:
                    story: Aggregate = self.repository.get(started.originator_id)
                    assert isinstance(story, Story)
                    stories.append(story)
            if len(page) < 500:
                return stories
            start = page[-1].id + 1

    @command
    def decide_sheet_change(
        self,
        ctx: CommandContext,
        character_id: UUID,
        change_id: UUID,
        approve: bool,
        body: SheetChangeDecision,
    ) -> Outcome:
        """The GM approves (the sheet changes now) or declines a player's proposed sheet."""
        actor, character = self._addressed(ctx, Character, character_id, gm=True)
        if not approve:
            character.decline_sheet_change(change_id, body.note)
            return self._commit(ctx, character)
        campaign = self.campaign_of(actor)
        proposal = character.pending_sheet_change(change_id)
        # Validated again: the sheet may have changed since (a lower maximum clamps from now on).
        valid = self._validated_sheet(campaign, proposal["sheet"], character.side)
        resources = self._kept_resources(campaign, character, valid)
        character.change_sheet(valid, proposal["reason"], resources, change_id)
        return self._commit(ctx, character)

    def _kept_resources(
        self, campaign: Campaign, character: Character, sheet: dict[str, Any]
    ) -> dict[str, int]:
        """A new sheet never heals or refills: each current level stays, lowered to a smaller new
        maximum; a resource the character never had starts at its starting level."""
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        parsed = rules.parse_sheet(sheet, settings, side=character.side)
        kept = {}
        for name, spec in rules.resources(parsed, settings).items():
            level = character.resources.get(name, int(spec["start"]))
            kept[name] = level if spec["max"] is None else min(level, int(spec["max"]))
        return kept

    def _check_player_side(self, campaign: Campaign, side: str) -> None:
        sides = self._campaign_settings(campaign).player_sides
        if side not in sides:
            raise Forbidden(
                f"players may create characters on the sides {', '.join(sides)}, not {side!r}; "
                "the GM creates the others (setting player_sides)",
                field="side",
            )

    @staticmethod
    def _campaign_settings(campaign: Campaign) -> Any:
        return get_ruleset(campaign.ruleset).parse_settings(campaign.settings)

    @command
    def adjust_resource(
        self, ctx: CommandContext, character_id: UUID, body: ResourceChange
    ) -> Outcome:
        """The GM awards or takes a resource (Resolve awards with a reason, WCBH-18); the status
        follows the new levels where the ruleset says so (Class D's healing, CD-11)."""
        actor, character = self._addressed(ctx, Character, character_id, gm=True)
        get_ruleset(self.campaign_of(actor).ruleset).check_resource_change(
            body.resource, body.change
        )
        character.adjust(body.resource, body.change, body.reason)
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        character.follow_levels(
            rules.status_after(character.status, character.resources, character.effects),
            body.reason,
        )
        self.system_of(campaign).resource_adjusted(character, body.resource, body.reason)
        return self._commit(ctx, character)

    @command
    def change_pool(self, ctx: CommandContext, issue_id: UUID, body: PoolChange) -> Outcome:
        """The GM gains or spends from a pool of the game Issue (Adversity, WCBH-21)."""
        issue = self._gm_target(ctx, Issue, issue_id)
        if issue.ended:
            raise Conflict("the game Issue has ended", code="issue_ended")
        issue.change_pool(body.pool, body.change, body.reason)
        return self._commit(ctx, issue)

    @command
    def join_fight(self, ctx: CommandContext, scene_id: UUID, body: CombatantsJoin) -> Outcome:
        """The GM puts characters into the scene's fight (WCBH-22)."""
        actor, scene = self._addressed(ctx, Scene, scene_id, gm=True)
        for character_id in body.character_ids:
            try:
                self.get(actor, Character, character_id)
            except NotFound:
                raise InvalidInput(
                    f"character {character_id} is not in this campaign", field="character_ids"
                ) from None
        scene.join_fight(body.character_ids)
        return self._commit(ctx, scene)

    @command
    def act_first(self, ctx: CommandContext, scene_id: UUID, body: ActFirst) -> Outcome:
        """WCBH-24 (and WCBH-20d): 1 Resolve, and the character acts first every page from now on."""
        actor, scene = self._addressed(ctx, Scene, scene_id)
        character = self.get(actor, Character, body.character_id)
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
    def start_story(self, ctx: CommandContext, campaign_id: UUID, body: StoryCreate) -> Outcome:
        campaign = self._gm_target(ctx, Campaign, campaign_id)
        return self._commit(ctx, Story.start(campaign.id, body.title))

    @command
    def complete_story(self, ctx: CommandContext, story_id: UUID) -> Outcome:
        story = self._gm_target(ctx, Story, story_id)
        story.complete()
        return self._commit(ctx, story)

    @command
    def start_issue(self, ctx: CommandContext, story_id: UUID, body: IssueCreate) -> Outcome:
        actor, story = self._addressed(ctx, Story, story_id, gm=True)
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        characters = [self.get(actor, Character, c) for c in campaign.character_ids]
        issue = Issue.start(
            story.campaign_id,
            story.id,
            body.title,
            number=len(story.issue_ids) + 1,
            pools=rules.issue_pools(_players(campaign, characters), settings),
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
        self.system_of(campaign).issue_started(IssueBoundary(actor, issue, story, loaded))
        return self._commit(ctx, issue, story, *loaded.touched(issue, story))

    @command
    def end_issue(self, ctx: CommandContext, issue_id: UUID) -> Outcome:
        actor, issue = self._addressed(ctx, Issue, issue_id, gm=True)
        scenes = [self.get(actor, Scene, scene_id) for scene_id in issue.open_scene_ids]
        issue.end()
        campaign = self.campaign_of(actor)
        loaded = Loaded()
        for scene in scenes:
            scene.close(self._reveal(scene))
            campaign.note_scene_closed(scene.id)
            self._end_effects(actor, scene, loaded)
            self.system_of(campaign).scene_closed(SceneBoundary(actor, scene, issue, loaded))
        story = self.get(actor, Story, issue.story_id)
        story.finish_issue(issue.id)
        self.system_of(campaign).issue_ended(IssueBoundary(actor, issue, story, loaded))
        return self._commit(
            ctx, issue, story, *scenes, campaign, *loaded.touched(issue, story, *scenes)
        )

    @command
    def open_scene(self, ctx: CommandContext, issue_id: UUID, body: SceneCreate) -> Outcome:
        actor, issue = self._addressed(ctx, Issue, issue_id, gm=True)
        scene = Scene.open(
            issue.campaign_id, issue.story_id, issue.id, body.title, *self._new_sealed_seed()
        )
        issue.add_scene(scene.id)
        campaign = self.campaign_of(actor)
        campaign.note_scene_opened(scene.id)
        loaded = Loaded()
        self.system_of(campaign).scene_opened(SceneBoundary(actor, scene, issue, loaded))
        return self._commit(ctx, scene, issue, campaign, *loaded.touched(scene, issue))

    @command
    def advance_page(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        actor, scene = self._addressed(ctx, Scene, scene_id, gm=True)
        scene.advance_page()
        loaded = Loaded()
        for character_id in scene.affected:  # WCBH-35: effects lose a page
            loaded.character(self, actor, character_id).tick_effects(scene.id, scene.page)
        self.system_of(self.campaign_of(actor)).page_advanced(PageBoundary(actor, scene, loaded))
        return self._commit(ctx, scene, *loaded.touched(scene))

    @command
    def close_scene(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        actor, scene = self._addressed(ctx, Scene, scene_id, gm=True)
        scene.close(self._reveal(scene))
        issue = self.get(actor, Issue, scene.issue_id)
        issue.scene_closed(scene.id)
        campaign = self.campaign_of(actor)
        campaign.note_scene_closed(scene.id)
        loaded = Loaded()
        self._end_effects(actor, scene, loaded)
        self.system_of(campaign).scene_closed(SceneBoundary(actor, scene, issue, loaded))
        return self._commit(ctx, scene, issue, campaign, *loaded.touched(scene, issue))

    def _end_effects(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """WCBH-36: closing a scene ends the effects on the characters it affected."""
        for character_id in scene.affected:
            character = loaded.character(self, actor, character_id)
            if character.effects:
                character.end_scene_effects(scene.id)


def _players(campaign: Campaign, characters: list[Character]) -> int:
    """The players at the table: the player members who own a hero-side character (WCBH-21's
    "number of players"; a hero the GM plays, or a second hero of one player, adds none)."""
    players = {m.id for m in campaign.members.values() if m.role == "player"}
    return len({c.owner_member_id for c in characters if c.side == "hero"} & players)


class _NoSystem(GameSystem):
    """A campaign whose ruleset has no commands of its own: nothing happens at its boundaries."""

    ruleset_id = ""
