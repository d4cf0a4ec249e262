"""Nimble checks: an attack with its Primary die (NB-9..NB-11) and the Initiative roll to starting
actions (NB-1, NB-2)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, Field

from domain.dice.roller import Face, Roller
from domain.errors import InvalidInput
from domain.rulesets.base import (
    Asked,
    Check,
    CheckOutcome,
    FollowUp,
    FollowUpRoll,
    Name,
    Odds,
    RequestModel,
    form_of,
    purpose_field,
    request_as,
)
from systems.nimble.odds import initiative_actions, nimble_attack, nimble_initiative
from systems.nimble.rules.attack_dice import AttackDice, parse_attack_dice
from systems.nimble.rules.sheet import NimbleHero, NimbleMonster, initiative_bonus

MAX_STEPS = 10
D20 = 20


def attack_number_field(description: str) -> Any:
    """Which attack of the turn a request is (NB-10: each after the first is hasty, one more step
    of disadvantage); the bounds are the same wherever an attack is counted."""
    return Field(1, ge=1, le=MAX_STEPS, description=description)


def keep(faces: list[Face], edge: int, kept: int, roller: Roller) -> list[Face]:
    """NB-11: each step of advantage drops the lowest die, of disadvantage the highest; equal
    faces drop the leftmost first. Returns the kept dice in the order rolled."""
    ranked = sorted(faces, key=lambda f: (f.face if edge >= 0 else -f.face, f.index))
    roller.drop(ranked[: len(faces) - kept])
    return [f for f in faces if f.kept]


class Steps(RequestModel):
    advantage: int = Field(0, ge=0, le=MAX_STEPS, description="Steps of advantage (NB-11).")
    disadvantage: int = Field(
        0,
        ge=0,
        le=MAX_STEPS,
        description="Steps of disadvantage; each cancels one step of advantage (NB-11).",
    )


# -- attack ------------------------------------------------------------------------------------


class AttackRequest(Steps):
    """An attack: its dice, the Primary die, advantage and hasty attacks."""

    attack: Name | None = Field(
        None,
        description="An attack on the sheet (by name, ignoring case); omit with `dice` for raw.",
        examples=["Greataxe"],
    )
    dice: str | None = Field(
        None,
        max_length=100,
        description="Explicit attack dice for a GM's raw roll, e.g. '2d6+3' (NB-9); not with "
        "`attack`.",
    )
    primary_die: bool | None = Field(
        None,
        description="Raw rolls only (default true): whether the leftmost die is a Primary die "
        "(NB-9, NB-14).",
    )
    area: bool | None = Field(
        None,
        description="Raw rolls only (default false): an area attack cannot miss or crit (NB-11).",
    )
    attack_number: int = attack_number_field(
        "Which attack of the turn this is: every attack after the first is hasty, "
        "one more step of disadvantage each (NB-10).",
    )
    purpose: str = purpose_field()
    primary_shift: int = Field(
        0,
        ge=-2,
        le=2,
        description="NB-14: faces the Primary die counts higher (a weakness found, +1) or lower "
        "(the target anticipates danger, -1) for missing and critting.",
    )
    armor: int = Field(
        0,
        ge=0,
        le=100,
        description="NB-16: the target's Armor, taken off the damage of a hit that is not a crit "
        "(a monster's on every hit, a hero's when it Defends); damage never goes below 0.",
    )

    @property
    def edge(self) -> int:
        """NB-10/NB-11: advantage minus disadvantage, hasty attacks included."""
        return self.advantage - self.disadvantage - (self.attack_number - 1)


class AttackCheck(Check[AttackRequest]):
    name: ClassVar[str] = "attack"
    description: ClassVar[str] = (
        "Roll the attack dice; damage is the total. The leftmost kept die of the first term is "
        "the Primary die: 1 misses, its maximum crits and rolls again (and again). Advantage "
        "(disadvantage) adds a die of that type and drops the lowest (highest). Score: damage, "
        "0 on a miss."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-9", "NB-10", "NB-11")
    Request: ClassVar[type[BaseModel]] = AttackRequest
    verb: ClassVar[str | None] = "POST /v1/scenes/{id}/nimble/attacks"

    def example(self) -> dict[str, Any]:
        return {"attack": "Greataxe", "advantage": 1, "purpose": "Cleave the goblin"}

    def roll(self, asked: Asked[AttackRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        name, dice, primary = attack_of(req, asked.sheet)
        drawn: list[Face] = []
        first: list[Face] = []
        crit_chain: list[Face] = []
        if dice.dice:
            term = dice.dice[0]
            drawn = roller.roll(term.faces, term.count + abs(req.edge), label="attack")
            first = keep(drawn, req.edge, term.count, roller)
            for other in dice.dice[1:]:
                drawn += roller.roll(other.faces, other.count, label="attack")
            if primary:
                crit_chain = crit_chain_of(first[0], req.primary_shift, roller)
        kept = [f for f in drawn + crit_chain if f.kept]
        return evaluate(req, name, dice, primary, kept, first, crit_chain)

    def odds(self, asked: Asked[AttackRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        _, dice, primary = attack_of(req, asked.sheet)
        terms = tuple((t.count, t.faces) for t in dice.dice)
        if req.primary_shift:  # NB-14: the odds tables know no shifted Primary die
            return Odds(None, 0.0)
        attack = nimble_attack(terms, dice.modifier, req.edge, primary)
        if req.armor:  # NB-16: the tables know no Armor that crits ignore; the hit chance holds
            return Odds(attack.hit, 0.0)
        return Odds(attack.hit, attack.damage.at_least(outcome.score))


def crit_chain_of(lead: Face, shift: int, roller: Roller) -> list[Face]:
    """NB-9: a crit rolls the Primary die again and adds it, again on every maximum. NB-14: a
    Primary die counted up to its maximum (``shift``) crits too; each new die explodes on its
    real maximum. No crit: no chain."""
    if lead.face + shift < lead.sides:
        return []
    asked = [False]

    def again(face: int) -> bool:  # the lead is asked first
        is_lead, asked[0] = not asked[0], True
        return is_lead or face == lead.sides

    return roller.explode(lead, again)


def attack_of(req: AttackRequest, sheet: BaseModel | None) -> tuple[str | None, AttackDice, bool]:
    """The attack's name, dice, and whether it has a Primary die that can miss and crit."""
    if req.dice is not None:
        if req.attack is not None:
            raise InvalidInput("give an attack or dice, not both", field="request.dice")
        try:
            dice = parse_attack_dice(req.dice)
        except ValueError as exc:
            raise InvalidInput(str(exc), field="request.dice", rule="NB-9") from None
        has_primary = req.primary_die is not False and not req.area
        return None, dice, has_primary and bool(dice.dice)
    if req.primary_die is not None or req.area is not None:
        field = "check.primary_die" if req.primary_die is not None else "check.area"
        raise InvalidInput("primary_die and area come from the sheet's attack", field=field)
    if req.attack is None:
        raise InvalidInput("name the attack, or give dice", field="request.attack")
    if sheet is None:
        raise InvalidInput("a roll without a character needs explicit dice", field="request.attack")
    attacks = form_of(sheet, NimbleHero, NimbleMonster).attacks
    for attack in attacks:
        if attack.name.casefold() == req.attack.casefold():
            dice = parse_attack_dice(attack.dice)
            # NB-11/NB-14: area attacks and dice without a Primary die cannot miss or crit.
            return attack.name, dice, attack.primary_die and not attack.area and bool(dice.dice)
    raise InvalidInput(
        f"the sheet has no attack {req.attack!r}",
        field="request.attack",
        details={"known": [a.name for a in attacks]},
    )


