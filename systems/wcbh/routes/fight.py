"""HTTP verbs of systems/wcbh/commands/fight.py: the page's actions and the attack maneuvers of We Can Be
Heroes (WCBH-25, WCBH-28..33, WCBH-40..47); systems/wcbh/docs/fight.md."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, AppDep, Commands, respond
from api.errors import ERROR_RESPONSES
from api.presenters import roll_shown
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import RollPublic, Written, roll_public
from domain.aggregates import Character, Roll, Scene
from domain.application import Outcome
from systems.wcbh.commands import Wcbh
from systems.wcbh.commands.fight import (
    AttackFollowed,
    Fight,
    PageShown,
    TeamRolled,
    attack_follow_ups,
)

router = APIRouter(route_class=OneHopRoute, tags=["fight"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


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
    passed: bool = Field(default=False, description="It gave up the rest of its turn (WCBH-22)")
    delayed_to: str | None = Field(
        default=None, description="The moment it delayed its action to (WCBH-23)"
    )
    delay_came: bool = Field(default=False, description="That moment came: it acts now")
    gm_override: str | None = Field(
        default=None, description="The GM let it act out of order this page, and why"
    )
    effects: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Its special effects (WCBH-35..38) and what each lets it do: may_act, "
        "may_move, may_defend_actively (the GM's ruling, ruled_by_gm; else none of them)",
    )


class TurnPublic(Written):
    """WCBH-22..24: the page's order of action and where it stands."""

    scene_id: UUID
    page: int
    order_of_action: list[list[UUID]] | None = Field(
        description="Groups in acting order; one group acts simultaneously (null: no fight)"
    )
    now: list[UUID] = Field(description="Whose turn it is (empty: everyone is done)")
    done: list[UUID] = Field(description="Whose turn of the page is over or skipped")
    delayed: dict[str, str] = Field(description="Who waits for which declared moment (WCBH-23)")
    moment_came: list[UUID] = Field(description="Delayed characters whose moment came")
    overrides: dict[str, str] = Field(description="Whom the GM let act out of order, and why")


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


def _page(outcome: Outcome, commands: Commands) -> PageStatePublic:
    scene, actor = outcome.aggregate, commands.actor
    assert isinstance(scene, Scene) and actor is not None
    character = commands.app.get(actor, Character, outcome.result_as(PageShown).character_id)
    return PageStatePublic.model_validate(
        commands.app.system(Wcbh).fight.page_view(actor, scene, character)
    )


def _turn(outcome: Outcome, commands: Commands) -> TurnPublic:
    scene, actor = outcome.aggregate, commands.actor
    assert isinstance(scene, Scene) and actor is not None
    return TurnPublic.model_validate(commands.app.system(Wcbh).fight.turn_view(actor, scene))


def _team(outcome: Outcome, commands: Commands) -> TeamAttackPublic:
    repository = commands.app.repository
    rolls: list[Roll] = [repository.get(r) for r in outcome.result_as(TeamRolled).rolls]
    scene: Scene = repository.get(rolls[0].scene_id)
    return TeamAttackPublic(
        rolls=[roll_public(r, scene) for r in rolls], version=outcome.aggregate.version
    )


def _follow_up(outcome: Outcome, commands: Commands) -> AttackFollowUpPublic:
    scene = outcome.aggregate
    assert isinstance(scene, Scene)
    roll_id = outcome.result_as(AttackFollowed).roll_id
    details = dict(attack_follow_ups(scene)[str(roll_id)])
    # what every follow-up records is shown apart from what only this kind does
    shown = {key: details.pop(key) for key in ("kind", "character_id", "page")}
    new_roll_id = details.get("new_roll_id")
    new_roll = commands.app.repository.get(UUID(new_roll_id)) if new_roll_id else None
    return AttackFollowUpPublic(
        roll_id=roll_id,
        **shown,
        details=details,
        new_roll=None if new_roll is None else roll_public(new_roll, scene),
        version=scene.version,
    )


routes = CommandRoutes(router, lambda app: app.system(Wcbh).fight, "/v1/scenes/{scene_id}")

# ---- WCBH-25: the page; WCBH-22..24: the order of action ------------------------------------------

