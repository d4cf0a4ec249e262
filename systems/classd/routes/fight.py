"""HTTP verbs of systems/classd/commands/fight.py (Class D Heroes combat, CD-8..CD-20)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, AppDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.presenters import roll_named, scene_state_view
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import RollPublic, Written
from domain.aggregates import Roll, Scene
from domain.application import Outcome
from systems.classd.commands import ClassD
from systems.classd.commands.fight import AREA, ClassDResult, Fight
from systems.classd.rules import combat

router = APIRouter(route_class=OneHopRoute, tags=["classd"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


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
    grants: dict[str, str] = Field(
        default_factory=dict,
        description="The GM's leave for one action outside the turn order this round, by "
        "character, with its reason (CD-8, 9, 15, 17).",
    )
    fight_over: bool = Field(
        default=False,
        description="The GM ended the fight (rests may follow, CD-22); the next action starts "
        "another.",
    )
    roll: RollPublic | None = Field(default=None, description="The command's roll, if any.")
    outcome: dict[str, Any] = Field(default_factory=dict, description="What else came of it.")


def combat_public(
    scene: Scene, roll: Roll | None = None, outcome: dict[str, Any] | None = None
) -> ClassDCombatPublic:
    state = scene.state(ClassD.ruleset_id, AREA)
    fight_over = state.get("over", False)
    return scene_state_view(
        ClassDCombatPublic,
        scene,
        state,
        roll,
        outcome,
        fleeing=combat.fleeing(state),
        fight_over=fight_over,
    )


def present(outcome: Outcome, commands: Commands) -> ClassDCombatPublic:
    """A combat command's answer: the round after it, its roll (saved with it) and its outcome."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result, roll = roll_named(outcome, commands, ClassDResult)
    return combat_public(scene, roll, dict(result.outcome))


@reads.get(
    "/v1/scenes/{scene_id}/classd",
    operation_id="classd_combat",
    model=ClassDCombatPublic,
    etag=True,
)
def get_combat(scene_id: UUID, fight: FightDep, actor: ActorDep) -> JSONResponse:
    """The round of a Class D fight: whose turn, actions, reactions, engaged pairs, edges,
    hostage shields, who left (CD-8..CD-20)."""
    return respond(combat_public(fight.classd_combat(actor, scene_id)))


routes = CommandRoutes(
    router,
    classd_fight,
    "/v1/scenes/{scene_id}/classd",
    ClassDCombatPublic,
    present,
    unprefixed="classd_",
)
routes.declare(
    Op(
        "/villains-turn",
        Fight.classd_end_heroes_turn,
        "CD-8: the GM ends the heroes' turn; the villains act. The next page starts a new round.",
    ),
    Op(
        "/attacks",
        Fight.classd_attack,
        """CD-10..13, 19, 20: a hero's action: attack a villain. One roll record holds the check, its
    Will rerolls, the damage dice, the strike-back and any hostage hit.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/villain-attacks",
        Fight.classd_villain_attack,
        "CD-15, 17: (GM) a villain attacks a hero, who rolls the defence.",
        created=True,
    ),
    Op(
        "/actions",
        Fight.classd_act,
        """CD-9, 15: an action without a roll: a hero's power or item; a villain's special action or
    flight (heroes may then try to stop it, CD-16).""",
        created=True,
    ),
    Op(
        "/retreats",
        Fight.classd_retreat,
        """CD-14: a hero's action: flee, Speed against the fastest pursuer's Speed; automatic if at
    least as many allies cover as there are pursuers.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/stops",
        Fight.classd_stop,
        """CD-16: in the villains' turn a hero tries to stop a fleeing villain (Speed vs Speed; one
    villain per hero per turn).""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/moves",
        Fight.classd_move,
        """CD-18: a hero moves for an edge (cover, high ground): Speed (or Might) against the GM's
    difficulty; usually the hero's action.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/hostage-shields",
        Fight.classd_hostage_shield,
        "CD-20: (GM) a villain holds a hostage as a shield, or lets it go.",
    ),
    Op(
        "/fight-end",
        Fight.classd_end_fight,
        """CD-8, 22: (GM) the fight in this scene is over, with a reason; the round starts afresh,
    and rests may follow (a rest is refused while a fight is under way).""",
    ),
    Op(
        "/grants",
        Fight.classd_grant_action,
        """CD-8, 9, 15, 17: (GM) the recorded override of the turn order and the action economy:
    the character's next action this round is taken whatever the turn and however many it took.""",
    ),
    Op(
        "/captures",
        Fight.classd_capture,
        """CD-23: (GM) the villains capture a hero (out of action until freed), or the hero is
    freed (`release`); lower the alarm with the code heroes_captured as the rules say.""",
    ),
)
