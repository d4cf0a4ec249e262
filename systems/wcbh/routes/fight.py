"""HTTP verbs of systems/wcbh/commands/fight.py: the page's actions and the attack maneuvers of We Can Be
Heroes (WCBH-25, WCBH-28..33, WCBH-40..47); systems/wcbh/docs/fight.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, AppDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import AttackCreate, RollPublic, Strict, Written, roll_public
from domain.aggregates import Character, Roll, Scene
from domain.application import Chronicle, Outcome
from domain.commands import Actor

router = APIRouter(tags=["fight"], responses=ERROR_RESPONSES)

Trait = Field(min_length=1, max_length=80)
Defences = Field(
    default_factory=lambda: ["Agility"],
    max_length=10,
    description="Active defences the targets may use (Stamina is always there, WCBH-28/29)",
)
ClientSeed = Field(default=None, min_length=1, max_length=128)
Purpose = Field(default=None, max_length=200)


# ---- bodies ------------------------------------------------------------------------------------


class FightAttackCreate(AttackCreate):
    maneuver: Literal["charge", "all_out"] | None = Field(
        default=None,
        description="charge: +2 dice, the attacker's active defence halved to the end of the page, "
        "collision damage against a passive defence; all_out: +2 dice, its active and passive "
        "defences halved to the end of the page (WCBH-44)",
    )
    club_id: UUID | None = Field(
        default=None,
        description="Bash the target with this foe: -2 dice, both defend, the club first (WCBH-44)",
    )
    defender_id: UUID | None = Field(
        default=None,
        description="An ally rolling the defence for the target instead of its next action "
        "(WCBH-44); the caller must act for the ally",
    )
    defender_active: bool = Field(
        default=True,
        description="The ally defends actively (on failure the target still defends) or "
        "passively (the ally takes the damage)",
    )
    redirect: bool = Field(
        default=False,
        description="The target declared a redirect before its defence roll: it defends actively "
        "only (WCBH-46); the caller must act for the target",
    )


class DeclarationCreate(Strict):
    character_id: UUID
    actions: int = Field(
        default=1, ge=1, le=10, description="Actions this page: each extra one -2 dice (WCBH-25)"
    )
    all_out_defence: bool = Field(
        default=False, description="+2 dice to defence, no actions this page (WCBH-44)"
    )


class MoveCreate(Strict):
    character_id: UUID


class GrappleCreate(Strict):
    attacker_id: UUID
    target_id: UUID
    trait: str = Field(default="Strength", min_length=1, max_length=80)
    aim: Literal["hold", "weapon"] = Field(
        default="hold", description="Hold the target, or take its weapon or object (WCBH-40)"
    )
    modifier: int = Field(default=0, ge=-20, le=20, description="Situational dice (WCBH-30)")
    defences: list[str] = Defences
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class ManeuverCreate(Strict):
    attacker_id: UUID
    target_id: UUID
    maneuver: Literal["feint", "stunning_blow", "overpower", "taunt"]
    trait: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The attacker's trait; default: Agility (feint), Strength (overpower), "
        "Charisma (taunt); a stunning blow names its attack",
    )
    against: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="The target's trait; default: Agility (feint, stunning blow), Strength "
        "(overpower), Will (taunt)",
    )
    modifier: int = Field(default=0, ge=-20, le=20)
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class AmbusherIn(Strict):
    character_id: UUID
    trait: str | None = Field(
        default=None, min_length=1, max_length=80, description="Default Stealth (Charisma)"
    )


class AmbushCreate(Strict):
    ambushers: list[AmbusherIn] = Field(min_length=1, max_length=10)
    target_ids: list[UUID] = Field(min_length=1, max_length=30)
    deceit: bool = Field(default=False, description="Deceit or seduction: Charisma (WCBH-42)")
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class AreaTargetIn(Strict):
    target_id: UUID
    skip_turn: bool = Field(
        default=False,
        description="Dodge at the full active rank by skipping the next turn (WCBH-43); the "
        "caller must act for the target",
    )


class AreaAttackCreate(Strict):
    attacker_id: UUID
    trait: str = Trait
    targets: list[AreaTargetIn] = Field(min_length=1, max_length=30)
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    defences: list[str] = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class TeamAttackerIn(Strict):
    attacker_id: UUID
    trait: str = Trait
    weapon: int = Field(default=0, ge=0, le=20)
    modifier: int = Field(default=0, ge=-20, le=20)
    explode: bool = Field(default=False, description="1 Resolve: its 6s explode (WCBH-47)")


class TeamAttackCreate(Strict):
    target_id: UUID
    attackers: list[TeamAttackerIn] = Field(min_length=2, max_length=10)
    defences: list[str] = Defences
    lethal: bool = True
    purpose: str | None = Purpose
    client_seed: str | None = ClientSeed


class KnockbackCreate(Strict):
    target_id: UUID | None = Field(
        default=None, description="The target (needed for an area attack with several)"
    )
    hits_object: Literal["sturdier", "weaker"] | None = Field(
        default=None,
        description="It crashes into an object: half the attack's damage again; a weaker "
        "object is smashed through (WCBH-45)",
    )


class RedirectCreate(Strict):
    at_id: UUID | None = Field(
        default=None,
        description="Redirect at this character (the defender loses its next turn, the new "
        "target defends); null: at something behind the defender (WCBH-46)",
    )
    defences: list[str] = Defences
    client_seed: str | None = ClientSeed


# ---- responses ---------------------------------------------------------------------------------


class PageStatePublic(Written):
    scene_id: UUID
    page: int
    character_id: UUID
    declared: int = Field(description="Actions declared this page (WCBH-25)")
    used: int = Field(description="Actions taken")
    attacked: list[str] = Field(description="Characters it attacked this page")
    moved: bool
    lost_turn: bool = Field(description="It cannot act this page")
    lost_rule: str | None = Field(description="The rule that took the turn")
    passive_only: bool = Field(description="No active defence this page (ambushed, WCBH-42)")
    immobile: bool
    all_out_defence: bool
    halve_active: bool = Field(description="Its active defence is halved (charge, all-out attack)")
    halve_passive: bool = Field(description="Its passive defence is halved (all-out attack)")
    defending: bool = Field(description="It defends an ally this page (WCBH-44)")
    dice: dict[str, int] = Field(
        description="Dice the page adds to its rolls: action (WCBH-25, 41), defence (WCBH-41, 44)"
    )
    next_page_lost: str | None = Field(description="The rule that takes its next turn, if any")
    conditions: list[dict[str, Any]] = Field(description="Its fight conditions (WCBH-40, 41)")


class TeamAttackPublic(Written):
    rolls: list[RollPublic] = Field(description="Each attacker's roll, in team order (WCBH-47)")


class AttackFollowUpPublic(Written):
    roll_id: UUID
    kind: Literal["knockback", "redirect"]
    character_id: UUID = Field(description="Who spent the Resolve")
    page: int
    details: dict[str, Any]
    new_roll: RollPublic | None = Field(
        default=None, description="A redirected attack's roll against its new target"
    )


# ---- presenters --------------------------------------------------------------------------------


def _roll(app: Chronicle) -> Callable[[Outcome], RollPublic]:
    def present(outcome: Outcome) -> RollPublic:
        roll = outcome.aggregate
        assert isinstance(roll, Roll)
        return roll_public(roll, app.repository.get(roll.scene_id))

    return present


def _page(app: Chronicle, actor: Actor | None) -> Callable[[Outcome], PageStatePublic]:
    def present(outcome: Outcome) -> PageStatePublic:
        scene = outcome.aggregate
        assert isinstance(scene, Scene) and actor is not None
        character = app.get(actor, Character, outcome.revealed["character_id"])
        return PageStatePublic.model_validate(app.page_view(actor, scene, character))

    return present


def _team(app: Chronicle) -> Callable[[Outcome], TeamAttackPublic]:
    def present(outcome: Outcome) -> TeamAttackPublic:
        rolls: list[Roll] = [app.repository.get(r) for r in outcome.revealed["rolls"]]
        scene: Scene = app.repository.get(rolls[0].scene_id)
        return TeamAttackPublic(
            rolls=[roll_public(r, scene) for r in rolls], version=outcome.aggregate.version
        )

    return present


def _follow_up(app: Chronicle) -> Callable[[Outcome], AttackFollowUpPublic]:
    def present(outcome: Outcome) -> AttackFollowUpPublic:
        scene = outcome.aggregate
        assert isinstance(scene, Scene)
        roll_id = outcome.revealed["roll_id"]
        done = dict(scene.attack_follow_ups[str(roll_id)])
        kind, character_id, page = done.pop("kind"), done.pop("character_id"), done.pop("page")
        new_roll = None
        if done.get("new_roll_id"):
            new_roll = roll_public(app.repository.get(UUID(done["new_roll_id"])), scene)
        return AttackFollowUpPublic(
            roll_id=roll_id,
            kind=kind,
            character_id=character_id,
            page=page,
            details=done,
            new_roll=new_roll,
            version=scene.version,
        )

    return present


def _defences(names: list[str]) -> tuple[str, ...]:
    return tuple(names)


# ---- WCBH-25: the page ---------------------------------------------------------------------------


@router.post(
    "/v1/scenes/{scene_id}/declarations",
    response_model=PageStatePublic,
    operation_id="declare_actions",
)
def declare_actions(
    scene_id: UUID, body: DeclarationCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-25: the actions a character takes this page, before its first (each extra one: -2
    dice on all its rolls of the page but defence); WCBH-44: or all-out defence."""
    return commands.run(
        app.declare_actions,
        scene_id,
        body.character_id,
        body.actions,
        body.all_out_defence,
        present=_page(app, commands.actor),
    )


