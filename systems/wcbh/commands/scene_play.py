"""Help, group checks, contests, chases, recovery and what happens to effects (WCBH-10..14, 27, 34, 37..39).

Every roll here is a fair, audited roll record of the ruleset's `trait` check, made through
`RollCommands.roll_check`; what a rule adds to a roll (help dice, a contest or chase win, half a
trait on foot) goes into that roll's request, so the record recomputes offline. The state of group
checks, contests and chases lives on the Scene; recovery and effects on the Character; effects
extended past their scene (WCBH-38) are booked on the game Issue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from domain.aggregates import Character, Issue, Roll
from domain.commands import CommandContext, Outcome, command
from domain.components import IssueBoundary, PageBoundary, Part, SceneBoundary, Sheeted, Turn
from domain.rolls import declared_by
from domain.rulesets.base import CheckOutcome, form_of, parse_request
from systems.wcbh.requests import (
    AssistedRollCreate,
    BackInTheFightCreate,
    ChaseCheckCreate,
    ChaseCreate,
    ContestCreate,
    ExtensionCreate,
    GroupCheckCreate,
    HandoverCreate,
    PlayRollCreate,
    RecoveryCreate,
    ShakeOffCreate,
)
from systems.wcbh.rules import play_state
from systems.wcbh.rules import scene_play as rules
from systems.wcbh.rules.checks import TraitRequest, trait_rank
from systems.wcbh.rules.combat import recover, recovery_difficulty
from systems.wcbh.rules.effects import Effect, come_back, extend_effect, shake_off
from systems.wcbh.rules.play import HELP_DIFFICULTY, best_help, help_bonus
from systems.wcbh.rules.pools import halve
from systems.wcbh.rules.rest import DAY_USED, day_to_use
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

if TYPE_CHECKING:
    from systems.wcbh.commands import Wcbh

TRAIT = "trait"
BACK_IN_THE_FIGHT = "back_in_the_fight"  # the scene's once-per-scene key (WCBH-39)
RECOVERY = "recovery"  # the scene's once-per-scene key (WCBH-34 ruling)
PLAY = "play"  # the system's state on the scene: group checks, contests, chases
REST = "rest"  # the system's state on the scene: the days of rest the GM records (WCBH-34)


# ---- what the commands tell their presenters ----------------------------------------------------


@dataclass(frozen=True)
class HelpRoll:
    """One helper's roll (WCBH-10) and the dice it is worth."""

    character_id: UUID
    roll_id: UUID
    successes: int
    net: int
    bonus: int


@dataclass(frozen=True)
class Assisted:
    """The helpers' rolls of an assisted roll, and the dice the best of them added."""

    helpers: tuple[HelpRoll, ...]
    bonus: int


@dataclass(frozen=True)
class PlayStateChanged:
    """Which group check, contest or chase a command changed, and the roll it made, if any."""

    state_id: UUID
    roll: Roll | None = None


@dataclass(frozen=True)
class Recovery:
    """A recovery roll (WCBH-34), with the Health before it and the maximum."""

    roll: Roll
    health_before: int
    max_health: int


@dataclass(frozen=True)
class ShakenOff:
    """A roll to shake off an effect (WCBH-37), with its pages before."""

    roll: Roll
    effect: str
    pages_before: int


