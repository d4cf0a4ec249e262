"""The request models of Nimble's commands (NB-1..NB-26): a route validates a body into one and
hands it to the command whole (systems/nimble/routes/)."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import Field

from domain.requests import Strict, seed_field
from systems.nimble.rules.checks import attack_number_field
from systems.nimble.rules.sheet import MAX_TIER

Steps = Field(0, ge=0, le=10, description="Steps of advantage or disadvantage (NB-11).")
Seed = seed_field("Your own randomness.")
Short = Field(default="", max_length=200)
SceneId = Field(description="The scene this happens in (open).")
Reason = Field(default="", max_length=200, description="Why (shown in the timeline).")


def extra_mana_field(description: str) -> Any:
    """NB-12: the extra mana a caster adds for a stronger effect, bounded like a spell's tier."""
    return Field(0, ge=0, le=MAX_TIER, description=description)


class NimbleRolled(Strict):
    """What a body with a roll gives besides its numbers, read the same way by every command:
    the roller's steps of advantage and disadvantage (NB-11) and its own randomness."""

    advantage: int = Steps
    disadvantage: int = Steps
    client_seed: str | None = Seed


# ---- the encounter (NB-1..NB-19) -----------------------------------------------------------------


class NimbleStartCreate(Strict):
    order: list[UUID] = Field(
        min_length=1,
        max_length=50,
        description="NB-3: every creature once, in the fixed order of turns (heroes first in "
        "their agreed order; monster groups where they act).",
    )
    party: Literal["advantage", "three_actions"] | None = Field(
        default=None,
        description="NB-2: the party surprises: advantage on Initiative, or every hero starts "
        "with 3 actions (no roll).",
    )
    surprised: dict[UUID, Literal["disadvantage", "one_action"]] = Field(
        default_factory=dict,
        max_length=50,
        description="NB-2: surprised heroes roll with disadvantage, or start with 1 action.",
    )
    monsters_first: bool = Field(
        default=False, description="NB-2: surprised party: the monsters act first this round."
    )
    client_seed: str | None = Seed


class NimbleTurnEnd(Strict):
    character_id: UUID = Field(description="Whose turn ends (it must be its turn, NB-4).")


class NimbleSwapCreate(Strict):
    first_id: UUID
    second_id: UUID


class NimbleGrantCreate(Strict):
    character_id: UUID
    actions: int = Field(ge=1, le=10, description="NB-7: actions beyond the normal limit.")
    reason: str = Field(min_length=1, max_length=200)


class NimbleActionCreate(Strict):
    character_id: UUID
    action: str = Field(min_length=1, max_length=80, description="What the creature does.")
    cost: int = Field(1, ge=0, le=3, description="NB-7: actions it costs (most things: 1).")
    free: bool = Field(False, description="NB-8: the turn's one free action (costs nothing).")
    use_key: str | None = Field(
        default=None, min_length=1, max_length=80, description="NB-5: a limited ability's key."
    )
    per: Literal["turn", "round", "encounter"] | None = Field(
        default=None,
        description="NB-5: 1/turn, 1/round (resets at the end of one's own turn), 1/encounter.",
    )
    spell: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="NB-12: the sheet's spell cast (its `spells`, or an attack with a `tier`); "
        "its tier in mana is spent.",
    )
    mana: int = Field(
        0,
        ge=0,
        le=99,
        description="NB-12: optional check of what `spell` costs: if given, it must be the "
        "sheet's tier plus `extra_mana` (422 otherwise, or without `spell`).",
    )
    extra_mana: int = extra_mana_field(
        "NB-12: extra mana for a stronger effect, up to the spell's `upcast`.",
    )
    save_ability: bool = Field(
        False,
        description="NB-10: an ability targets resist with a save (hasty uses give them "
        "advantage).",
    )
    activity_cost: int | None = Field(
        default=None,
        ge=1,
        le=30,
        description="NB-6: an activity costing this many actions, spread over turns.",
    )
    end_concentration: bool = Field(
        False, description="NB-6/NB-8: a free action ending the concentrated activity."
    )


class NimbleMoveCreate(Strict):
    character_id: UUID
    squares: int = Field(ge=0, le=200, description="Ordinary squares moved.")
    difficult: int = Field(0, ge=0, le=200, description="NB-13: squares of difficult terrain.")


class NimbleAttackCreate(NimbleRolled):
    attacker_id: UUID
    target_id: UUID
    attack: str = Field(min_length=1, max_length=80, description="The sheet's attack (NB-9).")
    spell_tier: int | None = Field(
        default=None,
        ge=0,
        le=MAX_TIER,
        description="NB-12: optional check: the attack's tier comes from the sheet (and is paid "
        "in mana); a different tier here is refused (422).",
    )
    extra_mana: int = extra_mana_field(
        "NB-12: extra mana for a stronger effect, up to the attack spell's `upcast`.",
    )
    opportunity: bool = Field(
        False, description="NB-18: a hero's opportunity attack (a reaction, disadvantage)."
    )
    defend: bool = Field(
        False, description="NB-16: the (final) target Defends: Armor off unless critical."
    )
    interpose_by: UUID | None = Field(
        default=None, description="NB-17: an ally hero interposes and becomes the target."
    )
    hold: bool | None = Field(
        None,
        description="NB-15: a hit waits for the reactions declared after seeing the roll (and "
        "for Help, NB-19); it lands with POST .../attacks/{roll_id}/resolve. Not with `defend` "
        "or `interpose_by`. Unset: a hit on a hero waits (reactions after seeing the roll are "
        "the rule), a hit on a monster lands at once; false: lands at once.",
    )
    purpose: str = Short


