"""HTTP verbs of systems/wcbh/commands/resolve.py (We Can Be Heroes play): giving Resolve, luck, imitating
a Power, the last gasp, the scene's own Adversity, the villainous deed, the Decisive Moment's
Ability loss, and the availability view (systems/wcbh/docs/resolve.md)."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.command_routes import CommandRoutes, Op
from api.deps import ActorDep, AppDep, Commands, ViewsDep
from api.errors import ERROR_RESPONSES
from api.presenters import character_shown, issue_shown, scene_shown
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute
from api.schemas import (
    CharacterPublic,
    IssuePublic,
    ScenePublic,
    Written,
    character_public,
)
from domain.aggregates import Campaign, Character, Scene
from domain.application import Outcome
from domain.errors import NotCaughtUp
from projections.runner import ViewReader
from systems.wcbh.commands import Wcbh
from systems.wcbh.commands.resolve import Gift, Luck, Resolve
from systems.wcbh.rules.ruleset import LIMITED_USES, LimitedUse

router = APIRouter(route_class=OneHopRoute, tags=["resolve"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


# ---- response bodies -----------------------------------------------------------------


class ResolveGiftPublic(Written):
    giver: CharacterPublic
    receiver: CharacterPublic


class LuckRequestPublic(Written):
    id: UUID
    character_id: UUID
    scene_id: UUID
    detail: str
    status: Literal["pending", "approved", "declined"]
    note: str | None
    resolve: int = Field(description="The character's Resolve now")


class Use(BaseModel):
    rule: str
    available: bool = Field(description="The limit still allows it")
    used_by: list[UUID] = Field(description="Who used it in this scope (of those it counts)")


class CharacterAvailability(BaseModel):
    character_id: UUID
    name: str
    side: str
    status: str
    scene: dict[str, Use] = Field(description="Limited uses of this scene, by key")
    issue: dict[str, Any] = Field(
        description="resolve (now) and starting_resolve (what the next game Issue restores)"
    )
    story: dict[str, Use] = Field(description="Limited uses of this story, by key")


class GmAvailability(BaseModel):
    adversity: dict[str, int | None] = Field(
        description="issue: left in the game Issue's pool; scene: left in the scene's own pool "
        "(null: it has none)"
    )
    villainous_deed: dict[str, Any] = Field(
        description="available, and the deed once done (villain_id, description, scene_id)"
    )


class Availability(BaseModel):
    scene_id: UUID
    issue_id: UUID
    story_id: UUID
    page: int
    gm: GmAvailability
    characters: list[CharacterAvailability]


# ---- presenters ----------------------------------------------------------------------------------


def _gift(outcome: Outcome, commands: Commands) -> ResolveGiftPublic:
    giver: Character = outcome.aggregate  # type: ignore[assignment]
    campaign: Campaign = commands.app.repository.get(giver.campaign_id)
    receiver: Character = commands.app.repository.get(outcome.result_as(Gift).receiver_id)
    return ResolveGiftPublic(
        giver=character_public(giver, campaign),
        receiver=character_public(receiver, campaign),
        version=giver.version,
    )


def _luck(outcome: Outcome, _: Commands) -> LuckRequestPublic:
    character: Character = outcome.aggregate  # type: ignore[assignment]
    request_id = outcome.result_as(Luck).request_id
    request = character.luck_requests[str(request_id)]
    return LuckRequestPublic(
        id=request_id,
        character_id=character.id,
        scene_id=request["scene_id"],
        detail=request["detail"],
        status=request["status"],
        note=request["note"],
        resolve=character.resources.get("resolve", 0),
        version=character.version,
    )


routes = CommandRoutes(router, lambda app: app.system(Wcbh).resolve)

# ---- WCBH-20a, e, f; WCBH-19; WCBH-16 --------------------------------------------------------------

routes.declare(
    Op(
        "/v1/characters/{character_id}/resolve-gifts",
        Resolve.give_resolve,
        """WCBH-20a: the character gives 1 Resolve to another to help an action (1 Resolve; 2 from
    afar, with a flashback). Both changes are one save.""",
    ),
    model=ResolveGiftPublic,
    present=_gift,
)
routes.declare(
    Op(
        "/v1/characters/{character_id}/luck-requests",
        Resolve.ask_luck,
        """WCBH-20e: ask the GM to change a small detail by luck (needs 1 Resolve, spent if approved);
    pending on the character until the GM decides.""",
    ),
    model=LuckRequestPublic,
    present=_luck,
    created=True,
)
routes.declare(
    Op(
        "/v1/characters/{character_id}/luck-requests/{request_id}/decision",
        Resolve.decide_luck,
        "WCBH-20e: the GM approves (1 Resolve is spent now) or declines a luck request, once.",
    ),
    model=LuckRequestPublic,
    present=_luck,
)
routes.declare(
    Op(
        "/v1/characters/{character_id}/last-gasp",
        Resolve.last_gasp,
        """WCBH-19: at 0 Resolve, 1 Resolve to spend in this page; when the page ends what is left of
    it is gone and the character is unconscious until the scene ends. Once per scene.""",
    ),
    Op(
        "/v1/characters/{character_id}/ability-losses",
        Resolve.lose_ability,
        "WCBH-16: record the Ability rank a Decisive Moment roll cost (once per roll).",
    ),
    Op(
        "/v1/characters/{character_id}/ability-restorations",
        Resolve.restore_ability,
        "WCBH-16: the GM records experience restoring a rank a Decisive Moment took.",
    ),
    model=CharacterPublic,
    present=character_shown,
)

# ---- WCBH-20f, WCBH-21 -----------------------------------------------------------------------------

routes.declare(
    Op(
        "/v1/scenes/{scene_id}/imitations",
        Resolve.imitate_power,
        """WCBH-20f: 1 Resolve, and for this scene an Ability or Power imitates another Power at its
    rank; roll the imitating trait.""",
    ),
    Op(
        "/v1/scenes/{scene_id}/pools/open",
        Resolve.open_scene_pool,
        "WCBH-21: the GM gives an especially hard scene its own Adversity pool.",
    ),
    Op(
        "/v1/scenes/{scene_id}/pools",
        Resolve.change_scene_pool,
        "WCBH-21: the GM gains or spends from the scene's own pool; never below zero.",
    ),
    model=ScenePublic,
    present=scene_shown,
)
routes.declare(
    Op(
        "/v1/issues/{issue_id}/villainous-deed",
        Resolve.villainous_deed,
        "WCBH-21: once per game Issue the main villain's unstoppable deed, for 1 Adversity.",
    ),
    model=IssuePublic,
    present=issue_shown,
)


# ---- issue #5: what is still available -----------------------------------------------------------


@reads.get(
    "/v1/scenes/{scene_id}/availability", operation_id="scene_availability", model=Availability
)
def availability(scene_id: UUID, app: AppDep, actor: ActorDep, views: ViewsDep) -> Availability:
    """For every character of the campaign, what is still available in this scene, its game Issue
    and its story (from the views: pass `min_position` to read your own writes)."""
    scene = app.get(actor, Scene, scene_id)
    return read_availability(views, str(scene.campaign_id), str(scene.id))


def read_availability(views: ViewReader, campaign_id: str, scene_id: str) -> Availability:
    def doc(kind: str, doc_id: str) -> dict[str, Any]:
        found = views.store.doc(kind, doc_id)
        if found is None:
            raise NotCaughtUp(
                f"the views have no {kind} {doc_id} yet: pass min_position", field="min_position"
            )
        return found

    scene = doc("scene", scene_id)
    issue = doc("issue", scene["issue_id"])
    story = doc("story", scene["story_id"])
    campaign = doc("campaign", campaign_id)
    uses = {"scene": scene["once_per_scene_uses"], "story": story["once_per_story_uses"]}
    characters = [doc("character", c) for c in campaign.get("character_ids", [])]
    deed = issue.get("villainous_deed")
    return Availability(
        scene_id=UUID(scene_id),
        issue_id=scene["issue_id"],
        story_id=scene["story_id"],
        page=scene["page"],
        gm=GmAvailability(
            adversity={
                "issue": issue["pools"].get("adversity"),
                "scene": scene.get("pools", {}).get("adversity"),
            },
            villainous_deed={
                "available": deed is None and issue["status"] == "running",
                **(deed or {}),
            },
        ),
        characters=[_availability(c, characters, uses) for c in characters],
    )


def _availability(
    character: dict[str, Any],
    everyone: list[dict[str, Any]],
    uses: dict[str, dict[str, list[str]]],
) -> CharacterAvailability:
    sides = {c["id"]: c["side"] for c in everyone}
    scopes: dict[str, dict[str, Use]] = {"scene": {}, "story": {}}
    for limit in LIMITED_USES:
        scopes[limit.scope][limit.key] = _use(limit, character, uses[limit.scope], sides)
    resolve = character["resources"].get("resolve", {})
    return CharacterAvailability(
        character_id=character["id"],
        name=character["name"],
        side=character["side"],
        status=character["status"],
        scene=scopes["scene"],
        issue={"resolve": resolve.get("current"), "starting_resolve": resolve.get("start")},
        story=scopes["story"],
    )


def _use(
    limit: LimitedUse,
    character: dict[str, Any],
    used: dict[str, list[str]],
    sides: dict[str, str],
) -> Use:
    users = used.get(limit.key, [])
    if character["side"] in limit.shared_by:  # one use shared by these sides (WCBH-15)
        counted = [u for u in users if sides.get(u) in limit.shared_by]
        return Use(rule=limit.rule, available=not counted, used_by=counted)  # type: ignore[arg-type]
    if limit.shared_by:  # the shared limit does not bind this side
        return Use(rule=limit.rule, available=True, used_by=[])
    mine = [u for u in users if u == character["id"]]
    return Use(rule=limit.rule, available=not mine, used_by=mine)  # type: ignore[arg-type]
