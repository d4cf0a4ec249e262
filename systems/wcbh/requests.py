"""The bodies of the fight's commands (systems/wcbh/commands/fight.py, WCBH-25, 28..33, 40..47):
the routes take them and the commands take them whole."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    """A request body: unknown fields are refused (as api.schemas.Strict; commands may not import
    the API)."""

    model_config = ConfigDict(extra="forbid")


class Recorded(Strict):
    """A body that roll requests recorded before issue #14 hold in the command's old argument
    names, field by field: the GM's approval revives them into the body (tests/app/
    test_wcbh_old_roll_requests.py)."""

    @model_validator(mode="before")
    @classmethod
    def _from_old_arguments(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "active_defences" not in data or "defences" in data:
            return data
        old = dict(data)
        old["defences"] = old.pop("active_defences")
        if isinstance(old.get("targets"), list):  # an area attack's (target_id, skip_turn) pairs
            old["targets"] = [
                {"target_id": t[0], "skip_turn": t[1]} if isinstance(t, list) else t
                for t in old["targets"]
            ]
        return old


Trait = Field(min_length=1, max_length=80)
Defences = Field(
    default_factory=lambda: ["Agility"],
    max_length=10,
    description="Active defences the targets may use (Stamina is always there, WCBH-28/29)",
)
ClientSeed = Field(default=None, min_length=1, max_length=128)
Purpose = Field(default=None, max_length=200)


class AttackCreate(Recorded):
    attacker_id: UUID
    target_id: UUID
    trait: str = Field(min_length=1, max_length=80, description="The attacking trait (WCBH-28)")
    weapon: int = Field(default=0, ge=0, le=20, description="Weapon bonus dice")
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[str] = Field(
        default_factory=lambda: ["Agility"],
        max_length=10,
        description="Active defences the target may use (its Stamina is always there, WCBH-28/29)",
    )
    lethal: bool = Field(default=True, description="Non-lethal attacks meet full Stamina (WCBH-29)")
    effect: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="A special effect power: the hit gives the effect instead of damage (WCBH-35)",
    )
    purpose: str | None = Field(default=None, max_length=200)
    client_seed: str | None = Field(default=None, min_length=1, max_length=128)


class FightAttackCreate(AttackCreate):
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


class GrappleCreate(Recorded):
    attacker_id: UUID
    target_id: UUID
    trait: str = Field(default="Strength", min_length=1, max_length=80)
    aim: Literal["hold", "weapon"] = Field(
        default="hold", description="Hold the target, or take its weapon or object (WCBH-40)"
    )
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[str] = Defences
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class ManeuverCreate(Strict):
    attacker_id: UUID
    target_id: UUID
    maneuver: Literal["feint", "stunning_blow", "overpower", "taunt"]
    trait: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The attacker's trait; default: Agility (feint), Strength (overpower), "
        "Charisma (taunt); a stunning blow names its attack",
    )
    against: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The target's trait; default: Agility (feint, stunning blow), Strength "
        "(overpower), Will (taunt)",
    )
    modifier: int = Field(default=0, ge=-20, le=20)
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class AmbusherIn(Strict):
    character_id: UUID
    trait: str | None = Field(
        default=None, min_length=1, max_length=80, description="Default Stealth (Charisma)"
    )


class AmbushCreate(Strict):
    ambushers: list[AmbusherIn] = Field(min_length=1, max_length=10)
    target_ids: list[UUID] = Field(min_length=1, max_length=30)
    deceit: bool = Field(default=False, description="Deceit or seduction: Charisma (WCBH-42)")
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class AreaTargetIn(Strict):
    target_id: UUID
    skip_turn: bool = Field(
        default=False,
        description="Dodge at the full active rank by skipping the next turn (WCBH-43); the "
        "caller must act for the target",
    )


class AreaAttackCreate(Recorded):
    attacker_id: UUID
    trait: str = Trait
    targets: list[AreaTargetIn] = Field(min_length=1, max_length=30)
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    defences: list[str] = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class TeamAttackerIn(Strict):
    attacker_id: UUID
    trait: str = Trait
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    explode: bool = Field(default=False, description="1 Resolve: its 6s explode (WCBH-47)")


class TeamAttackCreate(Recorded):
    target_id: UUID
    attackers: list[TeamAttackerIn] = Field(min_length=2, max_length=10)
    defences: list[str] = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


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
    defences: list[str] = Defences
    client_seed: str | None = ClientSeed
