"""Presenters several route modules share: a command's outcome as the public answer of the
aggregate it changed (api/command_routes.py calls them with the request's Commands)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from api.deps import Commands
from api.schemas import (
    CharacterPublic,
    RollPublic,
    ScenePublic,
    character_public,
    issue_public,
    roll_public,
    scene_public,
)
from domain.aggregates import Campaign, Character, Roll, Scene
from domain.commands import Outcome

M = TypeVar("M", bound=BaseModel)


def roll_shown(outcome: Outcome, commands: Commands) -> RollPublic:
    roll = outcome.aggregate
    assert isinstance(roll, Roll)
    # the scene the command saved with the roll, if it did (a roll always does): no second read
    scene = next((a for a in outcome.saved if isinstance(a, Scene) and a.id == roll.scene_id), None)
    return roll_public(roll, scene or commands.app.repository.get(roll.scene_id))


def scene_shown(outcome: Outcome, commands: Commands) -> ScenePublic:
    """The scene, with its order of action as the caller may see it (none for no caller)."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    actor = commands.actor
    order = commands.app.order_of_action(actor, scene) if actor is not None else None
    return scene_public(scene, order)


def shown(present: Callable[[Any], M]) -> Callable[[Outcome, Commands], M]:
    """The presenter of a command whose answer is its aggregate alone, shown by `present`."""

    def show(outcome: Outcome, _: Commands) -> M:
        return present(outcome.aggregate)

    return show


issue_shown = shown(issue_public)


def character_shown(outcome: Outcome, commands: Commands) -> CharacterPublic:
    character = outcome.aggregate
    assert isinstance(character, Character)
    campaign: Campaign = commands.app.repository.get(character.campaign_id)
    return character_public(character, campaign)