def evaluate(
    req: AttackRequest,
    name: str | None,
    dice: AttackDice,
    primary: bool,
    kept: list[Face],
    first: list[Face],
    crit_chain: list[Face],
) -> CheckOutcome:
    lead = first[0] if primary and first else None
    counted = lead.face + req.primary_shift if lead is not None else None
    miss = counted is not None and counted <= 1
    critical = counted is not None and lead is not None and counted >= lead.sides
    rolled = sum(f.face for f in kept)
    # Ruling: damage never goes below 0 (a 1d4-3 hit deals 0, not -2).
    before_armor = 0 if miss else max(0, rolled + dice.modifier)
    # NB-16: Armor takes damage off a hit; critical hits ignore it.
    armor = 0 if miss or critical else req.armor
    damage = max(0, before_armor - armor)
    result = {
        "attack": name,
        "dice": req.dice if name is None else None,
        "edge": req.edge,
        "primary_die": f"d{lead.sides}" if lead else None,
        "primary_face": lead.face if lead else None,
        "primary_shift": req.primary_shift,
        "rolled": rolled,
        "modifier": dice.modifier,
        "crit_dice": len(crit_chain),
        "total": before_armor,
        "armor": armor,
        "damage": damage,
        "outcome": "miss" if miss else "critical" if critical else "hit",
        "critical": critical,
        "miss": miss,
        "success": not miss,
    }
    return CheckOutcome(result, damage, not miss)


