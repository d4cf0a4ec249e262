"""NB-12 casting, in pure code: a spell's mana comes from the sheet's tier, not from the player.

A spell costs mana equal to its tier, a cantrip (tier 0) costs none, and "some spells give a
stronger effect for each extra unit of mana" (the Russian source, «Усиление заклинаний»). So the
only number a caster chooses is the extra mana, and only for a spell whose sheet says it scales
(`upcast`, the most extra mana it takes); the caster's mana pool bounds the whole cost
(`encounter.check_mana`). A tier the request names must be the sheet's: it is a check, not a choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidInput
from systems.nimble.rules.sheet import Attack, NimbleHero, NimbleMonster, Spell

__all__ = ["Cast", "attack_cast", "find_spell", "spell_cast"]


@dataclass(frozen=True)
class Cast:
    """What casting costs: the sheet's tier (None: not a spell) and the extra mana chosen."""

    name: str
    tier: int | None
    extra: int

    @property
    def mana(self) -> int:
        """NB-12: the tier in mana (a cantrip and a weapon: 0) plus the extra mana."""
        return (self.tier or 0) + self.extra

    def details(self) -> dict[str, Any]:
        """What the record keeps of it: nothing for a weapon or ability."""
        if self.tier is None:
            return {}
        return {"spell_tier": self.tier, "extra_mana": self.extra, "mana": self.mana}


def _cast(
    entry: Attack | Spell,
    named_tier: int | None,
    extra: int,
    tier_field: str,
    extra_field: str,
) -> Cast:
    tier = entry.tier
    if named_tier is not None and named_tier != (tier or 0):
        what = "is not a spell" if tier is None else f"is a tier {tier} spell"
        raise InvalidInput(
            f"{entry.name!r} {what} on the sheet, not tier {named_tier}; the tier comes from the "
            "sheet (omit the field)",
            field=tier_field,
            code="spell_tier_not_the_sheet_s",
            rule="NB-12",
            details={"sheet": tier, "named": named_tier},
        )
    if extra and extra > entry.upcast:
        reason = (
            "is not a spell"
            if tier is None
            else "does not scale with extra mana"
            if not entry.upcast
            else f"takes at most {entry.upcast} extra mana"
        )
        raise InvalidInput(
            f"{entry.name!r} {reason} (the sheet's `upcast`), not {extra}",
            field=extra_field,
            code="upcast_beyond_the_sheet",
            rule="NB-12",
            details={"upcast": entry.upcast, "named": extra},
        )
    return Cast(entry.name, tier, extra)


def attack_cast(attack: Attack, named_tier: int | None, extra: int) -> Cast:
    """NB-12: the mana an attack costs: its tier on the sheet plus the extra mana chosen, which the
    sheet bounds. A weapon (no tier) costs none and takes no extra mana."""
    return _cast(attack, named_tier, extra, "spell_tier", "extra_mana")


def find_spell(sheet: NimbleHero | NimbleMonster, name: str) -> Spell | Attack:
    """The sheet's spell by name (ignoring case): a hero's `spells`, then its attacks that have a
    tier (an attack spell cast without its attack roll)."""
    folded = name.casefold()
    spells: list[Spell | Attack] = list(sheet.spells) if isinstance(sheet, NimbleHero) else []
    spells += [a for a in sheet.attacks if a.tier is not None]
    for spell in spells:
        if spell.name.casefold() == folded:
            return spell
    raise InvalidInput(
        f"the sheet has no spell {name!r}",
        field="spell",
        code="no_such_spell",
        rule="NB-12",
        details={"known": [s.name for s in spells]},
    )


def spell_cast(
    sheet: NimbleHero | NimbleMonster, spell: str | None, mana: int, extra: int
) -> Cast | None:
    """NB-12: an action's spell and its mana, from the sheet. `mana`, if the request gives it,
    must be what the sheet's tier and the extra mana cost; mana without a named spell is refused
    (the sheet, not the player, says what a spell costs). None: no spell cast."""
    if spell is None:
        if mana or extra:
            field = "mana" if mana else "extra_mana"
            raise InvalidInput(
                "name the sheet's spell (`spell`); its mana comes from the sheet's tier",
                field=field,
                code="mana_without_a_spell",
                rule="NB-12",
            )
        return None
    entry = find_spell(sheet, spell)
    cast = _cast(entry, None, extra, "spell", "extra_mana")
    if mana and mana != cast.mana:
        raise InvalidInput(
            f"{entry.name!r} costs {cast.mana} mana (tier {cast.tier or 0} and {extra} extra), "
            f"not {mana}",
            field="mana",
            code="mana_not_the_sheet_s",
            rule="NB-12",
            details={"sheet": cast.mana, "named": mana},
        )
    return cast