class ScenePlay(Part):
    """The commands of scene play, an area of the We Can Be Heroes system (`Wcbh.play`)."""

    system: Wcbh

    # ---- WCBH-10: help ------------------------------------------------------------------------

    @command
    def assisted_roll(
        self, ctx: CommandContext, scene_id: UUID, body: AssistedRollCreate
    ) -> Outcome:
        """WCBH-10: each helper rolls its trait at difficulty 2 (a roll record each); the helped
        character's roll gets +1 die per 2 net successes of the best helper, in its modifier."""
        turn = self.system.turn(ctx, scene_id)
        helped = turn.acting(body.character_id)
        req = _trait_request(body.request)
        rules.check_helpers([h.character_id for h in body.helpers], helped.id)
        helping = [(turn.acting(h.character_id, "helpers"), h.trait) for h in body.helpers]
        touched: list[Any] = []
        rows = []
        for helper, trait in helping:
            purpose = f"helps {helped.name} (WCBH-10): {req.purpose}"[:2000]
            asked = {"trait": trait, "difficulty": HELP_DIFFICULTY, "purpose": purpose}
            outcome, made = _roll(turn, helper, asked, None, touched)
            rows.append(_help_row(helper, made[0], outcome))
            touched.extend(made)
        bonus = best_help(row.successes for row in rows)
        raw = _raw(req, modifier=req.modifier + bonus)
        _, made = _roll(turn, helped, raw, body.client_seed, touched, declared=req)
        return turn.save(*made, *touched, result=Assisted(tuple(rows), bonus))

    # ---- WCBH-11: group checks ----------------------------------------------------------------

    @command
    def open_group_check(
        self, ctx: CommandContext, scene_id: UUID, body: GroupCheckCreate
    ) -> Outcome:
        """WCBH-11: the GM, or a player with a character in it, opens a group check."""
        turn = self.system.turn(ctx, scene_id)
        members = [turn.character(c, "participants") for c in body.participants]
        _check_starter(turn, members)
        rules.check_open(turn.scene.closed)
        play_state.check_group(body.participants)
        # Every participant rolls at this difficulty: a player who opens the check declares it,
        # so it follows player_modifiers (refused, trusted, or waiting for the GM) like a
        # roll's own, and each roll's record says who set it.
        declared = declared_by({"difficulty": body.difficulty})
        set_by = self.app.modifiers_of(turn.actor, turn.settings, turn.scene, None, declared)
        group_id = uuid4()
        ids = {"group_id": str(group_id), "participants": [str(c.id) for c in members]}
        details: dict[str, Any] = {"difficulty": body.difficulty, "purpose": body.purpose}
        if set_by:
            details["difficulty_set_by"] = set_by
        _change(turn, "GroupCheckOpened", ids, **details)
        return turn.save(result=PlayStateChanged(group_id))

    @command
    def group_check_roll(
        self, ctx: CommandContext, scene_id: UUID, group_id: UUID, body: PlayRollCreate
    ) -> Outcome:
        """WCBH-11: one participant's own roll, at the group check's difficulty."""
        turn = self.system.turn(ctx, scene_id)
        roller = turn.acting(body.character_id)
        group = play_state.group_to_roll(_play(turn), group_id, roller.key)
        req = _trait_request(body.request)
        asked = req.difficulty if "difficulty" in body.request else None
        rules.check_group_difficulty(asked, group)
        raw = _raw(req, difficulty=group["difficulty"])
        # the group's difficulty is whoever opened it (WCBH-11; `difficulty_set_by`, recorded on
        # each roll): only the roller's modifier is its own
        own = req.model_copy(update={"difficulty": 0})
        earlier = tuple(group.get("difficulty_set_by", ()))
        outcome, made = _roll(
            turn, roller, raw, body.client_seed, [], declared=own, earlier_modifiers=earlier
        )
        successes = outcome.result["successes"]
        state = ("group_id", group_id)
        return _roll_recorded(turn, "GroupCheckRolled", state, roller, made, successes=successes)

    @command
    def hand_over_successes(
        self, ctx: CommandContext, scene_id: UUID, group_id: UUID, body: HandoverCreate
    ) -> Outcome:
        """WCBH-11: after seeing the rolls, the giver's owner (or the GM) hands successes above 3
        to another participant."""
        turn = self.system.turn(ctx, scene_id)
        turn.acting(body.giver_id, "giver_id")
        rules.check_open(turn.scene.closed)
        giver, receiver = str(body.giver_id), str(body.receiver_id)
        play_state.check_handover(_play(turn), group_id, giver, receiver, body.successes)
        ids = {"group_id": str(group_id), "giver_id": giver, "receiver_id": receiver}
        _change(turn, "SuccessesHandedOver", ids, successes=body.successes)
        return turn.save(result=PlayStateChanged(group_id))

    # ---- WCBH-12: contests --------------------------------------------------------------------

    @command
    def start_contest(self, ctx: CommandContext, scene_id: UUID, body: ContestCreate) -> Outcome:
        """WCBH-12: the GM, or the owner of a side, starts a contest of `rolls` rolls."""
        turn = self.system.turn(ctx, scene_id)
        sides = [turn.character(body.first_id, "first_id")]
        sides.append(turn.character(body.second_id, "second_id"))
        _check_starter(turn, sides)
        rules.check_open(turn.scene.closed)
        first, second = str(body.first_id), str(body.second_id)
        play_state.check_contest(first, second, body.rolls)
        contest_id = uuid4()
        ids = {"contest_id": str(contest_id), "first_id": first, "second_id": second}
        _change(turn, "ContestStarted", ids, rolls=body.rolls, purpose=body.purpose)
        return turn.save(result=PlayStateChanged(contest_id))

    @command
    def contest_roll(
        self, ctx: CommandContext, scene_id: UUID, contest_id: UUID, body: PlayRollCreate
    ) -> Outcome:
        """WCBH-12: one side's roll of the current round, +2 dice if it won the previous one."""
        turn = self.system.turn(ctx, scene_id)
        roller = turn.acting(body.character_id)
        bonus = play_state.contest_bonus(_play(turn), contest_id, roller.key)
        req = _trait_request(body.request)
        raw = _raw(req, modifier=req.modifier + bonus)
        outcome, made = _roll(turn, roller, raw, body.client_seed, [], declared=req)
        successes = outcome.result["successes"]
        decided, winner = play_state.contest_round(_play(turn), contest_id, roller.key, successes)
        result = {"successes": successes, "bonus": bonus, "decided": decided, "winner": winner}
        state = ("contest_id", contest_id)
        return _roll_recorded(turn, "ContestRolled", state, roller, made, **result)

    # ---- WCBH-27: chases ----------------------------------------------------------------------

    @command
    def start_chase(self, ctx: CommandContext, scene_id: UUID, body: ChaseCreate) -> Outcome:
        """WCBH-27: the GM, or a player with a character in it, starts a chase: pursuers, each
        after one target, at a range class."""
        turn = self.system.turn(ctx, scene_id)
        pairs = [(p.pursuer_id, p.target_id) for p in body.pairs]
        everyone = [turn.character(c, "pairs") for pair in pairs for c in pair]
        _check_starter(turn, everyone)
        rules.check_open(turn.scene.closed)
        play_state.check_chase(pairs, body.range)
        chase_id = uuid4()
        rows = [{"pursuer": str(p), "target": str(t)} for p, t in pairs]
        _change(
            turn, "ChaseStarted", {"chase_id": str(chase_id), "pairs": rows}, distance=body.range
        )
        return turn.save(result=PlayStateChanged(chase_id))

    @command
    def chase_check(
        self, ctx: CommandContext, scene_id: UUID, chase_id: UUID, body: ChaseCheckCreate
    ) -> Outcome:
        """WCBH-27: a participant's chase check of this page (Agility or a movement Power; not an
        action): half the trait on foot with only Agility against a faster Power, +2 dice after
        winning; a pair is decided once both of its sides have rolled in the page."""
        turn = self.system.turn(ctx, scene_id)
        roller = turn.acting(body.character_id)
        bonus = play_state.chase_bonus(_play(turn), chase_id, roller.key, turn.scene.page)
        req = _trait_request(body.request)
        on_foot = body.on_foot_against_faster
        rules.check_chase_check(body.shift, req.trait, on_foot=on_foot)
        halved = 0
        if on_foot:
            _, rank = trait_rank(req, form_of(roller.sheet, WcbhCharacter, WcbhMinion))
            halved = rank - halve(rank)
        raw = _raw(req, modifier=req.modifier + bonus - halved)
        seed = body.client_seed
        outcome, made = _roll(turn, roller, raw, seed, [], action=False, declared=req)
        return _chase_checked(turn, chase_id, roller, made, outcome, bonus, body.shift)

    # ---- WCBH-34: recovery --------------------------------------------------------------------

    @command
    def recover_health(self, ctx: CommandContext, scene_id: UUID, body: RecoveryCreate) -> Outcome:
        """WCBH-34: a Stamina check at difficulty 2 (1 after a whole day of rest) restores 1 Health
        per net success, never above the maximum: once per character per scene after the fight
        (ruling), again for each day of rest the GM recorded (rest.day_to_use); difficulty 1 spends
        a recorded whole day of nothing but rest."""
        turn = self.system.turn(ctx, scene_id)
        roller = turn.acting(body.character_id)
        character, rested = roller.character, body.rested_whole_day
        used = character.id in turn.scene.uses.get(RECOVERY, [])
        days = turn.scene.state(turn.rules.id, REST)["days"].get(str(character.id), [])
        day = day_to_use(days, whole=rested, recovered_here=used, name=character.name)
        rest = "after a whole day of rest" if rested else "after the fight"
        raw = {
            "trait": "Stamina",
            "difficulty": recovery_difficulty(rested_whole_day=rested),
            "purpose": f"recovery {rest} (WCBH-34)",
        }
        # A whole day of rest lowers the difficulty (WCBH-34): the roller's claim, so it follows
        # player_modifiers like a declared modifier, and the record says who made it; the day itself
        # must be one the GM recorded (day_to_use above).
        claim = declared_by({"rested_whole_day": rested})
        earlier = tuple(
            self.app.modifiers_of(turn.actor, turn.settings, turn.scene, character, claim)
        )
        outcome, made = _roll(
            turn, roller, raw, body.client_seed, [], action=False, earlier_modifiers=earlier
        )
        if not used:
            turn.scene.use_once(RECOVERY, character.id, "WCBH-34", exclusive=False)
        if day is not None:
            details = {"character_id": str(character.id), "index": day}
            turn.scene.change_state(turn.rules.id, REST, DAY_USED, details)
        before = character.resources.get("health", 0)
        maximum = _max_health(turn, roller)
        health = recover(before, maximum, outcome.result["successes"], rested_whole_day=rested)
        if max(health, before) != before:  # a character above its maximum keeps what it has
            character.recover(health, made[0].id, turn.scene.id)
        return turn.save(character, *made, result=Recovery(made[0], before, maximum))

    # ---- WCBH-37: shaking off an effect -------------------------------------------------------

    @command
    def shake_off_effect(
        self, ctx: CommandContext, scene_id: UUID, body: ShakeOffCreate
    ) -> Outcome:
        """WCBH-37: the affected character rolls as the power says (trait and difficulty in the
        request); success takes half its net successes (rounded up) off the pages left; at 0 the
        effect ends and the character is free to act this page."""
        turn = self.system.turn(ctx, scene_id)
        roller = turn.acting(body.character_id)
        character, effect = roller.character, body.effect
        current = rules.effect_on(character.effects, effect, character.name)
        rules.check_shakeable(current, character.name)
        req = _trait_request(body.request)
        raw = _raw(req, purpose=req.purpose or f"shake off {effect} (WCBH-37)")
        seed = body.client_seed
        outcome, made = _roll(turn, roller, raw, seed, [], action=False, declared=req)
        left = shake_off(current, outcome.result["net"])
        pages = left.pages if left is not None else 0
        if pages != current.pages:
            character.shake_off_effect(effect, pages, made[0].id, turn.scene.id)
        return turn.save(character, *made, result=ShakenOff(made[0], effect, current.pages))

    # ---- WCBH-38: extending an effect ---------------------------------------------------------

    @command
    def extend_effect_past_scene(
        self, ctx: CommandContext, scene_id: UUID, body: ExtensionCreate
    ) -> Outcome:
        """WCBH-38: 1 Resolve of `character_id` in this scene extends `effect` on the defeated
        `target_id` to the end of the next scene of this game Issue; once per scene per effect."""
        turn = self.system.turn(ctx, scene_id)
        scene, effect = turn.scene, body.effect
        rules.check_open(scene.closed)
        spender = turn.acting(body.character_id).character
        target = turn.character(body.target_id, "target_id").character
        rules.check_opponent(target.id == spender.id)
        current = rules.effect_on(target.effects, effect, target.name)
        rules.check_defeated(target.status == "defeated", target.name)
        extend_effect(Effect(current.name, current.pages, whole_scene=True))
        issue = self.app.get(turn.actor, Issue, scene.issue_id)
        target.extend_effect(effect, scene.id, spender.id)
        issue.book_extension(target.id, effect, scene.id)
        spender.spend({"resolve": 1}, reason=f"extend {effect} on {target.name} (WCBH-38)")
        return turn.save(target, spender, issue)

    # ---- WCBH-39: back in the fight -----------------------------------------------------------

    @command
    def back_in_the_fight(
        self, ctx: CommandContext, scene_id: UUID, body: BackInTheFightCreate
    ) -> Outcome:
        """WCBH-39: 1 Resolve: on the page after its defeat by damage the character wakes with 3
        Health (`come_back`), or it is rid of a special effect from the next page (`drop_effect`);
        either once per scene per character."""
        turn = self.system.turn(ctx, scene_id)
        scene = turn.scene
        rules.check_open(scene.closed)
        sheeted = turn.acting(body.character_id)
        character = sheeted.character
        used = character.id in scene.uses.get(BACK_IN_THE_FIGHT, [])
        rules.check_once_in_scene(used, character.name, BACK_IN_THE_FIGHT)
        rules.check_use(body.use, body.effect)
        if body.effect is None:  # come_back
            character.come_back(_come_back(turn, sheeted), scene.id, scene.page)
            what = "come back with 3 Health"
        else:
            rules.effect_on(character.effects, body.effect, character.name)
            character.declare_effect_drop(body.effect, scene.id, scene.page)
            what = f"be rid of {body.effect} from the next page"
        scene.use_once(BACK_IN_THE_FIGHT, character.id, "WCBH-39", exclusive=False)
        character.spend({"resolve": 1}, reason=f"back in the fight: {what} (WCBH-39)")
        return turn.save(character, scene)

    # ---- boundaries (told by Wcbh) ------------------------------------------------------------

    def page_advanced(self, at: PageBoundary) -> None:
        """WCBH-39: effects declared dropped on the last page are gone."""
        scene = at.scene
        for character_id in scene.uses.get(BACK_IN_THE_FIGHT, []):
            character = at.loaded.character(self.app, at.actor, character_id)
            character.drop_declared_effects(scene.id, scene.page)

    def scene_closed(self, at: SceneBoundary) -> None:
        """WCBH-38: an effect extended in this scene outlives it (defeated through the next scene
        of the game Issue); one carried into this scene from the one before ends with it."""
        if at.issue.ended:
            return  # the game Issue's end ends them all (issue_ended)
        for entry in at.issue.extended_effects:
            from_scene = UUID(entry["scene_id"])
            if from_scene == at.scene.id:
                self._carry(at, UUID(entry["character_id"]), entry["effect"])
            elif at.issue.scene_after(from_scene) == at.scene.id:
                character = at.loaded.character(self.app, at.actor, UUID(entry["character_id"]))
                name = entry["effect"]
                if character.effects.get(name, {}).get("carried_from") == str(from_scene):
                    character.end_carried_effect(name, at.scene.id)

    def _carry(self, at: SceneBoundary, character_id: UUID, name: str) -> None:
        """WCBH-38: an effect extended in the closing scene goes on into the next one."""
        scene, issue = at.scene, at.issue
        stored = self.app.get(at.actor, Character, character_id)  # as it was before this close
        if stored.effects.get(name, {}).get("extended_in") != str(scene.id):
            return  # shaken off or dropped before the scene closed
        character = at.loaded.character(self.app, at.actor, character_id)
        after = issue.scene_after(scene.id)
        if after is not None and after not in issue.open_scene_ids:
            character.end_carried_effect(name, scene.id)  # its next scene is over too
        else:
            character.carry_effect(name, scene.id)

    def issue_ended(self, at: IssueBoundary) -> None:
        """WCBH-38 ruling: the end of the game Issue ends every extended effect."""
        for entry in at.issue.extended_effects:
            character = at.loaded.character(self.app, at.actor, UUID(entry["character_id"]))
            found = character.effects.get(entry["effect"])
            if found is not None and (found.get("carried_from") or found.get("extended_in")):
                character.end_carried_effect(entry["effect"], None)