# -- Help on an attack (NB-19): a follow-up roll rerolling one die ------------------------------


class HelpDieRequest(RequestModel):
    """Help (NB-19): an ally rerolls one die of a held attack; the new face counts."""

    die: int = Field(
        ge=0,
        le=200,
        description="The index of the die rerolled in the attack's faces: a kept die that no "
        "critical hit set off.",
    )
    purpose: str = purpose_field("How the helper justifies it.")


def help_die(roll: FollowUpRoll, roller: Roller) -> CheckOutcome:
    """NB-19 on an attack: the chosen die is rolled again and the attack is evaluated as a fresh
    roll with the new face in the old one's place would be: advantage and disadvantage keep and
    drop again (NB-11), the leftmost kept die of the first term is the Primary die; a new Primary
    die misses, crits and explodes on its own (NB-9, NB-14) and the old crit chain goes with the
    old one, while an unchanged Primary die keeps its chain."""
    req, faces, request = request_as(roll.original, AttackRequest), roll.faces, roll.request
    assert isinstance(request, HelpDieRequest)
    name, dice, primary = attack_of(req, roll.sheet)
    if not (0 <= request.die < len(faces)):
        raise InvalidInput(
            f"the attack has dice 0..{len(faces) - 1}", field="request.die", rule="NB-19"
        )
    old = faces[request.die]
    if old.exploded_from is not None or old.reroll_of is not None:
        raise InvalidInput(
            "Help rerolls a die the attack rolled, not one a critical hit set off",
            field="request.die",
            rule="NB-19",
        )
    was_kept = [f.kept for f in faces]
    chain = [f for f in faces if f.exploded_from is not None]
    width = dice.dice[0].count + abs(req.edge) if dice.dice else 0
    term = faces[:width]
    lead = next((f for f in term if f.kept), None) if primary else None
    new = roller.reroll([old])[0]
    for face, was in zip(faces, was_kept, strict=True):
        face.kept = was and face is not old
    if request.die < width:  # NB-11: the first term keeps and drops again, by position
        term = [new if f is old else f for f in term]
        ranked = sorted(
            range(width), key=lambda i: (term[i].face if req.edge >= 0 else -term[i].face, i)
        )
        dropped = set(ranked[: width - dice.dice[0].count])
        for i, face in enumerate(term):
            face.kept = i not in dropped
    first = [f for f in term if f.kept]
    new_lead = first[0] if primary and first else None
    new_chain: list[Face] = []
    if new_lead is not lead:
        for face in chain:  # the crit chain went with the old Primary die
            face.kept = False
        new_chain = crit_chain_of(new_lead, req.primary_shift, roller) if new_lead else []
        chain = new_chain
    counted = [f for f in faces if f.kept] + ([new] if new.kept else []) + new_chain
    return evaluate(req, name, dice, primary, counted, first, chain)


