"""We Can Be Heroes checks: a trait's d6 pool against a difficulty (WCBH-7..9, WCBH-13); the
Resolve follow-ups (WCBH-20b, WCBH-20c) are in follow_ups.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from domain.dice.roller import Explodes, Face, Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    Name,
    Odds,
    Once,
    RequestModel,
    form_of,
    purpose_field,
)
from systems.wcbh.odds import wcbh_pool
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion, WcbhSettings

SIDES = 6
DICE_PER_RESOLVE = 1
DICE_PER_RESOLVE_DECISIVE = 3  # WCBH-13
MAX_POOL = 100

DIFFICULTY_NAMES = (
    (0, "Easy"),
    (1, "Average"),
    (2, "Hard"),
    (3, "Daunting"),
    (4, "Brutal"),
    (5, "Inhuman"),
    (6, "Superhuman"),
    (9, "Legendary"),
    (12, "Epic"),
)
"""WCBH-8: the lowest difficulty of each name."""

OUTCOMES = {
    # WCBH-9: (key, narrator, embellishment) by net band: <= -2, -1..0, 1..2, >= 3.
    "player": (
        ("opponent_narrates", "opponent", None),
        ("opponent_narrates_hero_embellishes", "opponent", "hero"),
        ("hero_narrates_opponent_embellishes", "hero", "opponent"),
        ("hero_narrates", "hero", None),
    ),
    "gm": (
        ("total_failure", "gm", None),
        ("failure_with_positive_detail", "gm", None),
        ("success_with_problem", "gm", None),
        ("success", "gm", None),
    ),
}


def power_use_cost(power_use: str | None) -> dict[str, int]:
    """WCBH-2: a roll of a Power with uses per game Issue spends one of them."""
    return {power_use: 1} if power_use else {}


def check_server_filled(field: str, sent: object, expected: object, rule: str, whose: str) -> None:
    """A field of a roll's request that the server fills from the sheet or the page (WCBH-2
    `power_use`, WCBH-25 `page_modifier`): a client may leave it out or send the same value."""
    if sent != expected:
        raise InvalidInput(
            f"{field} is filled by the server: {expected} for {whose}",
            field=f"request.{field}",
            rule=rule,
            details={"expected": expected},
        )


def face_successes(face: int) -> int:
    """WCBH-7: each 2 or 4 is one success, each 6 two; 1, 3 and 5 none."""
    return 2 if face == 6 else 1 if face in (2, 4) else 0


def difficulty_name(difficulty: int) -> str:
    """WCBH-8: 0 Easy ... 6-8 Superhuman, 9-11 Legendary, 12+ Epic."""
    return [name for low, name in DIFFICULTY_NAMES if difficulty >= low][-1]


def band(net: int) -> int:
    """WCBH-9: the row of the outcome tables: <= -2, -1 or 0, 1 or 2, >= 3."""
    return 0 if net <= -2 else 1 if net <= 0 else 2 if net <= 2 else 3


def _explodes(decisive_moment: bool) -> Explodes | None:
    # WCBH-13: in a Decisive Moment every 6 rolls one more die, and that one may explode too.
    return (lambda face: face == SIDES) if decisive_moment else None


def resolve_dice(resolve: int, decisive_moment: bool) -> int:
    """WCBH-20b: one die per Resolve; WCBH-13: three in a Decisive Moment."""
    return resolve * (DICE_PER_RESOLVE_DECISIVE if decisive_moment else DICE_PER_RESOLVE)


# Server-filled fields every check of a character's roll in a scene takes (`check_server_filled`)
PageDice = Field(
    default=0,
    ge=-MAX_POOL,
    le=MAX_POOL,
    description="Server-filled for a character's roll in a scene: the dice its page and its "
    "conditions add: -2 per extra action declared this page (WCBH-25), a maneuver's -1..-3 "
    "(WCBH-41). Omit it, or send the value the server computes.",
)
PowerUse = Field(
    default=None,
    description="Server-filled: the resource of a Power with uses per game Issue that this roll "
    "spends one of (`uses:<Power>`, WCBH-2). Omit it, or send the value the server computes.",
)


class TraitRequest(RequestModel):
    """A trait check: the trait's rank in d6 (plus modifiers) against a difficulty."""

    trait: Name | None = Field(
        None,
        description="Ability, Talent or Power on the sheet (looked up in that order, ignoring "
        "case). Omit for a minion (its threat rank) or with `pool` for a raw roll.",
        examples=["Agility"],
    )
    pool: int | None = Field(
        None,
        ge=0,
        le=MAX_POOL,
        description="Explicit rank (dice) for a GM's raw roll without a character; not with "
        "`trait`.",
    )
    difficulty: int = Field(
        0,
        ge=0,
        le=MAX_POOL,
        description="Subtracted from the successes (WCBH-8): 0 Easy, 1 Average, 2 Hard, "
        "3 Daunting, 4 Brutal, 5 Inhuman, 6-8 Superhuman, 9-11 Legendary, 12+ Epic. For an "
        "attack, the defence roll's successes (WCBH-31).",
    )
    modifier: int = Field(
        0,
        ge=-MAX_POOL,
        le=MAX_POOL,
        description="Dice added or taken away: weapon dice (WCBH-28), help (WCBH-10), contest "
        "wins (WCBH-12), situation (WCBH-30)...",
    )
    page_modifier: int = PageDice
    power_use: Name | None = PowerUse
    resolve: int = Field(
        0,
        ge=0,
        le=MAX_POOL,
        description="Resolve spent before the roll for extra dice: 1 die each, 3 in a Decisive "
        "Moment (WCBH-20b, WCBH-13).",
    )
    decisive_moment: bool = Field(
        False, description="A declared Decisive Moment: every 6 explodes (WCBH-13)."
    )
    effort: Literal["physical", "mental"] | None = Field(
        None,
        description="A character's Decisive Moment only (required then): was the effort "
        "physical or mental? It decides which Ability the character then loses a rank of "
        "(WCBH-16).",
    )
    purpose: str = purpose_field()


