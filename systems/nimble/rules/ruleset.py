"""Nimble as a ``Ruleset``: hero/monster forms by side, attack dice, HP, Wounds and mana."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from domain.rulesets.base import (
    OPPOSING_SIDES,
    Check,
    FollowUp,
    Problem,
    Ruleset,
    SceneState,
    StatSpec,
    form_of,
    resource,
)
from systems.nimble.rules.checks import CHECKS, FOLLOW_UPS
from systems.nimble.rules.encounter import ENCOUNTER
from systems.nimble.rules.examples import OTHER_SIDES
from systems.nimble.rules.health_checks import HEALTH_CHECKS
from systems.nimble.rules.sheet import (
    NimbleHero,
    NimbleMonster,
    NimbleSettings,
    NimbleSheet,
    attack_summary,
    group_hp,
    initiative_bonus,
)


class NimbleRuleset(Ruleset):
    id: ClassVar[str] = "nimble"
    rules_version: ClassVar[str] = "1"
    name: ClassVar[str] = "Nimble (2nd edition)"
    scene_states: ClassVar[Mapping[str, SceneState]] = {"encounter": ENCOUNTER}
    Sheet: ClassVar[type[BaseModel]] = NimbleSheet
    Settings: ClassVar[type[BaseModel]] = NimbleSettings
    other_sides: ClassVar[Mapping[str, dict[str, Any]]] = OTHER_SIDES
    derived_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "initiative_bonus",
            "Added to 1d20 for Initiative: the sheet's bonus, or DEX; null for monsters, which act "
            "after the heroes (NB-3).",
            "NB-1",
        ),
        StatSpec("armor", "Damage removed from a hit by Defend; crits ignore it.", "NB-16"),
        StatSpec("speed", "Squares per Move action; difficult terrain costs double.", "NB-13"),
        StatSpec(
            "max_wounds",
            "Wounds at which a hero dies (campaign setting); null for monsters.",
            "NB-22",
        ),
        StatSpec("group_size", "Creatures acting in one turn: 1 for a hero.", "NB-4"),
        StatSpec(
            "attacks",
            "Each attack's name, dice and Primary die (e.g. 'd8'; null if it cannot miss or crit: "
            "fixed damage, d44/d66/d88 spells, area attacks).",
            "NB-9",
        ),
    )
    resource_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "hp",
            "Hit points; a group's are pooled (each creature's HP x count). A hero at 0 gains a "
            "Wound and is Dying (NB-20); a Safe Rest restores them.",
            "NB-20",
            "rest",
        ),
        StatSpec(
            "wounds",
            "Wounds taken, from 0; the hero dies at the maximum; 1 heals per Safe Rest. Monsters "
            "take none (max 0).",
            "NB-22",
            "rest",
        ),
        StatSpec(
            "mana",
            "Spent to cast spells, a spell's tier each (NB-12); back to the maximum at a Safe "
            "Rest.",
            "NB-12",
            "rest",
        ),
        StatSpec(
            "temp_hp",
            "Temporary hit points, lost first and not stacking; they vanish at a Safe Rest.",
            "NB-23",
            "rest",
        ),
    )
    field_rules: ClassVar[Mapping[str, str]] = {
        "kind": "NB-4",
        "max_hp": "NB-20",
        "hp": "NB-20",
        "armor": "NB-16",
        "speed": "NB-13",
        "initiative_bonus": "NB-1",
        "mana": "NB-12",
        "attacks": "NB-9",
        "count": "NB-4",
    }
    # Nimble health (systems/nimble/rules/health_checks.py): the d20 save and skill check.
    checks: ClassVar[dict[str, Check]] = {**CHECKS, **HEALTH_CHECKS}
    follow_ups: ClassVar[dict[str, FollowUp]] = FOLLOW_UPS  # NB-19: Help on a held attack

    def check_sheet(self, sheet: BaseModel, settings: BaseModel, side: str) -> Iterator[Problem]:
        sheet = form_of(sheet, NimbleHero, NimbleMonster)
        self._settings(settings)
        # NB-3/NB-4: heroes take their own turns; everything they fight is a monster or a group.
        if side == "hero" and isinstance(sheet, NimbleMonster):
            yield Problem("kind", "a hero needs the hero form", "NB-4")
        if side in OPPOSING_SIDES and isinstance(sheet, NimbleHero):
            yield Problem("kind", f"a {side} needs the monster form", "NB-4")

    def derived_stats(self, sheet: BaseModel, settings: BaseModel) -> dict[str, Any]:
        sheet = form_of(sheet, NimbleHero, NimbleMonster)
        max_wounds = self._settings(settings).max_wounds
        hero = sheet if isinstance(sheet, NimbleHero) else None
        return {
            "initiative_bonus": initiative_bonus(hero) if hero else None,
            "armor": sheet.armor,
            "speed": sheet.speed,
            "max_wounds": max_wounds if hero else None,
            "group_size": 1 if isinstance(sheet, NimbleHero) else sheet.count,
            "attacks": [attack_summary(attack) for attack in sheet.attacks],
        }

    def resources(self, sheet: BaseModel, settings: BaseModel) -> dict[str, dict[str, Any]]:
        sheet = form_of(sheet, NimbleHero, NimbleMonster)
        max_wounds = self._settings(settings).max_wounds
        if isinstance(sheet, NimbleMonster):
            hp = group_hp(sheet)
            return {
                "hp": resource(hp, hp, "never"),
                "wounds": resource(0, 0, "never"),
                "mana": resource(0, 0, "never"),
                "temp_hp": resource(None, 0, "never"),
            }
        return {
            "hp": resource(sheet.max_hp, sheet.max_hp, "rest"),
            "wounds": resource(max_wounds, 0, "rest"),
            "mana": resource(sheet.mana, sheet.mana, "rest"),
            "temp_hp": resource(None, 0, "rest"),
        }

    def example_sheet(self) -> dict[str, Any]:
        return {
            "kind": "hero",
            "stats": {"STR": 2, "DEX": 1, "INT": 0, "WIL": -1},
            "skills": {"Might": 4, "Finesse": 1, "Stealth": 0},
            "max_hp": 24,
            "armor": 3,
            "speed": 6,
            "mana": 0,
            "attacks": [
                {"name": "Greataxe", "dice": "1d12+2"},
                {"name": "Javelin", "dice": "1d6+2", "description": "Range 8."},
            ],
        }
