"""A roll request stores its command's arguments as JSON, and the GM's approval revives them with
the command's own types, also when the request was recorded before the command took its request
model whole (its fields were then stored one by one)."""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID, uuid4

import pytest
from pydantic import BaseModel, ValidationError

from domain.commands import (
    CommandContext,
    Outcome,
    argument_path,
    command_arguments,
    revive_arguments,
)
from domain.requests import Recorded


class Body(BaseModel):
    target_id: UUID
    bonus: int = 0


def whole(app: Any, ctx: CommandContext, scene_id: UUID, body: Body) -> Outcome:
    raise NotImplementedError


def flat(app: Any, ctx: CommandContext, scene_id: UUID, target_id: UUID, bonus: int) -> Outcome:
    raise NotImplementedError


class RenamedBody(Recorded):
    """`target_id` was stored as `aimed_at` before."""

    recorded_renamed: ClassVar[dict[str, str]] = {"aimed_at": "target_id"}
    target_id: UUID
    bonus: int = 0


def renamed(app: Any, ctx: CommandContext, scene_id: UUID, body: RenamedBody) -> Outcome:
    raise NotImplementedError


def older(app: Any, ctx: CommandContext, scene_id: UUID, aimed_at: UUID, bonus: int) -> Outcome:
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


def test_a_field_renamed_since_the_request_was_recorded_revives_under_its_new_name() -> None:
    scene, target = uuid4(), uuid4()
    stored = command_arguments(older, None, CommandContext(None), (scene, target, 1), {})
    assert revive_arguments(renamed, stored) == {
        "scene_id": scene,
        "body": RenamedBody(target_id=target, bonus=1),
    }


def test_a_body_sent_today_under_an_old_field_name_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError, match="aimed_at"):
        RenamedBody.model_validate({"aimed_at": str(uuid4())})


def test_a_place_in_the_request_body_sits_inside_the_model_in_the_arguments() -> None:
    assert argument_path(whole, "request") == "body.request"
    assert argument_path(whole, "") == "body"
    assert argument_path(flat, "") == ""  # a command without a request model: its own arguments
