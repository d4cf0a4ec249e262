"""nWoD micro as a ``Ruleset``: shield ratings, derived Defense, armour, speeds, Health and WP."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from domain.rulesets.base import (
    Check,
    Problem,
    Ruleset,
    SceneState,
    StatSpec,
    form_of,
    full_pools,
)
from systems.nwod_micro.rules.checks import CHECKS
from systems.nwod_micro.rules.combat import FIGHT
from systems.nwod_micro.rules.examples import OTHER_SIDES
from systems.nwod_micro.rules.fight_checks import FIGHT_CHECKS
from systems.nwod_micro.rules.sheet import (
    SHIELD_MAX_RATING,
    NwodSettings,
    NwodSheet,
    armor,
    defense,
    speeds,
    weapon_summaries,
)


class NwodMicroRuleset(Ruleset):
    id: ClassVar[str] = "nwod-micro"
    rules_version: ClassVar[str] = "1"
    name: ClassVar[str] = "Achernar (nWoD micro)"
    scene_states: ClassVar[Mapping[str, SceneState]] = {"fight": FIGHT}
    Sheet: ClassVar[type[BaseModel]] = NwodSheet
    Settings: ClassVar[type[BaseModel]] = NwodSettings
    other_sides: ClassVar[Mapping[str, dict[str, Any]]] = OTHER_SIDES
    derived_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec("initiative_bonus", "Added to 1d10 for Initiative: INT.", "NW-14"),
        StatSpec(
            "defense",
            "DEF subtracted from melee pools against the character: the sheet's Defense plus the "
            "best shield (SLD) rating.",
            "NW-12",
        ),
        StatSpec(
            "armor", "Subtracted from damage: the best ARM or DUR rating (0 if none).", "NW-11"
        ),
        StatSpec("speed", "Metres per turn: walk X, run 2X, sprint 3X.", "NW-2"),
        StatSpec(
            "weapons",
            "Each weapon's name, damage class, damage bonus (+1 to +4 successes on a hit) and "
            "magazine (null if none), spare magazines on the sheet, and the attack kind it "
            "defaults to.",
            "NW-11",
        ),
    )
    resource_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "health",
            "Lost 1 per attack success plus weapon damage minus armour (NW-8, NW-11); "
            "restored only by GM-recorded events.",
            "NW-8",
            "never",
        ),
        StatSpec(
            "will_power",
            "1 point: +3d10 on one roll, or +2 Defense or Initiative (NW-9); restored only by "
            "GM-recorded events.",
            "NW-9",
            "never",
        ),
    )
    field_rules: ClassVar[Mapping[str, str]] = {
        "affinities": "NW-1",
        "health": "NW-2",
        "will_power": "NW-2",
        "defense": "NW-2",
        "speed": "NW-2",
        "merits": "NW-3",
        "gear": "NW-18",
        "weapons": "NW-11",
        "protection": "NW-12",
    }
    checks: ClassVar[dict[str, Check]] = {**CHECKS, **FIGHT_CHECKS}  # NW-14, firefights

    def check_sheet(self, sheet: BaseModel, settings: BaseModel, side: str) -> Iterator[Problem]:
        # One form for every side: the rules have no minion form.
        sheet = form_of(sheet, NwodSheet)
        self._settings(settings)
        for index, item in enumerate(sheet.protection):
            if item.kind == "SLD" and item.rating > SHIELD_MAX_RATING:
                yield Problem(
                    f"protection.{index}.rating",
                    f"a shield is light or medium (rating 1 or 2), not {item.rating}",
                    "NW-12",
                )
        seen: set[str] = set()
        for index, weapon in enumerate(sheet.weapons):
            if weapon.name.casefold() in seen:
                # NW-16: a weapon's ammunition is kept under its name
                yield Problem(f"weapons.{index}.name", "each weapon has its own name", "NW-16")
            seen.add(weapon.name.casefold())
            if weapon.spare_magazines and weapon.magazine is None:
                yield Problem(
                    f"weapons.{index}.spare_magazines",
                    "spare magazines need a weapon with a magazine",
                    "NW-16",
                )

    def derived_stats(self, sheet: BaseModel, settings: BaseModel) -> dict[str, Any]:
        sheet = form_of(sheet, NwodSheet)
        self._settings(settings)
        return {
            "initiative_bonus": sheet.affinities.INT,
            "defense": defense(sheet),
            "armor": armor(sheet),
            "speed": speeds(sheet),
            "weapons": weapon_summaries(sheet),
        }

    def resources(self, sheet: BaseModel, settings: BaseModel) -> dict[str, dict[str, Any]]:
        self._settings(settings)
        return full_pools(form_of(sheet, NwodSheet), self.resource_specs)

    def example_sheet(self) -> dict[str, Any]:
        return {
            "affinities": {"INT": 2, "ELG": 3, "VIO": 4},
            "health": 7,
            "will_power": 3,
            "defense": 2,
            "speed": 5,
            "merits": [
                {"name": "Marksman", "text": "+1d10 on aimed rifle shots.", "dice_modifier": 1},
                {"name": "Ex-convict", "text": "Knows the city's underworld."},
            ],
            "weapons": [
                {
                    "name": "Assault rifle",
                    "damage_class": "professional",
                    "magazine": 30,
                    "spare_magazines": 2,
                },
                {"name": "Knife", "damage_class": "common"},
            ],
            "protection": [{"name": "Police vest", "kind": "ARM", "rating": 2}],
        }
