"""HTTP verbs of systems/wcbh/commands/scene_play.py (We Can Be Heroes play): help, group checks, contests,
chases, recovery and effects (WCBH-10..12, 14, 27, 34, 37..39). See systems/wcbh/docs/scene-play.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any
from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.command_routes import CommandRoutes, Op, Present
from api.deps import Commands
from api.errors import ERROR_RESPONSES
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import ReceiptPublic, RollPublic, Written, receipt_public, roll_public
from domain.aggregates import Character, Roll, Scene
from domain.application import Outcome
from domain.errors import NotFound
from systems.wcbh.commands import Wcbh
from systems.wcbh.commands.scene_play import (
    Assisted,
    PlayStateChanged,
    Recovery,
    ScenePlay,
    ShakenOff,
)
from systems.wcbh.schemas import (
    ChasePublic,
    ContestPublic,
    GroupCheckPublic,
    chase_public,
    contest_public,
    group_check_public,
    play_of,
)

router = APIRouter(route_class=OneHopRoute, tags=["scene_play"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


# ---- responses ------------------------------------------------------------------------------------


class HelpRollPublic(BaseModel):
    character_id: UUID
    roll_id: UUID
    successes: int
    net: int
    bonus: int = Field(description="Dice this helper's roll is worth (WCBH-10)")
    receipt: ReceiptPublic


class AssistedRollPublic(Written):
    roll: RollPublic = Field(description="The helped character's roll, with the help dice")
    helpers: list[HelpRollPublic]
    bonus: int = Field(description="Dice added: the best helper's only (WCBH-10)")


class GroupCheckResponse(Written):
    group_check: GroupCheckPublic
    roll: RollPublic | None = Field(default=None, description="The roll this command made")


class ContestResponse(Written):
    contest: ContestPublic
    roll: RollPublic | None = Field(default=None, description="The roll this command made")


class ChaseResponse(Written):
    chase: ChasePublic
    roll: RollPublic | None = Field(default=None, description="The roll this command made")


class CharacterRolled(Written):
    """A character's own roll and what it changed on the character."""

    character_id: UUID
    roll: RollPublic


class RecoveryPublic(CharacterRolled):
    health_before: int
    health: int
    max_health: int
    status: str


class ShakeOffPublic(CharacterRolled):
    effect: str
    pages_before: int
    pages_left: int
    free: bool = Field(description="The effect is over: the character may act this page")


class EffectPublic(Written):
    character_id: UUID
    status: str
    resolve: int = Field(description="The character's Resolve now")
    health: int
    conditions: list[dict[str, Any]]


# ---- presenters ------------------------------------------------------------------------------------


def _scene_state(build: Callable[[Scene, str], BaseModel], model: type[Written]) -> Present:
    def present(outcome: Outcome, _: Commands) -> Written:
        scene: Scene = outcome.aggregate  # type: ignore[assignment]
        changed = outcome.result_as(PlayStateChanged)
        return _state_shown(scene, str(changed.state_id), build, model, changed.roll)

    return present


def _state_shown(
    scene: Scene,
    state_id: str,
    build: Callable[[Scene, str], BaseModel],
    model: type[Written],
    made: Roll | None = None,
) -> Written:
    """A group check, contest or chase of the scene, with the roll the command made (if any)."""
    return model.model_validate(
        {
            build.__name__: build(scene, state_id),
            "roll": None if made is None else roll_public(made, scene),
            "version": scene.version,
        }
    )


def _play_state(scene: Scene, kind: str, state_id: str, label: str) -> dict[str, Any]:
    states = play_of(scene)[kind]
    if state_id not in states:
        raise NotFound(f"{label} {state_id} not found in this scene")
    return states[state_id]  # type: ignore[no-any-return]


def group_check(scene: Scene, state_id: str) -> GroupCheckPublic:
    return group_check_public(state_id, _play_state(scene, "group_checks", state_id, "group check"))


def contest(scene: Scene, state_id: str) -> ContestPublic:
    return contest_public(state_id, _play_state(scene, "contests", state_id, "contest"))


def chase(scene: Scene, state_id: str) -> ChasePublic:
    return chase_public(state_id, _play_state(scene, "chases", state_id, "chase"), scene.page)


_group = _scene_state(group_check, GroupCheckResponse)
_contest = _scene_state(contest, ContestResponse)
_chase = _scene_state(chase, ChaseResponse)


def _effects(outcome: Outcome, _: Commands) -> EffectPublic:
    character: Character = outcome.aggregate  # type: ignore[assignment]
    return EffectPublic(
        character_id=character.id,
        status=character.status,
        resolve=character.resources.get("resolve", 0),
        health=character.resources.get("health", 0),
        conditions=[{"name": n, **e} for n, e in character.effects.items()],
        version=character.version,
    )


def _assisted(outcome: Outcome, _: Commands) -> AssistedRollPublic:
    roll: Roll = outcome.aggregate  # type: ignore[assignment]
    assisted = outcome.result_as(Assisted)
    scene = next(a for a in outcome.saved if isinstance(a, Scene))
    return AssistedRollPublic(
        roll=roll_public(roll, scene),
        helpers=[
            HelpRollPublic(**asdict(h), receipt=receipt_public(h.roll_id, outcome.saved))
            for h in assisted.helpers
        ],
        bonus=assisted.bonus,
        version=roll.version,
    )


def _recovery(outcome: Outcome, commands: Commands) -> RecoveryPublic:
    character: Character = outcome.aggregate  # type: ignore[assignment]
    recovery = outcome.result_as(Recovery)
    roll = recovery.roll
    return RecoveryPublic(
        character_id=character.id,
        roll=roll_public(roll, commands.app.repository.get(roll.scene_id)),
        health_before=recovery.health_before,
        health=character.resources.get("health", 0),
        max_health=recovery.max_health,
        status=character.status,
        version=character.version,
    )


