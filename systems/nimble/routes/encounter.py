"""HTTP verbs of systems/nimble/commands/encounter.py (Nimble encounters, NB-1..NB-19)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.presenters import roll_named, scene_state_view
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import RollPublic, Written
from domain.aggregates import Roll, Scene
from domain.commands import Outcome
from systems.nimble.commands.encounter import Encounter, EncounterResult, state_of
from systems.nimble.routes.deps import NimbleDep, encounter
from systems.nimble.rules import encounter as enc

router = APIRouter(route_class=OneHopRoute, tags=["nimble"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


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
    turn_of, refreshes = enc.current(state), enc.refreshes(state, max_actions)
    return scene_state_view(
        NimbleEncounterPublic, scene, state, roll, outcome, turn_of=turn_of, refreshes=refreshes
    )


def present(outcome: Outcome, commands: Commands) -> NimbleEncounterPublic:
    """The encounter after a command, with its roll (if any) and what came of it."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result, roll = roll_named(outcome, commands, EncounterResult)
    max_actions = encounter(commands.app).nimble_max_actions_now(scene)
    return encounter_public(scene, roll, result.outcome, max_actions)


BASE = "/v1/scenes/{scene_id}/nimble"
routes = CommandRoutes(
    router, encounter, BASE, NimbleEncounterPublic, present, unprefixed="nimble_"
)


@reads.get(
    f"{BASE}/encounter", operation_id="nimble_encounter", model=NimbleEncounterPublic, etag=True
)
def get_encounter(scene_id: UUID, nimble: NimbleDep, actor: ActorDep) -> JSONResponse:
    """The encounter: order, whose turn, actions, uses, reactions and what refreshes when."""
    scene = nimble.encounter.nimble_encounter(actor, scene_id)
    return respond(
        encounter_public(scene, max_actions=nimble.encounter.nimble_max_actions_now(scene))
    )


routes.declare(
    Op(
        "/encounter",
        Encounter.nimble_start,
        "NB-1..NB-3: (GM) roll Initiative (one roll per hero) and fix the order of turns.",
        created=True,
    ),
    Op(
        "/encounter/end",
        Encounter.nimble_end,
        "NB-4: (GM) the encounter ends; per-encounter uses and Assess skills refresh.",
    ),
    Op(
        "/turns/end",
        Encounter.nimble_end_turn,
        """NB-4/5/7: the current creature ends its turn (a hero's actions come back to 3). After
    the last turn the GM turns the page for the next round.""",
    ),
    Op("/swaps", Encounter.nimble_swap, "NB-3: (GM) two heroes swap places for this round."),
    Op(
        "/grants",
        Encounter.nimble_grant,
        "NB-7: (GM) an effect grants a hero actions beyond the limit.",
    ),
    Op(
        "/actions",
        Encounter.nimble_act,
        """NB-5..8, 10, 12: an action on one's own turn: its cost, a free action, a limited use, a
    spell's mana, a save ability, a concentrated activity.""",
        created=True,
    ),
    Op(
        "/moves",
        Encounter.nimble_move,
        "NB-13: move (Speed squares per action, difficult terrain double).",
        created=True,
    ),
    Op(
        "/attacks",
        Encounter.nimble_attack,
        """NB-9..18: an attack (hasty, weakness, opportunity) with the target's reactions declared
    (Defend, Interpose); damage through the health rules.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/attacks/{roll_id}/resolve",
        Encounter.nimble_resolve_attack,
        """NB-15..17: a held attack lands after the reactions its target's side declares on seeing
    the roll (Defend, Interpose, or none). The target's owner answers (the interposer's owner
    when interposing; the attacker's side for a monster target); the GM may answer for anyone.""",
    ),
    Op(
        "/assessments",
        Encounter.nimble_assess,
        "NB-14: Assess (1 action, skill check DC 10), once per skill per encounter.",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/help",
        Encounter.nimble_help,
        """NB-19: help an ally's roll: reroll the d20 of its Assess, or one die of its held attack
    (once per roll; a reaction off its own turn, an action on it).""",
        name="help_",
        created=True,
    ),
)
