"""Character views of the Nimble health events (NB-20..NB-26; systems/nimble/commands/health.py).

The `nimble` block and the Nimble entries of `conditions` are rebuilt the way the API builds
them (systems/nimble/rules/health.py), so that a character seen at a past position matches."""

from __future__ import annotations

from typing import Any

from domain.aggregates.scene import NIMBLE
from projections.translation import SystemTranslation, Translation, system_state
from systems.nimble.rules import health

CHARACTER_EVENTS = frozenset(
    {
        "NimbleDamaged",
        "NimbleHealed",
        "NimbleTempHpGained",
        "NimbleWoundsTaken",
        "NimbleSafeRested",
        "NimbleConditionSet",
        "NimbleConditionsLifted",
        "NimbleConcentrationStarted",
        "NimbleConcentrationEnded",
        "NimbleConcentrationSaveRolled",
    }
)


def character_nimble(t: Any, doc: dict[str, Any]) -> str:
    """Apply one Nimble health event to the character view; returns the timeline text."""
    e, name = t.event, doc["name"]
    state = doc.get("nimble") or {}
    conditions: dict[str, dict[str, Any]] = dict(state.get("conditions") or {})
    concentration: dict[str, Any] | None = state.get("concentration")
    text: str
    if t.name == "NimbleDamaged":
        _levels(doc, e.levels)
        doc["status"] = e.status
        if e.concentration == "ended":
            concentration = None
        elif e.concentration == "save_needed" and concentration is not None:
            concentration = {**concentration, "saves_due": concentration["saves_due"] + 1}
        crit = " (critical)" if e.critical else ""
        absorbed = f", {e.temp_hp_absorbed} by temporary HP" if e.temp_hp_absorbed else ""
        wounds = f", {e.wounds_taken} Wound(s)" if e.wounds_taken else ""
        out = f", {e.status}" if e.status != "active" else ""
        text = f"{name} takes {e.amount} damage{crit}{absorbed}: HP {e.levels['hp']}{wounds}{out}"
    elif t.name == "NimbleHealed":
        _levels(doc, e.levels)
        doc["status"] = e.status
        text = f"{name} heals {e.amount} HP: HP {e.levels['hp']}" + (
            f" ({e.reason})" if e.reason else ""
        )
    elif t.name == "NimbleTempHpGained":
        doc["resources"]["temp_hp"]["current"] = e.temp_hp
        text = f"{name} is offered {e.offered} temporary HP and keeps {e.temp_hp} (NB-23)"
    elif t.name == "NimbleWoundsTaken":
        _levels(doc, e.levels)
        doc["status"] = e.status
        text = f"{name} takes {e.wounds_taken} Wound(s): {e.reason}" + (
            ", and dies" if e.status == "dead" else ""
        )
    elif t.name == "NimbleSafeRested":
        _levels(doc, e.levels)
        doc["status"] = e.status
        conditions, concentration = {}, None
        text = f"{name} takes a Safe Rest: HP {e.levels['hp']}, {e.wounds_healed} Wound healed"
    elif t.name == "NimbleConditionSet":
        conditions[e.name] = {**e.condition, "scene_id": str(e.scene_id)}
        text = f"{name}: {e.name} ({e.condition.get('rule', 'NB-24')})"
    elif t.name == "NimbleConditionsLifted":
        for lifted in e.names:
            conditions.pop(lifted, None)
        text = f"{name}: {', '.join(e.names)} ended ({e.reason})"
    elif t.name == "NimbleConcentrationStarted":
        concentration = {"effect": e.effect, "scene_id": str(e.scene_id), "saves_due": 0}
        text = f"{name} concentrates on {e.effect} (NB-25)"
    elif t.name == "NimbleConcentrationEnded":
        concentration = None
        text = f"{name} stops concentrating on {e.effect} ({e.reason})"
    else:  # NimbleConcentrationSaveRolled
        if concentration is not None:
            if e.kept:
                saves = max(0, concentration["saves_due"] - 1)
                concentration = {**concentration, "saves_due": saves}
            else:
                concentration = None
        text = f"{name} " + (
            "keeps concentrating (NB-25)" if e.kept else "loses concentration (NB-25)"
        )
    refresh(doc, conditions, concentration)
    return text


def refresh(
    doc: dict[str, Any],
    conditions: dict[str, dict[str, Any]],
    concentration: dict[str, Any] | None,
) -> None:
    """Rebuild the `nimble` block and the Nimble entries of `conditions` from the doc."""
    res = doc["resources"]
    levels = {k: spec["current"] for k, spec in res.items()}
    maxima = {
        "hp": res.get("hp", {}).get("max"),
        "mana": res.get("mana", {}).get("max"),
        "wounds": res.get("wounds", {}).get("max"),
    }
    sheet = doc["sheet"]
    hero = sheet.get("kind", "hero") == "hero"
    group = None if hero else (int(sheet.get("count", 1)), int(sheet["hp"]))
    doc["nimble"] = health.health_view(
        levels, doc["status"], conditions, concentration, maxima, hero, group
    )
    others = [c for c in doc.get("conditions", []) if not str(c.get("rule", "")).startswith("NB-")]
    doc["conditions"] = others + health.condition_list(doc["status"], conditions, concentration)


def _levels(doc: dict[str, Any], levels: dict[str, int]) -> None:
    for resource, level in levels.items():
        doc["resources"][resource]["current"] = level


def sync(t: Any, doc: dict[str, Any]) -> None:
    """After any character event: a Nimble character's `nimble` block follows its resources,
    status and sheet (created with the character)."""
    if "nimble" not in doc and (
        t.name != "Created" or t.load("campaign", doc["campaign_id"])["ruleset"] != "nimble"
    ):
        return
    state = doc.get("nimble") or {}
    refresh(doc, dict(state.get("conditions") or {}), state.get("concentration"))


def recorded_encounter(t: Translation, doc: dict[str, Any]) -> str:
    """NB-1..NB-19: an encounter change recorded before Scene.StateChanged, applied the same way."""
    return system_state(t, doc, NIMBLE, "encounter")


# What the views projection calls for these events (projections/views.py: SYSTEM_TRANSLATIONS).
TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    **{("character", name): character_nimble for name in CHARACTER_EVENTS},
    ("scene", "NimbleEncounterChanged"): recorded_encounter,
}
after_character = sync
