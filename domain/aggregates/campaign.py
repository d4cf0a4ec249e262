"""Campaign: a game played under one ruleset, with its members (the GM, players, observers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import clean_title
from domain.errors import Conflict, InvalidInput, NotFound
from domain.rulesets import get_ruleset

ROLES = ("gm", "player", "observer")
JOINABLE_ROLES = ("player", "observer")


@dataclass(frozen=True)
class Member:
    id: UUID
    name: str
    role: str
    token_hash: str


class Campaign(Aggregate):
    @event("Created")
    def __init__(
        self,
        id: UUID,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        gm_member_id: UUID,
        gm_name: str,
        gm_token_hash: str,
    ) -> None:
        self.name = name
        self.ruleset = ruleset
        self.settings = settings
        self.members: dict[UUID, Member] = {}
        self.character_ids: list[UUID] = []
        self._add_member(gm_member_id, gm_name, "gm", gm_token_hash)

    @classmethod
    def create(
        cls,
        campaign_id: UUID,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        gm_member_id: UUID,
        gm_name: str,
        gm_token_hash: str,
    ) -> Campaign:
        get_ruleset(ruleset)  # unknown ruleset ids are refused here, whoever calls
        return cls(
            id=campaign_id,
            name=clean_title(name, "name"),
            ruleset=ruleset,
            settings=settings,
            gm_member_id=gm_member_id,
            gm_name=clean_title(gm_name, "gm_name"),
            gm_token_hash=gm_token_hash,
        )

    @property
    def gm(self) -> Member:
        return next(m for m in self.members.values() if m.role == "gm")

    def member(self, member_id: UUID) -> Member:
        try:
            return self.members[member_id]
        except KeyError:
            raise NotFound(
                f"member {member_id} is not in this campaign", field="member_id"
            ) from None

    def join(self, member_id: UUID, name: str, role: str, token_hash: str) -> None:
        if role not in JOINABLE_ROLES:
            raise InvalidInput(
                f"role must be one of {', '.join(JOINABLE_ROLES)}, not {role!r}", field="role"
            )
        if member_id in self.members:
            raise Conflict(f"member {member_id} has already joined", code="member_exists")
        self._member_joined(member_id, clean_title(name, "name"), role, token_hash)

    @event("MemberJoined")
    def _member_joined(self, member_id: UUID, name: str, role: str, token_hash: str) -> None:
        self._add_member(member_id, name, role, token_hash)

    def enrol(self, character_id: UUID) -> None:
        """Note a new character, so that refreshes (a new game Issue…) reach every character."""
        self._character_enrolled(character_id)

    @event("CharacterEnrolled")
    def _character_enrolled(self, character_id: UUID) -> None:
        self.character_ids.append(character_id)

    def _add_member(self, member_id: UUID, name: str, role: str, token_hash: str) -> None:
        self.members[member_id] = Member(member_id, name, role, token_hash)