# ---- helpers ------------------------------------------------------------------------------------


def _play(turn: Turn) -> dict[str, Any]:
    """Scene play's state on the turn's scene: group checks, contests, chases by id."""
    return turn.scene.state(turn.rules.id, PLAY)


def _change(turn: Turn, change: str, ids: dict[str, Any], **details: Any) -> None:
    turn.scene.change_state(turn.rules.id, PLAY, change, {**ids, **details})


def _chase_checked(
    turn: Turn,
    chase_id: UUID,
    roller: Sheeted,
    made: list[Roll],
    outcome: CheckOutcome,
    bonus: int,
    shift: int | None,
) -> Outcome:
    """WCBH-27: the check is recorded with the pairs it decided."""
    page, who, successes = turn.scene.page, roller.key, outcome.result["successes"]
    results = play_state.chase_results(_play(turn), chase_id, who, successes, shift, page)
    check = {"successes": successes, "bonus": bonus, "shift": shift, "results": results}
    return _roll_recorded(turn, "ChaseChecked", ("chase_id", chase_id), roller, made, **check)


def _roll_recorded(
    turn: Turn,
    change: str,
    state: tuple[str, UUID],
    roller: Sheeted,
    made: list[Roll],
    **details: Any,
) -> Outcome:
    """A participant's roll in a group check, contest or chase (WCBH-11, 12, 27): the change
    names the state (`state`: its id field and id), the roller and the roll, and the scene is
    saved with the rolls."""
    field, state_id = state
    ids = {field: str(state_id), "character_id": roller.key, "roll_id": str(made[0].id)}
    _change(turn, change, ids, **details)
    return turn.save(turn.scene, *made, result=PlayStateChanged(state_id, made[0]))


