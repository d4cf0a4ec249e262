"""The base of the Chronicle application: authentication, scoped reads, permissions and atomic commits."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypedDict, TypeVar, Unpack
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.aggregates import Campaign, Character, IdempotencyRecord, Roll, ServerKey
from domain.aggregates.idempotency import hash_key
from domain.claims import claims_for
from domain.commands import (
    DEFAULT_ATTEMPTS,
    Actor,
    CommandContext,
    IdempotencyRequest,
    Outcome,
    StoredResponse,
)
from domain.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    Unauthenticated,
    VersionConflict,
)
from domain.rulesets import get_ruleset
from domain.secrets import Sealer, TokenParts, WrongKey, parse_token, token_matches

A = TypeVar("A", bound=Aggregate)

# How long a stored first response can be replayed (docs/decisions.md, "Idempotency-Key").
IDEMPOTENCY_TTL = timedelta(hours=24)


def utc_now() -> datetime:
    return datetime.now(UTC)


class ServiceOptions(TypedDict, total=False):
    """What a `Service` (and every application built on it) takes beside its environment."""

    sealer: Sealer | None  # the server key; projection runners are built without it
    attempts: int  # how often a command without If-Match retries on a version clash


def token_parts(token: str | None) -> TokenParts:
    """What a bearer token names, or 401 for one that is missing or malformed: decided without
    the store, so a request can be refused before anything is read."""
    if not token:
        raise Unauthenticated("a bearer token is required: Authorization: Bearer <token>")
    parts = parse_token(token)
    if parts is None:
        raise Unauthenticated("the bearer token is malformed")
    return parts


class Service(Application):
    """All aggregates of all campaigns live in one application (one event store, one notification log)."""

    name = "Chronicle"

    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        # Never answer from a cached aggregate without reading the store: a token revoked through
        # another replica must be refused here at once (see `authenticate`).
        "AGGREGATE_CACHE_FASTFORWARD_SKIPPING": "n",
    }

    def __init__(
        self, env: Mapping[str, str] | None = None, **options: Unpack[ServiceOptions]
    ) -> None:
        try:
            super().__init__(env)
        except BaseException:
            # A store that fails while opening (its tables, its first connection) has already
            # opened its pool, whose workers connect in the background: close it, or every
            # failed start (a views runner restarting through an outage) leaves its connections.
            factory = getattr(self, "factory", None)
            if factory is not None:
                factory.close()
            raise
        self._sealer = options.get("sealer")
        self.attempts = options.get("attempts", DEFAULT_ATTEMPTS)
        # Shared with every other process on the store when it is PostgreSQL (domain/claims.py).
        self.claims = claims_for(self.recorder)
        # Token expiry and stored responses' expiry read this clock (tests move it on).
        self.clock: Callable[[], datetime] = utc_now

    def close(self) -> None:
        self.claims.close()
        super().close()

    @property
    def app(self) -> Service:
        """The application runs its own commands (`domain.commands.Host`); a component's `app`
        is the application that holds it."""
        return self

    @property
    def sealer(self) -> Sealer:
        """Only the command side holds the server key; projection runners read the log without it."""
        if self._sealer is None:
            raise RuntimeError("this application was built without the server key")
        return self._sealer

    def claim_server_key(self) -> None:
        """At start-up: the first server on a store records its key's fingerprint; a later one
        (any replica) with another key raises WrongKey before it could fail to unseal anything.
        Ruling: a store from before fingerprints takes the key of its first start from now on."""
        given = self.sealer.fingerprint
        try:
            recorded: ServerKey = self.repository.get(ServerKey.create_id())
        except AggregateNotFoundError:
            try:
                self.save(ServerKey(given))
                return
            except IntegrityError:  # another replica claimed it first: compare with its key
                recorded = self.repository.get(ServerKey.create_id())
        if recorded.fingerprint != given:
            raise WrongKey(
                "the server key is not the key this store's secrets were sealed with "
                f"(fingerprint {recorded.fingerprint[:16]}… recorded, {given[:16]}… given)"
            )

    # ---- authentication and reads -------------------------------------------------------------

    def authenticate(self, token: str | None) -> Actor:
        """The member a token belongs to, checked against the campaign as stored now.

        The repository's cache fast-forwards every read from the store (AGGREGATE_CACHE_FASTFORWARD,
        never skipping), so a token revoked, rotated or removed through any replica is refused by
        every other at its next request: no process keeps its own list of valid tokens."""
        parts = token_parts(token)
        assert token is not None  # token_parts refused a missing one
        try:
            # Only read (here and by the command, `campaign_of`), so the cached campaign itself,
            # not a copy: every request authenticates, and copying the campaign was most of it.
            campaign: Aggregate = self.repository.get(parts.campaign_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise Unauthenticated("the bearer token matches no campaign") from None
        member = campaign.members.get(parts.member_id) if isinstance(campaign, Campaign) else None
        # "Revoked" only to whoever presents the revoked token itself: member ids are public
        # (`rolled_by` in exports), so any other token gets the answer an unknown member gets.
        if member is None:
            raise Unauthenticated("the bearer token matches no member of its campaign")
        if member.token_hash is None:
            revoked = member.revoked_token_hash
            if revoked is not None and token_matches(token, revoked):
                raise Unauthenticated("this member's token was revoked", code="token_revoked")
            raise Unauthenticated("the bearer token matches no member of its campaign")
        if not token_matches(token, member.token_hash):
            raise Unauthenticated("the bearer token matches no member of its campaign")
        if member.token_expires_at is not None and self.clock() >= member.expires_at:
            raise Unauthenticated("the bearer token has expired", code="token_expired")
        assert isinstance(campaign, Campaign)  # it has the member
        return Actor(campaign.id, member.id, member.role, campaign_read=campaign)

    def get(self, actor: Actor, cls: type[A], aggregate_id: UUID, *, to_change: bool = True) -> A:
        """Load an aggregate of the actor's campaign; anything else is 404 (not even 403). Not
        `to_change`: the cached aggregate itself, not a copy, for a command that only reads it
        (deep copies were a tenth of a roll's time); it must then record nothing on it."""
        label = cls.__name__.lower()
        try:
            aggregate: Aggregate = self.repository.get(aggregate_id, deepcopy_from_cache=to_change)
        except AggregateNotFoundError:
            raise NotFound(f"{label} {aggregate_id} not found") from None
        campaign_id = (
            aggregate.id
            if isinstance(aggregate, Campaign)
            else getattr(aggregate, "campaign_id", None)
        )
        if not isinstance(aggregate, cls) or campaign_id != actor.campaign_id:
            raise NotFound(f"{label} {aggregate_id} not found")
        return aggregate

    def named(self, actor: Actor, cls: type[A], aggregate_id: UUID, field: str) -> A:
        """Load an aggregate a request's `field` names: one outside the campaign is then the
        field's fault (422 naming it), not a missing resource."""
        try:
            return self.get(actor, cls, aggregate_id)
        except NotFound:
            label = cls.__name__.lower()
            raise InvalidInput(f"{field} names no {label} of this campaign", field=field) from None

    def campaign_of(self, actor: Actor, *, to_change: bool = True) -> Campaign:
        """The actor's campaign; not `to_change`, the one its authentication read, if it did."""
        if not to_change and actor.campaign_read is not None:
            return actor.campaign_read
        return self.get(actor, Campaign, actor.campaign_id, to_change=to_change)

    # ---- helpers -----------------------------------------------------------------------------

    def _validated_sheet(self, campaign: Campaign, sheet: Any, side: str) -> dict[str, Any]:
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        return rules.parse_sheet(sheet, settings, side=side).model_dump(mode="json")

    @staticmethod
    def _starting_resources(campaign: Campaign, sheet: dict[str, Any], side: str) -> dict[str, int]:
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        parsed = rules.parse_sheet(sheet, settings, side=side)
        return {
            name: int(spec["start"]) for name, spec in rules.resources(parsed, settings).items()
        }

    def _member(self, ctx: CommandContext) -> Actor:
        """The member the command acts as: the caller, or the player whose roll request the
        calling GM approved (the events are still signed by the GM, see ``_signed``)."""
        if ctx.actor is None:
            raise Unauthenticated("a bearer token is required: Authorization: Bearer <token>")
        return ctx.on_behalf_of or ctx.actor

    def _gm(self, ctx: CommandContext) -> Actor:
        actor = self._member(ctx)
        if not actor.is_gm:
            raise Forbidden(f"only the GM may do this; your role is {actor.role}")
        return actor

    @staticmethod
    def _check_may_act_for(actor: Actor, character: Character) -> None:
        if actor.is_gm:
            return
        if actor.role != "player" or character.owner_member_id != actor.member_id:
            raise Forbidden("a player may act only for characters it owns")

    def _addressed(
        self, ctx: CommandContext, cls: type[A], aggregate_id: UUID, *, gm: bool = False
    ) -> tuple[Actor, A]:
        """Who acts and the aggregate the command is addressed to (If-Match checked); with
        `gm`, a GM-only command (403 for anyone else)."""
        actor = self._gm(ctx) if gm else self._member(ctx)
        return actor, self._target(ctx, actor, cls, aggregate_id)

    def _gm_target(self, ctx: CommandContext, cls: type[A], aggregate_id: UUID) -> A:
        """The aggregate a GM-only command is addressed to, when who the GM is does not matter."""
        return self._addressed(ctx, cls, aggregate_id, gm=True)[1]

    def _target(self, ctx: CommandContext, actor: Actor, cls: type[A], aggregate_id: UUID) -> A:
        """Load the aggregate the command is addressed to and check If-Match against it."""
        aggregate = self.get(actor, cls, aggregate_id)
        ctx.target_id = aggregate.id
        if ctx.expected_version is not None and ctx.expected_version != aggregate.version:
            raise VersionConflict(
                f"If-Match names version {ctx.expected_version}; the current version is "
                f"{aggregate.version}",
                current_version=aggregate.version,
                field="If-Match",
            )
        return aggregate

    def _commit(
        self,
        ctx: CommandContext,
        aggregate: Aggregate,
        *others: Aggregate,
        result: object = None,
    ) -> Outcome:
        """Save every touched aggregate (and the idempotency record) in one atomic save."""
        if ctx.finish is not None:
            aggregate, touched = ctx.finish(aggregate, others)
            others = tuple(touched)
        saved = (aggregate, *others)
        outcome = Outcome(aggregate=aggregate, saved=saved, rolls=_made(saved), result=result)
        record = None
        if ctx.idempotency is not None:
            status_code, body = ctx.idempotency.render(outcome)
            key = ctx.idempotency.key
            record = IdempotencyRecord(
                scope=ctx.idempotency.scope,
                key_hash=hash_key(key),
                request_hash=ctx.idempotency.request_hash,
                status_code=status_code,
                body={"sealed": self.sealer.derive(key).seal(json.dumps(body))},
            )
        recordings = self.save(*self._signed(ctx, aggregate, *others, record))
        outcome.position = max(r.notification.id for r in recordings)
        if record is not None:
            record.note_position(outcome.position)
            self.save(record)
        return outcome

    @staticmethod
    def _signed(ctx: CommandContext, *aggregates: Aggregate | None) -> list[Any]:
        """The pending events of the aggregates, each marked with the member whose command wrote it.

        `actor` is stored with the event's state; eventsourcing restores it as an attribute and the
        aggregates' own mutators ignore it (they take only their parameters)."""
        actor = str(ctx.actor.member_id) if ctx.actor is not None else None
        events = [e for a in aggregates if a is not None for e in a.collect_events()]
        for event in events:
            object.__setattr__(event, "actor", actor)
        return events

    def _stored_response(self, request: IdempotencyRequest) -> StoredResponse | None:
        record_id = IdempotencyRecord.create_id(request.scope, hash_key(request.key))
        try:
            record: IdempotencyRecord = self.repository.get(record_id)
        except AggregateNotFoundError:
            return None
        if record.request_hash != request.request_hash:
            raise InvalidInput(
                "this Idempotency-Key was used with a different request",
                field="Idempotency-Key",
                code="idempotency_key_reused",
            )
        if self.clock() >= record.created_on + IDEMPOTENCY_TTL:
            # Its record stays (the log is append-only) but its response is no longer handed out.
            raise InvalidInput(
                f"this Idempotency-Key's first response expired after "
                f"{IDEMPOTENCY_TTL.total_seconds() / 3600:g} hours; send a new key",
                field="Idempotency-Key",
                code="idempotency_key_expired",
            )
        body = json.loads(self.sealer.derive(request.key).unseal(record.body["sealed"]))
        # A crash between the command's save and noting its position leaves only a lower bound.
        body["position"] = record.position or self.recorder.max_notification_id() or 0
        return StoredResponse(record.status_code, body)

    def _in_flight(self, request: IdempotencyRequest | None) -> _InFlight:
        return _InFlight(self, request)


def _made(saved: tuple[Aggregate, ...]) -> tuple[Aggregate, ...]:
    """The rolls created by this save: all their events are still pending (read before it). A
    follow-up also saves the roll it follows, which was made earlier."""
    made = [a for a in saved if isinstance(a, Roll) and len(a.pending_events) == a.version]
    return tuple(sorted(made, key=lambda roll: int(roll.record["sequence"])))


class _InFlight:
    """Refuses a duplicate that arrives, at any process, while the first request with its key is
    still running."""

    def __init__(self, app: Service, request: IdempotencyRequest | None) -> None:
        self.claims = app.claims
        self.key = None if request is None else f"{request.scope}\n{request.key}"

    def __enter__(self) -> None:
        if self.key is not None and not self.claims.claim(self.key):
            raise Conflict(
                "a request with this Idempotency-Key is still in flight; retry later",
                field="Idempotency-Key",
                code="idempotency_in_flight",
            )

    def __exit__(self, *exc: object) -> None:
        if self.key is not None:
            self.claims.release(self.key)
