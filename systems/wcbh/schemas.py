"""What WCBH adds to the shared responses: the scene's play state (group checks WCBH-11, contests
WCBH-12, chases WCBH-27) and the Resolve area's fields of a character (WCBH-16, 19, 20e).

The system's `schemas` part (systems.parts("schemas")): `api.schemas` adds `CharacterFields` and
`SceneFields` to its character and scene responses and fills them with `character_fields` and
`scene_fields`, so the shared presenters never name a system."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from domain.aggregates import Campaign, Character, Scene
from systems.wcbh.rules.resolve import owed_loss


class GroupRollPublic(BaseModel):
    character_id: UUID
    roll_id: UUID | None = Field(description="null until the participant has rolled")
    successes: int | None = Field(description="Successes rolled")
    total: int | None = Field(description="Successes after hand-overs (WCBH-11)")
    net: int | None = Field(description="total - the group check's difficulty")


class HandoverPublic(BaseModel):
    giver_id: UUID
    receiver_id: UUID
    successes: int


class GroupCheckPublic(BaseModel):
    id: UUID
    purpose: str
    difficulty: int
    page: int = Field(description="The page it was opened on")
    participants: list[GroupRollPublic]
    handovers: list[HandoverPublic]
    complete: bool = Field(description="Everyone has rolled: successes may be handed over")


class ContestRollPublic(BaseModel):
    character_id: UUID
    roll_id: UUID
    successes: int
    bonus: int = Field(description="Dice added for winning the previous roll (WCBH-12)")


class ContestRoundPublic(BaseModel):
    round: int
    rolls: list[ContestRollPublic]
    winner: UUID | None = Field(description="null: a tie, no bonus")


class ContestPublic(BaseModel):
    id: UUID
    purpose: str
    sides: list[UUID]
    rolls: int = Field(description="Rolls in the series (3 usually, 6+ epic; WCBH-12)")
    page: int = Field(description="The page it started on")
    round: int = Field(description="The round being rolled now (from 1)")
    current: list[ContestRollPublic] = Field(description="Rolls of the current round so far")
    history: list[ContestRoundPublic]
    next_bonus: dict[UUID, int] = Field(description="Dice each side's next roll gets")
    finished: bool
    winner: UUID | None


class ChaseCheckPublic(BaseModel):
    character_id: UUID
    roll_id: UUID
    successes: int
    bonus: int = Field(description="Dice added for winning the last chase check (WCBH-27)")
    shift: int | None = Field(description="-1 closer, 0 hold, 1 farther, null: the default")
    page: int


class ChasePagePublic(BaseModel):
    page: int
    pursuer: ChaseCheckPublic
    target: ChaseCheckPublic
    winner: UUID | None
    net: int
    range: str


class ChasePairPublic(BaseModel):
    pursuer_id: UUID
    target_id: UUID
    range: Literal["cornered", "close", "far", "extreme", "escaped"]
    over: bool = Field(description="cornered (closer than Close) or escaped (beyond Extreme)")
    history: list[ChasePagePublic]


class ChasePublic(BaseModel):
    id: UUID
    page: int = Field(description="The page it started on")
    pairs: list[ChasePairPublic]
    waiting: list[ChaseCheckPublic] = Field(
        description="Checks of the current page whose other side has not rolled yet"
    )
    next_bonus: dict[UUID, int] = Field(description="Dice each participant's next check gets")
    over: bool


class ScenePlayPublic(BaseModel):
    group_checks: list[GroupCheckPublic] = Field(default_factory=list)
    contests: list[ContestPublic] = Field(default_factory=list)
    chases: list[ChasePublic] = Field(default_factory=list)


def group_check_public(group_id: str, group: dict[str, Any]) -> GroupCheckPublic:
    participants = []
    for character_id in group["participants"]:
        rolled = group["rolls"].get(character_id)
        total = rolled["total"] if rolled else None
        participants.append(
            GroupRollPublic(
                character_id=UUID(character_id),
                roll_id=UUID(rolled["roll_id"]) if rolled else None,
                successes=rolled["successes"] if rolled else None,
                total=total,
                net=None if total is None else total - group["difficulty"],
            )
        )
    return GroupCheckPublic(
        id=UUID(group_id),
        purpose=group["purpose"],
        difficulty=group["difficulty"],
        page=group["page"],
        participants=participants,
        handovers=[HandoverPublic.model_validate(h) for h in group["handovers"]],
        complete=len(group["rolls"]) == len(group["participants"]),
    )


def _contest_rolls(rolls: dict[str, Any]) -> list[ContestRollPublic]:
    return [ContestRollPublic(character_id=UUID(c), **r) for c, r in rolls.items()]


def contest_public(contest_id: str, contest: dict[str, Any]) -> ContestPublic:
    winners = contest["winners"]
    last = winners[-1] if winners else None
    return ContestPublic(
        id=UUID(contest_id),
        purpose=contest["purpose"],
        sides=[UUID(s) for s in contest["sides"]],
        rolls=contest["rolls"],
        page=contest["page"],
        round=len(contest["history"]) + 1,
        current=_contest_rolls(contest["current"]),
        history=[
            ContestRoundPublic(
                round=h["round"],
                rolls=_contest_rolls(h["rolls"]),
                winner=UUID(h["winner"]) if h["winner"] else None,
            )
            for h in contest["history"]
        ],
        next_bonus={UUID(s): 2 if s == last else 0 for s in contest["sides"]},
        finished=contest["finished"],
        winner=UUID(contest["winner"]) if contest["winner"] else None,
    )


def _chase_check(character_id: str, check: dict[str, Any]) -> ChaseCheckPublic:
    return ChaseCheckPublic(character_id=UUID(character_id), **check)


def chase_public(chase_id: str, chase: dict[str, Any], page: int) -> ChasePublic:
    """`page`: the scene's current page (checks of earlier pages that were never answered lapse)."""

    def undecided(character_id: str) -> bool:
        return any(
            character_id in (pair["pursuer"], pair["target"])
            and not pair["over"]
            and not any(h["page"] == page for h in pair["history"])
            for pair in chase["pairs"]
        )

    waiting = [
        _chase_check(c, check)
        for c, check in chase["checks"].items()
        if check["page"] == page and undecided(c)
    ]
    pairs = [
        ChasePairPublic(
            pursuer_id=UUID(pair["pursuer"]),
            target_id=UUID(pair["target"]),
            range=pair["range"],
            over=pair["over"],
            history=[
                ChasePagePublic(
                    page=h["page"],
                    pursuer=_chase_check(pair["pursuer"], h["pursuer"]),
                    target=_chase_check(pair["target"], h["target"]),
                    winner=UUID(h["winner"]) if h["winner"] else None,
                    net=h["net"],
                    range=h["range"],
                )
                for h in pair["history"]
            ],
        )
        for pair in chase["pairs"]
    ]
    return ChasePublic(
        id=UUID(chase_id),
        page=chase["page"],
        pairs=pairs,
        waiting=waiting,
        next_bonus={UUID(c): b for c, b in chase["bonus"].items()},
        over=chase["over"],
    )