def _check_starter(turn: Turn, characters: list[Sheeted]) -> None:
    actor = turn.actor
    owns_one = any(c.character.owner_member_id == actor.member_id for c in characters)
    rules.check_starter(is_gm=actor.is_gm, is_player=actor.role == "player", owns_one=owns_one)


def _trait_request(request: Mapping[str, Any]) -> TraitRequest:
    req = parse_request(TraitRequest, request, "request")
    rules.check_trait_named(req.trait, req.pool)
    return req


def _help_row(helper: Sheeted, roll: Roll, outcome: CheckOutcome) -> HelpRoll:
    successes = outcome.result["successes"]
    net = outcome.result["net"]
    return HelpRoll(helper.id, roll.id, successes, net, help_bonus(successes))


def _max_health(turn: Turn, sheeted: Sheeted) -> int:
    return int(turn.rules.resources(sheeted.sheet, turn.settings)["health"]["max"])


def _come_back(turn: Turn, sheeted: Sheeted) -> int:
    """WCBH-39: the Health a character defeated by damage on the page before wakes with."""
    character, scene = sheeted.character, turn.scene
    health = character.resources.get("health", 0)
    defeated_on_page = rules.check_come_back(
        character.name,
        defeated=character.status == "defeated",
        health=health,
        defeated_at=character.defeated_at,
        scene_id=scene.id,
        page=scene.page,
    )
    maximum = _max_health(turn, sheeted)
    return come_back(
        health, maximum, defeated_on_page=defeated_on_page, page=scene.page, used_this_scene=False
    )


