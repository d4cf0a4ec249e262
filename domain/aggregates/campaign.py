"""Campaign: a game played under one ruleset, with its members (the GM, players, observers)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
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
    token_hash: str | None  # None once revoked: no token of this member authenticates
    token_expires_at: str | None = None  # ISO 8601 (UTC); None: the token does not expire
    # The hash the member's token had when it was revoked, so that only whoever presents that
    # very token is told it was revoked (anyone else learns nothing about the member). Derived
    # on replay from the hash the member had before TokenRevoked: the event needs no new field.
    revoked_token_hash: str | None = None

    @property
    def expires_at(self) -> datetime:
        assert self.token_expires_at is not None
        return datetime.fromisoformat(self.token_expires_at)


class Campaign(Aggregate):
    # Off until the GM opens them; a class default, so campaigns that never set it read False.
    proof_pages_public: bool = False

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
        open_scenes_known: bool = False,
    ) -> None:
        self.name = name
        self.ruleset = ruleset
        self.settings = settings
        self.members: dict[UUID, Member] = {}
        self.character_ids: list[UUID] = []
        # Scenes opened and not yet closed, in every game Issue: players' sheet changes wait for
        # none to be open (setting player_sheet_changes = "outside_scenes").
        self.open_scene_ids: list[UUID] = []
        # Whether open_scene_ids holds every open scene. A campaign created before the list was
        # kept (its Created event has no such field) misses the scenes opened back then: the
        # application derives them from its game Issues once (`note_open_scenes`).
        self.open_scenes_known = open_scenes_known
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
            open_scenes_known=True,
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

    def join(
        self,
        member_id: UUID,
        name: str,
        role: str,
        token_hash: str,
        token_expires_at: str | None = None,
    ) -> None:
        if role not in JOINABLE_ROLES:
            raise InvalidInput(
                f"role must be one of {', '.join(JOINABLE_ROLES)}, not {role!r}", field="role"
            )
        if member_id in self.members:
            raise Conflict(f"member {member_id} has already joined", code="member_exists")
        self._member_joined(
            member_id, clean_title(name, "name"), role, token_hash, token_expires_at
        )

    @event("MemberJoined")
    def _member_joined(
        self,
        member_id: UUID,
        name: str,
        role: str,
        token_hash: str,
        token_expires_at: str | None = None,
    ) -> None:
        self._add_member(member_id, name, role, token_hash, token_expires_at)

    # ---- credentials: rotation, revocation, removal (docs/decisions.md, "Tokens") ------------

    def rotate_token(self, member_id: UUID, token_hash: str, token_expires_at: str | None) -> None:
        """A new token for the member; the old one stops authenticating with this event."""
        if self.member(member_id).role == "gm" and token_expires_at is not None:
            raise InvalidInput(
                "the GM's token cannot expire: nobody could give it a new one",
                field="expires_in",
            )
        self._token_rotated(member_id, token_hash, token_expires_at)

    @event("TokenRotated")
    def _token_rotated(
        self, member_id: UUID, token_hash: str, token_expires_at: str | None
    ) -> None:
        self.members[member_id] = replace(
            self.members[member_id],
            token_hash=token_hash,
            token_expires_at=token_expires_at,
            revoked_token_hash=None,
        )

    def revoke_token(self, member_id: UUID) -> None:
        member = self.member(member_id)
        if member.role == "gm":
            raise Conflict(
                "the GM cannot revoke its own token (nobody could give it a new one); rotate it",
                field="member_id",
                code="gm_token_required",
            )
        if member.token_hash is None:
            raise Conflict(f"{member.name}'s token is already revoked", code="token_revoked")
        self._token_revoked(member_id)

    @event("TokenRevoked")
    def _token_revoked(self, member_id: UUID) -> None:
        member = self.members[member_id]
        self.members[member_id] = replace(
            member, token_hash=None, token_expires_at=None, revoked_token_hash=member.token_hash
        )

    def remove_member(self, member_id: UUID) -> None:
        if self.member(member_id).role == "gm":
            raise Conflict(
                "the GM cannot remove itself from its campaign",
                field="member_id",
                code="gm_cannot_leave",
            )
        self._member_removed(member_id)

    @event("MemberRemoved")
    def _member_removed(self, member_id: UUID) -> None:
        del self.members[member_id]

    # ---- open scenes --------------------------------------------------------------------------

    def set_proof_pages(self, public: bool) -> None:
        """Make the rolls' proof pages public (GET /proof/{roll_id}, no token) or private again."""
        self._proof_pages_set(public)

    @event("ProofPagesSet")
    def _proof_pages_set(self, public: bool) -> None:
        self.proof_pages_public = public

    def note_scene_opened(self, scene_id: UUID) -> None:
        self._scene_opened(scene_id)

    @event("SceneOpened")
    def _scene_opened(self, scene_id: UUID) -> None:
        self.open_scene_ids.append(scene_id)

    def note_scene_closed(self, scene_id: UUID) -> None:
        # Scenes opened before campaigns kept this list are not in it: nothing to note.
        if scene_id in self.open_scene_ids:
            self._scene_closed(scene_id)

    @event("SceneClosed")
    def _scene_closed(self, scene_id: UUID) -> None:
        self.open_scene_ids.remove(scene_id)

    def note_open_scenes(self, scene_ids: list[UUID]) -> None:
        """The open scenes of a campaign from before the list was kept, as its game Issues hold
        them: from now on the list is whole."""
        if self.open_scenes_known:
            raise Conflict("this campaign already knows its open scenes", code="open_scenes_known")
        self._open_scenes_found(scene_ids)

    @event("OpenScenesFound")
    def _open_scenes_found(self, scene_ids: list[UUID]) -> None:
        self.open_scene_ids = list(scene_ids)
        self.open_scenes_known = True

    def enrol(self, character_id: UUID) -> None:
        """Note a new character, so that refreshes (a new game Issue…) reach every character."""
        self._character_enrolled(character_id)

    @event("CharacterEnrolled")
    def _character_enrolled(self, character_id: UUID) -> None:
        self.character_ids.append(character_id)

    # ---- visibility (docs/front-ends.md, "Visibility") -----------------------------------------
    # The campaign is the index of what its players and observers may not see: every read path
    # asks it (one aggregate, read at each request anyway), so a new read cannot miss a
    # character hidden or a roll withheld a moment ago. Campaigns from before have neither list.

    @property
    def hidden_character_ids(self) -> list[UUID]:
        return list(getattr(self, "_hidden_character_ids", []))

    @property
    def withheld_roll_ids(self) -> list[UUID]:
        return list(getattr(self, "_withheld_roll_ids", []))

    # Hiding a hidden character (or showing a shown one) is recorded all the same: the GM's
    # command always writes, and the list stays a set.
    def hide_character(self, character_id: UUID) -> None:
        self._character_hidden(character_id)

    def show_character(self, character_id: UUID) -> None:
        self._character_shown(character_id)

    @event("CharacterHidden")
    def _character_hidden(self, character_id: UUID) -> None:
        kept = [i for i in self.hidden_character_ids if i != character_id]
        self._hidden_character_ids = [*kept, character_id]

    @event("CharacterShown")
    def _character_shown(self, character_id: UUID) -> None:
        self._hidden_character_ids = [i for i in self.hidden_character_ids if i != character_id]

    def withhold_roll(self, roll_id: UUID) -> None:
        """A secret GM roll: chained like any other, its contents withheld until revealed."""
        self._roll_withheld(roll_id)

    def reveal_roll(self, roll_id: UUID) -> None:
        if roll_id not in self.withheld_roll_ids:
            raise Conflict(
                f"roll {roll_id} is not a secret roll waiting to be revealed",
                field="roll_id",
                code="not_withheld",
            )
        self._roll_revealed(roll_id)

    @event("RollWithheld")
    def _roll_withheld(self, roll_id: UUID) -> None:
        self._withheld_roll_ids = [*self.withheld_roll_ids, roll_id]

    @event("RollRevealed")
    def _roll_revealed(self, roll_id: UUID) -> None:
        self._withheld_roll_ids = [i for i in self.withheld_roll_ids if i != roll_id]

    def _add_member(
        self,
        member_id: UUID,
        name: str,
        role: str,
        token_hash: str,
        token_expires_at: str | None = None,
    ) -> None:
        self.members[member_id] = Member(member_id, name, role, token_hash, token_expires_at)
