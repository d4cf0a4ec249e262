"""View translations of nWoD micro (NW-7..NW-18): the firefight's changes recorded before
Scene.StateChanged (Scene.NwodFightChanged), applied to the scene's doc the same way."""

from __future__ import annotations

from typing import Any

from domain.aggregates.scene import NWOD
from projections.translation import SystemTranslation, Translation, system_state


def recorded_fight(t: Translation, doc: dict[str, Any]) -> str:
    return system_state(t, doc, NWOD, "fight")


# What the views projection calls for these events (projections/views.py: SYSTEM_TRANSLATIONS).
TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    ("scene", "NwodFightChanged"): recorded_fight
}
