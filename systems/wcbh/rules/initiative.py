"""Order of action in a We Can Be Heroes fight (WCBH-22..24, WCBH-47): who acts when in a Page,
as groups of characters acting simultaneously."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from domain.errors import Conflict, InvalidInput

__all__ = [
    "TIE_ORDER",
    "Combatant",
    "Order",
    "check_turn_order",
    "delayed_order",
    "effective_edge",
    "knocked_out_together",
    "lost_delays",
    "moment_matches",
    "now_acting",
    "order_of_action",
]

TIE_ORDER = ("hero", "villain", "opponent", "other")
"""WCBH-23: on equal Edge, Heroes act before Villains, before Opponents, before Others."""

Order = tuple[tuple[str, ...], ...]
"""Groups of character ids in acting order; the ids of one group act simultaneously."""

Variant = Literal["act_first", "double_edge"]


@dataclass(frozen=True)
class Combatant:
    """A character in the fight: its side (``domain.rulesets.base.SIDES``), its Edge (None for a
    minion, WCBH-23) and whether it spent Resolve to act first (WCBH-24)."""

    id: str
    side: str
    edge: int | None
    acts_first: bool = False


def effective_edge(combatant: Combatant, variant: Variant = "act_first") -> int:
    """WCBH-23/24: the Edge that orders the character; doubled under the ``double_edge`` campaign
    variant once it spent Resolve (WCBH-24)."""
    if combatant.edge is None:
        raise InvalidInput(
            f"{combatant.id!r} has no Edge: only minions go without", field="edge", rule="WCBH-23"
        )
    doubled = variant == "double_edge" and combatant.acts_first
    return combatant.edge * 2 if doubled else combatant.edge


def order_of_action(
    combatants: Iterable[Combatant],
    *,
    variant: Variant = "act_first",
    delayed: Iterable[str] = (),
    team_attack: Iterable[str] = (),
) -> Order:
    """The Page's order of action (WCBH-22: everyone acts once per Page).

    - WCBH-23: higher Edge first; equal Edge: Heroes > Villains > Opponents > Others; equal Edge on
      the same side acts simultaneously (one group). Minions act last, all together (ruling: they
      have no Edge to tell them apart).
    - WCBH-24: under the ``act_first`` variant, characters who spent Resolve act before everyone
      else, among themselves by the same rules; under ``double_edge`` their Edge is doubled.
    - WCBH-23: ``delayed`` characters are left out: they act when their declared moment comes
      (``delayed_order``).
    - WCBH-47: ``team_attack`` characters act at the very end of the Page, after the minions, as
      one group (ruling: a team attack is joint, so simultaneous).
    """
    everyone = _unique(combatants)
    waiting, team = set(delayed), set(team_attack)
    _check_known(everyone, waiting, "delayed")
    _check_known(everyone, team, "team_attack")
    acting = [c for c in everyone.values() if c.id not in waiting | team]
    order = _groups(acting, variant)
    last = tuple(i for i in everyone if i in team)
    return order + ((last,) if last else ())


def delayed_order(
    combatants: Iterable[Combatant],
    delays: Mapping[str, str],
    moment: str,
    *,
    variant: Variant = "act_first",
) -> Order:
    """WCBH-23: the characters who delayed their action to ``moment`` act when it comes, in the
    normal order among themselves. ``delays`` maps character id -> declared moment."""
    everyone = _unique(combatants)
    _check_known(everyone, delays, "delays")
    waiting = [everyone[i] for i, m in delays.items() if m == moment]
    return _groups(waiting, variant)


def lost_delays(delays: Mapping[str, str], moments_that_came: Iterable[str]) -> frozenset[str]:
    """WCBH-23: a delayed action whose moment never came this Page is lost."""
    came = set(moments_that_came)
    return frozenset(i for i, m in delays.items() if m not in came)


def _check_known(everyone: Mapping[str, Combatant], ids: Iterable[str], field: str) -> None:
    unknown = sorted(set(ids) - everyone.keys())
    if unknown:
        raise InvalidInput(f"not in the fight: {unknown}", field=field)


def _unique(combatants: Iterable[Combatant]) -> dict[str, Combatant]:
    everyone: dict[str, Combatant] = {}
    for c in combatants:
        if c.id in everyone:
            raise InvalidInput(f"{c.id!r} is in the fight twice", field="combatants")
        if c.side == "minion" and c.acts_first:
            # WCBH-24 costs Resolve, which a minion never has (WCBH-17).
            raise InvalidInput(
                "a minion has no Resolve to act first", field="acts_first", rule="WCBH-24"
            )
        if c.side != "minion" and c.side not in TIE_ORDER:
            raise InvalidInput(f"unknown side {c.side!r}", field="side")
        everyone[c.id] = c
    return everyone


def _groups(acting: list[Combatant], variant: Variant) -> Order:
    def key(c: Combatant) -> tuple[int, int, int]:
        if c.side == "minion":
            return (2, 0, 0)
        first = variant == "act_first" and c.acts_first
        return (0 if first else 1, -effective_edge(c, variant), TIE_ORDER.index(c.side))

    groups: dict[tuple[int, int, int], list[str]] = {}
    for c in sorted(acting, key=key):
        groups.setdefault(key(c), []).append(c.id)
    return tuple(tuple(ids) for ids in groups.values())


# ---- enforcing the order (issue #15: it was computed but never enforced) -------------------------


def now_acting(
    order: Order, done: Collection[str], called: Collection[str] = ()
) -> tuple[str, ...]:
    """WCBH-22, 23: the characters whose turn it is: those whose delayed moment came and who have
    not acted yet go first, in the normal order among themselves (WCBH-23); else the first group of
    the order with someone not done (one group acts simultaneously). ``done``: whose turn of the
    Page is over or skipped (acted, passed, lost its turn, out of the fight, waiting for a delayed
    moment). Empty: everyone is done."""
    waiting = {c for c in called if c not in done}
    for group in order:
        now = tuple(c for c in group if (c in waiting if waiting else c not in done))
        if now:
            return now
    return ()


def check_turn_order(
    character: str,
    name: str,
    order: Order,
    done: Collection[str],
    called: Collection[str] = (),
) -> None:
    """WCBH-22..24: a character of the fight acts only when its turn comes (``now_acting``); the
    GM's recorded override is the caller's to honour before asking. A character the GM did not put
    into the fight is refused too: the order cannot place it."""
    if not any(character in group for group in order):
        raise Conflict(
            f"{name} is not in this scene's fight: the GM adds it (POST .../combatants) so that "
            "the order of action places it",
            field="character_id",
            code="not_in_the_fight",
            rule="WCBH-22",
        )
    now = now_acting(order, done, called)
    if character not in now:
        raise Conflict(
            f"it is not {name}'s turn: the order of action (Edge) has others act first",
            field="character_id",
            code="not_your_turn",
            rule="WCBH-23" if called else "WCBH-22",
            details={"now": list(now)},
        )


def moment_matches(declared: str | None, came: str) -> bool:
    """WCBH-23: a delayed action's declared moment, named again when it comes (case and outer
    spaces aside)."""
    return declared is not None and declared.strip().casefold() == came.strip().casefold()


def knocked_out_together(
    character: str, order: Order, attackers_of_it: Iterable[str], *, defeated_now: bool, acted: bool
) -> bool:
    """WCBH-23: equal Edge on one side acts simultaneously, "and both may knock each other out": a
    character that a member of its own group defeated this Page, before it took its action, still
    takes it. ``attackers_of_it``: who attacked it this Page; ``defeated_now``: defeated by damage
    on this Page."""
    if not defeated_now or acted:
        return False
    group = next((g for g in order if character in g), ())
    return any(a in group and a != character for a in attackers_of_it)
