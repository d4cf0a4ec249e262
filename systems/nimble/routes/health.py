"""HTTP verbs of systems/nimble/commands/health.py (Nimble HP, Wounds, Dying, temporary HP,
grapples, Concentration, cover and hiding: NB-20..NB-26). See systems/nimble/docs/health.md."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.presenters import roll_named
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import CharacterPublic, RollPublic, Written, character_public, roll_public
from domain.aggregates import Character
from domain.commands import Outcome
from domain.requests import Strict
from systems.nimble.commands.health import HealthArea, HealthResult, nimble_view
from systems.nimble.routes.deps import NimbleDep, health

router = APIRouter(route_class=OneHopRoute, tags=["nimble_health"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


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
    result, roll = roll_named(outcome, commands, HealthResult)
    return NimbleHealthPublic(
        character=character_public(character, repository.get(character.campaign_id)),
        roll=None if roll is None else roll_public(roll, repository.get(roll.scene_id)),
        outcome=result.outcome,
        version=character.version,
    )


routes = CommandRoutes(
    router,
    health,
    "/v1/characters/{character_id}/nimble",
    NimbleHealthPublic,
    present,
    unprefixed="nimble_",
)


@reads.get(
    "/v1/characters/{character_id}/nimble",
    operation_id="nimble_health",
    model=NimbleHealthView,
    etag=True,
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


@reads.get(
    "/v1/characters/{character_id}/nimble/attack-edge",
    operation_id="nimble_attack_edge",
    model=NimbleAttackEdge,
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


routes.declare(
    Op(
        "/damage",
        HealthArea.nimble_deal_damage,
        """NB-20..25: (GM) deal damage directly: temporary HP first, then HP; at 0 HP a Wound and
    Dying; while Dying 2 Wounds (3 on a crit); death at the campaign's maximum Wounds.""",
    ),
    Op(
        "/heal",
        HealthArea.nimble_heal,
        "NB-20: (GM) restore HP (not Wounds); above 0 HP Dying ends.",
    ),
    Op(
        "/temp-hp",
        HealthArea.nimble_grant_temp_hp,
        "NB-23: (GM) temporary HP; they do not stack: the hero keeps one amount.",
    ),
    Op(
        "/safe-rest",
        HealthArea.nimble_safe_rest,
        """NB-22/23: (GM) a Safe Rest: 1 Wound heals, HP and mana back to the maximum, temporary HP
    gone; Dying, the fight's conditions and Concentration end.""",
    ),
    Op(
        "/dying-save",
        HealthArea.nimble_dying_save,
        "NB-21: a Dying hero attacked: STR save DC 10, or 1 Wound.",
        created=True,
    ),
    Op(
        "/grapples",
        HealthArea.nimble_grapple,
        "NB-24: grab a creature: an action and a Might or Finesse check DC 10 (an attack).",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/release",
        HealthArea.nimble_release,
        "NB-24: the grappler lets go (or the rider gets off), for free.",
    ),
    Op(
        "/escape",
        HealthArea.nimble_escape,
        "NB-24: break free of a grapple, a rider or a restraint: STR or DEX save DC 10.",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/restraint",
        HealthArea.nimble_restrain,
        "NB-24: (GM) Restrained by a thing, or (`by` null) freed.",
    ),
    Op(
        "/concentration",
        HealthArea.nimble_concentrate,
        "NB-25: concentrate on one effect (not a second one, not at 0 HP).",
    ),
    Op(
        "/concentration/end",
        HealthArea.nimble_end_concentration,
        "NB-25: end Concentration (a free action).",
    ),
    Op(
        "/concentration/save",
        HealthArea.nimble_concentration_save,
        "NB-25: the STR save DC 10 a critical hit called for; a failure ends the effect.",
        created=True,
        asks_gm=True,
    ),
    Op(
        "/cover",
        HealthArea.nimble_take_cover,
        "NB-26: partial or full cover, or none (leaving cover ends hiding).",
    ),
    Op(
        "/hide",
        HealthArea.nimble_hide,
        "NB-26: in cover, a Stealth check DC 10 (automatic in full cover) to hide.",
        created=True,
        asks_gm=True,
    ),
)
