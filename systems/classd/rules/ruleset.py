"""Class D Heroes as a ``Ruleset``: side/rank agreement, target difficulties, Health and Will."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from domain.errors import Conflict
from domain.rulesets.base import (
    OPPOSING_SIDES,
    Check,
    FollowUp,
    Problem,
    Ruleset,
    SceneState,
    StatSpec,
    form_of,
    full_pools,
)
from systems.classd.rules.checks import CHECKS, FOLLOW_UPS
from systems.classd.rules.combat import ROUND, fight_under_way
from systems.classd.rules.examples import OTHER_SIDES
from systems.classd.rules.fight import FIGHT_CHECKS
from systems.classd.rules.rest import REST
from systems.classd.rules.sheet import (
    ClassdSettings,
    ClassdSheet,
    actions_per_turn,
    difficulty_to_affect,
    reactions,
)


class ClassdRuleset(Ruleset):
    id: ClassVar[str] = "classd"
    rules_version: ClassVar[str] = "1"
    name: ClassVar[str] = "Class D Heroes"
    scene_states: ClassVar[Mapping[str, SceneState]] = {"round": ROUND}
    Sheet: ClassVar[type[BaseModel]] = ClassdSheet
    Settings: ClassVar[type[BaseModel]] = ClassdSettings
    other_sides: ClassVar[Mapping[str, dict[str, Any]]] = OTHER_SIDES
    derived_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "difficulty_to_affect",
            "Difficulty of checks acting on this character: 5 + its Might, Speed or Spirit.",
            "CD-4",
        ),
        StatSpec(
            "reactions",
            "Reactions per round: 'none' (hero), 'one_shared' (minion), 'one_per_attack_type' "
            "(henchman) or 'unlimited' (boss).",
            "CD-17",
        ),
        StatSpec(
            "actions_per_turn",
            "Actions on its side's turn: 1, or 2 for a boss (two attacks, or one attack and one "
            "special action).",
            "CD-17",
        ),
    )
    resource_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "health",
            "Lost to damage (CD-11); a Rest restores 1d6, never above the maximum (CD-22).",
            "CD-1",
            "rest",
        ),
        StatSpec(
            "will",
            "Spent on rerolls (CD-6) and overflow (CD-13), lost to failed mental attacks "
            "(CD-12); a Rest restores 1d6, never above the maximum (CD-22).",
            "CD-1",
            "rest",
        ),
    )
    field_rules: ClassVar[Mapping[str, str]] = {
        "might": "CD-1",
        "speed": "CD-1",
        "spirit": "CD-1",
        "health": "CD-1",
        "will": "CD-1",
        "rank": "CD-17",
    }
    # The rest of a mission (CD-22) comes after the ruleset's own checks (missions area).
    checks: ClassVar[dict[str, Check]] = {**CHECKS, REST.name: REST, **FIGHT_CHECKS}
    mission_rest: ClassVar[str | None] = REST.name  # CD-22
    follow_ups: ClassVar[dict[str, FollowUp]] = FOLLOW_UPS

    def check_sheet(self, sheet: BaseModel, settings: BaseModel, side: str) -> Iterator[Problem]:
        sheet = form_of(sheet, ClassdSheet)
        self._settings(settings)
        # CD-1/CD-17: villains, and only villains, have a rank; every villain has one of the three.
        if side == "hero" and sheet.rank is not None:
            yield Problem("rank", "a hero has no villain rank", "CD-1")
        if side in OPPOSING_SIDES and sheet.rank is None:
            ranks = (
                "rank 'minion'" if side == "minion" else "a villain rank: minion, henchman or boss"
            )
            yield Problem("rank", f"a {side} needs {ranks}", "CD-17")
        if side == "minion" and sheet.rank not in (None, "minion"):
            yield Problem(
                "rank", f"the minion side needs rank 'minion', not {sheet.rank!r}", "CD-17"
            )

    def derived_stats(self, sheet: BaseModel, settings: BaseModel) -> dict[str, Any]:
        sheet = form_of(sheet, ClassdSheet)
        self._settings(settings)
        return {
            "difficulty_to_affect": difficulty_to_affect(sheet),
            "reactions": reactions(sheet),
            "actions_per_turn": actions_per_turn(sheet),
        }

    def resources(self, sheet: BaseModel, settings: BaseModel) -> dict[str, dict[str, Any]]:
        self._settings(settings)
        return full_pools(form_of(sheet, ClassdSheet), self.resource_specs)

    def status_for_health(
        self, status: str, health: int, effects: Mapping[str, Mapping[str, Any]]
    ) -> tuple[str, str] | None:
        """CD-11 ruling: a character is out of the fight at 0 Health and back in it once Health
        is above 0 again (a rest, CD-22, or the GM's healing); captured stays captured (CD-12):
        being held is not a matter of Health."""
        if status == "defeated" and health > 0:
            return "active", "CD-11"
        if status == "active" and health == 0:
            return "defeated", "CD-11"
        return None

    def check_rest(self, scene_states: Mapping[str, Mapping[str, Any]]) -> None:
        """CD-22: a rest is a stop to bind wounds and calm down (`остановиться и передохнуть`),
        so there is none in a scene while a fight is under way there (CD-8): the GM ends the
        fight first."""
        state = scene_states.get("round")
        if fight_under_way(state):
            assert state is not None
            raise Conflict(
                f"a fight is under way in this scene (round {state['round']}): a rest is a stop, "
                "not a pause in a fight; the GM ends the fight first "
                "(POST /v1/scenes/{id}/classd/fight-end)",
                code="fight_under_way",
                field="scene_id",
                rule="CD-22",
            )

    def example_sheet(self) -> dict[str, Any]:
        return {
            "might": 1,
            "speed": 3,
            "spirit": 2,
            "health": 12,
            "will": 5,
            "rank": None,
            "powers": [
                {"name": "Blink", "description": "Teleports up to 10 m; +1 damage on ranged."}
            ],
            "gear": [{"name": "Lockpicks"}],
        }
