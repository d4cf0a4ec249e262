"""HTTP verbs of systems/nimble/commands/encounter.py (Nimble encounters, NB-1..NB-19)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import RollPublic, Written, roll_public
from domain.aggregates import Roll, Scene
from domain.commands import Outcome
from systems.nimble.commands import Nimble
from systems.nimble.commands.encounter import EncounterResult, state_of
from systems.nimble.requests import (
    NimbleActionCreate,
    NimbleAssessCreate,
    NimbleAttackCreate,
    NimbleGrantCreate,
    NimbleHelpCreate,
    NimbleMoveCreate,
    NimbleResolveCreate,
    NimbleStartCreate,
    NimbleSwapCreate,
    NimbleTurnEnd,
)
from systems.nimble.routes.deps import NimbleDep
from systems.nimble.rules import encounter as enc

router = APIRouter(tags=["nimble"], responses=ERROR_RESPONSES)


class NimbleEncounterPublic(Written):
    scene_id: UUID
    status: str = Field(description="none, running or ended (NB-4).")
    round: int = Field(description="The round (the scene's page, NB-4).")
    order: list[str] = Field(description="The fixed order of turns (NB-3).")
    round_order: list[str] = Field(description="This round's order (swaps, surprise).")
    turn_of: str | None = Field(description="Whose turn it is; null when the round is over.")
    kinds: dict[str, str]
    actions: dict[str, int] = Field(description="Actions each hero has now (NB-1, NB-7, NB-15).")
    initiative: dict[str, Any]
    uses: dict[str, Any] = Field(description="Limited uses by period (NB-5, NB-15).")
    attacks: dict[str, int] = Field(description="Attacks this turn (hasty, NB-10).")
    movement: dict[str, int]
    assessed: dict[str, list[str]]
    weakness: dict[str, Any]
    anticipating: dict[str, int]
    activities: dict[str, Any]
    helped: list[str]
    pending: dict[str, Any] | None = Field(
        default=None,
        description="NB-15: a held attack waiting for its reactions (roll_id, character_id: "
        "the attacker, target_id, total, armor, damage, critical).",
    )
    refreshes: dict[str, Any] = Field(
        description="What refreshes at the end of a turn, of one's own turn, of the round and "
        "of the encounter."
    )
    roll: RollPublic | None = None
    outcome: dict[str, Any] = Field(default_factory=dict)


def encounter_public(
    scene: Scene,
    roll: Roll | None = None,
    outcome: dict[str, Any] | None = None,
    max_actions: dict[str, int] | None = None,
) -> NimbleEncounterPublic:
    state = state_of(scene)
    return NimbleEncounterPublic(
        scene_id=scene.id,
        status=state["status"],
        round=state["round"],
        order=state["order"],
        round_order=state["round_order"],
        turn_of=enc.current(state),
        kinds=state["kinds"],
        actions=state["actions"],
        initiative=state["initiative"],
        uses=state["uses"],
        attacks=state["attacks"],
        movement=state["movement"],
        assessed=state["assessed"],
        weakness=state["weakness"],
        anticipating=state["anticipating"],
        activities=state["activities"],
        helped=state["helped"],
        pending=state.get("pending"),
        refreshes=enc.refreshes(state, max_actions),
        roll=roll_public(roll, scene) if roll is not None else None,
        outcome=outcome or {},
        version=scene.version,
    )


def _present(nimble: Nimble) -> Callable[[Outcome], NimbleEncounterPublic]:
    def present(outcome: Outcome) -> NimbleEncounterPublic:
        scene = outcome.aggregate
        assert isinstance(scene, Scene)
        result = outcome.result_as(EncounterResult)
        roll = nimble.app.repository.get(result.roll_id) if result.roll_id else None
        return encounter_public(
            scene, roll, result.outcome, nimble.encounter.nimble_max_actions_now(scene)
        )

    return present


BASE = "/v1/scenes/{scene_id}/nimble"


@router.get(
    dependencies=WAIT,
    path=f"{BASE}/encounter",
    response_model=NimbleEncounterPublic,
    operation_id="nimble_encounter",
)
def get_encounter(scene_id: UUID, nimble: NimbleDep, actor: ActorDep) -> JSONResponse:
    """The encounter: order, whose turn, actions, uses, reactions and what refreshes when."""
    scene = nimble.encounter.nimble_encounter(actor, scene_id)
    return respond(
        encounter_public(scene, max_actions=nimble.encounter.nimble_max_actions_now(scene))
    )


@router.post(
    f"{BASE}/encounter",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_start",
)
def start(
    scene_id: UUID, body: NimbleStartCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-1..NB-3: (GM) roll Initiative (one roll per hero) and fix the order of turns."""
    return commands.run(
        nimble.encounter.nimble_start, scene_id, body, present=_present(nimble), status_code=201
    )


