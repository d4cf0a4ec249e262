"""Missions and their counters: alarm, rival progress, custom counters, rests (CD-21..25)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from domain.aggregates import Campaign, Character, Mission, Scene, Story
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks
from domain.errors import Conflict, InvalidInput, NotFound
from domain.rulesets import get_ruleset
from systems.classd.rules.rest import MAX_PARTICIPANTS, REST

REST_RULE = "CD-22"


class MissionCommands(Hooks):
    """Mixed into the Chronicle application."""

    @command
    def create_mission(
        self,
        ctx: CommandContext,
        campaign_id: UUID,
        title: str,
        scene_id: UUID | None = None,
        story_id: UUID | None = None,
    ) -> Outcome:
        actor = self._gm(ctx)
        campaign = self._target(ctx, actor, Campaign, campaign_id)
        for link_id, cls, label in ((scene_id, Scene, "scene_id"), (story_id, Story, "story_id")):
            if link_id is not None:
                try:
                    self.get(actor, cls, link_id)
                except NotFound:
                    raise InvalidInput(
                        f"{label} names no {cls.__name__.lower()} of this campaign", field=label
                    ) from None
        return self._commit(ctx, Mission.create(campaign.id, title, scene_id, story_id))

    @command
    def end_mission(self, ctx: CommandContext, mission_id: UUID, outcome: str) -> Outcome:
        """CD-21: one attempt, ended once (aborting to resupply is an end too)."""
        actor = self._gm(ctx)
        mission = self._target(ctx, actor, Mission, mission_id)
        mission.end(outcome)
        return self._commit(ctx, mission)

    @command
    def define_mission_counter(
        self,
        ctx: CommandContext,
        mission_id: UUID,
        name: str,
        maximum: int,
        zones: Sequence[Mapping[str, Any]],
        label: str | None = None,
    ) -> Outcome:
        """CD-25: the GM defines a counter of its own (e.g. the catastrophe counter)."""
        actor = self._gm(ctx)
        mission = self._target(ctx, actor, Mission, mission_id)
        mission.define_counter(name, label, maximum, zones)
        return self._commit(ctx, mission)

    @command
    def change_mission_counter(
        self,
        ctx: CommandContext,
        mission_id: UUID,
        counter: str,
        change: int,
        reason: str,
        code: str | None = None,
    ) -> Outcome:
        """CD-23..25: raise or lower a counter (clamped), with a zone change and, for rival progress
        at 10, the mission lost to rivals in the same save."""
        actor = self._gm(ctx)
        mission = self._target(ctx, actor, Mission, mission_id)
        mission.change_counter(counter, change, reason, code)
        return self._commit(ctx, mission)

    @command
    def rest_on_mission(
        self,
        ctx: CommandContext,
        mission_id: UUID,
        character_ids: Sequence[UUID],
        scene_id: UUID | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """CD-22: each participant gets 1d6 Health and 1d6 Will back (one fair roll in a scene),
        never above its maxima; the mission's rest counter counts up. Without participants the
        rest is only counted (no dice, no scene needed)."""
        actor = self._gm(ctx)
        mission = self._target(ctx, actor, Mission, mission_id)
        mission.check_active()
        characters = self._rest_participants(actor, character_ids)
        if not characters:
            mission.rest(None, None, [])
            return self._commit(ctx, mission)
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        if rules.checks.get(REST.name) is not REST:
            raise InvalidInput(
                f"{rules.name} has no rest that restores Health and Will; rest without "
                "participants to count the rest only",
                field="character_ids",
                rule=REST_RULE,
            )
        scene = self._rest_scene(actor, mission, scene_id)
        settings = rules.parse_settings(campaign.settings)
        request: dict[str, Any] = {
            "participants": [],
            "purpose": f"rest {mission.rest_count + 1} of mission “{mission.title}” (CD-22)",
        }
        for character in characters:
            sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
            maxima = rules.resources(sheet, settings)
            request["participants"].append(
                {
                    "name": character.name,
                    "health": character.resources.get("health", 0),
                    "health_max": maxima["health"]["max"],
                    "will": character.resources.get("will", 0),
                    "will_max": maxima["will"]["max"],
                }
            )
        outcome, touched = self._roll_check(
            actor, scene, campaign, REST.name, request, None, client_seed
        )
        roll = touched[0]
        participants = []
        for character, rested in zip(characters, outcome.result["participants"], strict=True):
            reason = f"rest {mission.rest_count + 1} of mission “{mission.title}” (CD-22)"
            for resource in ("health", "will"):
                if rested[resource]["gain"]:
                    character.adjust(resource, rested[resource]["gain"], reason)
            participants.append({"character_id": str(character.id), **rested})
        mission.rest(scene.id, roll.id, participants)
        changed = [c for c in characters if c.pending_events]
        return self._commit(ctx, mission, *touched, *changed)

    def _rest_participants(self, actor: Actor, character_ids: Sequence[UUID]) -> list[Character]:
        if len(character_ids) > MAX_PARTICIPANTS:
            raise InvalidInput(
                f"at most {MAX_PARTICIPANTS} characters rest at once",
                field="character_ids",
                rule=REST_RULE,
            )
        if len(set(character_ids)) != len(character_ids):
            raise InvalidInput(
                "a character rests once per rest: character_ids has repeats",
                field="character_ids",
                rule=REST_RULE,
            )
        characters = []
        for character_id in character_ids:
            try:
                characters.append(self.get(actor, Character, character_id))
            except NotFound:
                raise InvalidInput(
                    f"character {character_id} is not in this campaign",
                    field="character_ids",
                    rule=REST_RULE,
                ) from None
        return characters

    def _rest_scene(self, actor: Actor, mission: Mission, scene_id: UUID | None) -> Scene:
        """The scene whose fair dice the rest rolls: the one named, else the mission's own."""
        chosen = scene_id or mission.scene_id
        if chosen is None:
            raise InvalidInput(
                "a rest rolls fair dice in an open scene: give scene_id, or link the mission "
                "to a scene",
                field="scene_id",
                rule=REST_RULE,
            )
        try:
            scene = self.get(actor, Scene, chosen)
        except NotFound:
            raise InvalidInput(
                f"scene {chosen} is not in this campaign", field="scene_id", rule=REST_RULE
            ) from None
        if scene.closed:
            raise Conflict(
                "the rest's scene is closed: its dice are spent; name an open scene_id",
                field="scene_id",
                code="scene_closed",
                rule=REST_RULE,
            )
        return scene
