"""HTTP verbs of systems/wcbh/commands/scene_play.py (We Can Be Heroes play): help, group checks, contests,
chases, recovery and effects (WCBH-10..12, 14, 27, 34, 37..39). See systems/wcbh/docs/scene-play.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from api.command_routes import CommandRoutes, Present
from api.deps import ASKS_GM, NOT_MODIFIED, WAIT, ActorDep, AppDep, Commands, respond
from api.errors import ERROR_RESPONSES
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
from systems.wcbh.requests import (
    AssistedRollCreate,
    BackInTheFightCreate,
    ChaseCheckCreate,
    ChaseCreate,
    ContestCreate,
    ExtensionCreate,
    GroupCheckCreate,
    HandoverCreate,
    PlayRollCreate,
    RecoveryCreate,
    ShakeOffCreate,
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

router = APIRouter(tags=["scene_play"], responses=ERROR_RESPONSES)


def wcbh_play(app: AppDep) -> ScenePlay:
    """The scene play commands of We Can Be Heroes."""
    return app.system(Wcbh).play


PlayDep = Annotated[ScenePlay, Depends(wcbh_play)]


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


class RecoveryPublic(Written):
    character_id: UUID
    roll: RollPublic
    health_before: int
    health: int
    max_health: int
    status: str


class ShakeOffPublic(Written):
    character_id: UUID
    roll: RollPublic
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
        made = changed.roll
        return model.model_validate(
            {
                build.__name__: build(scene, str(changed.state_id)),
                "roll": None if made is None else roll_public(made, scene),
                "version": scene.version,
            }
        )

    return present


def group_check(scene: Scene, state_id: str) -> GroupCheckPublic:
    return group_check_public(state_id, play_of(scene)["group_checks"][state_id])


def contest(scene: Scene, state_id: str) -> ContestPublic:
    return contest_public(state_id, play_of(scene)["contests"][state_id])


def chase(scene: Scene, state_id: str) -> ChasePublic:
    return chase_public(state_id, play_of(scene)["chases"][state_id], scene.page)


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
            HelpRollPublic(
                character_id=h.character_id,
                roll_id=h.roll_id,
                successes=h.successes,
                net=h.net,
                bonus=h.bonus,
                receipt=receipt_public(h.roll_id, outcome.saved),
            )
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


routes = CommandRoutes(router, wcbh_play, "/v1/scenes/{scene_id}")


# ---- WCBH-10: help ---------------------------------------------------------------------------------


routes.post(
    "/assisted-rolls",
    ScenePlay.assisted_roll,
    AssistedRollCreate,
    operation_id="assisted_roll",
    status_code=201,
    responses=ASKS_GM,
    model=AssistedRollPublic,
    present=_assisted,
    doc="""WCBH-10: each helper rolls its trait at difficulty 2 (a roll each); the helped character's
    roll gets +1 die per 2 net successes of the best helper. The caller acts for all of them.""",
)


# ---- WCBH-11: group checks -------------------------------------------------------------------------


routes.post(
    "/group-checks",
    ScenePlay.open_group_check,
    GroupCheckCreate,
    operation_id="open_group_check",
    status_code=201,
    responses=ASKS_GM,
    model=GroupCheckResponse,
    present=_group,
    doc="WCBH-11: open a group check (the GM, or a player with a character in it).",
)


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/group-checks/{group_id}",
    response_model=GroupCheckResponse,
    operation_id="get_group_check",
    responses=NOT_MODIFIED,
)
def get_group_check(scene_id: UUID, group_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    scene = app.get(actor, Scene, scene_id)
    found = _found(play_of(scene)["group_checks"], group_id, "group check")
    return respond(
        GroupCheckResponse(
            group_check=group_check_public(found, play_of(scene)["group_checks"][found]),
            version=scene.version,
        )
    )


routes.post(
    "/group-checks/{group_id}/rolls",
    ScenePlay.group_check_roll,
    PlayRollCreate,
    operation_id="group_check_roll",
    status_code=201,
    responses=ASKS_GM,
    model=GroupCheckResponse,
    present=_group,
    doc="WCBH-11: one participant rolls (its owner or the GM), at the group check's difficulty.",
)
routes.post(
    "/group-checks/{group_id}/handovers",
    ScenePlay.hand_over_successes,
    HandoverCreate,
    operation_id="hand_over_successes",
    model=GroupCheckResponse,
    present=_group,
    doc="""WCBH-11: once everyone rolled, the giver (its owner or the GM) hands successes above 3 to
    another participant.""",
)


# ---- WCBH-12: contests -----------------------------------------------------------------------------


routes.post(
    "/contests",
    ScenePlay.start_contest,
    ContestCreate,
    operation_id="start_contest",
    status_code=201,
    model=ContestResponse,
    present=_contest,
    doc="WCBH-12: a series of rolls between two characters (the GM, or the owner of a side).",
)


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/contests/{contest_id}",
    response_model=ContestResponse,
    operation_id="get_contest",
    responses=NOT_MODIFIED,
)
def get_contest(scene_id: UUID, contest_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    scene = app.get(actor, Scene, scene_id)
    found = _found(play_of(scene)["contests"], contest_id, "contest")
    return respond(
        ContestResponse(
            contest=contest_public(found, play_of(scene)["contests"][found]), version=scene.version
        )
    )


routes.post(
    "/contests/{contest_id}/rolls",
    ScenePlay.contest_roll,
    PlayRollCreate,
    operation_id="contest_roll",
    status_code=201,
    responses=ASKS_GM,
    model=ContestResponse,
    present=_contest,
    doc="WCBH-12: one side's roll of the current round (+2 dice after winning the previous one).",
)


# ---- WCBH-27: chases -------------------------------------------------------------------------------


routes.post(
    "/chases",
    ScenePlay.start_chase,
    ChaseCreate,
    operation_id="start_chase",
    status_code=201,
    model=ChaseResponse,
    present=_chase,
    doc="""WCBH-27: pursuers, each after one target, at a starting range (the GM, or a player with a
    character in it).""",
)


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/chases/{chase_id}",
    response_model=ChaseResponse,
    operation_id="get_chase",
    responses=NOT_MODIFIED,
)
def get_chase(scene_id: UUID, chase_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    scene = app.get(actor, Scene, scene_id)
    found = _found(play_of(scene)["chases"], chase_id, "chase")
    return respond(
        ChaseResponse(
            chase=chase_public(found, play_of(scene)["chases"][found], scene.page),
            version=scene.version,
        )
    )


routes.post(
    "/chases/{chase_id}/checks",
    ScenePlay.chase_check,
    ChaseCheckCreate,
    operation_id="chase_check",
    status_code=201,
    responses=ASKS_GM,
    model=ChaseResponse,
    present=_chase,
    doc="WCBH-27: a participant's chase check of this page (its owner or the GM); not an action.",
)


# ---- WCBH-34, 37..39: recovery and effects ---------------------------------------------------------


routes.post(
    "/recoveries",
    ScenePlay.recover_health,
    RecoveryCreate,
    operation_id="recover_health",
    status_code=201,
    responses=ASKS_GM,
    model=RecoveryPublic,
    present=_recovery,
    doc="""WCBH-34: a Stamina check at difficulty 2 (1 after a whole day of rest) restores 1 Health per
    net success, up to the maximum; once per character per scene.""",
)
routes.post(
    "/shake-offs",
    ScenePlay.shake_off_effect,
    ShakeOffCreate,
    operation_id="shake_off_effect",
    status_code=201,
    responses=ASKS_GM,
    model=ShakeOffPublic,
    present=_shaken_off,
    doc="""WCBH-37: roll as the power says; success takes half the net successes (rounded up) off the
    effect's pages; at 0 the character is free and may act this page.""",
)
routes.post(
    "/effect-extensions",
    ScenePlay.extend_effect_past_scene,
    ExtensionCreate,
    operation_id="extend_effect",
    name="extend_effect",
    model=EffectPublic,
    present=_effects,
    doc="""WCBH-38: 1 Resolve extends an effect on a defeated opponent to the end of the next scene of
    this game Issue; once per scene per effect. Answers with the target.""",
)
routes.post(
    "/back-in-the-fight",
    ScenePlay.back_in_the_fight,
    BackInTheFightCreate,
    operation_id="back_in_the_fight",
    model=EffectPublic,
    present=_effects,
    doc="""WCBH-39: 1 Resolve on the page after a defeat by damage: wake with 3 Health; or 1 Resolve:
    be rid of a special effect from the next page. Either once per scene per character.""",
)


def _found(states: dict[str, Any], state_id: UUID, label: str) -> str:
    if str(state_id) not in states:
        raise NotFound(f"{label} {state_id} not found in this scene")
    return str(state_id)
