"""Presenters several route modules share: a command's outcome as the public answer of the
aggregate it changed (api/command_routes.py calls them with the request's Commands)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar
from uuid import UUID

from pydantic import BaseModel

from api.deps import Commands
from api.schemas import (
    CharacterPublic,
    RollPublic,
    ScenePublic,
    Written,
    character_public,
    issue_public,
    roll_public,
    scene_public,
)
from domain.aggregates import Campaign, Character, Roll, Scene
from domain.commands import Outcome

M = TypeVar("M", bound=BaseModel)
R = TypeVar("R", bound="NamesARoll")
V = TypeVar("V", bound=Written)


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


class NamesARoll(Protocol):
    """A game system's command result that names the roll its answer shows."""

    @property
    def roll_id(self) -> UUID | None: ...


def roll_named(outcome: Outcome, commands: Commands, result: type[R]) -> tuple[R, Roll | None]:
    """The command's typed result and the roll it names, if any: one the command saved, else an
    earlier one from the store (the roll a follow-up command resolves)."""
    named = outcome.result_as(result)
    if named.roll_id is None:
        return named, None
    saved = next((a for a in outcome.saved if a.id == named.roll_id), None)
    roll = saved or commands.app.repository.get(named.roll_id)
    assert isinstance(roll, Roll)
    return named, roll


def scene_state_view(
    model: type[V],
    scene: Scene,
    state: Mapping[str, Any],
    roll: Roll | None,
    outcome: Mapping[str, Any] | None,
    **computed: Any,
) -> V:
    """A game system's answer about a scene's fight: each field of `model` the system's state
    holds, as it holds it, unless `computed` gives it (what the rules derive, a renamed or newer
    key); then the command's roll (if any), what came of it and the scene's version."""
    held = {
        name: state[name]
        for name in model.model_fields.keys() - Written.model_fields.keys()
        if name in state and name not in computed
    }
    return model.model_validate(
        {
            "scene_id": scene.id,
            **held,
            **computed,
            "roll": None if roll is None else roll_public(roll, scene),
            "outcome": dict(outcome or {}),
            "version": scene.version,
        }
    )
