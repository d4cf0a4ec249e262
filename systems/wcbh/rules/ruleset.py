"""We Can Be Heroes as a ``Ruleset``: Trait Limit and minion checks, derived stats, resources."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from domain.rulesets.base import (
    MAX_ITEMS,
    Check,
    FollowUp,
    Problem,
    Ruleset,
    SceneState,
    StatSpec,
    form_of,
    resource,
)
from systems.wcbh.rules.attack import FIGHT_CHECKS, AttackCheck, attack_request
from systems.wcbh.rules.checks import CHECKS
from systems.wcbh.rules.effects import status_for_health
from systems.wcbh.rules.examples import OTHER_SIDES
from systems.wcbh.rules.fight_state import FIGHT
from systems.wcbh.rules.follow_ups import FOLLOW_UPS
from systems.wcbh.rules.ground import GROUND
from systems.wcbh.rules.initiative import Combatant, order_of_action
from systems.wcbh.rules.play import SCENE_LIMITED_SIDES
from systems.wcbh.rules.play_state import PLAY
from systems.wcbh.rules.resolve import check_resolve_award
from systems.wcbh.rules.rest import REST
from systems.wcbh.rules.sheet import (
    MINION_HEALTH,
    WcbhCharacter,
    WcbhMinion,
    WcbhSettings,
    WcbhSheet,
    edge,
    health,
    power_uses,
    starting_resolve,
)


@dataclass(frozen=True)
class LimitedUse:
    """A use limited per scene or per story, as the availability view shows it (issue #5). The
    verbs record each with `Scene.use_once` / `Story.use_once` under the same `key`."""

    key: str
    scope: Literal["scene", "story"]
    rule: str
    description: str
    shared_by: tuple[str, ...] = ()  # sides that share ONE use per scope (else: one each)


LIMITED_USES: tuple[LimitedUse, ...] = (
    LimitedUse(
        "decisive_moment",
        "scene",
        "WCBH-15",
        "one hero's Decisive Moment per scene",
        SCENE_LIMITED_SIDES,
    ),
    LimitedUse(
        "back_in_the_fight", "scene", "WCBH-39", "1 Resolve to come back after defeat, once"
    ),
    LimitedUse("team_attack", "scene", "WCBH-47", "one team attack per character per fight"),
    LimitedUse("last_gasp", "scene", "WCBH-19", "at 0 Resolve, 1 Resolve for this page, once"),
    LimitedUse("decisive_moment", "story", "WCBH-15", "each character's one Decisive Moment"),
)
"""Every limited use of We Can Be Heroes, in the order the availability view lists them."""


class WcbhRuleset(Ruleset):
    id: ClassVar[str] = "wcbh"
    rules_version: ClassVar[str] = "1"
    name: ClassVar[str] = "We Can Be Heroes"
    Sheet: ClassVar[type[BaseModel]] = WcbhSheet
    Settings: ClassVar[type[BaseModel]] = WcbhSettings
    other_sides: ClassVar[Mapping[str, dict[str, Any]]] = OTHER_SIDES
    derived_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "health",
            "Max of avg(Stamina, Strength) and avg(Stamina, Will), rounded up; 1 for a minion, "
            "which one net success defeats (WCBH-33).",
            "WCBH-32",
        ),
        StatSpec(
            "edge",
            "Initiative: Perception + max(Agility, Intelligence); null for a minion, which always "
            "acts last.",
            "WCBH-23",
        ),
        StatSpec(
            "starting_resolve",
            "2 x (Trait Limit - highest Ability or attack/defence/affect-others Power rank); "
            "Talents do not count; 0 for a minion.",
            "WCBH-17",
        ),
    )
    resource_specs: ClassVar[tuple[StatSpec, ...]] = (
        StatSpec(
            "resolve",
            "Spent for dice, rerolls and combat tricks (WCBH-20); no cap; back to Starting Resolve "
            "at the start of every Issue. A minion has none.",
            "WCBH-17",
            "issue",
        ),
        StatSpec(
            "health",
            "Lost to damage; 0 means defeated (WCBH-31); regained only by recovery checks "
            "(WCBH-34) and Resolve (WCBH-39).",
            "WCBH-32",
            "never",
        ),
    )
    # WCBH-3/23: the minion side has the minion form alone (check_sheet); a minion's sheet that
    # forgets its `kind` is told so, not judged as a full character.
    side_forms: ClassVar[Mapping[str, tuple[str, str]]] = {"minion": ("minion", "WCBH-3")}
    field_rules: ClassVar[Mapping[str, str]] = {
        "abilities": "WCBH-6",
        "talents": "WCBH-3",
        "powers": "WCBH-3",
        "threat": "WCBH-3",
        "kind": "WCBH-3",
    }
    checks: ClassVar[dict[str, Check]] = {
        **CHECKS,
        AttackCheck.name: AttackCheck(),
        **FIGHT_CHECKS,  # the fight's maneuvers (WCBH-40..46; systems/wcbh/commands/fight.py)
    }
    follow_ups: ClassVar[dict[str, FollowUp]] = FOLLOW_UPS
    # Scene.state("wcbh", ...): the fight's pages (WCBH-25, 45, 46) and scene play's group checks,
    # contests and chases (WCBH-11, 12, 27)
    scene_states: ClassVar[Mapping[str, SceneState]] = {
        "fight": FIGHT,
        "play": PLAY,
        "ground": GROUND,  # ranges, cover and sizes (WCBH-26, 30)
        "rest": REST,  # the days of rest the GM records (WCBH-34)
    }

    def check_sheet(self, sheet: BaseModel, settings: BaseModel, side: str) -> Iterator[Problem]:
        sheet = form_of(sheet, WcbhCharacter, WcbhMinion)
        limit = self._settings(settings).trait_limit
        # WCBH-3/WCBH-23: minions are a side of their own (they always act last), and they alone
        # have the minion form, so the side and the form must agree.
        if side == "minion" and not isinstance(sheet, WcbhMinion):
            yield Problem("kind", "a minion needs the minion form: one threat rank", "WCBH-3")
        if side != "minion" and isinstance(sheet, WcbhMinion):
            yield Problem(
                "kind", f"the minion form is only for the minion side, not {side}", "WCBH-3"
            )
        if isinstance(sheet, WcbhMinion):
            yield from _over_limit("threat", sheet.threat, limit)
            return
        yield from _extra_ability_problems(sheet)
        for name, rank in sheet.abilities.ranks().items():
            yield from _over_limit(f"abilities.{name}", rank, limit)
        for name, rank in sheet.talents.items():
            yield from _over_limit(f"talents.{name}", rank, limit)
        for name, power in sheet.powers.items():
            if power.rank is not None:
                yield from _over_limit(f"powers.{name}.rank", power.rank, limit)

    def derived_stats(self, sheet: BaseModel, settings: BaseModel) -> dict[str, Any]:
        sheet = form_of(sheet, WcbhCharacter, WcbhMinion)
        if isinstance(sheet, WcbhMinion):
            return {"health": MINION_HEALTH, "edge": None, "starting_resolve": 0}
        limit = self._settings(settings).trait_limit
        return {
            "health": health(sheet),
            "edge": edge(sheet),
            "starting_resolve": starting_resolve(sheet, limit),
        }

    def order_of_action(
        self,
        combatants: list[tuple[str, str, BaseModel]],
        acting_first: set[str],
        settings: BaseModel,
    ) -> list[list[str]] | None:
        """WCBH-22..24: by Edge, ties by side, minions last, act-first characters before everyone."""
        fighters = [
            Combatant(cid, side, self.derived_stats(sheet, settings)["edge"], cid in acting_first)
            for cid, side, sheet in combatants
        ]
        variant = form_of(settings, WcbhSettings).act_first_variant
        return [list(group) for group in order_of_action(fighters, variant=variant)]

    def attack_request(
        self, attacker: BaseModel, target: BaseModel, **options: Any
    ) -> dict[str, Any] | None:
        """WCBH-28..33, 35: see systems/wcbh/rules/attack.py."""
        return attack_request(attacker, target, **options)

    def status_for_health(
        self, status: str, health: int, effects: Mapping[str, Mapping[str, Any]]
    ) -> tuple[str, str] | None:
        """WCBH-31, 36: the GM's heal or harm of Health decides the status again
        (`effects.status_for_health`): at 0 defeated; above 0 back, unless an effect that defeated
        the character still holds it."""
        status_now = status_for_health(status, health, effects)
        return None if status_now is None else (status_now, "WCBH-31")

    def issue_pools(self, players: int, settings: BaseModel) -> dict[str, int]:
        """WCBH-21: the GM's Adversity starts every game Issue at the number of players (the one
        source of that number; play.Adversity starts from it). Ruling: what was left of the last
        game Issue does not carry over."""
        return {"adversity": players}

    def check_resource_change(self, resource: str, change: int) -> None:
        """WCBH-18: a Resolve award is 1 (see rules/resolve.py `check_resolve_award`)."""
        check_resolve_award(resource, change)

    def resources(self, sheet: BaseModel, settings: BaseModel) -> dict[str, dict[str, Any]]:
        derived = self.derived_stats(sheet, settings)
        form = form_of(sheet, WcbhCharacter, WcbhMinion)
        minion = isinstance(form, WcbhMinion)
        limited = power_uses(form) if isinstance(form, WcbhCharacter) else {}
        return {
            "resolve": resource(0, 0, "never")
            if minion
            else resource(None, derived["starting_resolve"], "issue"),
            "health": resource(derived["health"], derived["health"], "never"),
            # WCBH-2: a Power's uses per game Issue, back to full when a new one starts
            **{name: resource(uses, uses, "issue") for name, uses in limited.items()},
        }

    def example_sheet(self) -> dict[str, Any]:
        return {
            "kind": "character",
            "abilities": {
                "Agility": 5,
                "Strength": 4,
                "Stamina": 5,
                "Intelligence": 3,
                "Perception": 4,
                "Will": 6,
                "Charisma": 3,
            },
            "talents": {"Stealth": 4, "Science": 6},
            "powers": {
                "Lightning Bolt": {
                    "rank": 8,
                    "can_attack": True,
                    "description": "Electric blast at Far range.",
                },
                "Flight": {"rank": 6, "description": "Flies at the speed of a car."},
            },
            "perks": ["Secret lab"],
            "flaws": ["Afraid of deep water"],
        }


def _over_limit(field: str, rank: int, limit: int) -> Iterator[Problem]:
    # WCBH-4: the Trait Limit is the GM's maximum rank for every trait in this game.
    if rank > limit:
        yield Problem(field, f"rank {rank} is above the Trait Limit {limit}", "WCBH-4")


def _extra_ability_problems(sheet: WcbhCharacter) -> Iterator[Problem]:
    names = list(sheet.abilities.ranks())
    if len(names) > MAX_ITEMS:
        yield Problem("abilities", f"at most {MAX_ITEMS} Abilities", "WCBH-6")
    seen: dict[str, str] = {}
    for name in names:
        if not name.strip() or len(name) > 80:
            yield Problem(f"abilities.{name}", "an Ability name has 1 to 80 characters", "WCBH-6")
        key = name.strip().casefold()
        if key in seen:
            yield Problem(
                f"abilities.{name}",
                f"the same Ability as {seen[key]!r} (names ignore case)",
                "WCBH-6",
            )
        seen.setdefault(key, name)
