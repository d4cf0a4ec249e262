"""The pieces of a generated play: scripts, their steps and choices, the play in progress, and the
steps every ruleset shares (pages, seed rotations, scenes, game Issues)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from uuid import UUID

from domain.application import Actor
from domain.requests import RollRequestApproval, RollRequestDecline
from tests.app.table import Table

T = TypeVar("T")
PICKS = 6  # numbers per step


@dataclass(frozen=True)
class Step:
    action: str
    picks: tuple[int, ...]


@dataclass(frozen=True)
class Script:
    ruleset: str
    seed: bytes
    steps: tuple[Step, ...]
    close_at_end: bool = True  # reveal the last scene's seed, so that its rolls recompute too
    # "gm_approval" (the service's default): a player's declared modifiers wait for the GM, and
    # `settle_roll_requests` rolls them through approve_roll_request; "trusted": they apply at once.
    player_modifiers: str = "trusted"


class Pick:
    """The choices of one step, read from its numbers in turn (cycling when they run out)."""

    def __init__(self, numbers: Sequence[int], salt: int) -> None:
        self._numbers = list(numbers) or [0]
        self._read = 0
        self._salt = salt

    def number(self, below: int) -> int:
        value = self._numbers[self._read % len(self._numbers)]
        self._read += 1
        return value % below

    def flag(self) -> bool:
        return self.number(2) == 1

    def one(self, options: Sequence[T]) -> T:
        return options[self.number(len(options))]

    def others(self, options: Sequence[T], but: T) -> list[T]:
        return [o for o in options if o != but]

    def client_seed(self) -> str:
        # Always given: a missing one is drawn from the OS and the play would not replay.
        return f"seed {self._salt}-{self.number(1000)}"


@dataclass
class Play:
    """One play in progress: its table, characters, current scene, and what happened."""

    table: Table
    issue: UUID
    scene: UUID
    heroes: list[UUID] = field(default_factory=list)
    foes: list[UUID] = field(default_factory=list)
    owners: dict[UUID, Actor] = field(default_factory=dict)
    mission: UUID | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)
    refused: Counter[tuple[str, str]] = field(default_factory=Counter)
    reasons: dict[tuple[str, str], str] = field(default_factory=dict)  # one message of each
    rolled: Counter[str] = field(
        default_factory=Counter
    )  # roll records by the action that made them
    made_by: dict[str, str] = field(default_factory=dict)  # roll id -> action
    _read_to: int = 0

    @property
    def fighters(self) -> list[UUID]:
        return self.heroes + self.foes

    def add(self, name: str, side: str, sheet: Any = None, owner: Actor | None = None) -> UUID:
        character = self.table.character(name, side, sheet, owner)
        (self.heroes if side == "hero" else self.foes).append(character)
        self.owners[character] = owner or self.table.gm
        return character

    def actor(self, character: UUID, pick: Pick) -> Actor:
        """The character's owner, or now and then the GM acting for it."""
        return self.table.gm if pick.number(4) == 0 else self.owners[character]

    def run(self, actor: Actor, verb: str, *args: Any, **kwargs: Any) -> Any:
        return self.table.run(actor, verb, *args, **kwargs)

    def gm(self, verb: str, *args: Any, **kwargs: Any) -> Any:
        return self.table.run(self.table.gm, verb, *args, **kwargs)

    def originals(self, check: str | None = None) -> list[dict[str, Any]]:
        """The play's roll records that are no follow-ups (of `check`, if given)."""
        return [
            r
            for r in self.records
            if r["follow_up"] is None and (check is None or r["check"] == check)
        ]

    def read_new_rolls(self) -> list[dict[str, Any]]:
        """The roll records written since the last call (read from the store, in log order)."""
        app = self.table.app
        new: list[dict[str, Any]] = []
        while True:
            page = app.recorder.select_notifications(start=self._read_to + 1, limit=500)
            for notification in page:
                event = app.mapper.to_domain_event(notification)
                if type(event).__qualname__ == "Roll.Recorded":
                    new.append(event.record)  # type: ignore[attr-defined]
                self._read_to = notification.id
            if len(page) < 500:
                break
        self.records.extend(new)
        return new


Action = Callable[[Play, Pick], None]


# ---- common to every ruleset: pages, seeds, scenes, game Issues ------------------------------------


def advance_page(p: Play, pick: Pick) -> None:
    p.gm("advance_page", p.scene)


def rotate_seed(p: Play, pick: Pick) -> None:
    p.gm("rotate_seed", p.scene)


def next_scene(p: Play, pick: Pick) -> None:
    p.gm("close_scene", p.scene)
    p.scene = p.table.scene(p.issue, "Another scene")


def next_issue(p: Play, pick: Pick) -> None:
    """End the game Issue (closing its scene) and start the next one of the same story."""
    issue = p.gm("end_issue", p.issue).aggregate
    p.issue = p.table.issue(issue.story_id, "Next issue")
    p.scene = p.table.scene(p.issue, "A new scene")


def settle_roll_requests(p: Play, pick: Pick) -> None:
    """The GM settles the scene's pending roll requests: approves one as declared, approves it
    with a modifier changed (the record then says the GM set it), or declines it (nothing rolls)."""
    pending = [r for r in p.table.app.roll_requests(p.table.gm, p.scene) if r.status == "pending"]
    for request in pending:
        choice = pick.number(3)
        if choice == 2:
            p.gm("decline_roll_request", request.id, RollRequestDecline(note="not now"))
            continue
        changed: dict[str, Any] = {}
        numbers = [k for k, v in request.modifiers.items() if type(v) is int]
        if choice == 1 and numbers:
            changed[pick.one(numbers)] = pick.number(3)
        p.gm("approve_roll_request", request.id, RollRequestApproval(modifiers=changed))


COMMON: dict[str, Action] = {
    "settle_roll_requests": settle_roll_requests,
    "advance_page": advance_page,
    "rotate_seed": rotate_seed,
    "next_scene": next_scene,
    "next_issue": next_issue,
}
