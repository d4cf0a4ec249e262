"""HTTP verbs of systems/nimble/commands/health.py (Nimble HP, Wounds, Dying, temporary HP,
grapples, Concentration, cover and hiding: NB-20..NB-26). See systems/nimble/docs/health.md."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes
from api.deps import ASKS_GM, NOT_MODIFIED, WAIT, ActorDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.schemas import CharacterPublic, RollPublic, Written, character_public, roll_public
from domain.aggregates import Campaign, Character, Roll
from domain.commands import Outcome
from domain.requests import Strict
from systems.nimble import requests
from systems.nimble.commands.health import HealthArea, HealthResult, nimble_view
from systems.nimble.routes.deps import NimbleDep, health

router = APIRouter(tags=["nimble_health"], responses=ERROR_RESPONSES)


class NimbleHealthPublic(Written):
    character: CharacterPublic = Field(description="The character after the command.")
    roll: RollPublic | None = Field(default=None, description="The command's roll, if any.")
    outcome: dict[str, Any] = Field(default_factory=dict, description="What came of it.")


class NimbleHealthView(Written):
    character_id: UUID
    name: str
    nimble: dict[str, Any] = Field(
        description="HP, temporary HP, Wounds, status, max_actions, conditions, Concentration, "
        "what a Safe Rest refreshes."
    )


class NimbleAttackEdge(Strict):
    attacker_id: UUID
    target_id: UUID
    advantage: int
    disadvantage: int
    reasons: list[str]
    can_target: bool = Field(description="False: the target has full cover (NB-26).")
    miss_hits_attacker: bool = Field(
        description="The target rides the attacker: a miss hits the attacker itself (NB-24)."
    )
    from_hiding: bool = Field(description="The attacker is hidden: advantage, then no more.")


def present(outcome: Outcome, commands: Commands) -> NimbleHealthPublic:
    """The character after a health command, with its roll (if any) and what came of it."""
    character = outcome.aggregate
    assert isinstance(character, Character)
    repository = commands.app.repository
    campaign: Campaign = repository.get(character.campaign_id)
    result = outcome.result_as(HealthResult)
    roll_view = None
    if result.roll_id is not None:
        roll: Roll = repository.get(result.roll_id)
        roll_view = roll_public(roll, repository.get(roll.scene_id))
    return NimbleHealthPublic(
        character=character_public(character, campaign),
        roll=roll_view,
        outcome=result.outcome,
        version=character.version,
    )


routes = CommandRoutes(
    router, health, "/v1/characters/{character_id}/nimble", NimbleHealthPublic, present
)


@router.get(
    dependencies=WAIT,
    path="/v1/characters/{character_id}/nimble",
    response_model=NimbleHealthView,
    operation_id="nimble_health",
    responses=NOT_MODIFIED,
)
def get_health(character_id: UUID, nimble: NimbleDep, actor: ActorDep) -> JSONResponse:
    """NB-20..26: HP, temporary HP, Wounds, Dying or dead, conditions, Concentration, and what
    a Safe Rest refreshes."""
    character, campaign = nimble.health.nimble_health(actor, character_id)
    view = nimble_view(character, campaign)
    assert view is not None
    return respond(
        NimbleHealthView(
            character_id=character.id, name=character.name, nimble=view, version=character.version
        )
    )


@router.get(
    dependencies=WAIT,
    path="/v1/characters/{character_id}/nimble/attack-edge",
    response_model=NimbleAttackEdge,
    operation_id="nimble_attack_edge",
)
def get_attack_edge(
    character_id: UUID,
    nimble: NimbleDep,
    actor: ActorDep,
    target_id: Annotated[UUID, Query(description="The creature attacked.")],
) -> JSONResponse:
    """NB-24/NB-26: what hiding, cover, grapples, Restrained and Mounted add to an attack of
    this character on the target."""
    edge = nimble.health.nimble_attack_edge(actor, character_id, target_id)
    body = NimbleAttackEdge(attacker_id=character_id, target_id=target_id, **edge)
    return JSONResponse(body.model_dump(mode="json"))


routes.post(
    "/damage",
    HealthArea.nimble_deal_damage,
    requests.NimbleDamageCreate,
    operation_id="nimble_deal_damage",
    name="deal_damage",
    doc="""NB-20..25: (GM) deal damage directly: temporary HP first, then HP; at 0 HP a Wound and
    Dying; while Dying 2 Wounds (3 on a crit); death at the campaign's maximum Wounds.""",
)
routes.post(
    "/heal",
    HealthArea.nimble_heal,
    requests.NimbleHealCreate,
    operation_id="nimble_heal",
    name="heal",
    doc="NB-20: (GM) restore HP (not Wounds); above 0 HP Dying ends.",
)
routes.post(
    "/temp-hp",
    HealthArea.nimble_grant_temp_hp,
    requests.NimbleTempHpCreate,
    operation_id="nimble_grant_temp_hp",
    name="grant_temp_hp",
    doc="NB-23: (GM) temporary HP; they do not stack: the hero keeps one amount.",
)
routes.post(
    "/safe-rest",
    HealthArea.nimble_safe_rest,
    operation_id="nimble_safe_rest",
    name="safe_rest",
    doc="""NB-22/23: (GM) a Safe Rest: 1 Wound heals, HP and mana back to the maximum, temporary HP
    gone; Dying, the fight's conditions and Concentration end.""",
)
routes.post(
    "/dying-save",
    HealthArea.nimble_dying_save,
    requests.NimbleDyingSaveCreate,
    operation_id="nimble_dying_save",
    name="dying_save",
    status_code=201,
    doc="NB-21: a Dying hero attacked: STR save DC 10, or 1 Wound.",
)
routes.post(
    "/grapples",
    HealthArea.nimble_grapple,
    requests.NimbleGrappleCreate,
    operation_id="nimble_grapple",
    name="grapple",
    status_code=201,
    responses=ASKS_GM,
    doc="NB-24: grab a creature: an action and a Might or Finesse check DC 10 (an attack).",
)
routes.post(
    "/release",
    HealthArea.nimble_release,
    requests.NimbleSceneAct,
    operation_id="nimble_release",
    name="release",
    doc="NB-24: the grappler lets go (or the rider gets off), for free.",
)
routes.post(
    "/escape",
    HealthArea.nimble_escape,
    requests.NimbleEscapeCreate,
    operation_id="nimble_escape",
    name="escape",
    status_code=201,
    responses=ASKS_GM,
    doc="NB-24: break free of a grapple, a rider or a restraint: STR or DEX save DC 10.",
)
routes.post(
    "/restraint",
    HealthArea.nimble_restrain,
    requests.NimbleRestrainCreate,
    operation_id="nimble_restrain",
    name="restrain",
    doc="NB-24: (GM) Restrained by a thing, or (`by` null) freed.",
)
routes.post(
    "/concentration",
    HealthArea.nimble_concentrate,
    requests.NimbleConcentrateCreate,
    operation_id="nimble_concentrate",
    name="concentrate",
    doc="NB-25: concentrate on one effect (not a second one, not at 0 HP).",
)
routes.post(
    "/concentration/end",
    HealthArea.nimble_end_concentration,
    requests.NimbleSceneAct,
    operation_id="nimble_end_concentration",
    name="end_concentration",
    doc="NB-25: end Concentration (a free action).",
)
routes.post(
    "/concentration/save",
    HealthArea.nimble_concentration_save,
    requests.NimbleRollCreate,
    operation_id="nimble_concentration_save",
    name="concentration_save",
    status_code=201,
    responses=ASKS_GM,
    doc="NB-25: the STR save DC 10 a critical hit called for; a failure ends the effect.",
)
routes.post(
    "/cover",
    HealthArea.nimble_take_cover,
    requests.NimbleCoverCreate,
    operation_id="nimble_take_cover",
    name="take_cover",
    doc="NB-26: partial or full cover, or none (leaving cover ends hiding).",
)
routes.post(
    "/hide",
    HealthArea.nimble_hide,
    requests.NimbleRollCreate,
    operation_id="nimble_hide",
    name="hide",
    status_code=201,
    responses=ASKS_GM,
    doc="NB-26: in cover, a Stealth check DC 10 (automatic in full cover) to hide.",
)
