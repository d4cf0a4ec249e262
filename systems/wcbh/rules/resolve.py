"""What the Resolve area refuses, decided from the rules and the state alone (WCBH-3, 16, 19..21):
the commands (systems/wcbh/commands/resolve.py) load, ask these and record."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.errors import Conflict, InvalidInput
from systems.wcbh.rules.checks import check_server_filled
from systems.wcbh.rules.play import ABILITY_LOSS
from systems.wcbh.rules.sheet import POWER_USES, WcbhCharacter


def text(value: str, field: str) -> str:
    """A required free text, trimmed."""
    found = value.strip() if isinstance(value, str) else ""
    if not found:
        raise InvalidInput(f"{field} must not be empty", field=field)
    return found


RESOLVE_AWARD = 1
"""WCBH-18: each reason (a defeat, a Flaw that mattered, social play, a conviction followed at a
cost) earns 1 Resolve."""


def check_resolve_award(resource: str, change: int) -> None:
    """WCBH-18: the GM awards Resolve 1 at a time, each award with its reason; taking some away
    (a correction) is any amount, never below 0 (the aggregate checks that)."""
    if resource == "resolve" and change > RESOLVE_AWARD:
        raise InvalidInput(
            f"a Resolve award is {RESOLVE_AWARD} (WCBH-18: each reason earns 1), not {change}; "
            "award once per reason",
            field="change",
            rule="WCBH-18",
            details={"most": RESOLVE_AWARD},
        )


def check_power_use(sent: object, used: str | None) -> None:
    """WCBH-2: which limited Power a roll uses is the server's to say, from the sheet."""
    check_server_filled("power_use", sent, used, "WCBH-2", "this roll")


def check_uses_left(name: str, power_use: str | None, left: int) -> None:
    """WCBH-2: a Power with uses per game Issue is rolled while one is left (a new game Issue
    brings them back)."""
    if power_use is not None and left < 1:
        power = power_use.removeprefix(POWER_USES)
        raise Conflict(
            f"{name} has no use of {power} left in this game Issue",
            field="trait",
            code="no_uses_left",
            rule="WCBH-2",
            details={"resource": power_use, "have": left},
        )


def check_has_resolve(side: str, field: str, rule: str) -> None:
    """WCBH-3: a minion has no Resolve to receive or to gasp for."""
    if side == "minion":
        raise InvalidInput("a minion has no Resolve (WCBH-3)", field=field, rule=rule)


def check_gift(*, to_self: bool, receiver_side: str, directly: bool, flashback: bool) -> None:
    """WCBH-20a: Resolve goes to another character; a gift from afar comes with its flashback."""
    if to_self:
        raise InvalidInput(
            "a character gives Resolve to another character",
            field="receiver_id",
            rule="WCBH-20a",
        )
    check_has_resolve(receiver_side, "receiver_id", "WCBH-20a")
    if directly == flashback:
        raise InvalidInput(
            "a gift from afar (directly false) comes with its flashback; a direct one has none",
            field="flashback",
            rule="WCBH-20a",
        )


def with_abilities(sheet: object, message: str, field: str, rule: str) -> WcbhCharacter:
    """The sheet of a character with Abilities and Powers (a minion has none: WCBH-3)."""
    if not isinstance(sheet, WcbhCharacter):
        raise InvalidInput(message, field=field, rule=rule)
    return sheet


def check_awake(unconscious: bool, name: str, what: str) -> None:
    """WCBH-19: an unconscious character does nothing until the end of the scene."""
    if unconscious:
        raise Conflict(
            f"{name} is unconscious until the end of the scene and cannot {what}",
            field="character_id",
            code="unconscious",
            rule="WCBH-19",
        )


def imitating_trait(sheet: WcbhCharacter, trait: str) -> tuple[str, int]:
    """WCBH-20f: the Ability or ranked Power that imitates (Talents do not), by name and rank."""
    wanted = trait.strip().casefold()
    ranked = [
        *sheet.abilities.ranks().items(),
        *((name, power.rank) for name, power in sheet.powers.items() if power.rank is not None),
    ]
    for name, rank in ranked:
        if name.casefold() == wanted:
            return name, rank
    raise InvalidInput(
        f"the sheet has no Ability or ranked Power {trait!r} (Talents do not imitate Powers)",
        field="trait",
        rule="WCBH-20f",
        details={"known": [name for name, _ in ranked]},
    )


def check_not_known(powers: Iterable[str], power: str, name: str) -> None:
    """WCBH-20f: a Power the sheet has is rolled, not imitated."""
    if any(known.casefold() == power.casefold() for known in powers):
        raise InvalidInput(f"{name} has {power!r} already: roll it", field="power", rule="WCBH-20f")


def check_scene_pool(pool: str, issue_pools: Iterable[str]) -> None:
    """WCBH-21: a scene's own pool is of a kind its game Issue has."""
    kinds = list(issue_pools)
    if pool not in kinds:
        raise InvalidInput(
            f"a scene's own pool is of a kind its game Issue has: {', '.join(kinds) or 'none'}",
            field="pool",
            rule="WCBH-21",
        )


def check_villain(side: str, name: str) -> None:
    """WCBH-21: the main villain is a character of the villain side."""
    if side != "villain":
        raise InvalidInput(
            f"the main villain is a character of the villain side; {name} is {side}",
            field="villain_id",
            rule="WCBH-21",
        )


def check_same_issue(same: bool) -> None:
    """WCBH-21: the deed's Adversity comes from a scene of its own game Issue."""
    if not same:
        raise InvalidInput(
            "scene_id names a scene of another game Issue", field="scene_id", rule="WCBH-21"
        )


def ability_name(ability: str, ranks: Iterable[str]) -> str:
    """The sheet's spelling of an Ability named in any case."""
    wanted = ability.strip().casefold()
    return next((name for name in ranks if name.casefold() == wanted), ability.strip())


def owed_loss(effort: str, scene_id: object) -> dict[str, Any]:
    """One owed Ability loss as the character's view shows it (WCBH-16): its effort, its scene
    and the Abilities it may take."""
    return {
        "effort": effort,
        "scene_id": str(scene_id),
        "options": list(ABILITY_LOSS[effort]),  # type: ignore[index]
    }
