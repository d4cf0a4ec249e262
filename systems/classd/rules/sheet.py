"""Class D Heroes sheets (heroes and ranked villains), campaign settings, derived-stat formulas."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from domain.rulesets.base import MAX_ITEMS, CampaignSettings, Name, SheetModel, Text

VillainRank = Literal["minion", "henchman", "boss"]
RANK_ORDER: dict[str, int] = {"minion": 1, "henchman": 2, "boss": 3}
"""CD-13: overflow damage may only move to a target whose rank is not higher."""

MAX_STAT = 20  # CD-1: every stat of a sheet, and of a check that names one


def stat_field(description: str, default: Any = ...) -> Any:
    """A stat as a check reads it: 0 to MAX_STAT, like the sheet's (required unless `default`)."""
    return Field(default, ge=0, le=MAX_STAT, description=description)


Stat = Annotated[int, Field(ge=0, le=MAX_STAT, description="Added to 2d6 on a check (CD-2).")]


class ClassdSettings(CampaignSettings):
    """Campaign settings of Class D Heroes. The playtest rules have no campaign options yet."""


class Feature(SheetModel):
    """A power, piece of gear or other feature; its effects apply as written (CD-9, CD-11)."""

    name: Name = Field(description="Short name.")
    description: Text = Field("", description="What it does, including damage modifiers (CD-11).")
    attack: Literal["melee", "ranged", "mental"] | None = Field(
        None,
        description="The attack type it makes, if any: a ranged weapon (gear) or a ranged power "
        "lets a hero make ranged attacks (CD-10).",
    )
    damage: int = Field(
        0, ge=0, le=20, description="Added to the damage of attacks made with it (CD-11)."
    )


class ClassdSheet(SheetModel):
    """A Class D Heroes character: a hero (no rank) or a villain (with a rank)."""

    might: Stat = Field(
        description="Might: melee attack and block, breaking, resisting (CD-1, CD-7)."
    )
    speed: Stat = Field(
        description="Speed: ranged attack and dodge, position, retreat (CD-1, CD-7)."
    )
    spirit: Stat = Field(
        description="Spirit: mental attack, social, technical, perception (CD-1, CD-7)."
    )
    health: int = Field(ge=1, le=100, description="Maximum Health (CD-1).")
    will: int = Field(ge=0, le=100, description="Maximum Will (CD-1); spent on rerolls (CD-6).")
    rank: VillainRank | None = Field(
        None,
        description="Villains only: minion, henchman or boss (CD-1, CD-17); null for heroes.",
    )
    powers: list[Feature] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Super powers (CD-9)."
    )
    gear: list[Feature] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Inventory items (CD-9)."
    )
    character_class: Feature | None = Field(
        None,
        description="CD-11: the character's class, if the table uses classes (the source names "
        "the class only as a source of damage modifiers): its `damage` adds to every attack of "
        "its `attack` type, or of every type when `attack` is null.",
    )

    def class_damage(self, attack_type: str) -> int:
        """CD-11: the class's damage modifier for an attack of this type (0 without a class)."""
        found = self.character_class
        if found is None or found.attack not in (None, attack_type):
            return 0
        return found.damage


def difficulty_to_affect(sheet: ClassdSheet) -> dict[str, int]:
    """CD-4: acting on this character is a check against 5 + the matching stat."""
    return {"might": 5 + sheet.might, "speed": 5 + sheet.speed, "spirit": 5 + sheet.spirit}


def reactions(sheet: ClassdSheet) -> str:
    """CD-17: reactions per round by villain rank; heroes defend with checks instead (CD-15)."""
    return {
        None: "none",
        "minion": "one_shared",
        "henchman": "one_per_attack_type",
        "boss": "unlimited",
    }[sheet.rank]


def actions_per_turn(sheet: ClassdSheet) -> int:
    """CD-9/CD-15: one action; CD-17: a boss makes two (two attacks, or an attack and a special)."""
    return 2 if sheet.rank == "boss" else 1
