"""Special effects of powers and getting back into the fight (WCBH-35..39): durations in Pages,
defeat by an effect, shaking off, Resolve extensions, and what a new Page or a closed Scene does
to them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.errors import InvalidInput
from systems.wcbh.rules.pools import halve

__all__ = [
    "BACK_IN_THE_FIGHT_HEALTH",
    "EFFECT_LIMITS",
    "Effect",
    "add_effect",
    "check_defeat",
    "close_scene",
    "come_back",
    "defeating_effects",
    "drop_effect",
    "effect_besides_damage",
    "effect_forbidding",
    "effect_pages",
    "extend_effect",
    "shake_off",
    "status_for_health",
    "tick_page",
]

BACK_IN_THE_FIGHT_HEALTH = 3  # WCBH-39

# WCBH-35, 37: what a character under a special effect may still do. The source leaves an effect's
# meaning to its power's description and says only that at 0 pages the character "is free and may
# act": ruling, an effect forbids all three until the GM rules otherwise for it (EffectRuled).
EFFECT_LIMITS = ("may_act", "may_move", "may_defend_actively")


@dataclass(frozen=True)
class Effect:
    """A special effect on a character.

    ``pages``: Pages left (WCBH-35). ``whole_scene``: it defeated the character and lasts to the
    end of the Scene (WCBH-36). ``extra_scenes``: Scene ends it survives, bought with Resolve
    (WCBH-38).
    """

    name: str
    pages: int
    whole_scene: bool = False
    extra_scenes: int = 0


def effect_pages(net: int) -> int:
    """WCBH-35: 1 Page per 2 net successes, rounded up (3 or 4 net -> 2 Pages); none at net <= 0."""
    return halve(net) if net > 0 else 0


def check_defeat(effect: Effect, health: int) -> Effect:
    """WCBH-36: an effect whose remaining Pages reach the character's remaining Health defeats it
    and then lasts until the end of the Scene. Ruling: checked whenever the effect grows or the
    Health drops (call it after damage too)."""
    if not effect.whole_scene and effect.pages >= health:
        return replace(effect, whole_scene=True)
    return effect


def add_effect(
    current: Effect | None, name: str, net: int, health: int, *, defeat_check: bool = True
) -> Effect | None:
    """WCBH-35: an attack with the effect adds ``effect_pages(net)`` to what is left (several
    attacks add up), then WCBH-36 is checked against the remaining ``health`` (unless
    ``defeat_check`` is off). None when neither the old effect nor the new attack leaves
    anything."""
    if current is not None and current.name != name:
        raise InvalidInput(
            f"adding {name!r} to {current.name!r}: durations add up per effect",
            field="effect",
            rule="WCBH-35",
        )
    pages = (current.pages if current else 0) + effect_pages(net)
    if current is None and pages == 0:
        return None
    grown = replace(current or Effect(name, 0), pages=pages)
    return check_defeat(grown, health) if defeat_check else grown


def effect_besides_damage(
    current: Effect | None, name: str, net: int, health_left: int
) -> Effect | None:
    """WCBH-35: an effect attack works "помимо урона" (besides damage): the same net successes deal
    damage and give the effect. WCBH-36 is checked against the Health the damage left. Ruling: a
    hit whose damage already defeats (0 Health) is a defeat by damage (WCBH-39 may bring it back);
    the effect then runs its Pages without being made scene-long by that defeat."""
    return add_effect(current, name, net, health_left, defeat_check=health_left > 0)


def shake_off(effect: Effect, net: int) -> Effect | None:
    """WCBH-37: a successful shake-off roll (the power's rules say which) cuts the Pages left by
    half its net successes, rounded up; None means free, and free to act this Page. Ruling: an
    effect that defeated the character (WCBH-36) lasts to the end of the Scene and cannot be
    shaken off by a roll, only dropped with Resolve (WCBH-39)."""
    if effect.whole_scene:
        raise InvalidInput(
            f"{effect.name!r} defeated its target and lasts to the end of the Scene",
            field="effect",
            rule="WCBH-36",
        )
    if net <= 0:
        return effect
    left = effect.pages - halve(net)
    return replace(effect, pages=left) if left > 0 else None


def tick_page(effects: Mapping[str, Effect]) -> dict[str, Effect]:
    """WCBH-35: a new Page takes one Page off every effect counted in Pages; the ones at 0 end.
    Scene-long effects (WCBH-36) do not tick."""
    ticked = {n: e if e.whole_scene else replace(e, pages=e.pages - 1) for n, e in effects.items()}
    return {n: e for n, e in ticked.items() if e.whole_scene or e.pages > 0}


def close_scene(effects: Mapping[str, Effect]) -> dict[str, Effect]:
    """WCBH-36/38: closing a Scene ends every effect except those extended with Resolve, which
    last through the next Scene (and may be extended there again). Ruling: Pages belong to a
    Scene, so Page-counted effects end with it too."""
    return {
        n: replace(e, extra_scenes=e.extra_scenes - 1, whole_scene=True)
        for n, e in effects.items()
        if e.extra_scenes > 0
    }


def extend_effect(effect: Effect) -> Effect:
    """WCBH-38: 1 Resolve in the current Scene extends an effect on a defeated opponent to the end
    of the next Scene; in that Scene it can be extended again. Ruling: once per Scene (a second
    Resolve would buy nothing the first did not), and only an effect that defeated its target
    (WCBH-36)."""
    if not effect.whole_scene:
        raise InvalidInput(
            "only an effect on a defeated opponent can be extended", field="effect", rule="WCBH-38"
        )
    if effect.extra_scenes:
        raise InvalidInput(
            f"{effect.name!r} already lasts to the end of the next Scene",
            field="effect",
            rule="WCBH-38",
        )
    return replace(effect, extra_scenes=1)


def come_back(
    health: int,
    max_health: int,
    *,
    defeated_on_page: int,
    page: int,
    used_this_scene: bool,
) -> int:
    """WCBH-39: a character defeated by damage (0 Health) may spend 1 Resolve on the next Page to
    wake up with 3 Health (ruling: never above maximum). Returns the new Health. Once per Scene,
    shared with dropping an effect (ruling: the source says "spending Resolve this way" once per
    Scene, one allowance for both)."""
    _check_once_per_scene(used_this_scene)
    if health > 0:
        raise InvalidInput(
            "only a character defeated by damage comes back", field="health", rule="WCBH-39"
        )
    if page != defeated_on_page + 1:
        raise InvalidInput(
            "coming back is done on the Page after the defeat", field="page", rule="WCBH-39"
        )
    return min(max_health, BACK_IN_THE_FIGHT_HEALTH)


def drop_effect(
    effects: Mapping[str, Effect], name: str, *, used_this_scene: bool
) -> dict[str, Effect]:
    """WCBH-39: 1 Resolve drops a special effect, even one that defeated the character; once per
    Scene, shared with coming back. Ruling: it is gone from the character's next Page (the source:
    "to be rid of it on the next Page")."""
    _check_once_per_scene(used_this_scene)
    if name not in effects:
        raise InvalidInput(f"no effect {name!r} to drop", field="effect", rule="WCBH-39")
    return {n: e for n, e in effects.items() if n != name}


def _check_once_per_scene(used_this_scene: bool) -> None:
    if used_this_scene:
        raise InvalidInput("back in the fight only once per Scene", field="resolve", rule="WCBH-39")


def status_for_health(
    status: str, health: int, effects: Mapping[str, Mapping[str, Any]]
) -> str | None:
    """WCBH-31, 36: the status a change of Health outside a fight's roll (the GM's heal or harm)
    leaves: at 0 Health defeated; above 0 no longer defeated, unless an effect that defeated the
    character (``whole_scene``) still holds it. None: the status stays. An unconscious character
    (a last gasp, WCBH-19) stays so until its scene ends, whatever its Health."""
    if status == "active" and health <= 0:
        return "defeated"
    held = any(e.get("whole_scene") for e in effects.values())
    if status == "defeated" and health > 0 and not held:
        return "active"
    return None


def defeating_effects(effects: Mapping[str, Mapping[str, Any]], health: int) -> list[str]:
    """WCBH-36 when damage lowers Health: the page-counted effects whose remaining Pages now reach
    the Health left (they defeat the character and last to the end of the Scene). Ruling: only
    while Health is above 0 — at 0 the damage itself defeated it (WCBH-31) and the effect stays
    counted in Pages, so that back in the fight (WCBH-39) is not taken away."""
    if health <= 0:
        return []
    return [
        name
        for name, e in effects.items()
        if not e.get("whole_scene")
        and check_defeat(Effect(name, int(e.get("pages", 0))), health).whole_scene
    ]


def effect_forbidding(
    effects: Mapping[str, Mapping[str, Any]],
    rulings: Mapping[str, Mapping[str, Any]],
    what: str,
) -> str | None:
    """WCBH-35, 37: the first effect on the character that forbids ``what`` (one of
    EFFECT_LIMITS), by the GM's ruling for that effect or else the default (it forbids it); None
    when the character is free to. An effect shaken off or dropped is no longer there."""
    if what not in EFFECT_LIMITS:
        raise ValueError(f"unknown limit {what!r}")
    for name in effects:
        if not rulings.get(name, {}).get(what, False):
            return name
    return None
