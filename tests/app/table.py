"""A campaign at the table on the in-memory store: the application's verbs called directly, no HTTP.

`Table(ruleset)` builds a `Chronicle` on eventsourcing's POPO store (about 0.1 ms, no database),
creates a campaign with its GM and two players, and runs commands as any of them::

    table = Table("wcbh")
    hero = table.character("Nova", "hero", owner=table.player)
    scene = table.scene()
    body = RollCreate(check="trait", request={"trait": "Agility"}, character_id=hero)
    roll = table.run(table.player, "roll", scene, body)
    entries = table.export()  # the campaign's log, as `GET /v1/campaigns/{id}/export` writes it

`run` returns the command's `Outcome`; a refused command raises its `DomainError` and writes nothing.
Scene seeds and the client seeds the server makes come from `seed` (a SHA-256 counter) instead of
the OS, so that a play made from the same inputs rolls the same dice: Hypothesis needs that to
replay and shrink a failing play. Everything else (commitments, sealing, reveals) is the production
code path.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from domain.aggregates import Roll
from domain.application import Actor, Chronicle, CommandContext, Outcome, TokenMinted
from domain.dice import commitment
from domain.export import jsonl, signed_export
from domain.requests import (
    CampaignCreate,
    CharacterCreate,
    IssueCreate,
    MemberCreate,
    SceneCreate,
    StoryCreate,
)
from domain.rulesets import get_ruleset
from domain.secrets import Sealer

# A fixed server key: the tests' sealed seeds never leave the process.
TEST_KEY = bytes(range(32))


class SeededChronicle(Chronicle):
    """The application with reproducible scene seeds: the n-th seed is SHA-256(seed ‖ n)."""

    def __init__(self, seed: bytes = b"") -> None:
        # Named, so that a PERSISTENCE_MODULE in the process environment cannot pick another store.
        super().__init__({"PERSISTENCE_MODULE": "eventsourcing.popo"}, sealer=Sealer(TEST_KEY))
        self._seed = seed
        self._seeds_drawn = 0
        self.signing.ensure_key()  # as the service's start does: exports and receipts are signed

    def _new_sealed_seed(self) -> tuple[str, str]:
        self._seeds_drawn += 1
        seed = hashlib.sha256(self._seed + self._seeds_drawn.to_bytes(8, "big")).digest()
        return commitment(seed), self.sealer.seal(seed.hex())

    def _client_seed(self, given: str | None) -> str:
        # The client seed the server makes for a roller who gave none: from the same counter, so
        # that a play rolls the same dice every run (the record still says the server made it).
        if given is not None:
            return super()._client_seed(given)
        self._seeds_drawn += 1
        return hashlib.sha256(
            b"client" + self._seed + self._seeds_drawn.to_bytes(8, "big")
        ).hexdigest()[:32]


class Table:
    """One campaign of one ruleset with its GM and players Bo and Cy, on a `SeededChronicle`."""

    def __init__(
        self, ruleset: str, settings: dict[str, Any] | None = None, seed: bytes = b""
    ) -> None:
        self.ruleset = ruleset
        self.rules = get_ruleset(ruleset)
        self.app = SeededChronicle(seed)
        # Players' modifiers apply at once (player_modifiers: trusted) unless a test says otherwise:
        # the plays roll; the GM's approval of roll requests has its own tests (tests/api/test_numbers.py).
        settings = {"player_modifiers": "trusted", **(settings or {})}
        body = CampaignCreate(name="Night City", ruleset=ruleset, settings=settings)  # type: ignore[arg-type]
        created = self.app.create_campaign(CommandContext(None), body)
        self.campaign_id: UUID = created.aggregate.id
        self.gm = Actor(self.campaign_id, created.result_as(TokenMinted).member_id, "gm")
        self.player = self.join("Bo", "player")
        self.other_player = self.join("Cy", "player")

    # ---- commands ------------------------------------------------------------------------------

    def run(self, actor: Actor, verb: str, *args: Any, **kwargs: Any) -> Outcome:
        """Call the command `verb` as `actor` (no If-Match, no Idempotency-Key), wherever it lives:
        on the application or on the component of a game system."""
        owner = self.app.command_owner(verb)
        return getattr(owner, verb)(CommandContext(actor), *args, **kwargs)  # type: ignore[no-any-return]

    def gm_runs(self, verb: str, *args: Any, **kwargs: Any) -> Outcome:
        return self.run(self.gm, verb, *args, **kwargs)

    def join(self, name: str, role: str) -> Actor:
        body = MemberCreate(name=name, role=role)  # type: ignore[arg-type]
        joined = self.gm_runs("add_member", self.campaign_id, body)
        return Actor(self.campaign_id, joined.result_as(TokenMinted).member_id, role)

    def character(
        self,
        name: str,
        side: str = "hero",
        sheet: Any = None,
        owner: Actor | None = None,
    ) -> UUID:
        """A character of `owner` (a player) or of the GM; the ruleset's example sheet by default."""
        sheet = self.rules.example_sheet() if sheet is None else sheet
        actor = owner or self.gm
        body = CharacterCreate(name=name, side=side, sheet=sheet)  # type: ignore[arg-type]
        created = self.run(actor, "create_character", self.campaign_id, body)
        return created.aggregate.id  # type: ignore[no-any-return]

    def story(self, title: str = "The Heist") -> UUID:
        body = StoryCreate(title=title)
        return self.gm_runs("start_story", self.campaign_id, body).aggregate.id  # type: ignore[no-any-return]

    def issue(self, story_id: UUID | None = None, title: str = "Issue #1") -> UUID:
        story_id = story_id or self.story()
        body = IssueCreate(title=title)
        return self.gm_runs("start_issue", story_id, body).aggregate.id  # type: ignore[no-any-return]

    def scene(self, issue_id: UUID | None = None, title: str = "The vault") -> UUID:
        issue_id = issue_id or self.issue()
        body = SceneCreate(title=title)
        return self.gm_runs("open_scene", issue_id, body).aggregate.id  # type: ignore[no-any-return]

    # ---- reading -------------------------------------------------------------------------------

    def record(self, outcome: Outcome) -> dict[str, Any]:
        """The roll record of a rolling command's outcome (its first aggregate is the roll)."""
        roll = outcome.aggregate
        assert isinstance(roll, Roll), f"{type(roll).__name__} is no roll"
        return roll.record

    def position(self) -> int:
        return self.app.recorder.max_notification_id() or 0

    def export(self, reader: Actor | None = None) -> list[dict[str, Any]]:
        """The campaign's export as a reader of the file sees it (the GM's by default): each
        JSON line parsed back."""
        entries = signed_export(self.app, reader or self.gm)
        return [json.loads(line) for line in jsonl(iter(entries))]
