"""The request models We Can Be Heroes' commands take whole: what a route receives is what the
command gets (systems/wcbh/routes/ validate them, the commands read them)."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Strict(BaseModel):
    """A body that refuses unknown fields (as api.schemas.Strict, which commands may not import)."""

    model_config = ConfigDict(extra="forbid")


# ---- scene play (commands/scene_play.py): WCBH-10..12, 27, 34, 37..39 -----------------------------

ClientSeed = Field(
    default=None,
    min_length=1,
    max_length=128,
    description="Your own contribution to the randomness; generated when omitted",
)
TraitRequestBody: Any = Field(
    default_factory=dict,
    description="The `trait` check's request (see GET /v1/rulesets/wcbh): trait, modifier, "
    "resolve, decisive_moment, effort, purpose...",
)
PlayPurpose = Field(default="", max_length=2000, description="What it is about")


class HelperCreate(Strict):
    character_id: UUID
    trait: str = Field(min_length=1, max_length=80, description="The helper's relevant trait")


class AssistedRollCreate(Strict):
    character_id: UUID = Field(description="The character helped, who makes the roll")
    request: dict[str, Any] = TraitRequestBody
    helpers: list[HelperCreate] = Field(min_length=1, max_length=10)
    client_seed: str | None = ClientSeed

    @field_validator("helpers", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        # Roll requests recorded before the command took this model stored each helper as a
        # [character_id, trait] pair: the GM's approval revives them into helpers.
        if isinstance(value, list):
            return [
                {"character_id": h[0], "trait": h[1]} if isinstance(h, list | tuple) else h
                for h in value
            ]
        return value


class GroupCheckCreate(Strict):
    participants: list[UUID] = Field(min_length=2, max_length=20)
    difficulty: int = Field(default=0, ge=0, le=100, description="The difficulty of every roll")
    purpose: str = PlayPurpose


class PlayRollCreate(Strict):
    character_id: UUID
    request: dict[str, Any] = TraitRequestBody
    client_seed: str | None = ClientSeed


class HandoverCreate(Strict):
    giver_id: UUID
    receiver_id: UUID
    successes: int = Field(ge=1, le=100, description="Successes above 3 to hand over (WCBH-11)")


class ContestCreate(Strict):
    first_id: UUID
    second_id: UUID
    rolls: int = Field(default=3, ge=1, le=20, description="3 usually, 6+ for an epic contest")
    purpose: str = PlayPurpose


class ChasePairCreate(Strict):
    pursuer_id: UUID
    target_id: UUID


class ChaseCreate(Strict):
    pairs: list[ChasePairCreate] = Field(
        min_length=1, max_length=20, description="Each pursuer picks one target (WCBH-27)"
    )
    range: Literal["close", "far", "extreme"] = Field(default="far", description="Starting range")


class ChaseCheckCreate(PlayRollCreate):
    on_foot_against_faster: bool = Field(
        default=False,
        description="On foot with only Agility against a faster-than-normal Power: half the "
        "trait (WCBH-27)",
    )
    shift: Literal[-1, 0, 1] | None = Field(
        default=None,
        description="If this check wins a pair by 3+ net: -1 closer, 0 hold, 1 farther; "
        "omitted: a pursuer closes in, a target pulls away",
    )


class RecoveryCreate(Strict):
    character_id: UUID
    rested_whole_day: bool = Field(
        default=False, description="Nothing but rest for a whole day: difficulty 1 (WCBH-34)"
    )
    client_seed: str | None = ClientSeed


class ShakeOffCreate(PlayRollCreate):
    effect: str = Field(min_length=1, max_length=80, description="The effect to shake off")


class ExtensionCreate(Strict):
    character_id: UUID = Field(description="Who spends the Resolve")
    target_id: UUID = Field(description="The defeated opponent under the effect")
    effect: str = Field(min_length=1, max_length=80)


class BackInTheFightCreate(Strict):
    character_id: UUID
    use: Literal["come_back", "drop_effect"] = Field(
        description="come_back: on the page after a defeat by damage, wake with 3 Health; "
        "drop_effect: be rid of `effect` from the next page (WCBH-39)"
    )
    effect: str | None = Field(default=None, min_length=1, max_length=80)


# ---- the Resolve area (commands/resolve.py): WCBH-16, 19..21 ---------------------------------------


class ResolveGiftCreate(Strict):
    receiver_id: UUID = Field(description="The character helped; it gains 1 Resolve")
    scene_id: UUID = Field(description="The open scene the help happens in")
    purpose: str = Field(
        min_length=1, max_length=500, description="The action helped and how (WCBH-20a)"
    )
    directly: bool = Field(
        default=True,
        description="false: the giver cannot help directly (unconscious, far away): 2 Resolve "
        "give 1, and `flashback` is required",
    )
    flashback: str | None = Field(
        default=None, min_length=1, max_length=500, description="The flashback of a gift from afar"
    )


class LuckCreate(Strict):
    scene_id: UUID = Field(description="The open scene the luck is for")
    detail: str = Field(
        min_length=1,
        max_length=500,
        description="The small narrative detail to change, e.g. 'a mattress truck below'",
    )


class LuckDecision(Strict):
    approve: bool = Field(description="true: approved, 1 Resolve is spent now; false: declined")
    note: str | None = Field(default=None, min_length=1, max_length=500)


class ImitationCreate(Strict):
    character_id: UUID
    trait: str = Field(
        min_length=1, max_length=80, description="The Ability or ranked Power that imitates"
    )
    power: str = Field(
        min_length=1, max_length=80, description="The Power imitated, at the trait's rank"
    )
    purpose: str = Field(default="", max_length=500)


class LastGaspCreate(Strict):
    scene_id: UUID = Field(description="The open scene; the last gasp is for its current page")


class ScenePoolOpen(Strict):
    pool: str = Field(default="adversity", min_length=1, max_length=60)
    amount: int = Field(ge=0, le=1000, description="The pool's start")
    reason: str = Field(min_length=1, max_length=200)


class VillainousDeedCreate(Strict):
    villain_id: UUID = Field(description="The main villain: a character of the villain side")
    description: str = Field(min_length=1, max_length=500)
    scene_id: UUID | None = Field(
        default=None,
        description="Pay the 1 Adversity from this open scene's own pool; omitted: from the "
        "game Issue's pool",
    )


class AbilityLossCreate(Strict):
    roll_id: UUID = Field(description="The Decisive Moment roll the loss is owed for")
    ability: str = Field(
        min_length=1,
        max_length=80,
        description="Agility, Strength or Stamina (physical); Intelligence, Perception or Will "
        "(mental)",
    )


class AbilityRestoreCreate(Strict):
    ability: str = Field(min_length=1, max_length=80)
    reason: str = Field(min_length=1, max_length=200, description="The experience spent")