class NimbleResolveCreate(Strict):
    defend: bool = Field(
        False, description="NB-16: the (final) target Defends: its Armor off unless critical."
    )
    interpose_by: UUID | None = Field(
        default=None, description="NB-17: an ally hero interposes and becomes the target."
    )


class NimbleAssessCreate(NimbleRolled):
    character_id: UUID
    skill: str = Field(min_length=1, max_length=80)
    option: Literal["question", "find_weakness", "anticipate_danger"]
    target_id: UUID | None = Field(default=None, description="For find_weakness.")
    question: str = Short


class NimbleHelpCreate(Strict):
    helper_id: UUID
    roll_id: UUID = Field(description="The ally's Assess roll, or its held attack (NB-19).")
    die: int | None = Field(
        default=None,
        ge=0,
        le=200,
        description="For a held attack: the index (in its faces) of the kept die to reroll.",
    )
    purpose: str = Short
    client_seed: str | None = Seed


# ---- a grapple in the encounter (NB-24) ------------------------------------------------------


class NimbleEncounterGrappleCreate(NimbleRolled):
    grappler_id: UUID = Field(description="Who grapples: on its own turn (NB-15), 1 action (NB-7).")
    target_id: UUID = Field(description="The creature grabbed (in the encounter).")
    size: str = Field(
        min_length=1,
        max_length=20,
        description="smaller, same or larger: the target's size against the grappler's; larger "
        "makes the grappler Mounted (NB-24).",
    )
    skill: str = Field(
        default="Might", min_length=1, max_length=20, description="Might or Finesse (NB-24)."
    )
    modifier: int | None = Field(
        default=None, ge=-20, le=40, description="Monsters only: the check's modifier (else +0)."
    )


# ---- health (NB-20..NB-26) -------------------------------------------------------------------


class NimbleDamageCreate(Strict):
    scene_id: UUID = SceneId
    amount: int = Field(ge=0, le=9999, description="Damage after Armor (NB-16, NB-20).")
    critical: bool = Field(
        default=False,
        description="A critical hit: 3 Wounds while Dying (NB-21), a Concentration save "
        "(NB-25), the end of a grapple (NB-24).",
    )


class NimbleHealCreate(Strict):
    amount: int = Field(ge=1, le=9999, description="HP restored, up to the maximum (NB-20).")
    reason: str = Reason


class NimbleTempHpCreate(Strict):
    amount: int = Field(ge=1, le=9999, description="Temporary HP offered (NB-23).")
    keep: Literal["higher", "new", "current"] = Field(
        default="higher",
        description="NB-23: they do not stack; the hero keeps one amount of its choice.",
    )
    reason: str = Reason


class NimbleSceneAct(Strict):
    scene_id: UUID = SceneId


class NimbleRollCreate(NimbleRolled):
    scene_id: UUID = SceneId


class NimbleDyingSaveCreate(Strict):
    scene_id: UUID = SceneId
    client_seed: str | None = Seed


class NimbleGrappleCreate(NimbleRollCreate):
    target_id: UUID = Field(description="The creature grabbed.")
    size: Literal["smaller", "same", "larger"] = Field(
        description="The target's size against the grappler's: smaller or same is a grapple, "
        "larger makes the grappler Mounted (NB-24)."
    )
    skill: Literal["Might", "Finesse"] = Field(default="Might", description="NB-24.")
    attack_number: int = attack_number_field(
        "A grapple is an attack: which attack of the turn (hasty attacks, NB-10).",
    )
    modifier: int | None = Field(
        default=None, ge=-20, le=40, description="Monsters only: the check's modifier (else +0)."
    )


class NimbleEscapeCreate(NimbleRollCreate):
    stat: Literal["STR", "DEX"] = Field(default="STR", description="The save (NB-24).")
    condition: Literal["grappled", "ridden", "restrained"] | None = Field(
        default=None, description="What to escape, if the character is held in several ways."
    )


class NimbleRestrainCreate(Strict):
    scene_id: UUID = SceneId
    by: str | None = Field(
        min_length=1,
        max_length=80,
        description="What restrains the character (tar, chains, roots); null frees it (NB-24).",
    )


class NimbleConcentrateCreate(Strict):
    scene_id: UUID = SceneId
    effect: str = Field(min_length=1, max_length=120, description="The effect (NB-25).")


class NimbleCoverCreate(Strict):
    scene_id: UUID = SceneId
    level: Literal["none", "partial", "full"] = Field(description="NB-26.")
