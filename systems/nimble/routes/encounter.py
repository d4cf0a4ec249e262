"""HTTP verbs of systems/nimble/commands/encounter.py (Nimble encounters, NB-1..NB-19)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes
from api.deps import ASKS_GM, NOT_MODIFIED, WAIT, ActorDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.schemas import RollPublic, Written, roll_public
from domain.aggregates import Roll, Scene
from domain.commands import Outcome
from systems.nimble import requests
from systems.nimble.commands.encounter import Encounter, EncounterResult, state_of
from systems.nimble.routes.deps import NimbleDep, encounter
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


def present(outcome: Outcome, commands: Commands) -> NimbleEncounterPublic:
    """The encounter after a command, with its roll (if any) and what came of it."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result = outcome.result_as(EncounterResult)
    roll = commands.app.repository.get(result.roll_id) if result.roll_id else None
    max_actions = encounter(commands.app).nimble_max_actions_now(scene)
    return encounter_public(scene, roll, result.outcome, max_actions)


BASE = "/v1/scenes/{scene_id}/nimble"
routes = CommandRoutes(router, encounter, BASE, NimbleEncounterPublic, present)


@router.get(
    dependencies=WAIT,
    path=f"{BASE}/encounter",
    response_model=NimbleEncounterPublic,
    operation_id="nimble_encounter",
    responses=NOT_MODIFIED,
)
def get_encounter(scene_id: UUID, nimble: NimbleDep, actor: ActorDep) -> JSONResponse:
    """The encounter: order, whose turn, actions, uses, reactions and what refreshes when."""
    scene = nimble.encounter.nimble_encounter(actor, scene_id)
    return respond(
        encounter_public(scene, max_actions=nimble.encounter.nimble_max_actions_now(scene))
    )


routes.post(
    "/encounter",
    Encounter.nimble_start,
    requests.NimbleStartCreate,
    operation_id="nimble_start",
    name="start",
    status_code=201,
    doc="NB-1..NB-3: (GM) roll Initiative (one roll per hero) and fix the order of turns.",
)
routes.post(
    "/encounter/end",
    Encounter.nimble_end,
    operation_id="nimble_end",
    name="end",
    doc="NB-4: (GM) the encounter ends; per-encounter uses and Assess skills refresh.",
)
routes.post(
    "/turns/end",
    Encounter.nimble_end_turn,
    requests.NimbleTurnEnd,
    operation_id="nimble_end_turn",
    name="end_turn",
    doc="""NB-4/5/7: the current creature ends its turn (a hero's actions come back to 3). After
    the last turn the GM turns the page for the next round.""",
)
routes.post(
    "/swaps",
    Encounter.nimble_swap,
    requests.NimbleSwapCreate,
    operation_id="nimble_swap",
    name="swap",
    doc="NB-3: (GM) two heroes swap places for this round.",
)
routes.post(
    "/grants",
    Encounter.nimble_grant,
    requests.NimbleGrantCreate,
    operation_id="nimble_grant",
    name="grant",
    doc="NB-7: (GM) an effect grants a hero actions beyond the limit.",
)
routes.post(
    "/actions",
    Encounter.nimble_act,
    requests.NimbleActionCreate,
    operation_id="nimble_act",
    name="act",
    status_code=201,
    doc="""NB-5..8, 10, 12: an action on one's own turn: its cost, a free action, a limited use, a
    spell's mana, a save ability, a concentrated activity.""",
)
routes.post(
    "/moves",
    Encounter.nimble_move,
    requests.NimbleMoveCreate,
    operation_id="nimble_move",
    name="move",
    status_code=201,
    doc="NB-13: move (Speed squares per action, difficult terrain double).",
)
routes.post(
    "/attacks",
    Encounter.nimble_attack,
    requests.NimbleAttackCreate,
    operation_id="nimble_attack",
    name="attack",
    status_code=201,
    responses=ASKS_GM,
    doc="""NB-9..18: an attack (hasty, weakness, opportunity) with the target's reactions declared
    (Defend, Interpose); damage through the health rules.""",
)
routes.post(
    "/attacks/{roll_id}/resolve",
    Encounter.nimble_resolve_attack,
    requests.NimbleResolveCreate,
    operation_id="nimble_resolve_attack",
    name="resolve_attack",
    doc="""NB-15..17: a held attack lands after the reactions its target's side declares on seeing
    the roll (Defend, Interpose, or none). The target's owner answers (the interposer's owner
    when interposing; the attacker's side for a monster target); the GM may answer for anyone.""",
)
routes.post(
    "/assessments",
    Encounter.nimble_assess,
    requests.NimbleAssessCreate,
    operation_id="nimble_assess",
    name="assess",
    status_code=201,
    responses=ASKS_GM,
    doc="NB-14: Assess (1 action, skill check DC 10), once per skill per encounter.",
)
routes.post(
    "/help",
    Encounter.nimble_help,
    requests.NimbleHelpCreate,
    operation_id="nimble_help",
    name="help_",
    status_code=201,
    doc="""NB-19: help an ally's roll: reroll the d20 of its Assess, or one die of its held attack
    (once per roll; a reaction off its own turn, an action on it).""",
)
