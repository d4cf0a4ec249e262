"""HTTP verbs of systems/nimble/commands/health.py (Nimble HP, Wounds, Dying, temporary HP,
grapples, Concentration, cover and hiding: NB-20..NB-26). See systems/nimble/docs/health.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import Field

from api.deps import ASKS_GM, WAIT, ActorDep, CommandsDep, respond
from api.errors import ERROR_RESPONSES
from api.schemas import CharacterPublic, RollPublic, Written, character_public, roll_public
from domain.aggregates import Campaign, Character, Roll, Scene
from domain.commands import Outcome
from domain.requests import Strict
from systems.nimble.commands import Nimble
from systems.nimble.commands.health import HealthResult, nimble_view
from systems.nimble.requests import (
    NimbleConcentrateCreate,
    NimbleCoverCreate,
    NimbleDamageCreate,
    NimbleDyingSaveCreate,
    NimbleEscapeCreate,
    NimbleGrappleCreate,
    NimbleHealCreate,
    NimbleRestrainCreate,
    NimbleRollCreate,
    NimbleSceneAct,
    NimbleTempHpCreate,
)
from systems.nimble.routes.deps import NimbleDep

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


def _present(nimble: Nimble) -> Callable[[Outcome], NimbleHealthPublic]:
    def present(outcome: Outcome) -> NimbleHealthPublic:
        character = outcome.aggregate
        assert isinstance(character, Character)
        campaign: Campaign = nimble.app.repository.get(character.campaign_id)
        result = outcome.result_as(HealthResult)
        roll_view = None
        if result.roll_id is not None:
            roll: Roll = nimble.app.repository.get(result.roll_id)
            scene: Scene = nimble.app.repository.get(roll.scene_id)
            roll_view = roll_public(roll, scene)
        return NimbleHealthPublic(
            character=character_public(character, campaign),
            roll=roll_view,
            outcome=result.outcome,
            version=character.version,
        )

    return present


def _post(
    path: str,
    operation_id: str,
    status_code: int = 200,
    responses: dict[int | str, dict[str, Any]] | None = None,
) -> Any:
    return router.post(
        f"/v1/characters/{{character_id}}/nimble/{path}",
        status_code=status_code,
        response_model=NimbleHealthPublic,
        operation_id=operation_id,
        responses=responses,
    )


@router.get(
    dependencies=WAIT,
    path="/v1/characters/{character_id}/nimble",
    response_model=NimbleHealthView,
    operation_id="nimble_health",
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


@_post("damage", "nimble_deal_damage")
def deal_damage(
    character_id: UUID, body: NimbleDamageCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-20..25: (GM) deal damage directly: temporary HP first, then HP; at 0 HP a Wound and
    Dying; while Dying 2 Wounds (3 on a crit); death at the campaign's maximum Wounds."""
    return commands.run(
        nimble.health.nimble_deal_damage, character_id, body, present=_present(nimble)
    )


@_post("heal", "nimble_heal")
def heal(
    character_id: UUID, body: NimbleHealCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-20: (GM) restore HP (not Wounds); above 0 HP Dying ends."""
    return commands.run(nimble.health.nimble_heal, character_id, body, present=_present(nimble))


@_post("temp-hp", "nimble_grant_temp_hp")
def grant_temp_hp(
    character_id: UUID, body: NimbleTempHpCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-23: (GM) temporary HP; they do not stack: the hero keeps one amount."""
    return commands.run(
        nimble.health.nimble_grant_temp_hp, character_id, body, present=_present(nimble)
    )


@_post("safe-rest", "nimble_safe_rest")
def safe_rest(character_id: UUID, nimble: NimbleDep, commands: CommandsDep) -> JSONResponse:
    """NB-22/23: (GM) a Safe Rest: 1 Wound heals, HP and mana back to the maximum, temporary HP
    gone; Dying, the fight's conditions and Concentration end."""
    return commands.run(nimble.health.nimble_safe_rest, character_id, present=_present(nimble))


@_post("dying-save", "nimble_dying_save", 201)
def dying_save(
    character_id: UUID, body: NimbleDyingSaveCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-21: a Dying hero attacked: STR save DC 10, or 1 Wound."""
    return commands.run(
        nimble.health.nimble_dying_save,
        character_id,
        body,
        present=_present(nimble),
        status_code=201,
    )


@_post("grapples", "nimble_grapple", 201, ASKS_GM)
def grapple(
    character_id: UUID, body: NimbleGrappleCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: grab a creature: an action and a Might or Finesse check DC 10 (an attack)."""
    return commands.run(
        nimble.health.nimble_grapple, character_id, body, present=_present(nimble), status_code=201
    )


@_post("release", "nimble_release")
def release(
    character_id: UUID, body: NimbleSceneAct, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: the grappler lets go (or the rider gets off), for free."""
    return commands.run(nimble.health.nimble_release, character_id, body, present=_present(nimble))


@_post("escape", "nimble_escape", 201, ASKS_GM)
def escape(
    character_id: UUID, body: NimbleEscapeCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: break free of a grapple, a rider or a restraint: STR or DEX save DC 10."""
    return commands.run(
        nimble.health.nimble_escape, character_id, body, present=_present(nimble), status_code=201
    )


@_post("restraint", "nimble_restrain")
def restrain(
    character_id: UUID, body: NimbleRestrainCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-24: (GM) Restrained by a thing, or (`by` null) freed."""
    return commands.run(nimble.health.nimble_restrain, character_id, body, present=_present(nimble))


@_post("concentration", "nimble_concentrate")
def concentrate(
    character_id: UUID, body: NimbleConcentrateCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-25: concentrate on one effect (not a second one, not at 0 HP)."""
    return commands.run(
        nimble.health.nimble_concentrate, character_id, body, present=_present(nimble)
    )


@_post("concentration/end", "nimble_end_concentration")
def end_concentration(
    character_id: UUID, body: NimbleSceneAct, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-25: end Concentration (a free action)."""
    return commands.run(
        nimble.health.nimble_end_concentration, character_id, body, present=_present(nimble)
    )


@_post("concentration/save", "nimble_concentration_save", 201, ASKS_GM)
def concentration_save(
    character_id: UUID, body: NimbleRollCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-25: the STR save DC 10 a critical hit called for; a failure ends the effect."""
    return commands.run(
        nimble.health.nimble_concentration_save,
        character_id,
        body,
        present=_present(nimble),
        status_code=201,
    )


@_post("cover", "nimble_take_cover")
def take_cover(
    character_id: UUID, body: NimbleCoverCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-26: partial or full cover, or none (leaving cover ends hiding)."""
    return commands.run(
        nimble.health.nimble_take_cover, character_id, body, present=_present(nimble)
    )


@_post("hide", "nimble_hide", 201, ASKS_GM)
def hide(
    character_id: UUID, body: NimbleRollCreate, nimble: NimbleDep, commands: CommandsDep
) -> JSONResponse:
    """NB-26: in cover, a Stealth check DC 10 (automatic in full cover) to hide."""
    return commands.run(
        nimble.health.nimble_hide, character_id, body, present=_present(nimble), status_code=201
    )