def _roll(
    turn: Turn,
    roller: Sheeted,
    request: Mapping[str, Any],
    client_seed: str | None,
    earlier: list[Any],
    *,
    action: bool = True,
    declared: TraitRequest | None = None,
    earlier_modifiers: tuple[dict[str, Any], ...] = (),
) -> tuple[CheckOutcome, list[Any]]:
    """One trait roll; a command's later rolls link to the chain its earlier ones did. Chases,
    recovery and shaking off are no actions of the page (`action` False, WCBH-25).
    `declared`: the roller's own request, whose modifier and difficulty follow
    player_modifiers (what the rule adds, help or a contest win, is not the roller's); `earlier_modifiers`:
    modifier entries of numbers decided before the roll (a group check's difficulty)."""
    chain = earlier[1] if len(earlier) > 1 else None
    own = None
    if declared is not None:
        own = {"modifier": declared.modifier, "difficulty": declared.difficulty}
    return turn.roll(
        TRAIT,
        request,
        roller,  # with the sheet the turn parsed already
        client_seed,
        chain=chain,
        action=action,
        declared=None if own is None else declared_by(own, "request"),
        earlier_modifiers=earlier_modifiers,
    )


def _raw(req: TraitRequest, **changes: Any) -> dict[str, Any]:
    """The request as sent (server-filled fields left to the server) with the rule's changes."""
    raw = req.model_dump(mode="json", exclude_defaults=True)
    raw.update(changes)
    return {k: v for k, v in raw.items() if v is not None}