def play_of(scene: Scene) -> dict[str, Any]:
    """The scene's group checks, contests and chases, by id (the wcbh system's "play" state)."""
    return scene.state("wcbh", "play")


def scene_play_public(scene: Scene) -> ScenePlayPublic:
    play = play_of(scene)
    return ScenePlayPublic(
        group_checks=[group_check_public(i, g) for i, g in play["group_checks"].items()],
        contests=[contest_public(i, c) for i, c in play["contests"].items()],
        chases=[chase_public(i, c, scene.page) for i, c in play["chases"].items()],
    )


class CharacterFields(BaseModel):
    """The Resolve area's fields of the character response (systems/wcbh/docs/resolve.md)."""

    last_gasp: dict[str, Any] | None = Field(
        default=None,
        description="WCBH-19: the running last gasp (scene_id, page, unconscious); null if none",
    )
    luck_requests: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="WCBH-20e: luck asked of the GM, by request id (scene_id, detail, status)",
    )
    owed_ability_losses: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="WCBH-16: Ability losses owed, by Decisive Moment roll id (effort, options)",
    )
    lowered_abilities: list[dict[str, Any]] = Field(
        default_factory=list,
        description="WCBH-16: ranks lost to Decisive Moments that experience may restore",
    )


class SceneFields(BaseModel):
    """Scene play's field of the scene response (systems/wcbh/docs/scene-play.md)."""

    play: ScenePlayPublic = Field(
        default_factory=ScenePlayPublic,
        description="Group checks with their totals (WCBH-11), contests (WCBH-12) and chases "
        "(WCBH-27) of the scene, with their state and history",
    )


def scene_fields(scene: Scene) -> dict[str, Any]:
    return {"play": scene_play_public(scene)}


def character_fields(character: Character, campaign: Campaign) -> dict[str, Any]:
    """The character view's Resolve-area fields (the views build the same from the events)."""
    gasp = character.last_gasp
    return {
        "last_gasp": None
        if gasp is None
        else {
            "scene_id": str(gasp["scene_id"]),
            "page": gasp["page"],
            "unconscious": gasp["unconscious"],
        },
        "luck_requests": {
            request_id: {**request, "scene_id": str(request["scene_id"])}
            for request_id, request in character.luck_requests.items()
        },
        "owed_ability_losses": {
            roll_id: owed_loss(owed["effort"], owed["scene_id"])
            for roll_id, owed in character.owed_losses.items()
        },
        "lowered_abilities": [
            {"ability": entry["ability"], "roll_id": str(entry["roll_id"])}
            for entry in character.lowered
        ],
    }
