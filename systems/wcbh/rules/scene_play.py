"""What scene play refuses, decided from the rules and the state alone (WCBH-10, 11, 27, 34,
36..39): the commands (systems/wcbh/commands/scene_play.py) load, ask these, roll and record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import Conflict, Forbidden, InvalidInput
from systems.wcbh.rules.effects import Effect

MAX_HELPERS = 10  # WCBH-10
AGILITY = "Agility"
USES = ("come_back", "drop_effect")  # WCBH-39


def check_trait_named(trait: str | None, pool: int | None) -> None:
    """Scene play rolls a trait of the sheet, never a raw pool."""
    if trait is None or pool is not None:
        raise InvalidInput("name the trait to roll", field="request.trait")


def check_helpers(helper_ids: Sequence[object], helped_id: object) -> None:
    """WCBH-10: one to ten helpers, each another character than the one helped."""
    if not helper_ids or len(helper_ids) > MAX_HELPERS:
        raise InvalidInput(f"name 1 to {MAX_HELPERS} helpers", field="helpers", rule="WCBH-10")
    if len(set(helper_ids)) != len(helper_ids) or helped_id in helper_ids:
        raise InvalidInput(
            "helpers are different characters, other than the one helped",
            field="helpers",
            rule="WCBH-10",
        )


def check_starter(*, is_gm: bool, is_player: bool, owns_one: bool) -> None:
    """Ruling: the GM, or a player owning one of the characters, starts a group check, a contest
    or a chase."""
    if not is_gm and not (is_player and owns_one):
        raise Forbidden("a player starts this only with one of its own characters in it")


def check_group_difficulty(asked: int | None, group: Mapping[str, Any]) -> None:
    """WCBH-11: a participant's roll is at the group check's difficulty (`asked`: the one the
    request names, if it names one)."""
    if asked is not None and asked != group["difficulty"]:
        raise InvalidInput(
            f"the group check is at difficulty {group['difficulty']}",
            field="request.difficulty",
            rule="WCBH-11",
        )


def check_chase_check(shift: int | None, trait: str | None, *, on_foot: bool) -> None:
    """WCBH-27: a shift is -1, 0 or 1; on foot against a faster Power only Agility is rolled."""
    if shift not in (None, -1, 0, 1):
        raise InvalidInput("shift is -1 (closer), 0 or 1 (farther)", field="shift")
    if on_foot and (trait is None or trait.casefold() != AGILITY.casefold()):
        raise InvalidInput(
            "on foot against a faster Power is a roll of Agility only",
            field="request.trait",
            rule="WCBH-27",
        )


def check_once_in_scene(used: bool, name: str, use: str) -> None:
    """WCBH-34 ruling, WCBH-39: a recovery check, or coming back into the fight, is once per
    character per scene."""
    if not used:
        return
    if use == "recovery":
        message, rule = f"{name} has already made its recovery check in this scene", "WCBH-34"
    else:
        message, rule = f"{name} is already back in the fight once in this scene", "WCBH-39"
    raise Conflict(message, code="once_per_scene", rule=rule, details={"use": use})


def effect_on(effects: Mapping[str, Mapping[str, Any]], name: str, who: str) -> Effect:
    """The effect `name` the character is under (409 if it is under none of that name)."""
    found = effects.get(name)
    if found is None:
        raise Conflict(
            f"{who} is under no effect {name!r}",
            field="effect",
            code="no_such_effect",
            details={"effects": list(effects)},
        )
    return Effect(name, int(found.get("pages", 0)), bool(found.get("whole_scene")))


def check_shakeable(effect: Effect, who: str) -> None:
    """WCBH-36, 37: an effect that defeated its target lasts the scene and is not shaken off."""
    if effect.whole_scene:
        raise Conflict(
            f"{effect.name!r} defeated {who} and lasts to the end of the scene: it "
            "cannot be shaken off, only dropped with Resolve (WCBH-39)",
            code="effect_defeated",
            rule="WCBH-36",
        )


def check_open(closed: bool) -> None:
    if closed:
        raise Conflict("the scene is closed", code="scene_closed")


def check_opponent(on_self: bool) -> None:
    """WCBH-38: an effect is extended on an opponent."""
    if on_self:
        raise InvalidInput(
            "an effect is extended on an opponent, not on oneself",
            field="target_id",
            rule="WCBH-38",
        )


def check_defeated(defeated: bool, target: str) -> None:
    """WCBH-38: only an effect on a defeated opponent is extended."""
    if not defeated:
        raise Conflict(
            f"{target} is not defeated: only an effect on a defeated opponent is extended",
            code="target_not_defeated",
            rule="WCBH-38",
        )


def check_use(use: str, effect: str | None) -> None:
    """WCBH-39: coming back names no effect; dropping one names it."""
    if use not in USES:
        raise InvalidInput("use is come_back or drop_effect", field="use", rule="WCBH-39")
    if use == "come_back" and effect is not None:
        raise InvalidInput("coming back names no effect", field="effect", rule="WCBH-39")
    if use == "drop_effect" and effect is None:
        raise InvalidInput("name the effect to drop", field="effect", rule="WCBH-39")


def check_come_back(
    name: str,
    *,
    defeated: bool,
    health: int,
    defeated_at: Mapping[str, Any] | None,
    scene_id: object,
    page: int,
) -> int:
    """WCBH-39: the page of the defeat by damage, which the coming back must follow in its scene."""
    if not defeated or health > 0 or defeated_at is None:
        raise Conflict(f"{name} is not defeated by damage", code="not_defeated", rule="WCBH-39")
    if defeated_at.get("scene_id") != scene_id or page != defeated_at.get("page", 0) + 1:
        raise Conflict(
            "coming back is done on the page right after the defeat, in its scene",
            code="wrong_page",
            rule="WCBH-39",
            details={
                "defeated_in": str(defeated_at.get("scene_id")),
                "defeated_on_page": defeated_at.get("page"),
                "page": page,
            },
        )
    return int(defeated_at["page"])
