"""Scene: one location, event or task inside a running game Issue, played page by page (WCBH-1).

The scene is also the dice epoch: its secret seed is committed when it opens, its rolls take consecutive
nonces, and the seed is revealed when it closes or when the GM rotates it (docs/fair-dice.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict, InvalidInput


@dataclass
class SeedEpoch:
    """One seed of a scene: its commitment, the seed once revealed, and the rolls made with it."""

    number: int
    commitment: str
    sealed_seed: str | None  # the secret seed, sealed with the server key, until revealed
    revealed_seed: str | None = None  # hex, once revealed
    rolls: int = 0


class Scene(Aggregate):
    @event("Opened")
    def __init__(
        self,
        campaign_id: UUID,
        story_id: UUID,
        issue_id: UUID,
        title: str,
        seed_commitment: str,
        sealed_seed: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.story_id = story_id
        self.issue_id = issue_id
        self.title = title
        self.page = 1
        self.closed = False
        self.epochs = [SeedEpoch(0, seed_commitment, sealed_seed)]
        self.uses: dict[str, list[UUID]] = {}  # once-per-scene uses: key → characters
        self.page_attacks: list[tuple[UUID, UUID]] = []  # (attacker, target) in the current page
        self.affected: list[
            UUID
        ] = []  # characters attacked here: their effects tick with the pages
        self.combatants: list[UUID] = []  # who takes part in the fight (order of action, WCBH-22)
        self.acting_first: list[UUID] = []  # who spent Resolve to act first (WCBH-24)

    @classmethod
    def open(
        cls,
        campaign_id: UUID,
        story_id: UUID,
        issue_id: UUID,
        title: str,
        seed_commitment: str,
        sealed_seed: str,
    ) -> Scene:
        return cls(
            campaign_id=campaign_id,
            story_id=story_id,
            issue_id=issue_id,
            title=clean_title(title, "title"),
            seed_commitment=seed_commitment,
            sealed_seed=sealed_seed,
        )

    @property
    def status(self) -> str:
        return "closed" if self.closed else "open"

    @property
    def epoch(self) -> SeedEpoch:
        return self.epochs[-1]

    def advance_page(self) -> None:
        """Start the next page (a round, in systems that say round)."""
        self._check_open()
        self._page_advanced(self.page + 1)

    @event("PageAdvanced")
    def _page_advanced(self, page: int) -> None:
        self.page = page
        self.page_attacks = []

    def record_attack(self, attacker_id: UUID, target_id: UUID) -> None:
        """WCBH-25: the same target cannot be attacked twice by one character in one page."""
        self._check_open()
        if (attacker_id, target_id) in self.page_attacks:
            raise Conflict(
                "this character has already attacked that target in this page",
                code="target_already_attacked",
                rule="WCBH-25",
                details={"page": self.page},
            )
        self._attacked(attacker_id, target_id, self.page)

    @event("AttackMade")
    def _attacked(self, attacker_id: UUID, target_id: UUID, page: int) -> None:
        self.page_attacks.append((attacker_id, target_id))
        if target_id not in self.affected:
            self.affected.append(target_id)

    def take_nonce(self, roll_id: UUID) -> tuple[int, SeedEpoch]:
        """The next nonce of the current seed; a roll needs an open scene."""
        if self.closed:
            raise Conflict("the scene is closed: no more rolls in it", code="scene_closed")
        nonce = self.epoch.rolls
        self._roll_made(roll_id, self.epoch.number, nonce)
        return nonce, self.epoch

    @event("RollMade")
    def _roll_made(self, roll_id: UUID, epoch: int, nonce: int) -> None:
        self.epochs[epoch].rolls = nonce + 1

    def use_once(self, key: str, character_id: UUID, rule: str, *, exclusive: bool) -> None:
        """A use limited per scene: once per character, or (exclusive) one character per scene."""
        users = self.uses.get(key, [])
        if character_id in users or (exclusive and users):
            raise Conflict(
                f"the {key.replace('_', ' ')} of this scene is already used",
                code="once_per_scene",
                rule=rule,
                details={"use": key, "used_by": [str(u) for u in users]},
            )
        self._used_once(key, character_id)

    @event("OnceUsed")
    def _used_once(self, key: str, character_id: UUID) -> None:
        self.uses.setdefault(key, []).append(character_id)

    def join_fight(self, character_ids: list[UUID]) -> None:
        """Characters join the fight of this scene (the order of action covers them, WCBH-22)."""
        self._check_open()
        new = [c for c in dict.fromkeys(character_ids) if c not in self.combatants]
        if new:
            self._combatants_joined(new)

    @event("CombatantsJoined")
    def _combatants_joined(self, character_ids: list[UUID]) -> None:
        self.combatants.extend(character_ids)

    def act_first(self, character_id: UUID) -> None:
        """WCBH-24: from now on the character acts first every page (its Resolve is spent with it)."""
        self._check_open()
        if character_id not in self.combatants:
            raise InvalidInput(
                "only a character in the fight can act first; add it to the combatants",
                field="character_id",
                rule="WCBH-24",
            )
        if character_id in self.acting_first:
            raise Conflict(
                "the character already acts first in this scene", code="acts_first", rule="WCBH-24"
            )
        self._acted_first(character_id)

    @event("ActsFirst")
    def _acted_first(self, character_id: UUID) -> None:
        self.acting_first.append(character_id)

    def rotate_seed(self, revealed_seed: str, new_commitment: str, new_sealed_seed: str) -> None:
        """Reveal the current seed and commit to a new one (the GM may do this mid-scene)."""
        self._check_open()
        self._seed_rotated(revealed_seed, new_commitment, new_sealed_seed)

    @event("SeedRotated")
    def _seed_rotated(self, revealed_seed: str, new_commitment: str, new_sealed_seed: str) -> None:
        self._reveal(revealed_seed)
        self.epochs.append(SeedEpoch(len(self.epochs), new_commitment, new_sealed_seed))

    def close(self, revealed_seed: str) -> None:
        self._check_open()
        self._closed(revealed_seed)

    @event("Closed")
    def _closed(self, revealed_seed: str) -> None:
        self.closed = True
        self._reveal(revealed_seed)

    def _reveal(self, revealed_seed: str) -> None:
        self.epoch.revealed_seed = revealed_seed
        self.epoch.sealed_seed = None

    def _check_open(self) -> None:
        if self.closed:
            raise Conflict("the scene is closed", code="scene_closed")
