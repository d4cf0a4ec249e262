"""HTTP verbs of systems/classd/commands/fight.py (Class D Heroes combat, CD-8..CD-20)."""

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
from systems.classd.rules import combat

router = APIRouter(tags=["classd"], responses=ERROR_RESPONSES)

AttackType = Literal["melee", "ranged", "mental"]
Edge = Field(0, ge=0, le=9, description="CD-5: advantages (or disadvantages), one d6 each.")
Rerolls = Field(
    0,
    ge=0,
    le=20,
    description="CD-6: at most this many Will, one per ordinary failure, to reroll the check; "
    "a critical failure is never rerolled.",
)
Seed = Field(default=None, min_length=1, max_length=128, description="Your own randomness.")


class ClassDAttackCreate(Strict):
    attacker_id: UUID = Field(description="The attacking hero.")
    target_id: UUID = Field(description="The villain attacked.")
    attack_type: AttackType = Field(
        description="CD-10: melee (Might), ranged (Speed; a ranged weapon, or a ranged power and "
        "1 Will), mental (Spirit)."
    )
    using: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The power or gear attacked with (its `attack` type must match; its `damage` "
        "adds to the damage, CD-11).",
    )
    advantage: int = Edge
    disadvantage: int = Edge
    will_rerolls: int = Rerolls
    overflow_target_id: UUID | None = Field(
        default=None,
        description="CD-13: if the attack takes the target out with damage to spare, move the "
        "rest to this villain (rank not higher) for 1 Will.",
    )
    area: bool = Field(
        default=False, description="CD-19: an area attack (reports who else is at risk)."
    )
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ClassDVillainAttackCreate(Strict):
    villain_id: UUID
    hero_id: UUID = Field(description="The hero attacked; it rolls the defence (CD-15).")
    attack_type: AttackType
    using: str | None = Field(default=None, min_length=1, max_length=80)
    advantage: int = Field(0, ge=0, le=9, description="The defending hero's advantages (CD-5).")
    disadvantage: int = Field(0, ge=0, le=9, description="The defending hero's disadvantages.")
    will_rerolls: int = Rerolls
    purpose: str = Field(default="", max_length=200)
    client_seed: str | None = Seed


class ClassDActionCreate(Strict):
    character_id: UUID
    action: Literal["power", "item", "special", "flee"] = Field(
        description="A hero: power or item (CD-9); a villain: special or flee (CD-15)."
    )
    feature: str | None = Field(default=None, min_length=1, max_length=80)


class ClassDRetreatCreate(Strict):
    hero_id: UUID
    pursuer_ids: list[UUID] = Field(min_length=1, max_length=20)
    covering_ids: list[UUID] = Field(default_factory=list, max_length=20)
    advantage: int = Edge
    disadvantage: int = Edge
    will_rerolls: int = Rerolls
    client_seed: str | None = Seed


class ClassDStopCreate(Strict):
    hero_id: UUID
    villain_id: UUID
    advantage: int = Edge
    disadvantage: int = Edge
    will_rerolls: int = Rerolls
    client_seed: str | None = Seed


class ClassDMoveCreate(Strict):
    hero_id: UUID
    edge: Literal["cover", "high_ground"] = Field(description="What the move gains (CD-18).")
    stat: Literal["speed", "might"] = Field(
        default="speed", description="Speed, or Might to force through (CD-18)."
    )
    difficulty: int | None = Field(default=None, ge=0, le=50)
    difficulty_name: (
        Literal["fairly_easy", "medium", "hard", "very_hard", "at_the_limit"] | None
    ) = None
    takes_action: bool = Field(
        default=True, description="CD-18: the move takes the hero's action (only the GM says no)."
    )
    advantage: int = Edge
    disadvantage: int = Edge
    will_rerolls: int = Rerolls
    client_seed: str | None = Seed


class ClassDShieldCreate(Strict):
    villain_id: UUID
    hostage: str | None = Field(default=None, min_length=1, max_length=80)
    hostage_id: UUID | None = Field(default=None, description="The hostage, if a character.")
    release: bool = Field(default=False, description="The villain lets the hostage go.")


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
    state = scene.classd
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


