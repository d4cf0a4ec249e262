"""Request and response bodies (XCreate in, XPublic out) and the presenters that fill them."""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any, Literal, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from pydantic import BaseModel, Field

import systems
from domain.aggregates import Campaign, Character, Issue, Roll, RollRequest, Scene, Story
from domain.aggregates.campaign import Member
from domain.requests import RulesetId, Side
from domain.rulesets import get_ruleset
from domain.signing import Signing
from projections.translation import iso

# The request bodies of the lifecycle commands are in domain/requests.py (the commands take them).

# What each system adds to the character and scene responses: its `schemas` part may define
# `CharacterFields` and `SceneFields` (models whose fields the shared responses take on) and
# `character_fields`, `character_conditions` and `scene_fields` (what fills them), so that the
# presenters here know no system by name (docs/architecture.md, "The registry").
SYSTEM_SCHEMAS = systems.parts("schemas")


def contributed(name: str) -> list[Any]:
    """What the systems' `schemas` parts define under `name`, in the order they are installed."""
    return [getattr(part, name) for part in SYSTEM_SCHEMAS if hasattr(part, name)]


def systems_fill(name: str, *shown: Aggregate) -> dict[str, Any]:
    """The fields every system's `name` presenter fills for the aggregates `shown`."""
    fields: dict[str, Any] = {}
    for fill in contributed(name):
        fields |= fill(*shown)
    return fields


M = TypeVar("M", bound=BaseModel)


def read_off(model: type[M], source: object, **shown: Any) -> M:
    """`model` with each field read off `source`'s attribute of the same name (those it has), but
    for the fields `shown` here: a presenter names only what differs from its aggregate."""
    read = {name: getattr(source, name) for name in model.model_fields if hasattr(source, name)}
    return model.model_validate(read | shown)


class ReceiptPublic(BaseModel):
    """Keep it: it proves this roll, and every roll before it, is in any later export unaltered."""

    campaign_id: UUID
    sequence: int = Field(description="The roll's place in the campaign's chain")
    roll_id: UUID
    hash: str = Field(description="The roll record's hash; it covers the hash before it")
    key_id: str = Field(description="The signing key, as GET /v1/signing-keys lists it")
    signature: str = Field(description="Ed25519, hex, over the encoding of docs/receipts.md")


class Written(BaseModel):
    version: int = Field(description="The resource's version; send it back in If-Match.")
    position: int | None = Field(
        default=None,
        description="Log position this command was written at (command responses only).",
    )
    receipts: list[ReceiptPublic] = Field(
        default_factory=list,
        description="The signed receipts of every roll this command made, in chain order "
        "(docs/receipts.md; command responses only): keep them",
    )


# ---- campaigns and members ---------------------------------------------------------------------


class MemberPublic(BaseModel):
    id: UUID
    name: str
    role: Literal["gm", "player", "observer"]
    token_revoked: bool = Field(
        default=False, description="True once the GM revoked its token (until it rotates one)"
    )
    token_expires_at: str | None = Field(
        default=None, description="When its token stops working (ISO 8601); null: never"
    )


class CampaignPublic(Written):
    id: UUID
    name: str
    ruleset: RulesetId
    settings: dict[str, Any]
    members: list[MemberPublic]
    hidden_character_ids: list[UUID] = Field(
        default_factory=list,
        description="The characters players and observers do not see (the GM's list; empty for them)",
    )
    withheld_roll_ids: list[UUID] = Field(
        default_factory=list,
        description="The secret GM rolls not revealed yet: chained and counted, contents withheld",
    )
    proof_pages_public: bool = Field(
        description="Whether anyone may open its rolls' proof pages, GET /proof/{roll_id}, "
        "without a token (PUT .../proof-pages; off until the GM opens them)"
    )


class CampaignCreated(CampaignPublic):
    gm_member_id: UUID
    gm_token: str = Field(description="The GM's bearer token. Shown once: keep it.")


class TokenIssued(Written):
    member_id: UUID
    campaign_id: UUID
    token: str = Field(description="The member's new bearer token. Shown once: keep it.")
    token_expires_at: str | None = Field(description="When it stops working; null: never")