def decisive_moment_limits(
    decisive_moment: bool, effort: str | None, side: str, field: str
) -> list[Once]:
    """WCBH-15: a Decisive Moment once per character per story, and one hero's per scene (the
    source says one *hero* per scene; the digest says one character). WCBH-16: a character's
    Decisive Moment names its effort, physical or mental. Any roll may be one: a trait check or
    an attack (WCBH-13: "any check")."""
    if decisive_moment and effort is None:
        raise InvalidInput(
            "a Decisive Moment needs its effort, physical or mental: it decides the "
            "Ability the character loses a rank of afterwards",
            field=field,
            rule="WCBH-16",
        )
    if not decisive_moment and effort is not None:
        raise InvalidInput("effort is only for a Decisive Moment", field=field, rule="WCBH-16")
    if not decisive_moment:
        return []
    limits = [Once("story", "decisive_moment", "WCBH-15")]
    if side == "hero":
        limits.append(Once("scene", "decisive_moment", "WCBH-15", exclusive=True, continues=True))
    else:  # WCBH-14: the scene notes other sides' Decisive Moments too, so that they go on
        limits.append(Once("scene", "decisive_moment_other_sides", "WCBH-14", continues=True))
    return limits


class TraitCheck(Check[TraitRequest]):
    name: ClassVar[str] = "trait"
    description: ClassVar[str] = (
        "Roll d6 equal to a trait's rank (+ modifier dice, + Resolve dice): 2 and 4 are one "
        "success, 6 two; net = successes - difficulty decides who narrates. Score: successes."
    )
    rules: ClassVar[tuple[str, ...]] = ("WCBH-7", "WCBH-8", "WCBH-9", "WCBH-13", "WCBH-20b")
    Request: ClassVar[type[BaseModel]] = TraitRequest
    sheet_fields: ClassVar[tuple[str, ...]] = ("pool",)
    modifier_fields: ClassVar[tuple[str, ...]] = ("modifier", "difficulty")

    def example(self) -> dict[str, Any]:
        return {"trait": "Agility", "difficulty": 2, "purpose": "Leap across the rooftops"}

    def reads(self, request: Mapping[str, Any]) -> str:
        # the trait is what a table calls the roll ("an Agility check"); the purpose, if given, why
        trait, purpose = request.get("trait"), request.get("purpose")
        if not trait:  # a GM's raw pool names no trait
            return super().reads(request)
        return f"{trait} check" + (f" ({purpose})" if purpose else "")

    def once(self, request: TraitRequest, side: str) -> list[Once]:
        return decisive_moment_limits(
            request.decisive_moment, request.effort, side, "request.effort"
        )

    def cost(self, request: TraitRequest) -> dict[str, int]:
        return {"resolve": request.resolve, **power_use_cost(request.power_use)}

    def roll(self, asked: Asked[TraitRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        trait, rank = trait_rank(req, asked.sheet)
        explodes = _explodes(req.decisive_moment)
        dice = base_dice(rank, req.modifier + req.page_modifier)
        faces = roller.roll(SIDES, dice, explodes=explodes, label="trait")
        extra = resolve_dice(req.resolve, req.decisive_moment)
        faces += roller.roll(SIDES, extra, explodes=explodes, label="resolve")
        return evaluate(req, trait, rank, faces, asked.settings)

    def odds(self, asked: Asked[TraitRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        _, rank = trait_rank(req, asked.sheet)
        dice = base_dice(rank, req.modifier + req.page_modifier) + resolve_dice(
            req.resolve, req.decisive_moment
        )
        successes = wcbh_pool(dice, req.decisive_moment)
        return Odds(successes.at_least(req.difficulty + 1), successes.at_least(outcome.score))


def base_dice(rank: int, modifier: int) -> int:
    """Ruling: a pool that modifiers take to 0 or below rolls no dice (0 successes); Resolve
    dice still add to it, before or after the roll alike."""
    return max(0, rank + modifier)


def trait_rank(req: TraitRequest, sheet: BaseModel | None) -> tuple[str | None, int]:
    """The trait's name and rank from the sheet, or the explicit pool of a raw roll."""
    if req.pool is not None:
        if req.trait is not None:
            raise InvalidInput("give a trait or a pool, not both", field="request.pool")
        return None, req.pool
    if sheet is None:
        field = "request.trait" if req.trait is not None else "request.pool"
        raise InvalidInput("a roll without a character needs an explicit pool", field=field)
    character = form_of(sheet, WcbhCharacter, WcbhMinion)
    if isinstance(character, WcbhMinion):
        if req.trait not in (None, "threat"):
            raise InvalidInput(
                "a minion rolls only its threat rank (WCBH-3)", field="request.trait", rule="WCBH-3"
            )
        return "threat", character.threat
    if req.trait is None:
        raise InvalidInput("name the trait to roll", field="request.trait")
    return req.trait, _lookup(character, req.trait)


def _lookup(character: WcbhCharacter, trait: str) -> int:
    wanted = trait.casefold()
    ranked: list[tuple[str, int | None]] = [
        *character.abilities.ranks().items(),
        *character.talents.items(),
        *((name, power.rank) for name, power in character.powers.items()),
    ]
    for name, rank in ranked:
        if name.casefold() == wanted:
            if rank is None:
                raise InvalidInput(
                    f"the power {name!r} has no rank to roll", field="request.trait", rule="WCBH-3"
                )
            return rank
    raise InvalidInput(
        f"the sheet has no Ability, Talent or Power {trait!r}",
        field="request.trait",
        details={"known": [name for name, rank in ranked if rank is not None]},
    )


def evaluate(
    req: TraitRequest,
    trait: str | None,
    rank: int,
    faces: list[Face],
    settings: BaseModel,
) -> CheckOutcome:
    """Read the kept dice: successes (WCBH-7), net and its name (WCBH-8), the band (WCBH-9)."""
    kept = [f for f in faces if f.kept]
    successes = sum(face_successes(f.face) for f in kept)
    net = successes - req.difficulty
    table = settings.narration_table if isinstance(settings, WcbhSettings) else "player"
    key, narrator, embellishment = OUTCOMES[table][band(net)]
    result = {
        "trait": trait,
        "rank": rank,
        "dice": sum(1 for f in kept if f.exploded_from is None),
        "exploded": sum(1 for f in kept if f.exploded_from is not None),
        "successes": successes,
        "difficulty": req.difficulty,
        "difficulty_name": difficulty_name(req.difficulty),
        "net": net,
        "outcome": key,
        "narrator": narrator,
        "embellishment": embellishment,
        "decisive_moment": req.decisive_moment,
        "success": net >= 1,
    }
    return CheckOutcome(result, successes, net >= 1)


CHECKS: dict[str, Check] = {TraitCheck.name: TraitCheck()}

__all__ = [
    "CHECKS",
    "TraitCheck",
    "TraitRequest",
    "band",
    "difficulty_name",
    "face_successes",
]
