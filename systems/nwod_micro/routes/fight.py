"""HTTP verbs of systems/nwod_micro/commands/fight.py (nWoD micro firefights, NW-1..NW-18)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import RollPublic, Strict, Written, roll_public
from domain.aggregates import Roll, Scene
from domain.application import Chronicle, Outcome
from systems.nwod_micro.rules import combat

router = APIRouter(tags=["nwod"], responses=ERROR_RESPONSES)

Affinity = Literal["INT", "ELG", "VIO"]
Condition = Literal["bad_weather", "smoke", "fog", "poor_light", "glare"]
Seed = Field(default=None, min_length=1, max_length=128, description="Your own randomness.")
WillPower = Field(0, ge=0, le=20, description="NW-9: Will Power spent, +3d10 each.")
Modifier = Field(
    0, ge=-20, le=20, description="Other dice the GM rules for the situation (NW-17, NW-18)."
)
Conditions: Any = Field(
    default_factory=list,
    max_length=5,
    description="NW-17: very bad weather, smoke, fog, too little or too much light: -2d10 "
    "(once, however many).",
)
Darkness = Field(
    default=False, description="NW-17: blindness or total darkness: a chance roll only (NW-5)."
)
Merits: Any = Field(
    default_factory=list,
    max_length=10,
    description="NW-3/NW-18: merits of the sheet whose dice modifier applies to this roll.",
)
Name = Field(min_length=1, max_length=80)


class InitiativeCreate(Strict):
    character_id: UUID
    modifier: int = Field(0, ge=-10, le=10, description="A merit's modifier, as written (NW-18).")
    client_seed: str | None = Seed


class AttackCreate(Strict):
    attacker_id: UUID
    target_ids: list[UUID] = Field(
        min_length=1,
        max_length=10,
        description="One target; a long burst up to three (the 2nd -1 DMG, the 3rd -2 DMG); "
        "suppressive fire any in the area (NW-15).",
    )
    kind: Literal["melee", "ranged"] = Field(
        "ranged", description="NW-6: melee subtracts the target's Defense; ranged does not."
    )
    maneuver: Literal[
        "standard", "precise", "short_burst", "long_burst", "suppressive", "reckless"
    ] = Field(
        "standard",
        description="NW-15: standard shot/strike; precise shot -2d10; short burst +1d10 (3-5 "
        "rounds); long burst +2d10 (15-20 rounds, up to 3 targets); suppressive fire +2d10 "
        "(20-30 rounds); reckless melee attack +2d10 (DEF 0 until the attacker's next turn).",
    )
    weapon: str | None = Field(
        default=None, min_length=1, max_length=80, description="A weapon of the sheet (NW-11)."
    )
    rounds: int | None = Field(
        default=None, ge=1, le=100, description="Rounds a burst or suppressive fire spends (NW-16)."
    )
    range: Literal["close", "medium", "long", "double_long"] = Field(
        "close", description="NW-17: medium -2d10, long -4d10, double long -6d10."
    )
    conditions: list[Condition] = Conditions
    darkness: bool = Darkness
    merits: list[str] = Merits
    modifier: int = Modifier
    will_power: int = WillPower
    sneak: bool = Field(
        default=False, description="NW-15: the target cannot see the attacker: no Defense."
    )
    hit_location: str | None = Field(
        default=None, min_length=1, max_length=80, description="A precise shot's aim (NW-15)."
    )
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ActionCreate(Strict):
    character_id: UUID
    maneuver: Literal["aim", "walk", "run", "sprint", "take_cover", "defend", "dodge", "reload"] = (
        Field(
            description="NW-15: aim (1 action, at most 3), walk (free), run (1), sprint (all), "
            "take cover (1), defend (all: doubles DEF), dodge (1, or free with a movement), "
            "reload (1, NW-16)."
        )
    )
    cover: Literal["partial", "full"] | None = Field(default=None, description="NW-13.")
    cover_durability: int = Field(
        0, ge=0, le=20, description="The DUR of full cover, added to armour against attacks."
    )
    weapon: str | None = Field(default=None, min_length=1, max_length=80)
    dodge: bool = Field(default=False, description="NW-15: dodge while moving, no extra action.")
    difficult_terrain: bool = Field(default=False, description="NW-17: -50% speed.")


class WillPowerCreate(Strict):
    character_id: UUID
    boost: Literal["defense", "initiative"] = Field(description="NW-9: +2 for the turn.")
    points: int = Field(1, ge=1, le=10)


class TurnEnd(Strict):
    character_id: UUID


class SuppressionRollCreate(Strict):
    character_id: UUID
    conditions: list[Condition] = Conditions
    darkness: bool = Darkness
    merits: list[str] = Merits
    modifier: int = Modifier
    will_power: int = WillPower
    client_seed: str | None = Seed


class NwodRollCreate(Strict):
    character_id: UUID
    affinity: Affinity = Field(description="The Affinity the GM picked (NW-1).")
    conditions: list[Condition] = Conditions
    darkness: bool = Darkness
    merits: list[str] = Merits
    modifier: int = Modifier
    will_power: int = WillPower
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ContestSide(Strict):
    character_id: UUID
    affinity: Affinity
    conditions: list[Condition] = Conditions
    darkness: bool = Darkness
    merits: list[str] = Merits
    modifier: int = Modifier
    will_power: int = WillPower


class NwodContestCreate(Strict):
    sides: list[ContestSide] = Field(min_length=2, max_length=10)
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


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
    state = scene.nwod
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


def _present(app: Chronicle) -> Callable[[Outcome], NwodFightPublic]:
    def present(outcome: Outcome) -> NwodFightPublic:
        scene = outcome.aggregate
        assert isinstance(scene, Scene)
        roll_id = outcome.revealed.get("roll_id")
        roll = app.repository.get(roll_id) if roll_id else None
        return fight_public(scene, roll, outcome.revealed.get("outcome"))

    return present


BASE = "/v1/scenes/{scene_id}/nwod"


@router.get(BASE, dependencies=WAIT, response_model=NwodFightPublic, operation_id="nwod_fight")
def get_fight(scene_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    """The firefight: turn, Initiative order and who acts now, actions used, aim, reckless
    Defense, Defend, dodging, cover, magazines, suppressive fire (NW-7..NW-17)."""
    return respond(fight_public(app.nwod_fight(actor, scene_id)))


@router.post(
    f"{BASE}/initiative",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_initiative",
    responses=ASKS_GM,
)
def initiative(
    scene_id: UUID, body: InitiativeCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """NW-14: a character joins the fight with Initiative 1d10 + INT (once per fight)."""
    return commands.run(
        app.nwod_initiative,
        scene_id,
        body.character_id,
        modifier=body.modifier,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    f"{BASE}/attacks",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_attack",
    responses=ASKS_GM,
)
def attack(scene_id: UUID, body: AttackCreate, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """NW-6, 8, 10, 11, 13, 15..18: one action: a shot, strike, burst, suppressive fire or
    reckless attack; one roll record per target; damage to Health on a hit."""
    return commands.run(
        app.nwod_attack,
        scene_id,
        body.attacker_id,
        body.target_ids,
        kind=body.kind,
        maneuver=body.maneuver,
        weapon=body.weapon,
        rounds=body.rounds,
        range_band=body.range,
        conditions=list(body.conditions),
        darkness=body.darkness,
        merits=body.merits,
        modifier=body.modifier,
        will_power=body.will_power,
        sneak=body.sneak,
        hit_location=body.hit_location,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    f"{BASE}/actions", status_code=201, response_model=NwodFightPublic, operation_id="nwod_act"
)
def act(scene_id: UUID, body: ActionCreate, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """NW-2, 13, 15..17: a maneuver without a roll: aim, move, take cover, defend, dodge, reload."""
    return commands.run(
        app.nwod_act,
        scene_id,
        body.character_id,
        body.maneuver,
        cover=body.cover,
        cover_durability=body.cover_durability,
        weapon=body.weapon,
        dodge=body.dodge,
        difficult_terrain=body.difficult_terrain,
        present=_present(app),
        status_code=201,
    )


@router.post(
    f"{BASE}/will-power",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_will_power",
)
def will_power(
    scene_id: UUID, body: WillPowerCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """NW-9: spend Will Power for +2 Defense or Initiative per point, for the rest of the turn
    (at any time, no action). For +3d10 on a roll, send `will_power` with the roll."""
    return commands.run(
        app.nwod_will_power,
        scene_id,
        body.character_id,
        body.boost,
        body.points,
        present=_present(app),
        status_code=201,
    )


@router.post(f"{BASE}/turn-ends", response_model=NwodFightPublic, operation_id="nwod_end_turn")
def end_turn(scene_id: UUID, body: TurnEnd, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """NW-14: the character whose turn it is ends it with actions left; the next acts."""
    return commands.run(app.nwod_end_turn, scene_id, body.character_id, present=_present(app))


@router.post(
    f"{BASE}/suppression-rolls",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_suppression_roll",
    responses=ASKS_GM,
)
def suppression_roll(
    scene_id: UUID, body: SuppressionRollCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """NW-15: a target of suppressive fire rolls VIO: on a success it acts as usual, on a
    failure it must spend its actions taking cover."""
    return commands.run(
        app.nwod_suppression_roll,
        scene_id,
        body.character_id,
        conditions=list(body.conditions),
        darkness=body.darkness,
        merits=body.merits,
        modifier=body.modifier,
        will_power=body.will_power,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    f"{BASE}/rolls",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_roll",
    responses=ASKS_GM,
)
def roll(scene_id: UUID, body: NwodRollCreate, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """NW-4, 5, 17, 18: an Affinity roll with situational modifiers, merits and Will Power."""
    return commands.run(
        app.nwod_roll,
        scene_id,
        body.character_id,
        body.affinity,
        conditions=list(body.conditions),
        darkness=body.darkness,
        merits=body.merits,
        modifier=body.modifier,
        will_power=body.will_power,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    f"{BASE}/contests",
    status_code=201,
    response_model=NwodFightPublic,
    operation_id="nwod_contest",
)
def contest(
    scene_id: UUID, body: NwodContestCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """NW-6: (GM) every side rolls; the better result (more successes) wins; a tie has no winner."""
    return commands.run(
        app.nwod_contest,
        scene_id,
        [s.model_dump() for s in body.sides],
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )
