"""The request models We Can Be Heroes' commands take whole: what a route receives is what the
command gets (systems/wcbh/routes/ validate them, the commands read them): scene play, Resolve and
the fight (WCBH-10..47)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal
from uuid import UUID

from pydantic import Field

from domain.requests import Recorded, Strict, seed_field
from systems.wcbh.rules.attack import AttackResolve

# The texts the bodies take, each kind with its bounds once: a name (a trait, Power, effect or
# Ability), a reason or a declared moment, and an account (a purpose, a detail, a note).
Named = Annotated[str, Field(min_length=1, max_length=80)]
Reason = Annotated[str, Field(min_length=1, max_length=200)]
Account = Annotated[str, Field(min_length=1, max_length=500)]


class AttackRecorded(Recorded):
    """The attacks' bodies: their `defences` replaced the attacker's `active_defences`."""

    recorded_replaced: ClassVar[dict[str, str]] = {"active_defences": "defences"}


# ---- scene play (commands/scene_play.py): WCBH-10..12, 27, 34, 37..39 -----------------------------

ClientSeed = seed_field()
TraitRequestBody: Any = Field(
    default_factory=dict,
    description="The `trait` check's request (see GET /v1/rulesets/wcbh): trait, modifier, "
    "resolve, decisive_moment, effort, purpose...",
)
PlayPurpose = Field(default="", max_length=2000, description="What it is about")


class HelperCreate(Strict):
    character_id: UUID
    trait: Named = Field(description="The helper's relevant trait")


class AssistedRollCreate(Recorded):
    recorded_pairs: ClassVar[dict[str, tuple[str, str]]] = {"helpers": ("character_id", "trait")}

    character_id: UUID = Field(description="The character helped, who makes the roll")
    request: dict[str, Any] = TraitRequestBody
    helpers: list[HelperCreate] = Field(min_length=1, max_length=10)
    client_seed: str | None = ClientSeed


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


class RestDaysCreate(Strict):
    character_ids: list[UUID] = Field(min_length=1, max_length=30)
    whole_day: bool = Field(
        default=False,
        description="They did nothing but rest for the whole day: their next recovery check is "
        "at difficulty 1 (WCBH-34)",
    )
    reason: Reason = Field(description="Where and how the day passed")


class ShakeOffCreate(PlayRollCreate):
    effect: Named = Field(description="The effect to shake off")


class ExtensionCreate(Strict):
    character_id: UUID = Field(description="Who spends the Resolve")
    target_id: UUID = Field(description="The defeated opponent under the effect")
    effect: Named


class BackInTheFightCreate(Strict):
    character_id: UUID
    use: Literal["come_back", "drop_effect"] = Field(
        description="come_back: on the page after a defeat by damage, wake with 3 Health; "
        "drop_effect: be rid of `effect` from the next page (WCBH-39)"
    )
    effect: Named | None = None


# ---- the Resolve area (commands/resolve.py): WCBH-16, 19..21 ---------------------------------------


class ResolveGiftCreate(Strict):
    receiver_id: UUID = Field(description="The character helped; it gains 1 Resolve")
    scene_id: UUID = Field(description="The open scene the help happens in")
    purpose: Account = Field(description="The action helped and how (WCBH-20a)")
    directly: bool = Field(
        default=True,
        description="false: the giver cannot help directly (unconscious, far away): 2 Resolve "
        "give 1, and `flashback` is required",
    )
    flashback: Account | None = Field(default=None, description="The flashback of a gift from afar")


class LuckCreate(Strict):
    scene_id: UUID = Field(description="The open scene the luck is for")
    detail: Account = Field(
        description="The small narrative detail to change, e.g. 'a mattress truck below'"
    )


class LuckDecision(Strict):
    approve: bool = Field(description="true: approved, 1 Resolve is spent now; false: declined")
    note: Account | None = None


class ImitationCreate(Strict):
    character_id: UUID
    trait: Named = Field(description="The Ability or ranked Power that imitates")
    power: Named = Field(description="The Power imitated, at the trait's rank")
    purpose: str = Field(default="", max_length=500)


class LastGaspCreate(Strict):
    scene_id: UUID = Field(description="The open scene; the last gasp is for its current page")


class ScenePoolOpen(Strict):
    pool: str = Field(default="adversity", min_length=1, max_length=60)
    amount: int = Field(ge=0, le=1000, description="The pool's start")
    reason: Reason


class VillainousDeedCreate(Strict):
    villain_id: UUID = Field(description="The main villain: a character of the villain side")
    description: Account
    scene_id: UUID | None = Field(
        default=None,
        description="Pay the 1 Adversity from this open scene's own pool; omitted: from the "
        "game Issue's pool",
    )


class AbilityLossCreate(Strict):
    roll_id: UUID = Field(description="The Decisive Moment roll the loss is owed for")
    ability: Named = Field(
        description="Agility, Strength or Stamina (physical); Intelligence, Perception or Will "
        "(mental)"
    )


class AbilityRestoreCreate(Strict):
    ability: Named
    reason: Reason = Field(description="The experience spent")


# ---- the fight (commands/fight.py): WCBH-25, 28..33, 40..47 ------------------------------------


Defences = Field(
    default=None,
    max_length=10,
    description="The targets' side only (whoever sends it must act for every target): the active "
    "defences they may use here. Omitted: every defence on their sheets, the best one counting "
    "(WCBH-28); passive ones (Stamina, armour Powers) always count",
)
# The fight's bodies describe no client seed (their OpenAPI is as it was).
FightClientSeed = seed_field(None)
Purpose = Field(default=None, max_length=200)


class AttackCreate(AttackRecorded):
    attacker_id: UUID
    target_id: UUID
    trait: Named = Field(description="The attacking trait (WCBH-28)")
    weapon: int = Field(default=0, ge=0, le=20, description="Weapon bonus dice")
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[str] | None = Field(
        default=None,
        max_length=10,
        description="The target's side only (whoever sends it must act for the target, and for "
        "the club or the defender): the active defences it may use here. Omitted: every defence "
        "on its sheet, the best one counting (WCBH-28); passive ones (Stamina, armour Powers) "
        "always count",
    )
    lethal: bool = Field(default=True, description="Non-lethal attacks meet full Stamina (WCBH-29)")
    effect: Named | None = Field(
        default=None,
        description="A special effect power: the hit gives the effect besides its damage (WCBH-35)",
    )
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class FightAttackCreate(AttackCreate, AttackResolve):
    maneuver: Literal["charge", "all_out"] | None = Field(
        default=None,
        description="charge: +2 dice, the attacker's active defence halved to the end of the page, "
        "collision damage against a passive defence; all_out: +2 dice, its active and passive "
        "defences halved to the end of the page (WCBH-44)",
    )
    club_id: UUID | None = Field(
        default=None,
        description="Bash the target with this foe: -2 dice, both defend, the club first (WCBH-44)",
    )
    defender_id: UUID | None = Field(
        default=None,
        description="An ally rolling the defence for the target instead of its next action "
        "(WCBH-44); the caller must act for the ally",
    )
    defender_active: bool = Field(
        default=True,
        description="The ally defends actively (on failure the target still defends) or "
        "passively (the ally takes the damage)",
    )
    redirect: bool = Field(
        default=False,
        description="The target declared a redirect before its defence roll: it defends actively "
        "only (WCBH-46); the caller must act for the target",
    )


class DeclarationCreate(Strict):
    character_id: UUID
    actions: int = Field(
        default=1, ge=1, le=10, description="Actions this page: each extra one -2 dice (WCBH-25)"
    )
    all_out_defence: bool = Field(
        default=False, description="+2 dice to defence, no actions this page (WCBH-44)"
    )


class MoveCreate(Strict):
    character_id: UUID


class TurnPassCreate(Strict):
    character_id: UUID = Field(description="The character giving up the rest of its turn")


class DelayCreate(Strict):
    character_id: UUID = Field(description="The character delaying its action (WCBH-23)")
    moment: Reason = Field(
        description="The declared moment it acts at, e.g. 'when the guard opens the door'"
    )


class MomentCreate(Strict):
    moment: Reason = Field(description="The declared moment that came (WCBH-23)")


class OrderOverrideCreate(Strict):
    character_id: UUID = Field(description="The character the GM lets act out of order")
    reason: Reason = Field(description="Why (recorded)")


class EffectRulingCreate(Strict):
    """WCBH-35, 37: what a special effect lets its character do; the power's description decides
    (the GM's call). By default an effect forbids all three."""

    character_id: UUID = Field(description="The character under the effect")
    effect: Named = Field(description="The effect, as it was applied")
    may_act: bool = Field(default=False, description="It may still take actions (attack...)")
    may_move: bool = Field(default=False, description="It may still move")
    may_defend_actively: bool = Field(
        default=False, description="It may still defend actively (dodge, parry)"
    )
    reason: Reason = Field(description="What the power says")


class GrappleCreate(AttackRecorded):
    attacker_id: UUID
    target_id: UUID
    trait: Named = "Strength"
    aim: Literal["hold", "weapon"] = Field(
        default="hold", description="Hold the target, or take its weapon or object (WCBH-40)"
    )
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[str] | None = Defences
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class ManeuverCreate(Strict):
    attacker_id: UUID
    target_id: UUID
    maneuver: Literal["feint", "stunning_blow", "overpower", "taunt"]
    trait: Named | None = Field(
        default=None,
        description="The attacker's trait; default: Agility (feint), Strength (overpower), "
        "Charisma (taunt); a stunning blow names its attack",
    )
    against: Named | None = Field(
        default=None,
        description="The target's trait; default: Agility (feint, stunning blow), Strength "
        "(overpower), Will (taunt)",
    )
    modifier: int = Field(default=0, ge=-20, le=20)
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class AmbusherIn(Strict):
    character_id: UUID
    trait: Named | None = Field(default=None, description="Default Stealth (Charisma)")


class AmbushCreate(Strict):
    ambushers: list[AmbusherIn] = Field(min_length=1, max_length=10)
    target_ids: list[UUID] = Field(min_length=1, max_length=30)
    deceit: bool = Field(default=False, description="Deceit or seduction: Charisma (WCBH-42)")
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class AreaTargetIn(Strict):
    target_id: UUID
    skip_turn: bool = Field(
        default=False,
        description="Dodge at the full active rank by skipping the next turn (WCBH-43); the "
        "caller must act for the target",
    )


class AreaAttackCreate(AttackRecorded):
    recorded_pairs: ClassVar[dict[str, tuple[str, str]]] = {"targets": ("target_id", "skip_turn")}

    attacker_id: UUID
    trait: Named
    targets: list[AreaTargetIn] = Field(min_length=1, max_length=30)
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    defences: list[str] | None = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class TeamAttackerIn(Strict):
    attacker_id: UUID
    trait: Named
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    explode: bool = Field(default=False, description="1 Resolve: its 6s explode (WCBH-47)")


class TeamAttackCreate(AttackRecorded):
    target_id: UUID
    attackers: list[TeamAttackerIn] = Field(min_length=2, max_length=10)
    defences: list[str] | None = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = FightClientSeed


class KnockbackCreate(Strict):
    target_id: UUID | None = Field(
        default=None, description="The target (needed for an area attack with several)"
    )
    hits_object: Literal["sturdier", "weaker"] | None = Field(
        default=None,
        description="It crashes into an object: half the attack's damage again; a weaker "
        "object is smashed through (WCBH-45)",
    )


class RedirectCreate(Strict):
    at_id: UUID | None = Field(
        default=None,
        description="Redirect at this character (the defender loses its next turn, the new "
        "target defends); null: at something behind the defender (WCBH-46)",
    )
    defences: list[str] | None = Defences
    client_seed: str | None = FightClientSeed


# ---- the fight's ground (commands/ground.py): WCBH-26, 30 -------------------------------------------


class RangeSet(Strict):
    first_id: UUID
    second_id: UUID
    range: Literal["close", "far", "extreme", "beyond"] = Field(
        description="The range class between the two (WCBH-26): close (melee to a page's run), "
        "far (most Powers and weapons), extreme (in sight), beyond"
    )
    reason: Reason = Field(description="What the GM sees on the ground")


class RangeMoveCreate(Strict):
    character_id: UUID = Field(description="Who moves (its one move of the page, WCBH-25)")
    other_id: UUID = Field(description="The character it moves towards or away from")
    to: Literal["close", "far", "extreme", "beyond"] = Field(
        description="The range class next to the present one (WCBH-26: one class at a time)"
    )
    power: Named | None = Field(
        default=None,
        description="A movement Power: of rank 6+ it changes the class in one page, else two",
    )


class SituationSet(Strict):
    character_id: UUID
    cover: int = Field(
        default=0, ge=0, le=3, description="Cover or poor visibility: -1..-3 dice to attacks on it"
    )
    size: Literal["tenth", "half", "same", "double", "tenfold"] = Field(
        default="same",
        description="Its size against an ordinary person's: attacks on a bigger target get +1 "
        "(double) or +3 (tenfold), on a smaller one -1 or -3 (WCBH-30)",
    )
    reason: Reason
