"""nWoD micro ammunition, pure (NW-16): the rounds in a weapon's magazine and the spare magazines
a character carries are its gear; they persist from scene to scene and only a reload refills."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import Conflict
from systems.nwod_micro.rules.sheet import Weapon


def ammunition(
    recorded: Mapping[str, Any] | None, weapon: Weapon, legacy: int | None
) -> dict[str, int]:
    """The weapon's ammunition now: `loaded` rounds and `spare` magazines, with the sheet's
    `magazine` and `sheet_spare` they were counted against.

    Nothing recorded: as the sheet gives it, full (or, in a fight recorded before ammunition was
    gear, the rounds that scene left, `legacy`). Ruling: a sheet change of the weapon's magazine
    or spare magazines equips it anew as the sheet says: that is how the GM resupplies."""
    assert weapon.magazine is not None
    sheet = {"magazine": weapon.magazine, "sheet_spare": weapon.spare_magazines}
    same_sheet = recorded is not None and all(recorded.get(k) == v for k, v in sheet.items())
    if recorded is not None and same_sheet:
        return {"loaded": int(recorded["loaded"]), "spare": int(recorded["spare"])} | sheet
    loaded = weapon.magazine
    if recorded is None and legacy is not None:
        loaded = min(legacy, weapon.magazine)
    return {"loaded": loaded, "spare": weapon.spare_magazines} | sheet


def fired(gear: Mapping[str, int], rounds: int) -> dict[str, int]:
    """After `rounds` are fired (checked against `loaded` before: maneuvers.check_rounds)."""
    return dict(gear) | {"loaded": int(gear["loaded"]) - rounds}


def reloaded(gear: Mapping[str, int], owner: str, weapon: str) -> dict[str, int]:
    """NW-16: a reload puts a spare magazine in and uses it up. Ruling: the magazine taken out is
    not kept as a spare (the GM may give its rounds back); reloading a full magazine is refused,
    it would waste a spare."""
    if int(gear["spare"]) < 1:
        raise Conflict(
            f"{owner} has no spare magazine for the {weapon}",
            code="no_spare_magazine",
            field="weapon",
            rule="NW-16",
            details={"loaded": gear["loaded"], "spare": 0},
        )
    if int(gear["loaded"]) >= int(gear["magazine"]):
        raise Conflict(
            f"the {weapon}'s magazine is full",
            code="magazine_full",
            field="weapon",
            rule="NW-16",
            details={"loaded": gear["loaded"], "spare": gear["spare"]},
        )
    return dict(gear) | {"loaded": int(gear["magazine"]), "spare": int(gear["spare"]) - 1}