def _shaken_off(outcome: Outcome, commands: Commands) -> ShakeOffPublic:
    character: Character = outcome.aggregate  # type: ignore[assignment]
    shaken = outcome.result_as(ShakenOff)
    roll, effect = shaken.roll, shaken.effect
    return ShakeOffPublic(
        character_id=character.id,
        roll=roll_public(roll, commands.app.repository.get(roll.scene_id)),
        effect=effect,
        pages_before=shaken.pages_before,
        pages_left=character.effects.get(effect, {}).get("pages", 0),
        free=effect not in character.effects,
        version=character.version,
    )


routes = CommandRoutes(router, lambda app: app.system(Wcbh).play, "/v1/scenes/{scene_id}")

# ---- WCBH-10: help; WCBH-34, 37: recovery, shaking an effect off -------------------------------

routes.declare(
    Op(
        "/assisted-rolls",
        ScenePlay.assisted_roll,
        """WCBH-10: each helper rolls its trait at difficulty 2 (a roll each); the helped character's
    roll gets +1 die per 2 net successes of the best helper. The caller acts for all of them.""",
    ),
    model=AssistedRollPublic,
    present=_assisted,
    created=True,
    asks_gm=True,
)
routes.declare(
    Op(
        "/recoveries",
        ScenePlay.recover_health,
        """WCBH-34: a Stamina check at difficulty 2 (1 after a whole day of rest) restores 1 Health per
    net success, up to the maximum; once per character per scene.""",
    ),
    model=RecoveryPublic,
    present=_recovery,
    created=True,
    asks_gm=True,
)
routes.declare(
    Op(
        "/shake-offs",
        ScenePlay.shake_off_effect,
        """WCBH-37: roll as the power says; success takes half the net successes (rounded up) off the
    effect's pages; at 0 the character is free and may act this page.""",
    ),
    model=ShakeOffPublic,
    present=_shaken_off,
    created=True,
    asks_gm=True,
)

# ---- WCBH-11: group checks; WCBH-12: contests; WCBH-27: chases -----------------------------------

routes.declare(
    Op(
        "/group-checks",
        ScenePlay.open_group_check,
        "WCBH-11: open a group check (the GM, or a player with a character in it).",
    ),
    Op(
        "/group-checks/{group_id}/rolls",
        ScenePlay.group_check_roll,
        "WCBH-11: one participant rolls (its owner or the GM), at the group check's difficulty.",
    ),
    model=GroupCheckResponse,
    present=_group,
    created=True,
    asks_gm=True,
)
routes.declare(
    Op(
        "/group-checks/{group_id}/handovers",
        ScenePlay.hand_over_successes,
        """WCBH-11: once everyone rolled, the giver (its owner or the GM) hands successes above 3 to
    another participant.""",
    ),
    model=GroupCheckResponse,
    present=_group,
)
routes.declare(
    Op(
        "/contests",
        ScenePlay.start_contest,
        "WCBH-12: a series of rolls between two characters (the GM, or the owner of a side).",
    ),
    model=ContestResponse,
    present=_contest,
    created=True,
)
routes.declare(
    Op(
        "/contests/{contest_id}/rolls",
        ScenePlay.contest_roll,
        "WCBH-12: one side's roll of the current round (+2 dice after winning the previous one).",
    ),
    model=ContestResponse,
    present=_contest,
    created=True,
    asks_gm=True,
)
routes.declare(
    Op(
        "/chases",
        ScenePlay.start_chase,
        """WCBH-27: pursuers, each after one target, at a starting range (the GM, or a player with a
    character in it).""",
    ),
    model=ChaseResponse,
    present=_chase,
    created=True,
)
routes.declare(
    Op(
        "/chases/{chase_id}/checks",
        ScenePlay.chase_check,
        "WCBH-27: a participant's chase check of this page (its owner or the GM); not an action.",
    ),
    model=ChaseResponse,
    present=_chase,
    created=True,
    asks_gm=True,
)


def _state_read(
    build: Callable[[Scene, str], BaseModel], model: type[Written]
) -> Callable[..., Written]:
    """A GET of one group check, contest or chase: the path's second id names it."""

    def present(scene: Scene, **state: UUID) -> Written:
        (state_id,) = state.values()
        return _state_shown(scene, str(state_id), build, model)

    return present


for _path, _operation_id, _build, _model in (
    ("group-checks/{group_id}", "get_group_check", group_check, GroupCheckResponse),
    ("contests/{contest_id}", "get_contest", contest, ContestResponse),
    ("chases/{chase_id}", "get_chase", chase, ChaseResponse),
):
    reads.one(
        f"/v1/scenes/{{scene_id}}/{_path}",
        Scene,
        _state_read(_build, _model),
        model=_model,
        operation_id=_operation_id,
    )


# ---- WCBH-38, 39: effects past the scene, back in the fight ---------------------------------------

routes.declare(
    Op(
        "/effect-extensions",
        ScenePlay.extend_effect_past_scene,
        """WCBH-38: 1 Resolve extends an effect on a defeated opponent to the end of the next scene of
    this game Issue; once per scene per effect. Answers with the target.""",
        operation_id="extend_effect",
        name="extend_effect",
    ),
    Op(
        "/back-in-the-fight",
        ScenePlay.back_in_the_fight,
        """WCBH-39: 1 Resolve on the page after a defeat by damage: wake with 3 Health; or 1 Resolve:
    be rid of a special effect from the next page. Either once per scene per character.""",
    ),
    model=EffectPublic,
    present=_effects,
)
