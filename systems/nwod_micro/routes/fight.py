"""HTTP verbs of systems/nwod_micro/commands/fight.py (nWoD micro firefights, NW-1..NW-18)."""

from __future__ import annotations

from typing import Annotated, Any
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
from domain.commands import Outcome
from systems.nwod_micro.commands import Nwod
from systems.nwod_micro.commands.fight import AREA, RULESET, Fight, FightResult
from systems.nwod_micro.rules import combat

router = APIRouter(route_class=OneHopRoute, tags=["nwod"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


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
    overrides: dict[str, list[dict[str, Any]]] = Field(
        description="The GM's recorded leave to act out of turn or an extra action (NW-14, 15)."
    )
    out: dict[str, dict[str, Any]] = Field(
        description="Fighters the GM took out of the order: reason, turn, Health then (NW-8)."
    )
    roll: RollPublic | None = Field(default=None, description="The command's (first) roll.")
    outcome: dict[str, Any] = Field(default_factory=dict, description="What came of it.")


def fight_public(
    scene: Scene, roll: Roll | None = None, outcome: dict[str, Any] | None = None
) -> NwodFightPublic:
    state = scene.state(RULESET, AREA)
    # fights begun before overrides and the out list were kept have neither key
    later = {"overrides": state.get("overrides", {}), "out": state.get("out", {})}
    order, current = combat.order(state), combat.current(state)
    return scene_state_view(
        NwodFightPublic, scene, state, roll, outcome, order=order, current=current, **later
    )


def present(outcome: Outcome, commands: Commands) -> NwodFightPublic:
    """The firefight after a command, with the command's (first) roll and what came of it."""
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    result, roll = roll_named(outcome, commands, FightResult)
    return fight_public(scene, roll, result.outcome())


def fight(app: AppDep) -> Fight:
    """The firefight commands of the nWoD micro component the application holds."""
    return app.system(Nwod).fight


FightDep = Annotated[Fight, Depends(fight)]

BASE = "/v1/scenes/{scene_id}/nwod"


routes = CommandRoutes(router, fight, BASE, NwodFightPublic, present, unprefixed="nwod_")


@reads.get(BASE, operation_id="nwod_fight", model=NwodFightPublic, etag=True)
def get_fight(scene_id: UUID, fight: FightDep, actor: ActorDep) -> JSONResponse:
    """The firefight: turn, Initiative order and who acts now, actions used, aim, reckless
    Defense, Defend, dodging, cover, magazines, suppressive fire (NW-7..NW-17)."""
    return respond(fight_public(fight.nwod_fight(actor, scene_id)))


routes.declare(
    Op(
        "/initiative",
        Fight.nwod_initiative,
        "NW-14: a character joins the fight with Initiative 1d10 + INT (once per fight).",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/attacks",
        Fight.nwod_attack,
        """NW-6, 8, 10, 11, 13, 15..18: one action: a shot, strike, burst, suppressive fire or
    reckless attack; one roll record per target; damage to Health on a hit.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/actions",
        Fight.nwod_act,
        "NW-2, 13, 15..17: a maneuver without a roll: aim, move, take cover, defend, dodge, reload.",
        created=True,
        asks_gm=True,  # a player's full-cover DUR waits for the GM (NW-13)
    ),
    Op(
        "/will-power",
        Fight.nwod_will_power,
        """NW-9: spend Will Power for +2 Defense (until the fighter's next turn) or Initiative
    (this turn, among those yet to act) per point, at any time, no action. For +3d10 on a roll,
    send `will_power` with the roll.""",
        created=True,
    ),
    Op(
        "/turn-ends",
        Fight.nwod_end_turn,
        "NW-14: the character whose turn it is ends it with actions left; the next acts.",
    ),
    Op(
        "/overrides",
        Fight.nwod_override,
        """NW-14, NW-15: (GM) a fighter may act out of turn, or has one action more, this turn;
    recorded with the GM's reason.""",
        created=True,
    ),
    Op(
        "/take-outs",
        Fight.nwod_take_out,
        """NW-8: (GM) a fighter leaves the Initiative order (at 0 Health, fled, surrendered), with
    the reason; only the GM brings it back, by rolling its Initiative again.""",
    ),
    Op(
        "/suppression-rolls",
        Fight.nwod_suppression_roll,
        """NW-15: a target of suppressive fire rolls VIO: on a success it acts as usual, on a
    failure it must spend its actions taking cover.""",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/rolls",
        Fight.nwod_roll,
        "NW-4, 5, 17, 18: an Affinity roll with situational modifiers, merits and Will Power.",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/contests",
        Fight.nwod_contest,
        "NW-6: (GM) every side rolls; the better result (more successes) wins; a tie has no winner.",
        created=True,
    ),
)
