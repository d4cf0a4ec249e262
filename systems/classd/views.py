"""View branches of Class D Heroes combat (systems/classd/commands/fight.py): the round's state on the scene's doc as recorded before
Scene.StateChanged (projections.translation.system_state tells the newer changes)."""

from __future__ import annotations

from typing import Any

from projections.translation import SystemTranslation, Translation
from systems.classd.rules.combat import RECORDED_AS, ROUND, tell

# What an event of these old types holds besides the round's own fields.
_NOT_FIELDS = ("originator_id", "originator_version", "timestamp", "actor")


def recorded_round(t: Translation, doc: dict[str, Any]) -> str:
    """An old event of the round (Scene.ClassDActed…), applied to the doc as the Scene applies it."""
    fields = {k: v for k, v in vars(t.event).items() if k not in _NOT_FIELDS}
    doc[ROUND.view_key] = ROUND.apply(doc.get(ROUND.view_key), doc["page"], t.name, fields)
    return tell(t.name, fields, lambda c: str(t.load("character", str(c))["name"]))


# What the views projection calls for these events (projections/views.py: SYSTEM_TRANSLATIONS).
TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    **{("scene", name): recorded_round for name in RECORDED_AS},
}