class MemberCreated(Written):
    id: UUID
    campaign_id: UUID
    name: str
    role: Literal["player", "observer"]
    token: str = Field(description="The member's bearer token. Shown once: keep it.")


class CampaignSummary(BaseModel):
    id: UUID
    name: str
    ruleset: RulesetId


class MePublic(BaseModel):
    """Who the token is: a front end's first call after a member pastes it."""

    member: MemberPublic
    campaign: CampaignSummary


def member_public(member: Member) -> MemberPublic:
    return read_off(MemberPublic, member, token_revoked=member.token_hash is None)


def campaign_public(campaign: Campaign) -> CampaignPublic:
    members = [member_public(m) for m in campaign.members.values()]
    return read_off(CampaignPublic, campaign, members=members)


def me_public(campaign: Campaign, member_id: UUID) -> MePublic:
    return MePublic(
        member=member_public(campaign.members[member_id]),
        campaign=CampaignSummary(
            id=campaign.id,
            name=campaign.name,
            ruleset=campaign.ruleset,  # type: ignore[arg-type]
        ),
    )


# ---- characters --------------------------------------------------------------------------------


class CharacterPublic(Written, *contributed("CharacterFields")):  # type: ignore[misc]
    id: UUID
    campaign_id: UUID
    name: str
    side: Side
    owner_member_id: UUID | None = Field(description="null: the GM's character")
    sheet: dict[str, Any]
    derived: dict[str, Any] = Field(description="Stats computed from the sheet by the ruleset.")
    resources: dict[str, dict[str, Any]] = Field(
        description="Resources with max, start, refresh and the current level."
    )
    status: str = Field(default="active", description="active, or as the ruleset's rules change it")
    conditions: list[dict[str, Any]] = Field(
        default_factory=list, description="Conditions and effects with their remaining duration"
    )
    sheet_changes: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Sheet changes players proposed (setting player_sheet_changes = gm_approval), "
        "by id: sheet, reason, proposed_by, status (pending, approved, declined, replaced), note",
    )


def character_public(character: Character, campaign: Campaign) -> CharacterPublic:
    rules = get_ruleset(campaign.ruleset)
    settings = rules.parse_settings(campaign.settings)
    sheet = rules.parse_sheet(character.sheet, settings, side=character.side)
    return read_off(
        CharacterPublic,
        character,
        derived=rules.derived_stats(sheet, settings),
        resources={
            name: {**spec, "current": character.resources.get(name, spec["start"])}
            for name, spec in rules.resources(sheet, settings).items()
        },
        conditions=[{"name": name, **effect} for name, effect in character.effects.items()]
        + [{"name": name, **c} for name, c in character.fight_conditions.items()]  # WCBH-40/41
        + [
            c for listed in contributed("character_conditions") for c in listed(character, campaign)
        ],
        **systems_fill("character_fields", character, campaign),
    )


# ---- stories, game Issues, scenes --------------------------------------------------------------


class StoryPublic(Written):
    id: UUID
    campaign_id: UUID
    title: str
    status: Literal["running", "completed"]
    running_issue_id: UUID | None
    issue_ids: list[UUID]
    once_per_story_uses: dict[str, list[UUID]] = Field(
        description="Limited uses made in this story, e.g. decisive_moment → characters (WCBH-15)"
    )


def story_public(story: Story) -> StoryPublic:
    return read_off(StoryPublic, story, once_per_story_uses=story.uses)


class IssuePublic(Written):
    """A game Issue: one session of play."""

    id: UUID
    campaign_id: UUID
    story_id: UUID
    title: str
    number: int = Field(description="1 for the story's first game Issue, then 2, 3…")
    status: Literal["running", "ended"]
    scene_ids: list[UUID]
    open_scene_ids: list[UUID]
    pools: dict[str, int] = Field(
        description="The GM's pools of this game Issue, e.g. adversity (WCBH-21)"
    )
    villainous_deed: dict[str, Any] | None = Field(
        default=None,
        description="The main villain's once-per-game-Issue deed: villain_id, description, "
        "scene_id (WCBH-21); null until done",
    )


def issue_public(issue: Issue) -> IssuePublic:
    return read_off(IssuePublic, issue)


