"""Rolls: commit–reveal seeds per scene, fair rolls of the rulesets' checks, follow-ups, and the audit."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel

from domain.aggregates import (
    Campaign,
    Character,
    Roll,
    RollChain,
    RollRequest,
    Scene,
    SceneRollRequests,
    Story,
)
from domain.audit import RECORD_FORMAT, Link, verify_export
from domain.commands import (
    Actor,
    Approval,
    ApprovalNeeded,
    CommandContext,
    Outcome,
    command,
    revive_arguments,
)
from domain.dice import FairSource, Roller, commitment, new_client_seed, new_seed
from domain.dice.roller import Face
from domain.dice.source import MAX_CLIENT_SEED_BYTES
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.export import campaign_entries
from domain.requests import FollowUpCreate, RollCreate, RollRequestApproval, RollRequestDecline
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.base import (
    PLAYER_MODIFIERS,
    Check,
    CheckOutcome,
    EarlierFollowUp,
    FollowUpRoll,
    Once,
    faces_after,
    gm_set,
    modifier_entry,
    parse_request,
    player_modifiers_verdict,
    refuse_player_numbers,
)
from domain.service import Service
from domain.signing import Signing
from domain.visibility import Visibility, VisibilityCommands

if TYPE_CHECKING:
    from domain.components import GameSystem
    from domain.missions import Missions

MAX_CLIENT_SEED = 128


@dataclass(frozen=True)
class CheckRoll:
    """One roll of a check, as a command asks for it: who asks, in which scene of which campaign,
    the check and its request, who rolls (None: the GM's raw pool) with the client seed, the chain
    to link into (the command's own, when it rolls more than once), whether it is the character's
    action (page dice, WCBH-25), the modifiers it declares and, if parsed already, the sheet."""

    actor: Actor
    scene: Scene
    campaign: Campaign
    check: str
    request: Mapping[str, Any]
    character: Character | None = None
    client_seed: str | None = None
    chain: RollChain | None = None
    action: bool = True
    declared: Declared | None = None
    sheet: BaseModel | None = None
    # Modifier entries of numbers decided before this roll, saying who gave them (a group
    # check's difficulty, WCBH-11): the record lists them with the roller's own.
    earlier_modifiers: tuple[dict[str, Any], ...] = ()


class RollCommands(Service):
    """The base of the Chronicle application: everything about dice."""

    # One component per installed game system, by ruleset id, and the missions' (built by the
    # application).
    systems: dict[str, GameSystem]
    missions: Missions
    visibility: VisibilityCommands

    def system_of(self, campaign: Campaign) -> GameSystem:
        """The campaign's own game system (the application holds one per installed system)."""
        raise NotImplementedError

    # ---- signatures (docs/receipts.md) ---------------------------------------------------------

    @functools.cached_property
    def signing(self) -> Signing:
        """The keyring and what the service signs: receipts, heads, export trailers."""
        # The application's clock, read when it signs: tests move it on.
        return Signing(self.repository, self.save, self.sealer, lambda: self.clock())

    def signed_head(self, actor: Actor, campaign_id: UUID) -> dict[str, Any]:
        """The campaign's chain head, signed (members only)."""
        campaign = self.get(actor, Campaign, campaign_id)
        position = self.recorder.max_notification_id() or 0  # read before the chain: see head()
        return self.signing.head(campaign.id, position)

    # ---- seeds -------------------------------------------------------------------------------

    def _new_sealed_seed(self) -> tuple[str, str]:
        seed = new_seed()
        return commitment(seed), self.sealer.seal(seed.hex())

    def _client_seed(self, given: str | None) -> str:
        """The roller's client seed, checked, or one the server makes (tests make theirs
        reproducible, as they do scene seeds)."""
        return new_client_seed() if given is None else _checked_client_seed(given)

    def _reveal(self, scene: Scene) -> str:
        sealed = scene.epoch.sealed_seed
        if sealed is None:  # only a closed scene has no sealed seed left
            raise Conflict("the scene is closed", code="scene_closed")
        return self.sealer.unseal(sealed)

    @command
    def rotate_seed(self, ctx: CommandContext, scene_id: UUID) -> Outcome:
        """Reveal the scene's seed now and commit to a new one (the GM's choice, mid-scene)."""
        scene = self._gm_target(ctx, Scene, scene_id)
        scene.rotate_seed(self._reveal(scene), *self._new_sealed_seed())
        return self._commit(ctx, scene)

    # ---- rolls -------------------------------------------------------------------------------

    @command
    def roll(self, ctx: CommandContext, scene_id: UUID, body: RollCreate) -> Outcome:
        """A check of the ruleset. A player names what is rolled (the sheet gives the numbers)
        and may declare situational modifiers (they follow the campaign's player_modifiers); the
        GM may give any number, and the record lists those it set."""
        actor = self._member(ctx)
        if body.secret and not actor.is_gm:
            raise Forbidden("only the GM rolls in secret", field="secret")
        scene = self._target(ctx, actor, Scene, scene_id)
        # A roll records nothing on its campaign, unless it is secret (the campaign withholds it).
        campaign = self.campaign_of(actor, to_change=body.secret)
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        character, sheet = self._roller_character(actor, rules, settings, body.character_id)
        check_name, request, client_seed = body.check, body.request, body.client_seed
        if request.get("target_id") is not None:
            # A raw roll has no effects on anyone; the verbs that roll at a target (an attack,
            # a grapple...) fill it and apply what the roll does, and follow-ups trust them.
            raise InvalidInput(
                "a raw roll names no target: roll at a character with its verb, e.g. "
                "POST /v1/scenes/{scene_id}/attacks",
                field="request.target_id",
            )
        check = _check(rules, check_name)
        if not actor.is_gm:
            refuse_player_numbers(check, request)
        declared = Declared(
            values=check.declared_modifiers(check.parse(request)),
            fields=check.modifier_fields,
            path="request",
            set_by_gm=tuple(gm_set(check, request)) if actor.is_gm else (),
        )
        _, touched = self.roll_check(
            CheckRoll(
                actor=actor,
                scene=scene,
                campaign=campaign,
                check=check_name,
                request=request,
                character=character,
                client_seed=client_seed,
                declared=declared,
                sheet=sheet,  # parsed already
            )
        )
        if body.secret:  # the campaign withholds it from players and observers
            campaign.withhold_roll(touched[0].id)
            touched.append(campaign)
        return self._commit(ctx, *touched)

    def roll_check(self, ask: CheckRoll) -> tuple[CheckOutcome, list[Any]]:
        """Roll a check in a scene: the roll record, its chain link, the scene's nonce, and what the
        roll spends; returns the outcome and the aggregates to save (the roll first). A command
        that rolls several times passes the chain its earlier rolls linked to (touched[1]).
        `action` False: a check that is no action of the page (a chase, recovery, shaking off), which
        the extra actions of the page do not penalise (WCBH-25). `declared`: the situational
        modifiers the roller declared (a player's follow player_modifiers: see `modifiers_of`).
        `sheet`: the character's sheet, if the command parsed it already."""
        actor, scene, campaign, character = ask.actor, ask.scene, ask.campaign, ask.character
        check_name, client_seed, declared, sheet = (
            ask.check,
            ask.client_seed,
            ask.declared,
            ask.sheet,
        )
        rules = get_ruleset(campaign.ruleset)
        check = _check(rules, check_name)
        settings = rules.parse_settings(campaign.settings)
        if character is not None and sheet is None:
            sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
        # The page's dice go into the request so that the record recomputes (WCBH-25, 41).
        request = self.system_of(campaign).with_page_dice(ask, check)
        asked = check.asked(check.parse(request), sheet, settings)
        parsed = asked.request
        modifiers = self.modifiers_of(actor, settings, scene, character, declared)
        modifiers.extend(dict(entry) for entry in ask.earlier_modifiers)
        modifiers.extend(_page_entries(parsed))
        costs = check.cost(parsed)
        roll_id = uuid4()
        seed_by = _seed_by(client_seed)
        client_seed = self._client_seed(client_seed)
        if character is not None and character.unconscious:
            raise Conflict(
                f"{character.name} is unconscious until the end of the scene of its last gasp",
                field="character_id",
                code="unconscious",
                rule="WCBH-19",
            )
        nonce, epoch = scene.take_nonce(roll_id)  # 409 in a closed scene
        roller = Roller(FairSource(bytes.fromhex(self._reveal(scene)), client_seed, nonce))
        outcome = check.roll(asked, roller)
        odds = check.odds(asked, outcome)
        above = check.odds(asked, _next(outcome)).at_least
        touched: list[Any] = [scene]
        if character is not None:
            touched.extend(
                self._use_limits(actor, check.once(parsed, character.side), scene, character)
            )
            # WCBH-16 and the like: what the campaign's system adds to a character's roll
            system = self.system_of(campaign)
            touched.extend(system.rolled(actor, scene, parsed, character, roll_id))
        if costs and any(costs.values()):
            if character is None:
                raise InvalidInput(
                    "a roll that spends resources needs a character", field="character_id"
                )
            character.spend(costs, reason=f"roll {roll_id}")
            touched.append(character)
        record = {
            "format": RECORD_FORMAT,
            "rules_version": rules.rules_version,
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
            "score": outcome.score,
            "success": outcome.success,
            "client_seed_by": seed_by,
            "modifiers": modifiers,
            "set_by_gm": list(declared.set_by_gm) if declared else [],
        }
        return outcome, self._linked_roll(
            campaign.id, record, outcome, odds.success, odds.at_least, above, touched, ask.chain
        )

    def modifiers_of(
        self,
        actor: Actor,
        settings: Any,
        scene: Scene,
        character: Character | None,
        declared: Declared | None,
    ) -> list[dict[str, Any]]:
        """Who gave each declared modifier, under which rule, for the record. The one place a
        player's modifiers meet the campaign's player_modifiers: refused (422), trusted, or
        waiting for the GM (`ApprovalNeeded`: the command runner records a roll request)."""
        if declared is None or not declared.values:
            return []
        member = str(actor.member_id)
        if actor.is_gm:
            return [
                modifier_entry(f, v, by=member, role="gm", rule="gm")
                for f, v in declared.values.items()
            ]
        approval = actor.approval
        if approval is not None:
            gm = str(approval.gm_member_id)
            return [
                modifier_entry(f, v, by=gm, role="gm", rule="gm")
                if f in approval.changed
                else modifier_entry(
                    f,
                    v,
                    by=member,
                    role=actor.role,
                    rule=f"{PLAYER_MODIFIERS}:gm_approval",
                    approved_by=gm,
                )
                for f, v in declared.values.items()
            ]
        prefix = f"{declared.path}." if declared.path else ""
        policy = settings.player_modifiers
        if player_modifiers_verdict(policy, declared.values, prefix) == "ask_gm":
            raise ApprovalNeeded(
                scene.id,
                character.id if character else None,
                dict(declared.values),
                declared.fields,
                declared.path,
            )
        return [
            modifier_entry(f, v, by=member, role=actor.role, rule=f"{PLAYER_MODIFIERS}:trusted")
            for f, v in declared.values.items()
        ]

    # `attack` (WCBH-25, 28..31, 33, 44) lives in systems/wcbh/commands/fight.py with the fight's other verbs.

    @command
    def follow_up(self, ctx: CommandContext, roll_id: UUID, body: FollowUpCreate) -> Outcome:
        """A second roll linked to a first (Resolve dice, rerolls…); its cost is spent in the same save."""
        actor = self._member(ctx)
        original = self.get(actor, Roll, roll_id)
        campaign = self.campaign_of(actor)
        if Visibility.of(campaign, actor).withholds(original.record):
            # its answer would show what the GM withholds
            raise Forbidden("a secret roll is the GM's until revealed", field="roll_id")
        name = body.follow_up
        follow = get_ruleset(campaign.ruleset).follow_ups.get(name)
        if follow is not None and not follow.direct:
            raise InvalidInput(
                f"{name} is given through its own verb: {follow.via}", field="follow_up"
            )
        scene = self._target(ctx, actor, Scene, original.scene_id)
        _, touched = self._follow_up_roll(
            actor, scene, campaign, original, name, body.request, body.client_seed
        )
        # e.g. Resolve on an attack decides its hit again (WCBH-20b, 20c)
        touched.extend(self.system_of(campaign).followed_up(actor, scene, original, touched[0]))
        return self._commit(ctx, *touched)

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
        check = rules.checks[original.record["check"]]
        original_request = check.parse(original.record["request"])
        parsed = parse_request(follow.Request, request, "request")
        payer = follow.payer(original_request, parsed) if follow.payer else None
        if payer is not None:
            # the other side pays (a WCBH target's Resolve on its defence): the caller must act
            # for it; the faces are still read against the sheet the original was rolled with
            character = self.named(actor, Character, UUID(payer), "request.side")
            if not actor.is_gm and (
                actor.role != "player" or character.owner_member_id != actor.member_id
            ):
                raise Forbidden(
                    "the defence's Resolve is the target's: only who acts for the target spends "
                    "it (the GM, or the player who owns it)",
                    field="request.side",
                    rule=follow.rules[0] if follow.rules else None,
                )
            record_sheet = original.record.get("sheet")
            side = str(original.record.get("side") or "hero")
            sheet = rules.parse_sheet(record_sheet, settings, side=side) if record_sheet else None
        elif not for_ally or not character_id:
            character, sheet = self._roller_character(
                actor, rules, settings, UUID(character_id) if character_id else None
            )
            record_sheet = character.sheet if character else None
        reason = follow.allowed(original_request, _latest_outcome(original, name))
        if reason is not None:
            raise Conflict(reason, code="follow_up_refused", rule=",".join(follow.rules) or None)
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
        seed_by = _seed_by(client_seed)
        client_seed = self._client_seed(client_seed)
        nonce, epoch = scene.take_nonce(new_id)
        roller = Roller(FairSource(bytes.fromhex(self._reveal(scene)), client_seed, nonce))
        faces = [Face(**f) for f in original.record["faces"]]
        after: list[str] | None = None
        if follow.chained:
            earlier = [self.get(actor, Roll, UUID(f["roll_id"])) for f in original.follow_ups]
            after = [str(e.id) for e in earlier]
            faces = faces_after(
                original_request, faces, [_earlier(rules, e.record) for e in earlier]
            )
        asked = FollowUpRoll(original_request, faces, parsed, sheet, settings)
        outcome = follow.apply(asked, roller)
        success = at_least = above = None
        if follow.odds is not None:
            odds = follow.odds(asked, outcome)
            success, at_least = odds.success, odds.at_least
        record = {
            "format": RECORD_FORMAT,
            "rules_version": rules.rules_version,
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
            "score": outcome.score,
            "success": outcome.success,
            "client_seed_by": seed_by,
        }
        if after is not None:
            record["after"] = after
        original.note_follow_up(new_id, name, outcome)
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
        character = self.named(actor, Character, character_id, "character_id")
        self._check_may_act_for(actor, character)
        return character, rules.parse_sheet(character.sheet, settings, side=character.side)

    # ---- roll requests: a player's modifiers wait for the GM (player_modifiers:gm_approval) ----

    def _ask_gm(
        self,
        ctx: CommandContext,
        verb: str,
        arguments: dict[str, Any],
        pending: ApprovalNeeded,
        path: str,
    ) -> Outcome:
        """Record the player's command as a pending roll request instead of rolling (no dice);
        `path`: where the modifiers sit in `arguments` (`domain.commands.argument_path`)."""
        actor = self._member(ctx)
        request = RollRequest(
            campaign_id=actor.campaign_id,
            scene_id=pending.scene_id,
            character_id=pending.character_id,
            requested_by=actor.member_id,
            verb=verb,
            arguments=arguments,
            path=path,
            modifiers=pending.modifiers,
            modifier_fields=list(pending.fields),
        )
        index = self._roll_request_index(actor, pending.scene_id)
        index.add(request.id)
        return self._commit(ctx, request, index)

    def _roll_request_index(self, actor: Actor, scene_id: UUID) -> SceneRollRequests:
        try:
            return self.get(actor, SceneRollRequests, SceneRollRequests.create_id(scene_id))
        except NotFound:
            return SceneRollRequests(campaign_id=actor.campaign_id, scene_id=scene_id)

    def roll_requests(self, actor: Actor, scene_id: UUID) -> list[RollRequest]:
        """The scene's roll requests in the order they were made (pending and decided)."""
        scene = self.get(actor, Scene, scene_id)
        try:
            index = self.get(actor, SceneRollRequests, SceneRollRequests.create_id(scene.id))
        except NotFound:
            return []
        return [self.get(actor, RollRequest, rid) for rid in index.request_ids]

    @command
    def approve_roll_request(
        self, ctx: CommandContext, request_id: UUID, body: RollRequestApproval
    ) -> Outcome:
        """The GM approves a roll request, optionally changing its modifiers: the player's command
        runs now, as the player's (its client seed included), on the state of the moment."""
        gm, request = self._addressed(ctx, RollRequest, request_id, gm=True)
        request.check_pending()
        final = {**request.modifiers, **body.modifiers}
        unknown = sorted(set(final) - set(request.modifier_fields))
        if unknown:
            raise InvalidInput(
                f"{unknown[0]} is no modifier of this roll; it has: "
                f"{', '.join(request.modifier_fields) or 'none'}",
                field=f"modifiers.{unknown[0]}",
            )
        changed = frozenset(k for k, v in final.items() if request.modifiers.get(k) != v)
        arguments = _with_modifiers(request.arguments, request.path, final)
        player = Actor(
            gm.campaign_id,
            request.requested_by,
            self._role_of(gm, request.requested_by),
            approval=Approval(request.id, gm.member_id, changed),
        )

        def finish(main: Any, others: tuple[Any, ...]) -> tuple[Any, list[Any]]:
            # a verb may save its scene first; the request points at the (first) roll it made
            rolled = next((a.id for a in (main, *others) if isinstance(a, Roll)), None)
            request.approve(gm.member_id, final, rolled)
            return request, [main, *others]

        inner = CommandContext(
            ctx.actor, idempotency=ctx.idempotency, on_behalf_of=player, finish=finish
        )
        owner, run = self._command_named(request.verb)
        return run(owner, inner, **revive_arguments(run, arguments))  # type: ignore[no-any-return]

    def _command_named(self, name: str) -> tuple[object, Any]:
        """The command a roll request names, and who runs it (the application or the component
        of a game system): the verb itself, unwrapped, so it runs inside this command's retries."""
        owner = self.command_owner(name)
        return owner, getattr(type(owner), name).__wrapped__

    def command_holders(self) -> list[object]:
        """Everything that holds commands: the application, the missions, the visibility, each
        game system and each of its parts."""
        holders: list[object] = [self, self.missions, self.visibility]
        for system in self.systems.values():
            holders += [system, *system.parts]
        return holders

    def command_owner(self, name: str) -> object:
        """Who holds the command of this name: the application, the missions, a game system or one
        of its parts (command names are unique across them all: a roll request names its command
        so)."""
        for owner in self.command_holders():
            if hasattr(getattr(type(owner), name, None), "__wrapped__"):
                return owner
        raise Conflict(
            f"this roll request names a command ({name}) this server does not know",
            code="unknown_command",
        )

    @command
    def decline_roll_request(
        self, ctx: CommandContext, request_id: UUID, body: RollRequestDecline
    ) -> Outcome:
        """The GM declines a roll request: nothing is rolled, the player may ask again."""
        gm, request = self._addressed(ctx, RollRequest, request_id, gm=True)
        request.decline(gm.member_id, body.note)
        return self._commit(ctx, request)

    def _role_of(self, actor: Actor, member_id: UUID) -> str:
        member = self.campaign_of(actor).members.get(member_id)
        if member is None:
            raise Conflict("the member who asked has left the campaign", code="member_gone")
        return str(member.role)

    # ---- audit -------------------------------------------------------------------------------

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
        """The campaign's report (the one `chronicle verify` gives) as it concerns this roll."""
        self.get(actor, Roll, roll_id)  # 404 unless it is a roll of the actor's campaign
        entries = self._seen_entries(actor)
        return verify_export(entries, only_roll=str(roll_id)).for_roll(str(roll_id))

    def verify_campaign(self, actor: Actor, campaign_id: UUID) -> dict[str, Any]:
        """The whole campaign's report, from the live store's entries (what an export would show)."""
        self.get(actor, Campaign, campaign_id)  # 404 unless it is the actor's campaign
        return verify_export(self._seen_entries(actor)).to_json()

    def _seen_entries(self, actor: Actor) -> list[dict[str, Any]]:
        """The campaign's entries from the live store, as the actor may see them (what its export
        would show): a player's check of a secret roll is its chain link until the reveal."""
        read = list(campaign_entries(self, actor.campaign_id))  # type: ignore[arg-type]
        return Visibility.of(self.campaign_of(actor), actor).entries(read)


def _seed_by(client_seed: str | None) -> str:
    """Who chose the client seed: the roller, or the server for a roller who gave none."""
    return "server" if client_seed is None else "roller"


def _checked_client_seed(value: str) -> str:
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


def _earlier(rules: Ruleset, record: Mapping[str, Any]) -> EarlierFollowUp:
    """An earlier follow-up of a roll, from its record (domain/rulesets/base.py `faces_after`)."""
    follow = rules.follow_ups[str(record["follow_up"])]
    settings = rules.parse_settings(record["settings"])
    sheet = None
    if record.get("sheet") is not None:
        sheet = rules.parse_sheet(record["sheet"], settings, side=str(record.get("side") or "hero"))
    return EarlierFollowUp(
        follow,
        follow.Request.model_validate(record["request"]),
        [Face(**f) for f in record["faces"]],
        sheet,
        settings,
    )


def _next(outcome: CheckOutcome) -> CheckOutcome:
    """The same outcome one step better: its at_least is P(score > this score), for the luck report."""
    return CheckOutcome(outcome.result, outcome.score + 1, outcome.success)


@dataclass(frozen=True)
class Declared:
    """What a roller declared on a roll besides what is rolled: situational modifiers by name
    (`fields` are all it may declare; `path` is where they sit in the request body, "request"
    for a check's own request, "" for the body's own fields: the prefix of the field a refusal
    names) and, for the GM, the sheet numbers it gave itself. The command runner records the
    path under the command's request model (`domain.commands.argument_path`)."""

    values: dict[str, Any]
    fields: tuple[str, ...]
    path: str = ""
    set_by_gm: tuple[str, ...] = ()


def declared_by(fields: Mapping[str, Any], path: str = "") -> Declared:
    """A verb's own situational modifiers (its arguments by name, or the fields of its argument
    `path`), those not at their default 0."""
    values = {k: v for k, v in fields.items() if v != 0}
    return Declared(values=values, fields=tuple(fields), path=path)


def _check(rules: Ruleset, check_name: str) -> Check:
    check = rules.checks.get(check_name)
    if check is None:
        raise InvalidInput(
            f"{rules.name} has no check {check_name!r}; it has: {', '.join(rules.checks)}",
            field="check",
        )
    return check


def _page_entries(parsed: BaseModel) -> list[dict[str, Any]]:
    """The page's own dice in a request (WCBH-25 extra actions, WCBH-41 maneuvers): the rules
    gave them, not a member."""
    value = getattr(parsed, "page_modifier", 0)
    if not value:
        return []
    return [modifier_entry("page_modifier", value, by=None, role="rules", rule="WCBH-25")]


def _with_modifiers(
    arguments: Mapping[str, Any], path: str, modifiers: Mapping[str, Any]
) -> dict[str, Any]:
    """The command's arguments with the approved modifiers in place (at `path`, dotted into a
    request model's fields: "body.request" is the `request` of the command's `body`)."""
    if not path:
        return {**arguments, **modifiers}
    head, _, rest = path.partition(".")
    at = arguments.get(head, {})
    if rest:
        return {**arguments, head: _with_modifiers(at, rest, modifiers)}
    if isinstance(at, list):  # a list of entries (a team attack's attackers): "index.field"
        entries = [dict(entry) for entry in at]
        for name, value in modifiers.items():
            index, _, field = name.partition(".")
            entries[int(index)][field] = value
        return {**arguments, head: entries}
    return {**arguments, head: {**at, **modifiers}}