@router.post("/v1/scenes/{scene_id}/moves", response_model=PageStatePublic, operation_id="move")
def move(scene_id: UUID, body: MoveCreate, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """WCBH-25: the character's one move of the page (not held, WCBH-40; not after a 3+
    maneuver, WCBH-41; not with a lost turn)."""
    return commands.run(app.move, scene_id, body.character_id, present=_page(app, commands.actor))


@router.get(
    dependencies=WAIT,
    path="/v1/scenes/{scene_id}/page-states/{character_id}",
    response_model=PageStatePublic,
    operation_id="get_page_state",
)
def get_page_state(
    scene_id: UUID, character_id: UUID, app: AppDep, actor: ActorDep
) -> JSONResponse:
    """The character's page: actions declared and taken, targets, move, lost turn, the dice the
    page adds to its rolls and its conditions (WCBH-25, 40, 41, 44)."""
    scene = app.get(actor, Scene, scene_id)
    character = app.get(actor, Character, character_id)
    return respond(PageStatePublic.model_validate(app.page_view(actor, scene, character)))


# ---- attacks -------------------------------------------------------------------------------------


@router.post(
    "/v1/scenes/{scene_id}/attacks",
    status_code=201,
    response_model=RollPublic,
    operation_id="attack",
    responses=ASKS_GM,
)
def attack(
    scene_id: UUID, body: FightAttackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH: one character attacks another (one action, one attack per target per page, WCBH-25);
    every pool is one fair roll; damage lowers Health (WCBH-28..31, 33); a charge, an all-out
    attack, bashing with a club, an ally defending, a declared redirect (WCBH-44, 46)."""
    return commands.run(
        app.attack,
        scene_id,
        body.attacker_id,
        body.target_id,
        body.trait,
        weapon=body.weapon,
        modifier=body.modifier,
        active_defences=_defences(body.defences),
        lethal=body.lethal,
        purpose=body.purpose,
        effect=body.effect,
        client_seed=body.client_seed,
        maneuver=body.maneuver,
        club_id=body.club_id,
        defender_id=body.defender_id,
        defender_active=body.defender_active,
        redirect=body.redirect,
        present=_roll(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/grapples",
    status_code=201,
    response_model=RollPublic,
    operation_id="grapple",
    responses=ASKS_GM,
)
def grapple(
    scene_id: UUID, body: GrappleCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-40: Strength against the target's best active defence: a partial hold, a hold or the
    weapon taken; the hold is a condition on the target."""
    return commands.run(
        app.grapple,
        scene_id,
        body.attacker_id,
        body.target_id,
        trait=body.trait,
        aim=body.aim,
        modifier=body.modifier,
        active_defences=_defences(body.defences),
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_roll(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/maneuvers",
    status_code=201,
    response_model=RollPublic,
    operation_id="maneuver",
    responses=ASKS_GM,
)
def maneuver(
    scene_id: UUID, body: ManeuverCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-41: a feint, stunning blow, overpower or taunt; by net successes the target's rolls
    get -1..-3 to the end of the next page (a condition), it may not move, or loses its turn."""
    return commands.run(
        app.maneuver,
        scene_id,
        body.attacker_id,
        body.target_id,
        body.maneuver,
        trait=body.trait,
        against=body.against,
        modifier=body.modifier,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_roll(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/ambushes",
    status_code=201,
    response_model=RollPublic,
    operation_id="ambush",
)
def ambush(scene_id: UUID, body: AmbushCreate, app: AppDep, commands: CommandsDep) -> JSONResponse:
    """WCBH-42: the ambushers (a group, WCBH-11) against each target's Perception; surprised
    targets cannot act on this page. One roll record with every pool."""
    return commands.run(
        app.ambush,
        scene_id,
        [(a.character_id, a.trait) for a in body.ambushers],
        body.target_ids,
        deceit=body.deceit,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_roll(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/area-attacks",
    status_code=201,
    response_model=RollPublic,
    operation_id="area_attack",
    responses=ASKS_GM,
)
def area_attack(
    scene_id: UUID, body: AreaAttackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-43: one attack roll, every target defends separately (active defences at half rank
    unless the target skips its next turn); one roll record, one save."""
    return commands.run(
        app.area_attack,
        scene_id,
        body.attacker_id,
        body.trait,
        [(t.target_id, t.skip_turn) for t in body.targets],
        weapon=body.weapon,
        modifier=body.modifier,
        active_defences=_defences(body.defences),
        lethal=body.lethal,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_roll(app),
        status_code=201,
    )


@router.post(
    "/v1/scenes/{scene_id}/team-attacks",
    status_code=201,
    response_model=TeamAttackPublic,
    operation_id="team_attack",
    responses=ASKS_GM,
)
def team_attack(
    scene_id: UUID, body: TeamAttackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-47: two or more characters attack one target together: each +2 dice, each may spend
    1 Resolve for exploding 6s; once per fight per character; a roll record per attacker."""
    return commands.run(
        app.team_attack,
        scene_id,
        body.target_id,
        [a.model_dump() for a in body.attackers],
        active_defences=_defences(body.defences),
        lethal=body.lethal,
        purpose=body.purpose,
        client_seed=body.client_seed,
        present=_team(app),
        status_code=201,
    )


# ---- WCBH-45, 46: after the roll -------------------------------------------------------------


@router.post(
    "/v1/rolls/{roll_id}/knockback",
    response_model=AttackFollowUpPublic,
    operation_id="knockback",
)
def knockback(
    roll_id: UUID, body: KnockbackCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-45: after 6+ damage, the attacker's 1 Resolve throws the target (as far as a
    Strength of the attack's rank throws); it loses its next turn; an object hit deals half the
    damage again."""
    return commands.run(
        app.knockback, roll_id, body.target_id, body.hits_object, present=_follow_up(app)
    )


@router.post(
    "/v1/rolls/{roll_id}/redirect",
    response_model=AttackFollowUpPublic,
    operation_id="redirect",
)
def redirect(
    roll_id: UUID, body: RedirectCreate, app: AppDep, commands: CommandsDep
) -> JSONResponse:
    """WCBH-46: the target that declared a redirect and beat the attack by 3+ spends 1 Resolve
    to send it behind it, or at someone else (a second roll: the new target defends)."""
    return commands.run(
        app.redirect,
        roll_id,
        body.at_id,
        _defences(body.defences),
        body.client_seed,
        present=_follow_up(app),
    )
