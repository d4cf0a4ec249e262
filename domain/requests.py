"""The request bodies of the lifecycle commands (campaigns, members, characters, stories, game
Issues, scenes, rolls, roll requests, missions): the commands take them whole, and the API
publishes them as they are (api/schemas.py re-exports them; the domain never imports the API).

`Strict` is the base of every request body, a game system's too (systems/<name>/requests.py)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from domain.commands import REVIVING
from domain.rulesets import RULESETS

Title = Field(min_length=1, max_length=200)
RulesetId = Literal["wcbh", "classd", "nimble", "nwod-micro"]
Side = Literal["hero", "villain", "opponent", "minion", "other"]
MissionOutcome = Literal["completed", "failed", "aborted", "lost_to_rivals"]

assert set(RulesetId.__args__) == set(RULESETS), "RulesetId must list the registry"  # type: ignore[attr-defined]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


SEED = "Your own contribution to the randomness; generated when omitted"


def seed_field(description: str | None = SEED) -> Any:
    """The optional `client_seed` of a body that rolls: the caller's own share of the randomness
    (docs/fair-dice.md), at most 128 characters."""
    return Field(default=None, min_length=1, max_length=128, description=description)


class Recorded(Strict):
    """A body that roll requests recorded before issue #14 may hold in an older shape (the
    command's arguments one by one). Each model names what changed since: `recorded_renamed`, old
    field names (old: new); `recorded_replaced`, old fields a new one replaced (old: new), dropped
    unless the body names the new one; `recorded_pairs`, lists whose items were stored as pairs
    (the field: the names of a pair's two places). Only a stored request's revival reads them
    (`domain.commands.revive_arguments` validates in the `REVIVING` context): a body sent to the
    API must have today's shape. tests/unit/wcbh/test_recorded_bodies.py, tests/app."""

    recorded_renamed: ClassVar[dict[str, str]] = {}
    recorded_replaced: ClassVar[dict[str, str]] = {}
    recorded_pairs: ClassVar[dict[str, tuple[str, str]]] = {}

    @model_validator(mode="before")
    @classmethod
    def _revived(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, dict) or info.context != REVIVING:
            return data
        old = {cls.recorded_renamed.get(name, name): value for name, value in data.items()}
        for name, new in cls.recorded_replaced.items():
            if name in old and new not in old:
                del old[name]
        for name, places in cls.recorded_pairs.items():
            if isinstance(old.get(name), list):
                old[name] = [
                    dict(zip(places, item, strict=True)) if isinstance(item, list | tuple) else item
                    for item in old[name]
                ]
        return old


# ---- campaigns and members ---------------------------------------------------------------------


class CampaignCreate(Strict):
    name: str = Title
    ruleset: RulesetId
    settings: dict[str, Any] | None = Field(
        default=None, description="Ruleset settings; see settings_schema of GET /v1/rulesets/{id}."
    )
    gm_name: str = Field(default="GM", min_length=1, max_length=200)


ExpiresIn = Field(
    default=None,
    ge=60,
    le=366 * 24 * 3600,
    description="Seconds the token is valid (60 s to a year); omitted: until rotated or revoked.",
)


class MemberCreate(Strict):
    name: str = Title
    role: Literal["player", "observer"]
    expires_in: int | None = ExpiresIn


class TokenRotate(Strict):
    expires_in: int | None = ExpiresIn


class ProofPagesSet(Strict):
    public: bool = Field(
        description="true: anyone with a roll's link may open its proof page, GET /proof/{roll_id}, "
        "without a token; false (the default of every campaign): nobody may."
    )


# ---- characters --------------------------------------------------------------------------------


class CharacterCreate(Strict):
    name: str = Title
    side: Side
    owner_member_id: UUID | None = Field(
        default=None,
        description="A player of the campaign; omitted: the GM (or, for a player, itself).",
    )
    sheet: dict[str, Any] = Field(description="Validated by the campaign's ruleset (sheet_schema).")
    hidden: bool = Field(
        default=False,
        description="GM only: hidden from players and observers until shown "
        "(POST /v1/characters/{character_id}/visibility)",
    )


class CharacterVisibility(Strict):
    hidden: bool = Field(description="true: players and observers no longer see it; false: shown")


class ResourceChange(Strict):
    resource: str = Field(min_length=1, max_length=60, description="e.g. resolve")
    change: int = Field(ge=-1000, le=1000, description="+n awards, -n takes away; never below 0")
    reason: str = Field(min_length=1, max_length=200, description="Why (WCBH-18 lists the reasons)")


class PoolChange(Strict):
    pool: str = Field(min_length=1, max_length=60, description="e.g. adversity")
    change: int = Field(ge=-1000, le=1000, description="+n gains, -n spends; never below 0")
    reason: str = Field(min_length=1, max_length=200)


class SheetReplace(Strict):
    sheet: dict[str, Any]
    reason: str = Field(
        min_length=1, max_length=200, description="Why the sheet changes (kept in its history)"
    )


class SheetChangeDecision(Strict):
    note: str | None = Field(default=None, max_length=200, description="For the player")


# ---- stories, game Issues, scenes --------------------------------------------------------------


class StoryCreate(Strict):
    title: str = Title


class IssueCreate(Strict):
    title: str = Title


class CombatantsJoin(Strict):
    character_ids: list[UUID] = Field(min_length=1, max_length=100)


class ActFirst(Strict):
    character_id: UUID


class SceneCreate(Strict):
    title: str = Title


# ---- rolls and roll requests -------------------------------------------------------------------


class RollCreate(Recorded):
    recorded_renamed: ClassVar[dict[str, str]] = {"check_name": "check"}

    check: str = Field(
        min_length=1, max_length=60, description="A check of the ruleset (see its `checks`)"
    )
    request: dict[str, Any] = Field(
        default_factory=dict, description="The check's request (its `request_schema`)"
    )
    character_id: UUID | None = Field(
        default=None, description="Who rolls; omitted: a raw roll, for the GM only"
    )
    client_seed: str | None = seed_field()
    secret: bool = Field(
        default=False,
        description="GM only: a secret roll, chained and counted like any other but its "
        "contents withheld from players and observers until POST /v1/rolls/{roll_id}/reveal",
    )


class FollowUpCreate(Strict):
    follow_up: str = Field(min_length=1, max_length=60, description="A follow-up of the ruleset")
    request: dict[str, Any] = Field(default_factory=dict)
    client_seed: str | None = seed_field(None)


class RollRequestApproval(Strict):
    modifiers: dict[str, Any] = Field(
        default_factory=dict,
        description="Modifiers to change or add before the roll (names from `modifier_fields`); "
        "omitted: the player's as declared",
    )


class RollRequestDecline(Strict):
    note: str | None = Field(default=None, max_length=2000, description="Why, for the player")


# ---- missions (CD-21..25) ----------------------------------------------------------------------


class MissionCreate(Strict):
    title: str = Title
    scene_id: UUID | None = Field(
        default=None, description="The mission's scene: its rests roll there unless told otherwise"
    )
    story_id: UUID | None = None


class MissionEnd(Strict):
    outcome: MissionOutcome = Field(
        description="CD-21: completed, failed, aborted (left to resupply) or lost_to_rivals"
    )


class ZoneIn(Strict):
    name: str = Field(max_length=40, description="The zone's name, unique within the counter")
    start: int = Field(description="The lowest value in the zone; the first zone starts at 0")


class CounterDefine(Strict):
    name: str = Field(
        max_length=40,
        description="1-40 of a-z, 0-9 and _, starting with a letter; unique in the mission",
        examples=["catastrophe"],
    )
    label: str | None = Field(
        default=None, max_length=80, description="For people; the name if omitted"
    )
    maximum: int = Field(description="The top of the counter, 1 to 1000 (it runs from 0)")
    zones: list[ZoneIn] = Field(
        default_factory=list,
        max_length=50,
        description="Up to 10 zones, ascending, the first at 0, each at most the maximum",
    )


class CounterChange(Strict):
    change: int = Field(description="+n raises, -n lowers (not 0); clamped to 0..maximum")
    reason: str = Field(max_length=500, description="Why, in words (required)")
    code: str | None = Field(
        default=None,
        max_length=40,
        description="Optional known reason: alarm: noise, escaped_witnesses (raise), "
        "heroes_believed_beaten, heroes_losses, heroes_captured (lower), rivals (either way); "
        "rival_progress: rival_success (raise), rival_failure (lower)",
    )


class RestCreate(Strict):
    character_ids: list[UUID] = Field(
        default_factory=list,
        max_length=50,
        description="Who rests (up to 20 characters of the campaign); none: the rest is only counted",
    )
    scene_id: UUID | None = Field(
        default=None,
        description="The open scene whose fair dice roll the rest; default: the mission's",
    )
    client_seed: str | None = seed_field()
