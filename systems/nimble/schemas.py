"""What Nimble adds to the shared character response: its health block and its conditions (NB-20..26).

The system's `schemas` part (systems.parts("schemas")): `api.schemas` adds `CharacterFields` to its
character response, fills it with `character_fields` and lists `character_conditions` among the
character's conditions, so the shared presenter never names a system."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from domain.aggregates import Campaign, Character
from systems.nimble.commands.health import NIMBLE, nimble_view
from systems.nimble.rules import health


class CharacterFields(BaseModel):
    """Nimble health's field of the character response (systems/nimble/docs/health.md)."""

    nimble: dict[str, Any] | None = Field(
        default=None,
        description="Nimble only (NB-20..26): hp, temp_hp, wounds, status (dying/dead), "
        "max_actions, conditions, concentration and what a Safe Rest refreshes",
    )


def character_fields(character: Character, campaign: Campaign) -> dict[str, Any]:
    return {"nimble": nimble_view(character, campaign)}


def character_conditions(character: Character, campaign: Campaign) -> list[dict[str, Any]]:
    """Dying/dead, grapples, Restrained, hidden, cover and Concentration as entries of the
    character's `conditions` list (each with its `rule`, NB-21..26)."""
    if campaign.ruleset != NIMBLE:
        return []
    return health.condition_list(
        character.status, character.nimble_conditions, character.concentration
    )
