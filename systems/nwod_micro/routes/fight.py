"""HTTP verbs of systems/nwod_micro/commands/fight.py (nWoD micro firefights, NW-1..NW-18)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import RollPublic, Written, roll_public
from domain.aggregates import Roll, Scene
from domain.commands import Outcome
from systems.nwod_micro.commands import Nwod
from systems.nwod_micro.commands.fight import AREA, RULESET, Fight, FightResult
from systems.nwod_micro.requests import (
    ActionCreate,
    AttackCreate,
    InitiativeCreate,
    NwodContestCreate,
    NwodRollCreate,
    SuppressionRollCreate,
    TurnEnd,
    WillPowerCreate,
)
from systems.nwod_micro.rules import combat

router = APIRouter(tags=["nwod"], responses=ERROR_RESPONSES)


class NwodFightPublic(Written):
    scene_id: UUID
    turn: int = Field(description="The turn (the scene's page, NW-7).")
    order: list[str] = Field(description="Initiative order, highest first (NW-14).")
    current: str | None = Field(description="Who acts now (NW-14).")
    initiative: dict[str, dict[str, Any]] = Field(description="Initiative rolls (NW-14).")
    boosts: dict[str, dict[str, int]] = Field(description="Will Power spent this turn (NW-9).")
    actions: dict[str, list[dict[str, Any]]] = Field(description="Actions this turn (NW-15).")
    done: list[str] = Field(description="Who ended the turn early.")
    aim: dict[str, int] = Field(description="Aiming actions banked for the next shot (NW-15).")
    reckless: dict[str, int] = Field(description="Turn of each reckless attack (NW-15).")
    defending: list[str] = Field(description="Who defends this turn (NW-15).")
    dodging: list[str] = Field(description="Who dodges this turn (NW-15).")
    cover: dict[str, dict[str, Any]] = Field(description="Who is in cover (NW-13).")
    magazines: dict[str, dict[str, int]] = Field(description="Rounds left (NW-16).")
    suppressed: dict[str, dict[str, Any]] = Field(description="Suppressive fire (NW-15).")
    roll: RollPublic | None = Field(default=None, description="The command's (first) roll.")
    outcome: dict[str, Any] = Field(default_factory=dict, description="What came of it.")


def fight_public(
    scene: Scene, roll: Roll | None = None, outcome: dict[str, Any] | None = None
) -> NwodFightPublic:
    state = scene.state(RULESET, AREA)
    return NwodFightPublic(
        scene_id=scene.id,
        turn=state["turn"],
        order=combat.order(state),
        current=combat.current(state),
        initiative=state["initiative"],
        boosts=state["boosts"],
        actions=state["actions"],
        done=state["done"],
        aim=state["aim"],
        reckless=state["reckless"],
        defending=state["defending"],
        dodging=state["dodging"],
        cover=state["cover"],
        magazines=state["magazines"],
        suppressed=state["suppressed"],
        roll=roll_public(roll, scene) if roll is not None else None,
        outcome=outcome or {},
        version=scene.version,
    )


def present(outcome: Outcome) -> NwodFightPublic:
    """The firefight after a command, with the command's (first) roll and what came of it."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result = outcome.result_as(FightResult)
    rolls = (a for a in outcome.saved if isinstance(a, Roll) and a.id == result.roll_id)
    return fight_public(scene, next(rolls, None), result.outcome())


def fight(app: AppDep) -> Fight:
    """The firefight commands of the nWoD micro component the application holds."""
    return app.system(Nwod).fight


FightDep = Annotated[Fight, Depends(fight)]

BASE = "/v1/scenes/{scene_id}/nwod"


@router.get(BASE, dependencies=WAIT, response_model=NwodFightPublic, operation_id="nwod_fight")
def get_fight(scene_id: UUID, fight: FightDep, actor: ActorDep) -> JSONResponse:
    """The firefight: turn, Initiative order and who acts now, actions used, aim, reckless
    Defense, Defend, dodging, cover, magazines, suppressive fire (NW-7..NW-17)."""
    return respond(fight_public(fight.nwod_fight(actor, scene_id)))


@router.post(
    f"{BASE}/initiative",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_initiative",
    responses=ASKS_GM,
)
def initiative(
    scene_id: UUID, body: InitiativeCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-14: a character joins the fight with Initiative 1d10 + INT (once per fight)."""
    return commands.run(fight.nwod_initiative, scene_id, body, present=present, status_code=201)


@router.post(
    f"{BASE}/attacks",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_attack",
    responses=ASKS_GM,
)
def attack(
    scene_id: UUID, body: AttackCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-6, 8, 10, 11, 13, 15..18: one action: a shot, strike, burst, suppressive fire or
    reckless attack; one roll record per target; damage to Health on a hit."""
    return commands.run(fight.nwod_attack, scene_id, body, present=present, status_code=201)


@router.post(
    f"{BASE}/actions",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_act",
    responses=ASKS_GM,
)
def act(scene_id: UUID, body: ActionCreate, fight: FightDep, commands: CommandsDep) -> JSONResponse:
    """NW-2, 13, 15..17: a maneuver without a roll: aim, move, take cover, defend, dodge, reload."""
    return commands.run(fight.nwod_act, scene_id, body, present=present, status_code=201)


@router.post(
    f"{BASE}/will-power",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_will_power",
)
def will_power(
    scene_id: UUID, body: WillPowerCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-9: spend Will Power for +2 Defense or Initiative per point, for the rest of the turn
    (at any time, no action). For +3d10 on a roll, send `will_power` with the roll."""
    return commands.run(fight.nwod_will_power, scene_id, body, present=present, status_code=201)


@router.post(f"{BASE}/turn-ends", response_model=NwodFightPublic, operation_id="nwod_end_turn")
def end_turn(scene_id: UUID, body: TurnEnd, fight: FightDep, commands: CommandsDep) -> JSONResponse:
    """NW-14: the character whose turn it is ends it with actions left; the next acts."""
    return commands.run(fight.nwod_end_turn, scene_id, body, present=present)


@router.post(
    f"{BASE}/suppression-rolls",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_suppression_roll",
    responses=ASKS_GM,
)
def suppression_roll(
    scene_id: UUID, body: SuppressionRollCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-15: a target of suppressive fire rolls VIO: on a success it acts as usual, on a
    failure it must spend its actions taking cover."""
    return commands.run(
        fight.nwod_suppression_roll, scene_id, body, present=present, status_code=201
    )


@router.post(
    f"{BASE}/rolls",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_roll",
    responses=ASKS_GM,
)
def roll(
    scene_id: UUID, body: NwodRollCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-4, 5, 17, 18: an Affinity roll with situational modifiers, merits and Will Power."""
    return commands.run(fight.nwod_roll, scene_id, body, present=present, status_code=201)


@router.post(
    f"{BASE}/contests",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_contest",
)
def contest(
    scene_id: UUID, body: NwodContestCreate, fight: FightDep, commands: CommandsDep
) -> JSONResponse:
    """NW-6: (GM) every side rolls; the better result (more successes) wins; a tie has no winner."""
    return commands.run(fight.nwod_contest, scene_id, body, present=present, status_code=201)