def _present(app: Chronicle) -> Callable[[Outcome], ClassDCombatPublic]:
    def present(outcome: Outcome) -> ClassDCombatPublic:
        scene = outcome.aggregate
        assert isinstance(scene, Scene)
        roll_id = outcome.revealed.get("roll_id")
        roll = app.repository.get(roll_id) if roll_id else None
        return combat_public(scene, roll, outcome.revealed.get("outcome"))

    return present


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/classd",
    response_model=ClassDCombatPublic,
    operation_id="classd_combat",
)
def get_combat(scene_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    """The round of a Class D fight: whose turn, actions, reactions, engaged pairs, edges,
    hostage shields, who left (CD-8..CD-20)."""
    return respond(combat_public(app.classd_combat(actor, scene_id)))


@router.post(
    "/v1/scenes/{scene_id}/classd/villains-turn",
    response_model=ClassDCombatPublic,
    operation_id="classd_end_heroes_turn",
)
def end_heroes_turn(scene_id: UUID, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """CD-8: the GM ends the heroes' turn; the villains act. The next page starts a new round."""
    return commands.run(app.classd_end_heroes_turn, scene_id, present=_present(app))


@router.post(
    "/v1/scenes/{scene_id}/classd/attacks",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_attack",
    responses=ASKS_GM,
)
def attack(
    scene_id: UUID, body: ClassDAttackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-10..13, 19, 20: a hero's action: attack a villain. One roll record holds the check, its
    Will rerolls, the damage dice, the strike-back and any hostage hit."""
    return commands.run(
        app.classd_attack,
        scene_id,
        body.attacker_id,
        body.target_id,
        body.attack_type,
        using=body.using,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        will_rerolls=body.will_rerolls,
        overflow_target_id=body.overflow_target_id,
        area=body.area,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/villain-attacks",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_villain_attack",
)
def villain_attack(
    scene_id: UUID, body: ClassDVillainAttackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-15, 17: (GM) a villain attacks a hero, who rolls the defence."""
    return commands.run(
        app.classd_villain_attack,
        scene_id,
        body.villain_id,
        body.hero_id,
        body.attack_type,
        using=body.using,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        will_rerolls=body.will_rerolls,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/actions",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_act",
)
def act(
    scene_id: UUID, body: ClassDActionCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-9, 15: an action without a roll: a hero's power or item; a villain's special action or
    flight (heroes may then try to stop it, CD-16)."""
    return commands.run(
        app.classd_act,
        scene_id,
        body.character_id,
        body.action,
        body.feature,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/retreats",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_retreat",
    responses=ASKS_GM,
)
def retreat(
    scene_id: UUID, body: ClassDRetreatCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-14: a hero's action: flee, Speed against the fastest pursuer's Speed; automatic if at
    least as many allies cover as there are pursuers."""
    return commands.run(
        app.classd_retreat,
        scene_id,
        body.hero_id,
        body.pursuer_ids,
        body.covering_ids,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        will_rerolls=body.will_rerolls,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/stops",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_stop",
    responses=ASKS_GM,
)
def stop(
    scene_id: UUID, body: ClassDStopCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-16: in the villains' turn a hero tries to stop a fleeing villain (Speed vs Speed; one
    villain per hero per turn)."""
    return commands.run(
        app.classd_stop,
        scene_id,
        body.hero_id,
        body.villain_id,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        will_rerolls=body.will_rerolls,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/moves",
    status_code=201,
    response_model=ClassDCombatPublic,
    operation_id="classd_move",
    responses=ASKS_GM,
)
def move(
    scene_id: UUID, body: ClassDMoveCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-18: a hero moves for an edge (cover, high ground): Speed (or Might) against the GM's
    difficulty; usually the hero's action."""
    return commands.run(
        app.classd_move,
        scene_id,
        body.hero_id,
        body.edge,
        stat=body.stat,
        difficulty=body.difficulty,
        difficulty_name=body.difficulty_name,
        takes_action=body.takes_action,
        advantage=body.advantage,
        disadvantage=body.disadvantage,
        will_rerolls=body.will_rerolls,
        client_seed=body.client_seed,
        present=_present(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/classd/hostage-shields",
    response_model=ClassDCombatPublic,
    operation_id="classd_hostage_shield",
)
def hostage_shield(
    scene_id: UUID, body: ClassDShieldCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """CD-20: (GM) a villain holds a hostage as a shield, or lets it go."""
    return commands.run(
        app.classd_hostage_shield,
        scene_id,
        body.villain_id,
        hostage=body.hostage,
        hostage_id=body.hostage_id,
        release=body.release,
        present=_present(app),
    )
