"""Rolls: commit–reveal seeds per scene, fair rolls of the rulesets' checks, follow-ups, and the audit."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel

from domain.aggregates import Campaign, Character, Roll, RollChain, Scene, Story
from domain.audit import Link, Problem, Report, check_chain, recompute
from domain.commands import Actor, CommandContext, Outcome, command
from domain.dice import FairSource, Roller, commitment, new_seed
from domain.dice.roller import Face
from domain.dice.source import MAX_CLIENT_SEED_BYTES
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.base import Check, CheckOutcome, Once, parse_request
from domain.service import Service

MAX_CLIENT_SEED = 128


class RollCommands(Service):
    """Mixed into the Chronicle application: everything about dice."""

    # ---- seeds -------------------------------------------------------------------------------

    def _new_sealed_seed(self) -> tuple[str, str]:
        seed = new_seed()
        return commitment(seed), self.sealer.seal(seed.hex())

    def _reveal(self, scene: Scene) -> str:
        sealed = scene.epoch.sealed_seed
        if sealed is None:  # only a closed scene has no sealed seed left
            raise Conflict("the scene is closed", code="scene_closed")
        return self.sealer.unseal(sealed)

    @command
    def rotate_seed(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        """Reveal the scene's seed now and commit to a new one (the GM's choice, mid-scene)."""
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        scene.rotate_seed(self._reveal(scene), *self._new_sealed_seed())
        return self._commit(ctx, scene)

    # ---- rolls -------------------------------------------------------------------------------

    @command
    def roll(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        check_name: str,
        request: Mapping[str, Any],
        character_id: UUID | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign = self.campaign_of(actor)
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        character, _ = self._roller_character(actor, rules, settings, character_id)
        if isinstance(request, Mapping) and request.get("target_id") is not None:
            # A raw roll has no effects on anyone; the verbs that roll at a target (an attack,
            # a grapple...) fill it and apply what the roll does, and follow-ups trust them.
            raise InvalidInput(
                "a raw roll names no target: roll at a character with its verb, e.g. "
                "POST /v1/scenes/{scene_id}/attacks",
                field="request.target_id",
            )
        _, touched = self._roll_check(
            actor, scene, campaign, check_name, request, character, client_seed
        )
        return self._commit(ctx, *touched)

    def _roll_check(
        self,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        check_name: str,
        request: Mapping[str, Any],
        character: Character | None,
        client_seed: str | None,
        chain: RollChain | None = None,
        *,
        action: bool = True,
    ) -> tuple[CheckOutcome, list[Any]]:
        """Roll a check in a scene: the roll record, its chain link, the scene's nonce, and what the
        roll spends; returns the outcome and the aggregates to save (the roll first). A command
        that rolls several times passes the chain its earlier rolls linked to (touched[1]).
        `action` False: a check that is no action of the page (a chase, recovery, shaking off), which
        the extra actions of the page do not penalise (WCBH-25)."""
        rules = get_ruleset(campaign.ruleset)
        check = rules.checks.get(check_name)
        if check is None:
            raise InvalidInput(
                f"{rules.name} has no check {check_name!r}; it has: {', '.join(rules.checks)}",
                field="check",
            )
        settings = rules.parse_settings(campaign.settings)
        sheet = None
        if character is not None:
            sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
        request = self._with_page_dice(scene, campaign, check, request, character, action=action)
        parsed = parse_request(check.Request, request, "request")
        costs = check.cost(parsed)
        roll_id = uuid4()
        client_seed = _client_seed(client_seed)
        if character is not None and character.unconscious:
            raise Conflict(
                f"{character.name} is unconscious until the end of the scene of its last gasp",
                field="character_id",
                code="unconscious",
                rule="WCBH-19",
            )
        nonce, epoch = scene.take_nonce(roll_id)  # 409 in a closed scene
        roller = Roller(FairSource(bytes.fromhex(self._reveal(scene)), client_seed, nonce))
        outcome = check.roll(parsed, sheet, settings, roller)
        odds = check.odds(parsed, sheet, settings, outcome)
        above = check.odds(parsed, sheet, settings, _next(outcome)).at_least
        touched: list[Any] = [scene]
        if character is not None:
            touched.extend(
                self._use_limits(actor, check.once(parsed, character.side), scene, character)
            )
            touched.extend(self._rolled(actor, scene, parsed, character, roll_id))
        if costs and any(costs.values()):
            if character is None:
                raise InvalidInput(
                    "a roll that spends resources needs a character", field="character_id"
                )
            character.spend(costs, reason=f"roll {roll_id}")
            touched.append(character)
        record = {
            "campaign_id": str(campaign.id),
            "scene_id": str(scene.id),
            "roll_id": str(roll_id),
            "nonce": nonce,
            "commitment": epoch.commitment,
            "client_seed": client_seed,
            "character_id": str(character.id) if character else None,
            "side": character.side if character else None,
            "rolled_by": str(actor.member_id),
            "ruleset": campaign.ruleset,
            "settings": campaign.settings,
            "sheet": character.sheet if character else None,
            "check": check_name,
            "follow_up": None,
            "request": parsed.model_dump(mode="json"),
            "faces": [f.to_json() for f in roller.faces],
            "result": outcome.result,
            "follow_up_of": None,
            "costs": {k: v for k, v in costs.items() if v},
        }
        return outcome, self._linked_roll(
            campaign.id, record, outcome, odds.success, odds.at_least, above, touched, chain
        )

    def _with_page_dice(
        self,
        scene: Scene,
        campaign: Campaign,
        check: Check,
        request: Mapping[str, Any],
        character: Character | None,
        *,
        action: bool = True,
    ) -> Mapping[str, Any]:
        """Hook: the request with the dice the page adds to the character's roll (WCBH-25, 41),
        put into the request so that the record recomputes; domain/verbs/fight.py fills them."""
        return request

    # `attack` (WCBH-25, 28..31, 33, 44) lives in domain/verbs/fight.py with the fight's other verbs.

    @command
    def follow_up(
        self,
        ctx: CommandContext,
        roll_id: UUID,
        name: str,
        request: Mapping[str, Any],
        client_seed: str | None = None,
    ) -> Outcome:
        """A second roll linked to a first (Resolve dice, rerolls…); its cost is spent in the same save."""
        actor = self._member(ctx)
        original = self.get(actor, Roll, roll_id)
        campaign = self.campaign_of(actor)
        follow = get_ruleset(campaign.ruleset).follow_ups.get(name)
        if follow is not None and not follow.direct:
            raise InvalidInput(
                f"{name} is given through its own verb: {follow.via}", field="follow_up"
            )
        scene = self._target(ctx, actor, Scene, original.scene_id)
        _, touched = self._follow_up_roll(
            actor, scene, campaign, original, name, request, client_seed
        )
        touched.extend(self._followed_up(actor, scene, original, touched[0]))
        return self._commit(ctx, *touched)

    def _followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """Hook: what a direct follow-up changes besides its roll and its cost (an area of play
        overrides it, calls super() and returns the aggregates it changed; e.g. Resolve on an
        attack decides its hit again, WCBH-20b, 20c in domain/verbs/fight.py)."""
        return []

    def _follow_up_roll(
        self,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        original: Roll,
        name: str,
        request: Mapping[str, Any],
        client_seed: str | None = None,
        *,
        for_ally: bool = False,
    ) -> tuple[CheckOutcome, list[Any]]:
        """The follow-up roll ``name`` of ``original``: its outcome and what to save (the new
        roll first, its chain, the scene and the character that paid). ``for_ally``: the caller
        checked that the actor may give it (e.g. Help, NB-19), though not the roller's owner."""
        if original.record.get("follow_up") is not None:
            raise Conflict(
                "follow-ups apply to the original roll, not to a follow-up",
                code="follow_up_of_follow_up",
            )
        rules = get_ruleset(campaign.ruleset)
        follow = rules.follow_ups.get(name)
        if follow is None:
            raise InvalidInput(
                f"{rules.name} has no follow-up {name!r}; it has: {', '.join(rules.follow_ups) or 'none'}",
                field="follow_up",
            )
        settings = rules.parse_settings(campaign.settings)
        character_id = original.record.get("character_id")
        character: Character | None
        sheet: BaseModel | None
        if for_ally and character_id:
            character = self.get(actor, Character, UUID(character_id))
            # the sheet the original was rolled with: its faces are read against it
            record_sheet = original.record.get("sheet") or character.sheet
            sheet = rules.parse_sheet(record_sheet, settings, side=character.side)
        else:
            character, sheet = self._roller_character(
                actor, rules, settings, UUID(character_id) if character_id else None
            )
            record_sheet = character.sheet if character else None
        check = rules.checks[original.record["check"]]
        original_request = check.parse(original.record["request"])
        reason = follow.allowed(original_request, _latest_outcome(original, name))
        if reason is not None:
            raise Conflict(reason, code="follow_up_refused", rule=",".join(follow.rules) or None)
        parsed = parse_request(follow.Request, request, "request")
        costs = {k: v for k, v in follow.cost(parsed).items() if v}
        touched: list[Any] = [scene]
        if costs:
            if character is None:
                raise Conflict(
                    "a raw roll has no character to pay for a follow-up", code="no_character"
                )
            character.spend(costs, reason=f"{name} on roll {original.id}")
            touched.append(character)
        new_id = uuid4()
        client_seed = _client_seed(client_seed)
        nonce, epoch = scene.take_nonce(new_id)
        roller = Roller(FairSource(bytes.fromhex(self._reveal(scene)), client_seed, nonce))
        faces = [Face(**f) for f in original.record["faces"]]
        outcome = follow.apply(original_request, faces, parsed, sheet, settings, roller)
        success = at_least = above = None
        if follow.odds is not None:
            odds = follow.odds(original_request, faces, parsed, sheet, settings, outcome)
            success, at_least = odds.success, odds.at_least
        record = {
            **{k: original.record[k] for k in ("campaign_id", "scene_id", "ruleset", "check")},
            "roll_id": str(new_id),
            "nonce": nonce,
            "commitment": epoch.commitment,
            "client_seed": client_seed,
            "character_id": original.record.get("character_id"),
            "side": original.record.get("side"),
            "rolled_by": str(actor.member_id),
            "settings": campaign.settings,
            "sheet": record_sheet,
            "follow_up": name,
            "request": parsed.model_dump(mode="json"),
            "faces": [f.to_json() for f in roller.faces],
            "result": outcome.result,
            "follow_up_of": str(original.id),
            "costs": costs,
        }
        original.note_follow_up(new_id, name, outcome.result, outcome.score, outcome.success)
        touched.append(original)
        return outcome, self._linked_roll(
            campaign.id, record, outcome, success, at_least, above, touched
        )

    def _linked_roll(
        self,
        campaign_id: UUID,
        record: dict[str, Any],
        outcome: CheckOutcome,
        success: float | None,
        at_least: float | None,
        above: float | None,
        touched: list[Any],
        chain: RollChain | None = None,
    ) -> list[Any]:
        if chain is None:
            chain = self._chain(campaign_id)
        record = chain.link(record)
        roll = Roll.record_roll(
            record,
            score=outcome.score,
            success=outcome.success,
            odds={"success": success, "at_least": at_least, "above": above},
        )
        return [roll, chain, *touched]

    def _use_limits(
        self, actor: Actor, limits: list[Once], scene: Scene, character: Character
    ) -> list[Any]:
        """Record the limited uses a roll makes (e.g. WCBH-15), refusing the roll if one is spent."""
        touched: list[Any] = []
        if any(
            limit.continues and character.id in scene.uses.get(limit.key, [])
            for limit in limits
            if limit.scope == "scene"
        ):
            return touched  # WCBH-14: the character's Decisive Moment of this scene goes on
        for limit in limits:
            if limit.scope == "scene":
                scene.use_once(limit.key, character.id, limit.rule, exclusive=limit.exclusive)
            else:
                touched.append(self._use_story_limit(actor, limit, scene, character))
        return touched

    def _use_story_limit(
        self, actor: Actor, limit: Once, scene: Scene, character: Character
    ) -> Story:
        """The story is read after the scene: a racing roll that committed both in between shows
        in the story only, and its refusal would judge a mixed state (e.g. the follow-on of the
        character's Decisive Moment in this scene taken for a second one, WCBH-14, 15). If the
        scene moved on since it was read, this save would clash anyway: clash now, and the
        command retries on fresh state (domain/commands.py)."""
        story = self.get(actor, Story, scene.story_id)
        try:
            story.use_once(limit.key, character.id, limit.rule)
        except Conflict:
            read_at = scene.version - len(scene.pending_events)
            if self.repository.get(scene.id).version != read_at:
                raise IntegrityError(f"scene {scene.id} changed while the roll was made") from None
            raise
        return story

    def _rolled(
        self, actor: Actor, scene: Scene, request: BaseModel, character: Character, roll_id: UUID
    ) -> list[Any]:
        """Hook: what a character's roll changes besides its limits and costs (an area of play
        overrides it, calls super() and returns the aggregates it changed; e.g. WCBH-16)."""
        return []

    def _chain(self, campaign_id: UUID) -> RollChain:
        try:
            chain: RollChain = self.repository.get(RollChain.create_id(campaign_id))
        except AggregateNotFoundError:
            return RollChain(campaign_id=campaign_id)
        assert isinstance(chain, RollChain)
        return chain

    def _roller_character(
        self,
        actor: Actor,
        rules: Ruleset,
        settings: BaseModel,
        character_id: UUID | None,
    ) -> tuple[Character | None, BaseModel | None]:
        if character_id is None:
            if not actor.is_gm:
                raise Forbidden(
                    "only the GM rolls without a character (a raw pool)", field="character_id"
                )
            return None, None
        try:
            character = self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                "character_id names no character of this campaign", field="character_id"
            ) from None
        self._check_may_act_for(actor, character)
        return character, rules.parse_sheet(character.sheet, settings, side=character.side)

    # ---- audit -------------------------------------------------------------------------------

    def revealed_seed(self, scene: Scene, commitment_hex: str) -> str | None:
        for epoch in scene.epochs:
            if epoch.commitment == commitment_hex:
                return epoch.revealed_seed
        return None

    def chain_links(self, campaign_id: UUID) -> tuple[list[Link], list[int]]:
        """The chain's own account of its rolls, read event by event (never from a snapshot)."""
        links: list[Link] = []
        versions: list[int] = []
        for event in self.events.get(RollChain.create_id(campaign_id)):
            versions.append(event.originator_version)
            if type(event).__name__ == "Linked":
                links.append(Link(event.sequence, str(event.roll_id), event.hash))  # type: ignore[attr-defined]
        return links, versions

    def campaign_rolls(self, campaign_id: UUID) -> tuple[list[Link], list[Roll | None]]:
        """Every roll record the chain links, read from the store itself (not the aggregate cache)."""
        links, _ = self.chain_links(campaign_id)
        rolls: list[Roll | None] = []
        for link in links:
            roll: Any = None
            for event in self.events.get(UUID(link.roll_id)):
                roll = event.mutate(roll)  # type: ignore[attr-defined]
            rolls.append(roll if isinstance(roll, Roll) else None)
        return links, rolls

    def verify_roll(self, actor: Actor, roll_id: UUID) -> dict[str, Any]:
        self.get(actor, Roll, roll_id)  # 404 unless it is a roll of the actor's campaign
        links, versions = self.chain_links(actor.campaign_id)
        report = Report(rolls=len(links))
        if versions != list(range(1, len(versions) + 1)):
            report.problems.append(
                Problem(
                    "missing", "entries of the campaign's roll chain are missing or out of order"
                )
            )
        _, rolls = self.campaign_rolls(actor.campaign_id)
        report.problems.extend(check_chain([r.record if r else None for r in rolls], links))
        roll = next((r for r in rolls if r is not None and r.id == roll_id), None)
        recomputed: dict[str, Any] = {"revealed": False, "match": None, "problems": []}
        if roll is None:
            return {"roll_id": str(roll_id), "chain": report.to_json(), "recomputed": recomputed}
        scene: Scene = self.repository.get(roll.scene_id)
        seed = self.revealed_seed(scene, roll.record.get("commitment", ""))
        recomputed["revealed"] = seed is not None
        if seed is not None:
            original: dict[str, Any] | None = None
            if roll.record.get("follow_up_of"):
                original = self.repository.get(UUID(roll.record["follow_up_of"])).record
            problems = recompute(roll.record, seed, original)
            recomputed.update(match=not problems, problems=[p.__dict__ for p in problems])
        return {"roll_id": str(roll.id), "chain": report.to_json(), "recomputed": recomputed}


def _client_seed(value: str | None) -> str:
    if value is None:
        return secrets.token_hex(16)
    if (
        not 1 <= len(value) <= MAX_CLIENT_SEED
        or len(value.encode("utf-8")) > MAX_CLIENT_SEED_BYTES
        or not value.isprintable()
    ):
        raise InvalidInput(
            f"client_seed must be 1 to {MAX_CLIENT_SEED} printable characters "
            f"(at most {MAX_CLIENT_SEED_BYTES} bytes of UTF-8)",
            field="client_seed",
        )
    return value


def _latest_outcome(original: Roll, name: str) -> CheckOutcome:
    """The outcome a follow-up ``name`` is judged on: the last one of that name made on the roll
    (a Will reroll of a reroll, CD-6), else the roll's own. Rolls from before follow-ups were
    noted on them have none noted."""
    made = [f for f in getattr(original, "follow_ups", []) if f["name"] == name]
    if made:
        return CheckOutcome(made[-1]["result"], made[-1]["score"], made[-1]["success"])
    return CheckOutcome(original.record["result"], original.score, original.success)


def _next(outcome: CheckOutcome) -> CheckOutcome:
    """The same outcome one step better: its at_least is P(score > this score), for the luck report."""
    return CheckOutcome(outcome.result, outcome.score + 1, outcome.success)