@router.post(
    f"{BASE}/encounter/end", response_model=NimbleEncounterPublic, operation_id="nimble_end"
)
def end(scene_id: UUID, nimble: NimbleDep, commands: CommandsDep) -> JSONResponse:
    """NB-4: (GM) the encounter ends; per-encounter uses and Assess skills refresh."""
    return commands.run(nimble.encounter.nimble_end, scene_id, present=_present(nimble))


@router.post(
    f"{BASE}/turns/end", response_model=NimbleEncounterPublic, operation_id="nimble_end_turn"
)
def end_turn(
    scene_id: UUID, body: NimbleTurnEnd, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-4/5/7: the current creature ends its turn (a hero's actions come back to 3). After
    the last turn the GM turns the page for the next round."""
    return commands.run(nimble.encounter.nimble_end_turn, scene_id, body, present=_present(nimble))


@router.post(f"{BASE}/swaps", response_model=NimbleEncounterPublic, operation_id="nimble_swap")
def swap(
    scene_id: UUID, body: NimbleSwapCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-3: (GM) two heroes swap places for this round."""
    return commands.run(nimble.encounter.nimble_swap, scene_id, body, present=_present(nimble))


@router.post(f"{BASE}/grants", response_model=NimbleEncounterPublic, operation_id="nimble_grant")
def grant(
    scene_id: UUID, body: NimbleGrantCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-7: (GM) an effect grants a hero actions beyond the limit."""
    return commands.run(nimble.encounter.nimble_grant, scene_id, body, present=_present(nimble))


@router.post(
    f"{BASE}/actions",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_act",
)
def act(
    scene_id: UUID, body: NimbleActionCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-5..8, 10, 12: an action on one's own turn: its cost, a free action, a limited use, a
    spell's mana, a save ability, a concentrated activity."""
    return commands.run(
        nimble.encounter.nimble_act, scene_id, body, present=_present(nimble), status_code=201
    )


@router.post(
    f"{BASE}/moves",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_move",
)
def move(
    scene_id: UUID, body: NimbleMoveCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-13: move (Speed squares per action, difficult terrain double)."""
    return commands.run(
        nimble.encounter.nimble_move, scene_id, body, present=_present(nimble), status_code=201
    )


@router.post(
    f"{BASE}/attacks",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_attack",
    responses=ASKS_GM,
)
def attack(
    scene_id: UUID, body: NimbleAttackCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-9..18: an attack (hasty, weakness, opportunity) with the target's reactions declared
    (Defend, Interpose); damage through the health rules."""
    return commands.run(
        nimble.encounter.nimble_attack, scene_id, body, present=_present(nimble), status_code=201
    )


@router.post(
    f"{BASE}/attacks/{{roll_id}}/resolve",
    response_model=NimbleEncounterPublic,
    operation_id="nimble_resolve_attack",
)
def resolve_attack(
    scene_id: UUID,
    roll_id: UUID,
    body: NimbleResolveCreate,
    nimble: NimbleDep,
    commands: CommandsDep,
) -> JSONResponse:
    """NB-15..17: a held attack lands after the reactions its target's side declares on seeing
    the roll (Defend, Interpose, or none). The target's owner answers (the interposer's owner
    when interposing; the attacker's side for a monster target); the GM may answer for anyone."""
    return commands.run(
        nimble.encounter.nimble_resolve_attack, scene_id, roll_id, body, present=_present(nimble)
    )


@router.post(
    f"{BASE}/assessments",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_assess",
    responses=ASKS_GM,
)
def assess(
    scene_id: UUID, body: NimbleAssessCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-14: Assess (1 action, skill check DC 10), once per skill per encounter."""
    return commands.run(
        nimble.encounter.nimble_assess, scene_id, body, present=_present(nimble), status_code=201
    )


@router.post(
    f"{BASE}/help",
    status_code=201,
    response_model=NimbleEncounterPublic,
    operation_id="nimble_help",
)
def help_(
    scene_id: UUID, body: NimbleHelpCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-19: help an ally's roll: reroll the d20 of its Assess, or one die of its held attack
    (once per roll; a reaction off its own turn, an action on it)."""
    return commands.run(
        nimble.encounter.nimble_help, scene_id, body, present=_present(nimble), status_code=201
    )
