"""Commands: who sends them, their context (If-Match, Idempotency-Key) and the retrying runner."""

from __future__ import annotations

import functools
import inspect
import secrets
import time
import typing
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, TypeAdapter
from pydantic_core import to_jsonable_python

from domain.errors import Conflict, VersionConflict

if TYPE_CHECKING:
    from domain.aggregates import Campaign
    from domain.application import Chronicle
    from domain.service import Service

A = TypeVar("A", bound=Aggregate)
T = TypeVar("T")


class Host(Protocol):
    """What runs commands: the application itself, or a component it holds (`app` is then the
    application; the application's own `app` is itself)."""

    @property
    def app(self) -> Service: ...


S = TypeVar("S", bound=Host)
P = ParamSpec("P")
R = TypeVar("R")

# Each round of a race lets at least one writer through, so N racers need at most N attempts.
DEFAULT_ATTEMPTS = 10


@dataclass(frozen=True)
class Approval:
    """The GM's approval of a player's roll request, carried by the player's actor while the
    approved command runs: the modifiers count, and those the GM set are recorded as the GM's."""

    request_id: UUID
    gm_member_id: UUID
    changed: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Actor:
    """Who sends a command: one member of one campaign, or nobody (creating a campaign)."""

    campaign_id: UUID
    member_id: UUID
    role: str
    approval: Approval | None = None
    # The campaign as `Service.authenticate` read it for this request, if it did: a command that
    # only reads its campaign takes it from here instead of reading the store again a moment later.
    campaign_read: Campaign | None = field(default=None, compare=False, repr=False)

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


@dataclass(frozen=True)
class IdempotencyRequest:
    scope: str
    key: str
    request_hash: str
    # Renders the response from an outcome before the save, so it can be stored in the same transaction.
    render: Callable[[Outcome], tuple[int, dict[str, Any]]]


@dataclass
class CommandContext:
    actor: Actor | None
    expected_version: int | None = None
    idempotency: IdempotencyRequest | None = None
    target_id: UUID | None = None
    # An approved roll request: the GM's command runs the player's command as the player...
    on_behalf_of: Actor | None = None
    # ...and adds its decision to the same save: (main aggregate, others) -> (what to present, all).
    finish: (
        Callable[[Aggregate, tuple[Aggregate, ...]], tuple[Aggregate, list[Aggregate]]] | None
    ) = None


class ApprovalNeeded(Exception):
    """Raised by a roll whose player-declared modifiers wait for the GM (player_modifiers:
    gm_approval); the command runner records a roll request instead of the command's events."""

    def __init__(
        self,
        scene_id: UUID,
        character_id: UUID | None,
        modifiers: dict[str, Any],
        fields: tuple[str, ...],
        path: str,
    ) -> None:
        super().__init__("the GM approves these modifiers first")
        self.scene_id = scene_id
        self.character_id = character_id
        self.modifiers = modifiers
        self.fields = fields
        self.path = path


@dataclass(frozen=True)
class StoredResponse:
    status_code: int
    body: dict[str, Any]


@dataclass
class Outcome:
    aggregate: Aggregate
    position: int = 0
    replayed: StoredResponse | None = None
    # Every aggregate the command saves: presenters read new rolls here, since an idempotent
    # command renders its response before the save.
    saved: tuple[Aggregate, ...] = ()
    # The rolls the command made (not those it only followed up), in chain order: each answer
    # carries their receipts (docs/receipts.md).
    rolls: tuple[Aggregate, ...] = ()
    # What the command tells its presenter besides the aggregates, as the command's own typed
    # value (a frozen dataclass of its module); read it with `result_as`.
    result: object = None

    def result_as(self, kind: type[T]) -> T:
        """The command's typed result; a presenter asking for another kind is a bug, not input."""
        if not isinstance(self.result, kind):
            raise TypeError(
                f"the command's result is {type(self.result).__name__}, not {kind.__name__}"
            )
        return self.result


