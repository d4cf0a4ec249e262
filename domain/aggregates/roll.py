"""Roll: one tamper-evident roll record; RollChain: the hash chain of a campaign's roll records."""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.audit import GENESIS_HASH, record_hash
from domain.rulesets.base import CheckOutcome


class Roll(Aggregate):
    """Recorded once, never changed: every face, the result and the proof (docs/fair-dice.md).
    It notes the follow-ups made on it, so that the next one sees them (CD-6)."""

    @event("Recorded")
    def __init__(
        self,
        id: UUID,
        campaign_id: UUID,
        record: dict[str, Any],
        score: int,
        success: bool | None,
        odds: dict[str, float | None],
    ) -> None:
        self.campaign_id = campaign_id
        self.record = record
        # Derived from the record and the ruleset (so not hashed), kept for the API and the luck report.
        self.score = score
        self.success = success
        self.odds = odds
        self.follow_ups: list[dict[str, Any]] = []

    @classmethod
    def record_roll(
        cls,
        record: dict[str, Any],
        *,
        score: int,
        success: bool | None,
        odds: dict[str, float | None],
    ) -> Roll:
        return cls(
            id=UUID(record["roll_id"]),
            campaign_id=UUID(record["campaign_id"]),
            record=record,
            score=score,
            success=success,
            odds=odds,
        )

    @property
    def scene_id(self) -> UUID:
        return UUID(self.record["scene_id"])

    def note_follow_up(self, follow_up_id: UUID, name: str, outcome: CheckOutcome) -> None:
        """A follow-up roll was made on this one; its own record holds its faces and proof."""
        self._followed_up(
            follow_up_id,
            name,
            outcome.result,
            outcome.score,
            outcome.success,
            self.record.get("character_id"),
        )

    @event("FollowedUp")
    def _followed_up(
        self,
        follow_up_id: UUID,
        name: str,
        result: dict[str, Any],
        score: int,
        success: bool | None,
        # whose roll it follows, so that a reader who may not see the character does not see
        # this either (domain/visibility.py); None in events from before it was noted
        character_id: str | None = None,
    ) -> None:
        self.follow_ups.append(
            {
                "roll_id": str(follow_up_id),
                "name": name,
                "result": result,
                "score": score,
                "success": success,
            }
        )

    def reveal(self) -> None:
        """The GM reveals a secret roll (the campaign stops withholding it in the same save);
        noted here too, so that the roll's version, and so its ETag, moves when it shows whole."""
        self._revealed()

    @event("Revealed")
    def _revealed(self) -> None:
        pass


class RollChain(Aggregate):
    """The head of a campaign's chain: every roll takes the next sequence number and links its hash."""

    @staticmethod
    def create_id(campaign_id: UUID) -> UUID:  # type: ignore[override]
        return uuid5(NAMESPACE_URL, f"chronicle:roll-chain:{campaign_id}")

    @event("Started")
    def __init__(self, campaign_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.length = 0
        self.head = GENESIS_HASH

    def link(self, record: dict[str, Any]) -> dict[str, Any]:
        """Give the record its place in the chain and its hash; the record is complete afterwards."""
        record = {**record, "sequence": self.length, "prev_hash": self.head}
        record["hash"] = record_hash(record)
        self._linked(self.length, UUID(record["roll_id"]), record["hash"])
        return record

    @event("Linked")
    def _linked(self, sequence: int, roll_id: UUID, hash: str) -> None:
        self.length = sequence + 1
        self.head = hash
