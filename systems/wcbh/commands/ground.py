"""The fight's ground (WCBH-26, 30): the GM sets the range class between two characters and each
character's cover and size; a character's move changes a range by one class (two pages, or one
with a fast movement Power); attacks read cover and size, grabs, charges and bashes need the foe
within Close. Kept on the scene as the system's `ground` state (systems/wcbh/rules/ground.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from uuid import UUID

from domain.commands import CommandContext, Outcome, command
from domain.components import Part, Sheeted
from domain.errors import InvalidInput
from domain.rulesets.base import unwrap
from systems.wcbh.commands.fight import (
    WCBH,
    PageShown,
    _check_turn,
    _conditions_of,
    _page_of,
    _save_page,
    ground_of,
)
from systems.wcbh.requests import RangeMoveCreate, RangeSet, RestDaysCreate, SituationSet
from systems.wcbh.rules import fight as fight_rules
from systems.wcbh.rules import ground as rules
from systems.wcbh.rules import rest
from systems.wcbh.rules.sheet import WcbhCharacter

if TYPE_CHECKING:
    from systems.wcbh.commands import Wcbh

AREA = "ground"  # the system's state on the scene: the ground (Ruleset.scene_states)


def _movement_rank(mover: Sheeted, power: str | None) -> int | None:
    """WCBH-26: the rank of the movement Power the move names (it must be on the sheet)."""
    if power is None:
        return None
    form = unwrap(mover.sheet)
    powers = form.powers if isinstance(form, WcbhCharacter) else {}
    for name, found in powers.items():
        if name.casefold() == power.casefold():
            return found.rank
    raise InvalidInput(f"{mover.name} has no Power {power!r}", field="power", rule="WCBH-26")


class Ground(Part):
    """The fight's ground (the `ground` part of the system: `app.system(Wcbh).ground`)."""

    system: Wcbh

    @command
    def set_range(self, ctx: CommandContext, scene_id: UUID, body: RangeSet) -> Outcome:
        """WCBH-26: the GM says how far apart two characters are (the range classes are the
        table's picture of the ground; open terrain and fast Powers crossing 2-3 classes a page
        are its call too)."""
        turn = self.system.turn(ctx, scene_id, gm=True)
        first = turn.character(body.first_id, "first_id")
        second = turn.character(body.second_id, "second_id")
        fight_rules.check_other(first.id, second.id, "a range is between two", "second_id")
        rules.check_range(body.range)
        details = {
            "first_id": first.key,
            "second_id": second.key,
            "range": body.range,
            "moving": None,
            "what": f"{first.name} and {second.name} at {body.range} range: {body.reason}",
        }
        turn.scene.change_state(WCBH, AREA, rules.RANGE, details)
        return turn.save()

    @command
    def move_range(self, ctx: CommandContext, scene_id: UUID, body: RangeMoveCreate) -> Outcome:
        """WCBH-25, 26: the character's one move of the page, towards or away from another: one
        range class, in two pages (under way after the first), or in one with a movement Power of
        rank 6+. Not held (WCBH-40), not after a 3+ maneuver (WCBH-41), not with a lost turn."""
        turn = self.system.turn(ctx, scene_id)
        scene = turn.scene
        mover = turn.acting(body.character_id)
        other = turn.character(body.other_id, "other_id")
        fight_rules.check_other(mover.id, other.id, "a move is towards someone else", "other_id")
        fight_rules.check_in_the_fight(mover.name, mover.character.status)
        page = _page_of(scene, mover.id)
        _check_turn(page, mover.character)
        conditions = _conditions_of(scene, mover.character)
        fight_rules.check_not_held(mover.name, conditions)
        immobile = any(c.get("cannot_move") for c in conditions.values())
        try:
            page.state = replace(page.state, immobile=immobile).move()
        except InvalidInput as exc:
            raise fight_rules.refused(exc) from None
        entry = rules.move(
            ground_of(scene)["ranges"],
            mover.key,
            other.key,
            body.to,
            movement_rank=_movement_rank(mover, body.power),
            page=scene.page,
        )
        done = entry["moving"] is None
        what = f"{mover.name} {'reaches' if done else 'is on the way to'} {body.to} range of {other.name}"
        _save_page(scene, mover.id, page, f"moves ({body.to} of {other.name})")
        details = {"first_id": mover.key, "second_id": other.key, **entry, "what": what}
        scene.change_state(WCBH, AREA, rules.RANGE, details)
        return turn.save(result=PageShown(mover.id))

    @command
    def set_situation(self, ctx: CommandContext, scene_id: UUID, body: SituationSet) -> Outcome:
        """WCBH-30: the GM's call ("по усмотрению Мастера") on a character's cover or poor
        visibility (0..3) and its size; every attack on it from then on in the scene gets the dice
        (its request's `situation`)."""
        turn = self.system.turn(ctx, scene_id, gm=True)
        who = turn.character(body.character_id)
        details = {
            "character_id": who.key,
            "cover": body.cover,
            "size": body.size,
            "reason": body.reason,
        }
        turn.scene.change_state(WCBH, AREA, rules.SITUATION, details)
        return turn.save()

    @command
    def pass_rest_days(self, ctx: CommandContext, scene_id: UUID, body: RestDaysCreate) -> Outcome:
        """WCBH-34: the GM records a day that passes for these characters after rest (or of
        nothing but rest, `whole_day`): each may make one more recovery check for it (at
        difficulty 1 after a whole day of rest). The service keeps no clock of its own."""
        turn = self.system.turn(ctx, scene_id, gm=True)
        who = [turn.character(c, "character_ids").key for c in dict.fromkeys(body.character_ids)]
        details = {"character_ids": who, "whole": body.whole_day, "reason": body.reason}
        turn.scene.change_state(WCBH, "rest", rest.DAY, details)
        return turn.save()