def command(
    fn: Callable[Concatenate[S, CommandContext, P], Outcome],
) -> Callable[Concatenate[S, CommandContext, P], Outcome]:
    """Run a verb on fresh state, retrying version clashes unless the caller named a version."""

    @functools.wraps(fn)
    def run(self: S, ctx: CommandContext, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        app = self.app
        with app._in_flight(ctx.idempotency):
            for attempt in range(app.attempts):
                if attempt:
                    # Spread the retries out so that racers do not collide again in lockstep.
                    time.sleep(secrets.randbelow(1000 * attempt) / 1_000_000)
                    if ctx.actor is not None:  # a retry reads its campaign afresh too
                        ctx.actor = replace(ctx.actor, campaign_read=None)
                if ctx.idempotency is not None:
                    stored = app._stored_response(ctx.idempotency)
                    if stored is not None:
                        return Outcome(aggregate=None, replayed=stored)  # type: ignore[arg-type]
                ctx.target_id = None
                try:
                    return fn(self, ctx, *args, **kwargs)
                except ApprovalNeeded as pending:
                    arguments = command_arguments(fn, self, ctx, args, kwargs)
                    path = argument_path(fn, pending.path)
                    return app._ask_gm(ctx, fn.__name__, arguments, pending, path)  # type: ignore[attr-defined]
                except IntegrityError:
                    if ctx.expected_version is not None and ctx.target_id is not None:
                        current = app.repository.get(ctx.target_id).version
                        raise VersionConflict(
                            f"version {ctx.expected_version} is stale; the current version is {current}",
                            current_version=current,
                        ) from None
        raise Conflict(
            f"gave up after {app.attempts} version clashes with concurrent writers; try again",
            code="contention",
        )

    return run


def command_arguments(
    fn: Callable[..., Any], app: Any, ctx: CommandContext, args: Any, kwargs: Any
) -> dict[str, Any]:
    """A command's arguments by name, as JSON (to run it again once the GM approves)."""
    bound = inspect.signature(fn).bind(app, ctx, *args, **kwargs)
    named = dict(list(bound.arguments.items())[2:])
    return to_jsonable_python(named)  # type: ignore[no-any-return]


# The validation context of a stored request's arguments being revived: only then may a body
# arrive in a shape it was stored in before (a body sent to the API must have today's).
REVIVING: dict[str, bool] = {"reviving": True}


def argument_path(fn: Callable[..., Any], path: str) -> str:
    """Where a place in the request body (`ApprovalNeeded.path`: "request", or "" for the body's
    own fields) sits in the arguments `command_arguments` records: inside the command's request
    model parameter when it takes one whole ("body.request", "body")."""
    models = _model_parameters(fn)
    if len(models) != 1:
        return path
    return f"{models[0]}.{path}" if path else models[0]


def _model_parameters(fn: Callable[..., Any]) -> list[str]:
    hints = typing.get_type_hints(fn)
    return [n for n in list(inspect.signature(fn).parameters)[2:] if _is_model(hints.get(n))]


def revive_arguments(fn: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The JSON arguments of ``command_arguments`` back as the types ``fn`` declares (UUIDs,
    tuples, request models…), validated the way pydantic validates any input.

    A roll request recorded before its command took a request model whole holds the model's
    fields one by one: those the command no longer names go into its one model parameter. The
    validation runs in the `REVIVING` context, in which a model revives what it stored in an older
    shape (`domain.requests.Recorded`: renamed fields, reshaped values)."""
    hints = typing.get_type_hints(fn)
    names = list(inspect.signature(fn).parameters)[2:]
    models = [n for n in _model_parameters(fn) if n not in arguments]
    if len(models) == 1:
        loose = {k: v for k, v in arguments.items() if k not in names}
        arguments = {k: v for k, v in arguments.items() if k in names} | {models[0]: loose}
    return {
        name: TypeAdapter(hints.get(name, Any)).validate_python(value, context=REVIVING)
        for name, value in arguments.items()
    }


def _is_model(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, BaseModel)


class Component:
    """A part of the application that holds the commands of one area (`app.missions`,
    `app.visibility`, a game system...): the `Host` its commands run on, `app` the application."""

    def __init__(self, app: Chronicle) -> None:
        self.app = app