routes.declare(
    Op(
        "/declarations",
        Fight.declare_actions,
        """WCBH-25: the actions a character takes this page, before its first (each extra one: -2
    dice on all its rolls of the page but defence); WCBH-44: or all-out defence.""",
    ),
    Op(
        "/moves",
        Fight.move,
        """WCBH-25: the character's one move of the page (not held, WCBH-40; not after a 3+
    maneuver, WCBH-41; not with a lost turn).""",
    ),
    Op(
        "/effect-rulings",
        Fight.rule_effect,
        """WCBH-35, 37 (GM): what a special effect lets its character do — act, move, defend
    actively. By default an effect forbids all three until it is shaken off or dropped.""",
    ),
    Op(
        "/passes",
        Fight.pass_turn,
        """WCBH-22: the character gives up the rest of its turn this page; the order moves on.""",
    ),
    Op(
        "/delays",
        Fight.delay,
        """WCBH-23: the character delays its action to a declared moment (before acting, once a
    page); lost if the moment does not come this page.""",
        operation_id="delay_action",
    ),
    Op(
        "/order-overrides",
        Fight.override_order,
        """WCBH-22..24 (GM): let the character act out of the order of action this page; the
    reason is recorded.""",
    ),
    model=PageStatePublic,
    present=_page,
)
routes.declare(
    Op(
        "/moments",
        Fight.moment_came,
        """WCBH-23 (GM): the declared moment came; those who delayed to it act now, in normal
    order among themselves.""",
    ),
    model=TurnPublic,
    present=_turn,
)


@reads.get("/v1/scenes/{scene_id}/turn", operation_id="get_turn", model=TurnPublic, etag=True)
def get_turn(scene_id: UUID, app: AppDep, actor: ActorDep) -> JSONResponse:
    """The page's order of action (WCBH-22..24): whose turn it is, who is done, who waits for a
    delayed moment, whom the GM let act out of order."""
    scene = app.get(actor, Scene, scene_id)
    return respond(TurnPublic.model_validate(app.system(Wcbh).fight.turn_view(actor, scene)))


@reads.get(
    "/v1/scenes/{scene_id}/page-states/{character_id}",
    operation_id="get_page_state",
    model=PageStatePublic,
    etag=True,
)
def get_page_state(
    scene_id: UUID, character_id: UUID, app: AppDep, actor: ActorDep
) -> JSONResponse:
    """The character's page: actions declared and taken, targets, move, lost turn, the dice the
    page adds to its rolls and its conditions (WCBH-25, 40, 41, 44)."""
    scene = app.get(actor, Scene, scene_id)
    character = app.get(actor, Character, character_id)
    return respond(
        PageStatePublic.model_validate(app.system(Wcbh).fight.page_view(actor, scene, character))
    )


# ---- attacks -------------------------------------------------------------------------------------

routes.declare(
    Op(
        "/attacks",
        Fight.attack,
        """WCBH: one character attacks another (one action, one attack per target per page, WCBH-25);
    every pool is one fair roll; damage lowers Health (WCBH-28..31, 33); a charge, an all-out
    attack, bashing with a club, an ally defending, a declared redirect (WCBH-44, 46).""",
    ),
    Op(
        "/grapples",
        Fight.grapple,
        """WCBH-40: Strength against the target's best active defence: a partial hold, a hold or the
    weapon taken; the hold is a condition on the target.""",
    ),
    Op(
        "/maneuvers",
        Fight.maneuver,
        """WCBH-41: a feint, stunning blow, overpower or taunt; by net successes the target's rolls
    get -1..-3 to the end of the next page (a condition), it may not move, or loses its turn.""",
    ),
    Op(
        "/area-attacks",
        Fight.area_attack,
        """WCBH-43: one attack roll, every target defends separately (active defences at half rank
    unless the target skips its next turn); one roll record, one save.""",
    ),
    model=RollPublic,
    present=roll_shown,
    created=True,
    asks_gm=True,
)
routes.declare(
    Op(
        "/ambushes",
        Fight.ambush,
        """WCBH-42: the ambushers (a group, WCBH-11) against each target's Perception; surprised
    targets cannot act on this page. One roll record with every pool.""",
    ),
    model=RollPublic,
    present=roll_shown,
    created=True,
)
routes.declare(
    Op(
        "/team-attacks",
        Fight.team_attack,
        """WCBH-47: two or more characters attack one target together: each +2 dice, each may spend
    1 Resolve for exploding 6s; once per fight per character; a roll record per attacker.""",
    ),
    model=TeamAttackPublic,
    present=_team,
    created=True,
    asks_gm=True,
)


# ---- WCBH-45, 46: after the roll -------------------------------------------------------------

after_rolls = CommandRoutes(router, routes.holder, "/v1/rolls/{roll_id}")
after_rolls.declare(
    Op(
        "/knockback",
        Fight.knockback,
        """WCBH-45: after 6+ damage, the attacker's 1 Resolve throws the target (as far as a
    Strength of the attack's rank throws); it loses its next turn; an object hit deals half the
    damage again.""",
    ),
    Op(
        "/redirect",
        Fight.redirect,
        """WCBH-46: the target that declared a redirect and beat the attack by 3+ spends 1 Resolve
    to send it behind it, or at someone else (a second roll: the new target defends).""",
    ),
    model=AttackFollowUpPublic,
    present=_follow_up,
)
