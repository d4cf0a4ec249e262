"""A roll request stores its command's arguments as JSON, and the GM's approval revives them with
the command's own types, also when the request was recorded before the command took its request
model whole (its fields were then stored one by one)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from pydantic import BaseModel

from domain.commands import CommandContext, Outcome, command_arguments, revive_arguments
from domain.rolls import _with_modifiers


class Body(BaseModel):
    target_id: UUID
    bonus: int = 0


def whole(app: Any, ctx: CommandContext, scene_id: UUID, body: Body) -> Outcome:
    raise NotImplementedError


def flat(app: Any, ctx: CommandContext, scene_id: UUID, target_id: UUID, bonus: int) -> Outcome:
    raise NotImplementedError


def test_arguments_stored_as_json_revive_with_the_commands_types() -> None:
    scene, target = uuid4(), uuid4()
    stored = command_arguments(
        whole, None, CommandContext(None), (scene,), {"body": Body(target_id=target, bonus=2)}
    )
    assert stored == {"scene_id": str(scene), "body": {"target_id": str(target), "bonus": 2}}
    assert revive_arguments(whole, stored) == {
        "scene_id": scene,
        "body": Body(target_id=target, bonus=2),
    }


def test_arguments_recorded_one_by_one_revive_into_the_request_model() -> None:
    scene, target = uuid4(), uuid4()
    stored = command_arguments(flat, None, CommandContext(None), (scene, target), {"bonus": 3})
    assert revive_arguments(whole, stored) == {
        "scene_id": scene,
        "body": Body(target_id=target, bonus=3),
    }


def test_modifiers_an_approval_puts_beside_the_arguments_go_into_the_request_model() -> None:
    scene, target = uuid4(), uuid4()
    stored = command_arguments(
        whole, None, CommandContext(None), (scene,), {"body": Body(target_id=target, bonus=2)}
    )
    approved = _with_modifiers(stored, "", {"bonus": 5})  # "": the command's own arguments
    assert revive_arguments(whole, approved) == {
        "scene_id": scene,
        "body": Body(target_id=target, bonus=5),
    }


def test_modifiers_at_a_path_inside_a_whole_body_are_put_there() -> None:
    arguments = {"scene_id": "s", "body": {"attackers": [{"modifier": 1}, {"modifier": 0}]}}
    approved = _with_modifiers(arguments, "attackers", {"1.modifier": 3})
    assert approved["body"]["attackers"] == [{"modifier": 1}, {"modifier": 3}]
    assert arguments["body"]["attackers"][1] == {"modifier": 0}  # the stored ones stay
