"""Special effects of powers and getting back into the fight (WCBH-35..39): durations in Pages,
defeat by an effect, shaking off, Resolve extensions, and what a new Page or a closed Scene does
to them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from domain.errors import InvalidInput
from systems.wcbh.rules.pools import halve

__all__ = [
    "BACK_IN_THE_FIGHT_HEALTH",
    "Effect",
    "add_effect",
    "check_defeat",
    "close_scene",
    "come_back",
    "drop_effect",
    "effect_besides_damage",
    "effect_pages",
    "extend_effect",
    "shake_off",
    "tick_page",
]

BACK_IN_THE_FIGHT_HEALTH = 3  # WCBH-39


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