class SeedEpochPublic(BaseModel):
    number: int = Field(
        description="0 for the seed committed when the scene opened, then 1, 2… per rotation"
    )
    commitment: str = Field(description="SHA-256 (hex) of the secret seed, shown before any roll")
    revealed_seed: str | None = Field(description="The seed (hex) once revealed; null while secret")
    rolls: int = Field(description="Rolls made with this seed; the next roll's nonce")


class SceneHead(BaseModel):
    """Which scene it is and where it stands: what a list shows and the whole scene begins with."""

    id: UUID
    campaign_id: UUID
    story_id: UUID
    issue_id: UUID
    title: str
    status: Literal["open", "closed"]


class ScenePublic(SceneHead, Written, *contributed("SceneFields")):  # type: ignore[misc]
    page: int = Field(description="The current page (round), from 1.")
    seeds: list[SeedEpochPublic] = Field(
        description="The dice seeds of the scene (docs/fair-dice.md)"
    )
    once_per_scene_uses: dict[str, list[UUID]] = Field(
        description="Limited uses made in this scene, e.g. decisive_moment → characters (WCBH-15)"
    )
    combatants: list[UUID] = Field(description="The characters in the scene's fight")
    acting_first: list[UUID] = Field(description="Who spent Resolve to act first (WCBH-24)")
    order_of_action: list[list[UUID]] | None = Field(
        default=None,
        description="Groups in acting order (a group acts simultaneously), WCBH-22..24; null "
        "without combatants or in rulesets without a fixed order",
    )
    # Resolve area (systems/wcbh/docs/resolve.md)
    pools: dict[str, int] = Field(
        default_factory=dict,
        description="The scene's own pools, apart from its game Issue's, e.g. adversity (WCBH-21)",
    )
    imitations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Powers imitated for this scene: character_id, trait, power, rank (WCBH-20f)",
    )


def scene_public(scene: Scene, order: list[list[UUID]] | None = None) -> ScenePublic:
    return read_off(
        ScenePublic,
        scene,
        seeds=[read_off(SeedEpochPublic, e) for e in scene.epochs],
        once_per_scene_uses=scene.uses,
        order_of_action=order,
        **systems_fill("scene_fields", scene),
    )

    # ---- rolls -------------------------------------------------------------------------------------


class FacePublic(BaseModel):
    index: int
    sides: int
    face: int
    kept: bool
    exploded_from: int | None
    reroll_of: int | None
    label: str | None


class OddsPublic(BaseModel):
    success: float | None = Field(description="Chance of success as the ruleset defines it, exact")
    at_least: float | None = Field(
        description="Chance that the same check gives a result this good or better"
    )


class Proof(BaseModel):
    commitment: str
    client_seed: str | None = Field(description="null while the roll is withheld")
    nonce: int
    sequence: int = Field(description="Place in the campaign's roll chain, from 0")
    prev_hash: str
    hash: str
    seed: str | None = Field(description="The scene seed (hex) once revealed, else null")


class RollPublic(Written):
    id: UUID
    campaign_id: UUID
    scene_id: UUID
    nonce: int
    character_id: UUID | None
    rolled_by: UUID
    withheld: bool = Field(
        default=False,
        description="A secret GM roll (or a roll of a hidden character) as a player or an "
        "observer sees it until revealed: its place in the chain, hashes and commitment only; "
        "every content field is null",
    )
    check: str | None
    follow_up: str | None
    follow_up_of: UUID | None
    request: dict[str, Any] | None
    faces: list[FacePublic] | None
    result: dict[str, Any] | None
    odds: OddsPublic | None
    proof: Proof
    receipt: ReceiptPublic
    modifiers: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Each situational modifier: field, value, who gave it (`by`, `role`) and "
        "under which rule ('gm', 'player_modifiers:trusted', 'player_modifiers:gm_approval' "
        "with `approved_by`, or a rule id for the rules' own dice)",
    )
    set_by_gm: list[str] = Field(
        default_factory=list, description="The sheet numbers of the request the GM gave itself"
    )
    recorded_at: str = Field(
        description="When the roll was recorded: its event's timestamp (ISO 8601, UTC), the "
        "`timestamp` of its Roll.Recorded entry in /events and the export"
    )


