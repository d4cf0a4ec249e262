"""HTTP verbs of systems/classd/commands/fight.py (Class D Heroes combat, CD-8..CD-20)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import RollPublic, Written, roll_public
from domain.aggregates import Roll, Scene
from domain.application import Outcome
from systems.classd.commands import ClassD
from systems.classd.commands.fight import AREA, ClassDResult, Fight
from systems.classd.requests import (
    ClassDActionCreate,
    ClassDAttackCreate,
    ClassDMoveCreate,
    ClassDRetreatCreate,
    ClassDShieldCreate,
    ClassDStopCreate,
    ClassDVillainAttackCreate,
)
from systems.classd.rules import combat

router = APIRouter(tags=["classd"], responses=ERROR_RESPONSES)


def classd_fight(app: AppDep) -> Fight:
    """The Class D combat commands of the application's Class D component."""
    return app.system(ClassD).fight


FightDep = Annotated[Fight, Depends(classd_fight)]


class ClassDCombatPublic(Written):
    scene_id: UUID
    round: int = Field(description="The round (the scene's page, CD-8).")
    turn: Literal["heroes", "villains"] = Field(description="Whose turn of the round (CD-8).")
    actions: dict[str, list[str]] = Field(
        description="Actions this round, by character (CD-9, 15)."
    )
    reactions: dict[str, list[str]] = Field(
        description="Attack types each villain reacted with this round (CD-17)."
    )
    moved: list[str] = Field(description="Who moved this round (CD-18, CD-19).")
    stops: dict[str, dict[str, Any]] = Field(description="Stop attempts this turn (CD-16).")
    engaged: list[dict[str, Any]] = Field(description="Engaged pairs (CD-19).")
    edges: dict[str, dict[str, Any]] = Field(description="Edges from moving (CD-18).")
    shields: dict[str, dict[str, Any]] = Field(description="Hostage shields (CD-20).")
    left: dict[str, str] = Field(description="Who retreated or escaped (CD-14, CD-16).")
    fleeing: list[str] = Field(description="Villains fleeing now, not yet stopped (CD-16).")
    roll: RollPublic | None = Field(default=None, description="The command's roll, if any.")
    outcome: dict[str, Any] = Field(default_factory=dict, description="What else came of it.")


def combat_public(
    scene: Scene, roll: Roll | None = None, outcome: dict[str, Any] | None = None
) -> ClassDCombatPublic:
    state = scene.state(ClassD.ruleset_id, AREA)
    return ClassDCombatPublic(
        scene_id=scene.id,
        round=state["round"],
        turn=state["turn"],
        actions=state["actions"],
        reactions=state["reactions"],
        moved=state["moved"],
        stops=state["stops"],
        engaged=state["engaged"],
        edges=state["edges"],
        shields=state["shields"],
        left=state["left"],
        fleeing=combat.fleeing(state),
        roll=roll_public(roll, scene) if roll is not None else None,
        outcome=outcome or {},
        version=scene.version,
    )


def present(outcome: Outcome) -> ClassDCombatPublic:
    """A combat command's answer: the round after it, its roll (saved with it) and its outcome."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result = outcome.result_as(ClassDResult)
    roll = next((a for a in outcome.saved if a.id == result.roll_id), None)
    assert roll is None or isinstance(roll, Roll)
    return combat_public(scene, roll, dict(result.outcome))


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/classd",
    response_model=ClassDCombatPublic,
    operation_id="classd_combat",
)
def get_combat(scene_id: UUID, fight: FightDep, actor: ActorDep) -> JSONResponse:
    """The round of a Class D fight: whose turn, actions, reactions, engaged pairs, edges,
    hostage shields, who left (CD-8..CD-20)."""
    return respond(combat_public(fight.classd_combat(actor, scene_id)))


@router.post(
    "/v1/scenes/{scene_id}/classd/villains-turn",
    response_model=ClassDCombatPublic,
    operation_id="classd_end_heroes_turn",
)
def end_heroes_turn(scene_id: UUID, fight: FightDep, commands: CommandsDep) -> JSONResponse:
    """CD-8: the GM ends the heroes' turn; the villains act. The next page starts a new round."""
    return commands.run(fight.classd_end_heroes_turn, scene_id, present=present)


@router.post(
    "/v1/scenes/{scene_id}/classd/attacks",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_attack",
    responses=ASKS_GM,
)
def attack(
    scene_id: UUID, body: ClassDAttackCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-10..13, 19, 20: a hero's action: attack a villain. One roll record holds the check, its
    Will rerolls, the damage dice, the strike-back and any hostage hit."""
    return commands.run(fight.classd_attack, scene_id, body, present=present, status_code=201)


@router.post(
    "/v1/scenes/{scene_id}/classd/villain-attacks",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_villain_attack",
)
def villain_attack(
    scene_id: UUID, body: ClassDVillainAttackCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-15, 17: (GM) a villain attacks a hero, who rolls the defence."""
    return commands.run(
        fight.classd_villain_attack, scene_id, body, present=present, status_code=201
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/actions",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_act",
)
def act(
    scene_id: UUID, body: ClassDActionCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-9, 15: an action without a roll: a hero's power or item; a villain's special action or
    flight (heroes may then try to stop it, CD-16)."""
    return commands.run(fight.classd_act, scene_id, body, present=present, status_code=201)


@router.post(
    "/v1/scenes/{scene_id}/classd/retreats",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_retreat",
    responses=ASKS_GM,
)
def retreat(
    scene_id: UUID, body: ClassDRetreatCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-14: a hero's action: flee, Speed against the fastest pursuer's Speed; automatic if at
    least as many allies cover as there are pursuers."""
    return commands.run(fight.classd_retreat, scene_id, body, present=present, status_code=201)


@router.post(
    "/v1/scenes/{scene_id}/classd/stops",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_stop",
    responses=ASKS_GM,
)
def stop(
    scene_id: UUID, body: ClassDStopCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-16: in the villains' turn a hero tries to stop a fleeing villain (Speed vs Speed; one
    villain per hero per turn)."""
    return commands.run(fight.classd_stop, scene_id, body, present=present, status_code=201)


@router.post(
    "/v1/scenes/{scene_id}/classd/moves",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_move",
    responses=ASKS_GM,
)
def move(
    scene_id: UUID, body: ClassDMoveCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-18: a hero moves for an edge (cover, high ground): Speed (or Might) against the GM's
    difficulty; usually the hero's action."""
    return commands.run(fight.classd_move, scene_id, body, present=present, status_code=201)


@router.post(
    "/v1/scenes/{scene_id}/classd/hostage-shields",
    response_model=ClassDCombatPublic,
    operation_id="classd_hostage_shield",
)
def hostage_shield(
    scene_id: UUID, body: ClassDShieldCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """CD-20: (GM) a villain holds a hostage as a shield, or lets it go."""
    return commands.run(fight.classd_hostage_shield, scene_id, body, present=present)
