"""The bodies of Class D Heroes combat commands (CD-8..CD-20): the routes take them, and the
commands (systems/classd/commands/fight.py) take them whole."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import Field

from domain.requests import Strict, seed_field

AttackType = Literal["melee", "ranged", "mental"]
EDGE = "CD-5: advantages (or disadvantages), one d6 each."


class ClassDRolled(Strict):
    """What every Class D command with a check takes beside its own fields, read the same way by
    every command: the roller's edges (CD-5), Will rerolls (CD-6) and own randomness."""

    # one description for both, as the API has always shown it
    advantage: int = Field(0, ge=0, le=9, description=EDGE)
    disadvantage: int = Field(0, ge=0, le=9, description=EDGE)
    will_rerolls: int = Field(
        0,
        ge=0,
        le=20,
        description="CD-6: at most this many Will, one per ordinary failure, to reroll the check; "
        "a critical failure is never rerolled.",
    )
    client_seed: str | None = seed_field("Your own randomness.")


class ClassDAttackCreate(ClassDRolled):
    attacker_id: UUID = Field(description="The attacking hero.")
    target_id: UUID = Field(description="The villain attacked.")
    attack_type: AttackType = Field(
        description="CD-10: melee (Might), ranged (Speed; a ranged weapon, or a ranged power and "
        "1 Will), mental (Spirit)."
    )
    using: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The power or gear attacked with (its `attack` type must match; its `damage` "
        "adds to the damage, CD-11).",
    )
    overflow_target_id: UUID | None = Field(
        default=None,
        description="CD-13: if the attack takes the target out with damage to spare, move the "
        "rest to this villain (rank not higher) for 1 Will.",
    )
    area: bool = Field(
        default=False, description="CD-19: an area attack (reports who else is at risk)."
    )
    purpose: str = Field(default="", max_length=200)


class ClassDVillainAttackCreate(ClassDRolled):
    villain_id: UUID
    hero_id: UUID = Field(description="The hero attacked; it rolls the defence (CD-15).")
    attack_type: AttackType
    using: str | None = Field(default=None, min_length=1, max_length=80)
    advantage: int = Field(0, ge=0, le=9, description="The defending hero's advantages (CD-5).")
    disadvantage: int = Field(0, ge=0, le=9, description="The defending hero's disadvantages.")
    purpose: str = Field(default="", max_length=200)


class ClassDActionCreate(Strict):
    character_id: UUID
    action: Literal["power", "item", "special", "flee"] = Field(
        description="A hero: power or item (CD-9); a villain: special or flee (CD-15)."
    )
    feature: str | None = Field(default=None, min_length=1, max_length=80)


class ClassDRetreatCreate(ClassDRolled):
    hero_id: UUID
    pursuer_ids: list[UUID] = Field(min_length=1, max_length=20)
    covering_ids: list[UUID] = Field(default_factory=list, max_length=20)


class ClassDStopCreate(ClassDRolled):
    hero_id: UUID
    villain_id: UUID


class ClassDMoveCreate(ClassDRolled):
    hero_id: UUID
    edge: Literal["cover", "high_ground"] = Field(description="What the move gains (CD-18).")
    stat: Literal["speed", "might"] = Field(
        default="speed", description="Speed, or Might to force through (CD-18)."
    )
    difficulty: int | None = Field(default=None, ge=0, le=50)
    difficulty_name: (
        Literal["fairly_easy", "medium", "hard", "very_hard", "at_the_limit"] | None
    ) = None
    takes_action: bool = Field(
        default=True, description="CD-18: the move takes the hero's action (only the GM says no)."
    )


class ClassDShieldCreate(Strict):
    villain_id: UUID
    hostage: str | None = Field(default=None, min_length=1, max_length=80)
    hostage_id: UUID | None = Field(default=None, description="The hostage, if a character.")
    release: bool = Field(default=False, description="The villain lets the hostage go.")


class ClassDFightEnd(Strict):
    reason: str = Field(
        min_length=1,
        max_length=200,
        description="Why the fight is over (the villains are out, fled, or the heroes got away).",
    )


class ClassDCaptureCreate(Strict):
    hero_id: UUID = Field(description="The hero the villains take, or who is freed.")
    reason: str = Field(min_length=1, max_length=200, description="What happened.")
    release: bool = Field(
        default=False, description="The hero is freed: active again, or defeated at 0 Health."
    )


class ClassDGrantCreate(Strict):
    character_id: UUID = Field(description="Who may act outside the turn order once this round.")
    reason: str = Field(
        min_length=1, max_length=200, description="The GM's reason, recorded with the grant."
    )