HELP_DIE = FollowUp(
    name="help_die",
    description="Help (NB-19): an ally rerolls one kept die of a held attack; the attack is "
    "evaluated again with the new face (a new Primary die crits and explodes on its own). "
    "Given through POST /v1/scenes/{id}/nimble/help.",
    rules=("NB-19",),
    Request=HelpDieRequest,
    cost=lambda request: {},
    apply=help_die,
    allowed=lambda original, outcome: None,
    direct=False,
    example={"die": 0, "purpose": "a feint"},
    via="POST /v1/scenes/{scene_id}/nimble/help with the held attack's roll_id and `die`",
)


# -- initiative --------------------------------------------------------------------------------


class InitiativeRequest(Steps):
    """Roll Initiative: 1d20 + the Initiative bonus (NB-1), with advantage or disadvantage when
    the GM grants it for surprise (NB-2)."""

    bonus: int | None = Field(
        None,
        ge=-10,
        le=30,
        description="Explicit Initiative bonus for a GM's raw roll; with a hero sheet, omit it "
        "to use the sheet's bonus (DEX by default).",
    )


class InitiativeCheck(Check[InitiativeRequest]):
    name: ClassVar[str] = "initiative"
    description: ClassVar[str] = (
        "Roll 1d20 + Initiative bonus: a total below 10 starts with 1 action, 10-19 with 2, 20+ "
        "or a natural 20 with 3. Score: starting actions; no success."
    )
    rules: ClassVar[tuple[str, ...]] = ("NB-1", "NB-2", "NB-11")
    Request: ClassVar[type[BaseModel]] = InitiativeRequest
    sheet_fields: ClassVar[tuple[str, ...]] = ("bonus",)
    modifier_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage")

    def example(self) -> dict[str, Any]:
        return {}

    def roll(self, asked: Asked[InitiativeRequest], roller: Roller) -> CheckOutcome:
        req = asked.request
        bonus = initiative_of(req, asked.sheet)
        edge = req.advantage - req.disadvantage
        rolled = roller.roll(D20, 1 + abs(edge), label="initiative")
        natural = keep(rolled, edge, 1, roller)[0].face
        total = natural + bonus
        actions = initiative_actions(natural, total)
        result = {
            "natural": natural,
            "bonus": bonus,
            "total": total,
            "edge": edge,
            "actions": actions,
            "outcome": f"{actions}_actions" if actions > 1 else "1_action",
            "critical": natural == D20,
        }
        return CheckOutcome(result, actions, None)

    def odds(self, asked: Asked[InitiativeRequest], outcome: CheckOutcome) -> Odds:
        req = asked.request
        edge = req.advantage - req.disadvantage
        actions = nimble_initiative(initiative_of(req, asked.sheet), edge)
        return Odds(None, actions.at_least(outcome.score))


def initiative_of(req: InitiativeRequest, sheet: BaseModel | None) -> int:
    if req.bonus is not None:
        return req.bonus
    if sheet is None:
        raise InvalidInput(
            "a roll without a character needs an explicit bonus", field="request.bonus"
        )
    hero = form_of(sheet, NimbleHero, NimbleMonster)
    if isinstance(hero, NimbleMonster):
        raise InvalidInput(
            "monsters do not roll Initiative: they act after the heroes (NB-3)",
            field="request.bonus",
            rule="NB-3",
        )
    return initiative_bonus(hero)


# Assess (NB-14) and Help (NB-19): systems/nimble/rules/encounter_checks.py
from systems.nimble.rules.encounter_checks import AssessCheck, HelpRerollCheck

CHECKS: dict[str, Check] = {
    c.name: c for c in (AttackCheck(), InitiativeCheck(), AssessCheck(), HelpRerollCheck())
}
FOLLOW_UPS: dict[str, FollowUp] = {HELP_DIE.name: HELP_DIE}

__all__ = [
    "CHECKS",
    "FOLLOW_UPS",
    "HELP_DIE",
    "AttackCheck",
    "AttackRequest",
    "InitiativeCheck",
    "InitiativeRequest",
    "keep",
]