# The signer of the request's application, bound by api.deps.get_app: every presenter of a roll signs
# its receipt without each route handing the application down (FastAPI copies the request's context
# into the thread that runs a `def` route).
REQUEST_SIGNING: ContextVar[Signing] = ContextVar("REQUEST_SIGNING")


def receipt_public(roll_id: UUID | str, made: Iterable[Aggregate] = ()) -> ReceiptPublic:
    """The receipt of a roll that a response names only by its id (`made`: Outcome.saved)."""
    return ReceiptPublic.model_validate(REQUEST_SIGNING.get().receipt_of(roll_id, made))


class RollRequestPublic(Written):
    """A player's roll with situational modifiers, waiting for the GM (player_modifiers)."""

    id: UUID
    campaign_id: UUID
    scene_id: UUID
    character_id: UUID | None
    requested_by: UUID
    command: str = Field(description="The command the player sent, run on approval")
    arguments: dict[str, Any] = Field(description="Its arguments, as sent")
    modifiers: dict[str, Any] = Field(description="The modifiers the player declared")
    modifier_fields: list[str] = Field(description="The modifiers the GM may set on approval")
    status: Literal["pending", "approved", "declined"]
    decided_by: UUID | None
    approved_modifiers: dict[str, Any] | None = Field(
        description="What counted: the player's modifiers with the GM's changes"
    )
    result_id: UUID | None = Field(description="On approval: the roll it made")
    receipt: ReceiptPublic | None = Field(
        None, description="On approval: the signed receipt of `result_id` (docs/receipts.md)"
    )
    note: str | None


def roll_request_public(request: RollRequest, made: Iterable[Aggregate] = ()) -> RollRequestPublic:
    """`made`: what the approving command saves, where its roll is found before the save."""
    receipt = None if request.result_id is None else receipt_public(request.result_id, made)
    return read_off(RollRequestPublic, request, command=request.verb, receipt=receipt)


class RollRequestList(BaseModel):
    items: list[RollRequestPublic]


def roll_public(roll: Roll, scene: Scene) -> RollPublic:
    seeds = {e.commitment: e.revealed_seed for e in scene.epochs}
    return roll_public_of(
        roll.record,
        roll.odds,
        roll.version,
        seeds,
        iso(roll.created_on),  # as the views keep it
    )


def roll_public_of(
    record: dict[str, Any],
    odds: dict[str, Any],
    version: int,
    seeds: dict[str, str | None],
    recorded: str,
) -> RollPublic:
    """A roll from its record, read from the aggregate or from the views alike; `seeds`: the
    scene's revealed seeds by commitment (None while secret)."""
    return RollPublic(
        id=record["roll_id"],
        campaign_id=record["campaign_id"],
        scene_id=record["scene_id"],
        nonce=record["nonce"],
        character_id=record.get("character_id"),
        rolled_by=record["rolled_by"],
        check=record["check"],
        follow_up=record.get("follow_up"),
        follow_up_of=record.get("follow_up_of"),
        request=record["request"],
        faces=record["faces"],
        result=record["result"],
        odds=OddsPublic(success=odds.get("success"), at_least=odds.get("at_least")),
        proof=Proof(
            commitment=record["commitment"],
            client_seed=record["client_seed"],
            nonce=record["nonce"],
            sequence=record["sequence"],
            prev_hash=record["prev_hash"],
            hash=record["hash"],
            seed=seeds.get(record["commitment"]),
        ),
        receipt=ReceiptPublic.model_validate(REQUEST_SIGNING.get().receipt(record)),
        version=version,
        modifiers=record.get("modifiers", []),
        set_by_gm=record.get("set_by_gm", []),
        recorded_at=recorded,
    )


class ProblemPublic(BaseModel):
    kind: str
    message: str
    sequence: int | None = None
    roll_id: str | None = None
    line: int | None = Field(None, description="The line of the campaign's export that shows it")


class ChainReport(BaseModel):
    intact: bool
    rolls: int
    recomputed: int
    problems: list[ProblemPublic]


class Recomputed(BaseModel):
    revealed: bool = Field(
        description="Is the roll's seed revealed yet? Only then can faces be recomputed"
    )
    match: bool | None = Field(description="Do the recomputed faces and result match the record?")
    problems: list[ProblemPublic]


