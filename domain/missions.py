"""Missions and their counters: alarm, rival progress, custom counters, rests (CD-21..25)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.aggregates import Campaign, Character, Mission, Scene, Story
from domain.commands import Actor, CommandContext, Component, Outcome, command
from domain.errors import Conflict, InvalidInput, NotFound
from domain.requests import CounterChange, CounterDefine, MissionCreate, MissionEnd, RestCreate
from domain.rolls import CheckRoll
from domain.rulesets import get_ruleset

# At most this many characters rest at once (the rest check's request takes as many).
MAX_RESTING = 20

REST_RULE = "CD-22"


class Missions(Component):
    """The missions' commands: a component the application holds as `app.missions`, shared by
    every ruleset (a mission is no game system's; only its rest rolls Class D's dice, CD-22)."""

    @command
    def create_mission(
        self, ctx: CommandContext, campaign_id: UUID, body: MissionCreate
    ) -> Outcome:
        app = self.app
        actor, campaign = app._addressed(ctx, Campaign, campaign_id, gm=True)
        links = ((body.scene_id, Scene, "scene_id"), (body.story_id, Story, "story_id"))
        for link_id, cls, label in links:
            if link_id is not None:
                app.named(actor, cls, link_id, label)
        mission = Mission.create(campaign.id, body.title, body.scene_id, body.story_id)
        return app._commit(ctx, mission)

    @command
    def end_mission(self, ctx: CommandContext, mission_id: UUID, body: MissionEnd) -> Outcome:
        """CD-21: one attempt, ended once (aborting to resupply is an end too)."""
        mission = self._mission(ctx, mission_id)
        mission.end(body.outcome)
        return self.app._commit(ctx, mission)

    @command
    def define_mission_counter(
        self, ctx: CommandContext, mission_id: UUID, body: CounterDefine
    ) -> Outcome:
        """CD-25: the GM defines a counter of its own (e.g. the catastrophe counter)."""
        mission = self._mission(ctx, mission_id)
        zones = [zone.model_dump() for zone in body.zones]
        mission.define_counter(body.name, body.label, body.maximum, zones)
        return self.app._commit(ctx, mission)

    @command
    def change_mission_counter(
        self, ctx: CommandContext, mission_id: UUID, counter: str, body: CounterChange
    ) -> Outcome:
        """CD-23..25: raise or lower a counter (clamped), with a zone change and, for rival progress
        at 10, the mission lost to rivals in the same save."""
        mission = self._mission(ctx, mission_id)
        mission.change_counter(counter, body.change, body.reason, body.code)
        return self.app._commit(ctx, mission)

    def _mission(self, ctx: CommandContext, mission_id: UUID) -> Mission:
        """The mission a GM's command is addressed to (If-Match checked against it)."""
        return self.app._gm_target(ctx, Mission, mission_id)

    @command
    def rest_on_mission(self, ctx: CommandContext, mission_id: UUID, body: RestCreate) -> Outcome:
        """CD-22: each participant gets 1d6 Health and 1d6 Will back (one fair roll in a scene),
        never above its maxima; the mission's rest counter counts up. Without participants the
        rest is only counted (no dice, no scene needed)."""
        app = self.app
        actor, mission = app._addressed(ctx, Mission, mission_id, gm=True)
        mission.check_active()
        characters = self._rest_participants(actor, body.character_ids)
        if not characters:
            mission.rest(None, None, [])
            return app._commit(ctx, mission)
        campaign = app.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        rest_check = rules.mission_rest
        if rest_check is None:
            raise InvalidInput(
                f"{rules.name} has no rest that restores Health and Will; rest without "
                "participants to count the rest only",
                field="character_ids",
                rule=REST_RULE,
            )
        scene = self._rest_scene(actor, campaign, mission, body.scene_id)
        rules.check_rest(scene.states)
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
        outcome, touched = app.roll_check(
            CheckRoll(
                actor=actor,
                scene=scene,
                campaign=campaign,
                check=rest_check,
                request=request,
                character=None,
                client_seed=body.client_seed,
            )
        )
        roll = touched[0]
        participants = []
        for character, rested in zip(characters, outcome.result["participants"], strict=True):
            reason = f"rest {mission.rest_count + 1} of mission “{mission.title}” (CD-22)"
            for resource in ("health", "will"):
                if rested[resource]["gain"]:
                    character.adjust(resource, rested[resource]["gain"], reason)
            character.follow_levels(
                rules.status_after(character.status, character.resources), reason
            )
            participants.append({"character_id": str(character.id), **rested})
        mission.rest(scene.id, roll.id, participants)
        changed = [c for c in characters if c.pending_events]
        return app._commit(ctx, mission, *touched, *changed)

    def _rest_participants(self, actor: Actor, character_ids: Sequence[UUID]) -> list[Character]:
        if len(character_ids) > MAX_RESTING:
            raise InvalidInput(
                f"at most {MAX_RESTING} characters rest at once",
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
                characters.append(self.app.get(actor, Character, character_id))
            except NotFound:
                raise InvalidInput(
                    f"character {character_id} is not in this campaign",
                    field="character_ids",
                    rule=REST_RULE,
                ) from None
        return characters

    def _rest_scene(
        self, actor: Actor, campaign: Campaign, mission: Mission, scene_id: UUID | None
    ) -> Scene:
        """The scene whose fair dice the rest rolls: the one named; else the mission's own while
        it is open; else the one scene open in the mission's story (or, without a story, in the
        campaign): play has moved on from a closed scene, and so does the mission."""
        if scene_id is not None:
            return self._open_rest_scene(actor, scene_id)
        if mission.scene_id is not None:
            linked = self.app.get(actor, Scene, mission.scene_id)
            if not linked.closed:
                return linked
        open_scenes = [self.app.get(actor, Scene, s) for s in campaign.open_scene_ids]
        if mission.story_id is not None:
            open_scenes = [s for s in open_scenes if s.story_id == mission.story_id]
        where = "the mission's story" if mission.story_id is not None else "the campaign"
        if not open_scenes:
            raise Conflict(
                f"a rest rolls fair dice in an open scene, and no scene of {where} is open: "
                "open one, or give scene_id",
                field="scene_id",
                code="no_open_scene",
                rule=REST_RULE,
            )
        if len(open_scenes) > 1:
            raise InvalidInput(
                f"{len(open_scenes)} scenes of {where} are open: give scene_id, the one the "
                "rest rolls in",
                field="scene_id",
                rule=REST_RULE,
                details={"open_scene_ids": [str(s.id) for s in open_scenes]},
            )
        return open_scenes[0]

    def _open_rest_scene(self, actor: Actor, scene_id: UUID) -> Scene:
        try:
            scene = self.app.get(actor, Scene, scene_id)
        except NotFound:
            raise InvalidInput(
                f"scene {scene_id} is not in this campaign", field="scene_id", rule=REST_RULE
            ) from None
        if scene.closed:
            raise Conflict(
                "the rest's scene is closed: its dice are spent; name an open scene_id",
                field="scene_id",
                code="scene_closed",
                rule=REST_RULE,
            )
        return scene
