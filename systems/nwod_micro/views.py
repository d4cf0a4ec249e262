"""View translations of nWoD micro (NW-7..NW-18): the firefight's changes recorded before
Scene.StateChanged (Scene.NwodFightChanged), applied to the scene's doc the same way, and the
ammunition of a character's gear (Character.AmmunitionChanged, NW-16)."""

from __future__ import annotations

from typing import Any

from domain.aggregates.scene import NWOD
from projections.translation import SystemTranslation, Translation, system_state


def recorded_fight(t: Translation, doc: dict[str, Any]) -> str:
    return system_state(t, doc, NWOD, "fight")


def ammunition_changed(t: Translation, doc: dict[str, Any]) -> str:
    """NW-16: the character's log line; the ammunition itself is read from the character."""
    e = t.event
    return (
        f"{doc['name']}: {e.why} the {e.weapon}, {e.levels['loaded']} round(s) loaded, "
        f"{e.levels['spare']} spare magazine(s) (NW-16)"
    )


# What the views projection calls for these events (projections/views.py: SYSTEM_TRANSLATIONS).
TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    ("scene", "NwodFightChanged"): recorded_fight,
    ("character", "AmmunitionChanged"): ammunition_changed,
}