class Verification(BaseModel):
    roll_id: UUID
    chain: ChainReport
    recomputed: Recomputed
    warnings: list[ProblemPublic] = Field(
        default_factory=list,
        description="Worth knowing, no failure (e.g. a server-made client seed)",
    )


class CampaignVerification(BaseModel):
    """What `chronicle verify` says of the campaign's export, computed from the live store."""

    intact: bool
    rolls: int
    recomputed: int = Field(description="Rolls whose seed is revealed, recomputed and compared")
    problems: list[ProblemPublic]
    unverified: list[ProblemPublic] = Field(
        description="Rolls whose seed is not revealed yet: not recomputed, so not verified"
    )
    warnings: list[ProblemPublic]


class LuckReport(BaseModel):
    rolls: int
    mean_percentile: float | None = Field(description="50 is average; higher is luckier")
    p_value: float | None = Field(description="Kolmogorov–Smirnov p-value against fair dice")
    verdict: str


# Missions' schemas live in api/routers/missions.py.


# ---- rulesets and health -----------------------------------------------------------------------


class StatDescription(BaseModel):
    name: str
    description: str
    rule: str | None = None
    refresh: str | None = None


class CheckDescription(BaseModel):
    name: str
    description: str
    rules: list[str]
    request_schema: dict[str, Any]
    example: dict[str, Any] = Field(description="A valid request for the ruleset's example sheet")
    sheet_fields: list[str] = Field(
        description="Numbers the sheet or the scene supplies: only the GM sends them"
    )
    modifier_fields: list[str] = Field(
        description="Situational modifiers; a player's follow the campaign's player_modifiers"
    )
    via: str | None = Field(
        description="Set where a verb builds the request: the endpoint players roll it through"
    )


class FollowUpDescription(BaseModel):
    name: str
    description: str
    rules: list[str]
    request_schema: dict[str, Any]
    via: str | None = Field(
        default=None,
        description="Null: ask for it with POST /v1/rolls/{id}/follow-ups. Else the verb that "
        "gives it (e.g. Nimble's Help, NB-19), which checks who may and what it costs.",
    )


class RulesetPublic(BaseModel):
    id: RulesetId
    name: str
    sheet_schema: dict[str, Any]
    settings_schema: dict[str, Any]
    example_sheet: dict[str, Any] = Field(description="A hero's sheet (as `example_sheets.hero`).")
    example_sheets: dict[Side, dict[str, Any]] = Field(
        default_factory=dict,
        description="A valid sheet for each side (hero, villain, opponent, minion, other), under "
        "the default settings: how the system writes villains, minions or monster groups.",
    )
    example_settings: dict[str, Any]
    derived_stats: list[StatDescription]
    resources: list[StatDescription]
    example_derived: dict[str, Any]
    example_resources: dict[str, dict[str, Any]]
    checks: list[CheckDescription] = Field(default_factory=list)
    follow_ups: list[FollowUpDescription] = Field(default_factory=list)


class RuleReference(BaseModel):
    """One rule of a ruleset's reference: the ids in every refusal's `rule` field are looked up here."""

    id: str = Field(description="The rule id, as refusals and rolls cite it (e.g. 'WCBH-22').")
    title: str
    section: str = Field(description="The part of the rules it belongs to.")
    text: str = Field(description="What the rule says, in short (our words, not the source's).")
    status: Literal["enforced", "partial", "gm", "reference"] = Field(
        description="'enforced': the service applies it and refuses what breaks it; 'partial': "
        "part of it (`enforced` says which); 'gm': the service records what the GM decides and "
        "leaves the rest to the table; 'reference': information only."
    )
    enforced: str = Field(description="What the service does about it, and which command.")


class RulesetSummary(BaseModel):
    id: RulesetId
    name: str


class Health(BaseModel):
    status: Literal["ok"]
    backend: Literal["sqlite", "postgres"]
    position: int = Field(description="The newest log position.")


class Ready(BaseModel):
    status: Literal["ready"]
    head: int = Field(description="The log's last position.")
    views_position: int = Field(description="The last log position the views applied.")
    lag: int = Field(description="Positions the views have still to apply.")
    max_lag: int = Field(description="The most the views may lag for the service to be ready.")
