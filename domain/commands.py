"""Commands: who sends them, their context (If-Match, Idempotency-Key) and the retrying runner."""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.errors import Conflict, VersionConflict

if TYPE_CHECKING:
    from domain.service import Service

A = TypeVar("A", bound=Aggregate)
S = TypeVar("S", bound="Service")
P = ParamSpec("P")
R = TypeVar("R")

# Each round of a race lets at least one writer through, so N racers need at most N attempts.
DEFAULT_ATTEMPTS = 10


@dataclass(frozen=True)
class Actor:
    """Who sends a command: one member of one campaign, or nobody (creating a campaign)."""

    campaign_id: UUID
    member_id: UUID
    role: str

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


@dataclass(frozen=True)
class StoredResponse:
    status_code: int
    body: dict[str, Any]


@dataclass
class Outcome:
    aggregate: Aggregate
    position: int = 0
    revealed: dict[str, Any] = field(default_factory=dict)
    replayed: StoredResponse | None = None
    # Every aggregate the command saves: presenters read new rolls here, since an idempotent
    # command renders its response before the save.
    saved: tuple[Aggregate, ...] = ()


def command(
    fn: Callable[Concatenate[S, CommandContext, P], Outcome],
) -> Callable[Concatenate[S, CommandContext, P], Outcome]:
    """Run a verb on fresh state, retrying version clashes unless the caller named a version."""

    @functools.wraps(fn)
    def run(self: S, ctx: CommandContext, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        with self._in_flight(ctx.idempotency):
            for attempt in range(self.attempts):
                if attempt:
                    # Spread the retries out so that racers do not collide again in lockstep.
                    time.sleep(secrets.randbelow(1000 * attempt) / 1_000_000)
                if ctx.idempotency is not None:
                    stored = self._stored_response(ctx.idempotency)
                    if stored is not None:
                        return Outcome(aggregate=None, replayed=stored)  # type: ignore[arg-type]
                ctx.target_id = None
                try:
                    return fn(self, ctx, *args, **kwargs)
                except IntegrityError:
                    if ctx.expected_version is not None and ctx.target_id is not None:
                        current = self.repository.get(ctx.target_id).version
                        raise VersionConflict(
                            f"version {ctx.expected_version} is stale; the current version is {current}",
                            current_version=current,
                        ) from None
        raise Conflict(
            f"gave up after {self.attempts} version clashes with concurrent writers; try again",
            code="contention",
        )

    return run
