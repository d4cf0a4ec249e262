"""The page's actions and the attack maneuvers of We Can Be Heroes (WCBH-25, WCBH-40..47).

Each character's page state (WCBH-25: declared and used actions, targets, its move, a lost turn,
halved defences) lives on the Scene and starts afresh when the page advances; a lost turn of the
next page waits there too. Maneuver penalties and holds live on the Character as conditions.
The dice a page and conditions add to a roll are written into the roll's request, so that the
roll record recomputes from itself alone (docs/fair-dice.md). The refusals that depend only on
the rules and the state are in systems/wcbh/rules/fight.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Character, Roll, RollChain, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import PageBoundary, Part, SceneBoundary, Sheeted, Turn
from domain.errors import InvalidInput
from domain.rolls import CheckRoll, Declared, declared_by
from domain.rulesets.base import ATTACK_CHECK, Check, CheckOutcome, unwrap
from systems.wcbh.requests import (
    AmbushCreate,
    AreaAttackCreate,
    AreaTargetIn,
    DeclarationCreate,
    DelayCreate,
    EffectRulingCreate,
    FightAttackCreate,
    GrappleCreate,
    KnockbackCreate,
    ManeuverCreate,
    MomentCreate,
    MoveCreate,
    OrderOverrideCreate,
    RedirectCreate,
    TeamAttackCreate,
    TeamAttackerIn,
    TurnPassCreate,
)
from systems.wcbh.rules import fight as rules
from systems.wcbh.rules import ground
from systems.wcbh.rules.attack import defence_options, is_minion, rank_of
from systems.wcbh.rules.combat import Defence, PageState
from systems.wcbh.rules.effects import EFFECT_LIMITS, defeating_effects, effect_forbidding
from systems.wcbh.rules.fight_state import FOLLOWED_UP, PAGE_STATE
from systems.wcbh.rules.initiative import (
    Order,
    check_turn_order,
    knocked_out_together,
    moment_matches,
    now_acting,
)
from systems.wcbh.rules.maneuvers import Knockback, Redirect, knockback, redirect, team_attack
from systems.wcbh.rules.sheet import limited_power

if TYPE_CHECKING:
    from systems.wcbh.commands import Wcbh

WCBH = "wcbh"
AREA = "fight"  # the system's state on the scene: the fight (Ruleset.scene_states)

STATE_FIELDS = (
    "declared",
    "used",
    "moved",
    "lost_turn",
    "immobile",
    "all_out_defence",
    "halve_active",
    "halve_passive",
)


# ---- what the commands tell their presenters ----------------------------------------------------


@dataclass(frozen=True)
class PageShown:
    """declare_actions, move: whose page the response shows."""

    character_id: UUID


@dataclass(frozen=True)
class TeamRolled:
    """team_attack: each attacker's roll, in team order (WCBH-47)."""

    rolls: tuple[UUID, ...]


@dataclass(frozen=True)
class AttackFollowed:
    """knockback, redirect: the attack roll they followed (its entry on the scene says what)."""

    roll_id: UUID


@dataclass
class CharacterPage:
    """One character's page, as loaded: the library's PageState and what it does not hold: the
    rule that took the turn, no active defence (WCBH-42), defending an ally (WCBH-44)."""

    state: PageState
    lost_rule: str | None = None
    passive_only: bool = False
    defending: bool = False
    # WCBH-22..24, the order of action: its turn given up, its action delayed to a declared
    # moment (and whether the moment came), the GM letting it act out of order (why).
    passed: bool = False
    delayed_to: str | None = None
    delay_came: bool = False
    gm_override: str | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any], character_id: UUID) -> CharacterPage:
        fields = {name: raw[name] for name in STATE_FIELDS if name in raw}
        state = PageState(str(character_id), attacked=frozenset(raw.get("attacked", ())), **fields)
        return cls(
            state,
            raw.get("lost_rule"),
            bool(raw.get("passive_only", False)),
            bool(raw.get("defending", False)),
            bool(raw.get("passed", False)),
            raw.get("delayed_to"),
            bool(raw.get("delay_came", False)),
            raw.get("gm_override"),
        )

    def dump(self) -> dict[str, Any]:
        raw: dict[str, Any] = {name: getattr(self.state, name) for name in STATE_FIELDS}
        raw["attacked"] = sorted(self.state.attacked)
        raw.update(
            lost_rule=self.lost_rule, passive_only=self.passive_only, defending=self.defending
        )
        if self.passed or self.delayed_to is not None or self.gm_override is not None:
            # only when set: page states written before the order was enforced stay as they were
            raw.update(
                passed=self.passed,
                delayed_to=self.delayed_to,
                delay_came=self.delay_came,
                gm_override=self.gm_override,
            )
        return raw

    def turn_over(self, character: Character) -> bool:
        """WCBH-22..24: its turn of the page is over or skipped, so the order moves past it: its
        declared actions taken, passed, a lost turn, all-out defence (no actions), out of the
        fight or unconscious, an effect that keeps it from acting (WCBH-37), or waiting for the
        moment it delayed to (WCBH-23)."""
        state = self.state
        return (
            state.used >= state.declared
            or self.passed
            or state.lost_turn
            or state.all_out_defence
            or character.status != "active"
            or character.unconscious
            or effect_forbidding(character.effects, character.effect_rulings, "may_act") is not None
            or (self.delayed_to is not None and not self.delay_came)
        )


@dataclass(frozen=True)
class TurnFacts:
    """WCBH-22..24: the page's order of action and where it stands."""

    order: Order
    done: frozenset[str]
    called: tuple[str, ...]

    @property
    def now(self) -> tuple[str, ...]:
        return now_acting(self.order, self.done, self.called)


def turn_facts(
    scene: Scene, order: list[list[UUID]] | None, load: Callable[[UUID], Character]
) -> TurnFacts:
    """Who is done and whose delayed moment came, over the fight's order (`order` None: no fight)."""
    groups: Order = tuple(tuple(str(c) for c in group) for group in order or [])
    done, called = set(), []
    for group in groups:
        for key in group:
            page = _page_of(scene, UUID(key))
            if page.turn_over(load(UUID(key))):
                done.add(key)
            elif page.delay_came:
                called.append(key)
    return TurnFacts(groups, frozenset(done), tuple(called))


def ground_of(scene: Scene) -> dict[str, Any]:
    """The ranges and situations of the scene (systems/wcbh/rules/ground.py, commands/ground.py)."""
    return scene.state(WCBH, "ground")


def _situation(scene: Scene, attacker: UUID, target: UUID) -> int:
    """WCBH-30: the dice the GM's cover and sizes give an attack on the target."""
    return ground.situation_dice(ground_of(scene)["situations"], str(attacker), str(target))


def _reaches(scene: Scene, attacker: UUID, target: UUID, what: str) -> None:
    """WCBH-26: a grab, a charge or a bash needs the foe within Close (where the GM set a range)."""
    ground.check_contact(ground_of(scene)["ranges"], str(attacker), str(target), what)


def _fight_state(scene: Scene) -> dict[str, Any]:
    """The fight's state on the scene (systems/wcbh/rules/fight_state.py)."""
    return scene.state(WCBH, AREA)


def attack_follow_ups(scene: Scene) -> dict[str, dict[str, Any]]:
    """What followed the scene's attack rolls (a knockback, a redirect), by roll id."""
    follow_ups: dict[str, dict[str, Any]] = _fight_state(scene)["follow_ups"]
    return follow_ups


def _page_of(scene: Scene, character_id: UUID, *, next_page: bool = False) -> CharacterPage:
    states = _fight_state(scene)["next_page" if next_page else "page"]
    return CharacterPage.of(states.get(str(character_id), {}), character_id)


def _save_page(
    scene: Scene, character_id: UUID, page: CharacterPage, change: str, *, next_page: bool = False
) -> None:
    """WCBH-25: the character's page state (this page, or what the next one starts with)."""
    details = {
        "character_id": str(character_id),
        "page": scene.page + (1 if next_page else 0),
        "state": page.dump(),
        "what": change,
    }
    scene.change_state(WCBH, AREA, PAGE_STATE, details)


def _followed_up(scene: Scene, roll_id: UUID, kind: str, by: UUID, details: dict[str, Any]) -> None:
    """WCBH-45, 46: a knockback or a redirect after an attack roll, once per roll."""
    rules.check_not_followed_up(attack_follow_ups(scene).get(str(roll_id)))
    followed = {"roll_id": str(roll_id), "kind": kind, "character_id": str(by)}
    scene.change_state(WCBH, AREA, FOLLOWED_UP, {**followed, "details": details})


def _lose_next_turn(scene: Scene, character_id: UUID, rule: str, why: str) -> int:
    """The character cannot act on the next page (knockback WCBH-45, a 5+ maneuver WCBH-41,
    a redirect at someone WCBH-46, dodging an area attack WCBH-43, defending others WCBH-44).
    Ruling: "its next turn" is the next page (the source's word for both is "ход")."""
    nxt = _page_of(scene, character_id, next_page=True)
    nxt.state = replace(nxt.state, lost_turn=True)
    nxt.lost_rule = nxt.lost_rule or rule
    _save_page(scene, character_id, nxt, f"loses its next turn: {why}", next_page=True)
    return scene.page + 1


def _check_turn(page: CharacterPage, character: Character) -> None:
    rules.check_turn(character.name, page.state.lost_turn, page.lost_rule)


def _taken(state: PageState, targets: Sequence[UUID], maneuver: str | None) -> PageState:
    """WCBH-25: the page after one action on `targets` (none: an action on no one)."""
    try:
        if not targets:
            return state.act()
        first = str(targets[0])
        if maneuver == "charge":
            state = state.charge(first)
        elif maneuver == "all_out":
            state = state.all_out_attack(first)
        else:
            state = state.attack(first)
        for target in targets[1:]:
            rules.check_already_attacked(state.attacked, str(target))
            state = replace(state, attacked=state.attacked | {str(target)})
        return state
    except InvalidInput as exc:
        raise rules.refused(exc) from None


def _act(
    scene: Scene,
    character: Character,
    targets: Sequence[UUID],
    change: str,
    maneuver: str | None = None,
    *,
    knocked_out_together: bool = False,
) -> None:
    """WCBH-25: one declared action on ``targets``; every target counts as attacked this page.
    ``maneuver``: a charge or all-out attack (WCBH-44). ``knocked_out_together``: defeated this
    page by a member of its simultaneous group, it still acts (WCBH-23)."""
    if not knocked_out_together:
        rules.check_in_the_fight(character.name, character.status)
    rules.check_free(character.name, character.effects, character.effect_rulings, "may_act")
    page = _page_of(scene, character.id)
    _check_turn(page, character)
    page.state = _taken(page.state, targets, maneuver)
    _save_page(scene, character.id, page, change)
    for target in targets:
        scene.record_attack(character.id, target)


# ---- dice the page and conditions add (WCBH-25, 41, 44) ------------------------------------------


def _conditions_of(scene: Scene, character: Character) -> dict[str, dict[str, Any]]:
    return {
        name: c
        for name, c in character.fight_conditions.items()
        if c.get("scene_id") == str(scene.id)
        and (c.get("until_page") is None or c["until_page"] >= scene.page)
    }


def _maneuver_penalty(scene: Scene, character: Character) -> int:
    """WCBH-41: a maneuver's −1..−3 on every roll of the character. Ruling: several
    maneuvers do not add up; the strongest counts."""
    penalties = [c.get("penalty", 0) for c in _conditions_of(scene, character).values()]
    return min([0, *penalties])


def _page_dice(scene: Scene, character: Character, *, defence: bool) -> int:
    state = _page_of(scene, character.id).state
    return state.dice_modifier(defence=defence) + _maneuver_penalty(scene, character)


def _as_target(scene: Scene, character: Character) -> dict[str, Any]:
    """The target's side of a request: its defence dice and defences halved by its own charge
    or all-out attack this page (WCBH-44)."""
    state = _page_of(scene, character.id).state
    return {
        "defence_modifier": _page_dice(scene, character, defence=True),
        "halve_active": state.halve_active,
        "halve_passive": state.halve_passive,
    }


def _defences(
    scene: Scene,
    target: Sheeted,
    active: Sequence[str] | None,
    *,
    field: str = "defences",
    redirect_declared: bool = False,
) -> list[Mapping[str, Any]]:
    """The defences the target may use against this roll (rules.defence_choices): passive only
    when ambushed (WCBH-42) or under an effect that forbids an active defence (WCBH-35)."""
    held = effect_forbidding(
        target.character.effects, target.character.effect_rulings, "may_defend_actively"
    )
    return rules.defence_choices(
        defence_options(target.sheet, active, field),
        passive_only=_page_of(scene, target.id).passive_only or held is not None,
        redirect_declared=redirect_declared,
    )


def _named_by_their_side(turn: Turn, defences: Sequence[str] | None, *targets: UUID) -> None:
    """WCBH-28: which active defences a target uses is its side's to say (its player or the GM),
    never the attacker's; unnamed, the rules count every defence its sheet has (the best wins)."""
    if defences is not None:
        for target in targets:
            turn.acting(target, "defences")


def _party(scene: Scene, who: Sheeted, defences: Sequence[str] | None) -> dict[str, Any]:
    """A club or a defending ally in an attack's request (WCBH-44)."""
    return {
        "character_id": who.key,
        "defences": _defences(scene, who, defences),
        "health": who.level("health"),
        "minion": is_minion(who.sheet),
        **_as_target(scene, who.character),
    }


def _rank(who: Sheeted, trait: str, field: str, rule: str) -> int:
    """A trait's rank; a minion rolls its threat for everything (WCBH-3)."""
    if is_minion(who.sheet):
        return int(unwrap(who.sheet).threat)  # type: ignore[attr-defined]
    return rank_of(who.sheet, trait, field, rule)


def _effects_shown(character: Character) -> list[dict[str, Any]]:
    """WCBH-35, 37: the character's special effects and what each lets it do (the GM's ruling,
    else the default: nothing)."""
    shown = []
    for name, effect in character.effects.items():
        ruled = character.effect_rulings.get(name)
        limits = {k: bool(ruled and ruled.get(k)) for k in EFFECT_LIMITS}
        shown.append({"name": name, **effect, **limits, "ruled_by_gm": ruled is not None})
    return shown


def _hit(character: Character, entry: Mapping[str, Any], roll_id: UUID, scene: Scene) -> None:
    if entry.get("damage") or entry.get("defeated"):
        character.take_hit(entry["health"], entry["defeated"], roll_id, scene.id, scene.page)
        effects_defeat(character, scene.id, roll_id)


def effects_defeat(character: Character, scene_id: UUID, roll_id: UUID | None) -> None:
    """WCBH-36, checked when damage lowers Health too (not only when an effect grows): an effect
    whose Pages left reach the Health left defeats the character for the rest of the scene."""
    names = defeating_effects(character.effects, int(character.resources.get("health", 0)))
    if names:
        character.be_defeated_by_effects(names, scene_id, roll_id, "WCBH-36")


def _target(turn: Turn, character_id: UUID, field: str) -> Sheeted:
    """A character attacked: of the campaign and not defeated (WCBH-31)."""
    target = turn.character(character_id, field)
    rules.check_standing(target.name, target.character.status, field)
    return target


class Fight(Part):
    """The fight's commands (the `fight` part of the system: `app.system(Wcbh).fight`)."""

    system: Wcbh

    def _roll(
        self,
        turn: Turn,
        check: str,
        request: Mapping[str, Any],
        roller: Sheeted | None,
        client_seed: str | None,
        declared: Declared | None = None,
        chain: RollChain | None = None,
    ) -> tuple[CheckOutcome, list[Any]]:
        """One roll of the command, by `roller` with the sheet the command parsed (the roll first in
        what it touched; a second roll links to the `chain` of the first)."""
        return turn.roll(check, request, roller, client_seed, chain=chain, declared=declared)

    # ---- the roll hooks and boundaries the system passes on ---------------------------------------

    def with_page_dice(self, ask: CheckRoll, check: Check) -> Mapping[str, Any]:
        """WCBH-25, 41: a character's roll in a scene carries the page's dice in `page_modifier`
        (checks whose request has that field: trait, attack, grapple, maneuver, area attack); a
        client may omit it or send the same value. A check that is no action (`action` False) gets
        only a maneuver's penalty, not the extra actions' (WCBH-25: "other checks are unchanged")."""
        request, character = ask.request, ask.character
        if (
            character is None
            or not isinstance(request, Mapping)
            or "page_modifier" not in check.Request.model_fields
        ):
            return request
        dice = (
            _page_dice(ask.scene, character, defence=False)
            if ask.action
            else _maneuver_penalty(ask.scene, character)
        )
        rules.check_page_dice(request.get("page_modifier", dice), dice, character.name)
        return {**request, "page_modifier": dice}

    def followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """WCBH-20b, 20c: Resolve dice or a reroll after an attack decided its hit again (the
        rules, systems/wcbh/rules/follow_ups.py): the target's Health changes in the same save."""
        record = original.record
        if record.get("check") != ATTACK_CHECK:
            return []
        if record["request"].get("target_id") is None:
            return []  # a raw attack roll (POST .../rolls) hit no one: nothing to decide again
        rules.check_resolve_first(str(original.id) in attack_follow_ups(scene))
        notes = original.follow_ups  # the new follow-up is the last one
        before = notes[-2]["result"] if len(notes) > 1 else record["result"]
        target, maximum = self._attacked(actor, UUID(record["request"]["target_id"]))
        changed = _revise_hit(target, maximum, record["request"], before, follow, scene)
        return [target] if changed else []

    def _attacked(self, actor: Actor, character_id: UUID) -> tuple[Character, int]:
        """The target of an attack roll and its maximum Health (its sheet, the settings now)."""
        character = self.app.named(actor, Character, character_id, "roll_id")
        ruleset = self.system.rules
        settings = ruleset.parse_settings(self.app.campaign_of(actor).settings)
        sheet = ruleset.parse_sheet(character.sheet, settings, side=character.side)
        return character, int(ruleset.resources(sheet, settings)["health"]["max"])

    def page_advanced(self, at: PageBoundary) -> None:
        """Conditions that last to the end of a page end with it (WCBH-40, 41)."""
        page = at.scene.page
        self._lift_conditions(
            at,
            lambda c: c.get("until_page") is not None and c["until_page"] < page,
            "their page is over",
        )

    def scene_closed(self, at: SceneBoundary) -> None:
        """A fight's conditions end with its scene (holds and taken weapons too, WCBH-40)."""
        self._lift_conditions(at, lambda _: True, "the scene closed")

    def _lift_conditions(
        self, at: PageBoundary | SceneBoundary, over: Callable[[dict[str, Any]], bool], why: str
    ) -> None:
        """The conditions of this scene's fight that are `over`, lifted from every character
        the scene touched."""
        scene = at.scene
        for character_id in scene.affected:
            character = at.loaded.character(self.app, at.actor, character_id)
            ended = [
                name
                for name, c in character.fight_conditions.items()
                if c.get("scene_id") == str(scene.id) and over(c)
            ]
            character.lift_conditions(ended, scene.id, why)

    # ---- WCBH-25: declaring actions, moving ----------------------------------------------------

    @command
    def declare_actions(
        self, ctx: CommandContext, scene_id: UUID, body: DeclarationCreate
    ) -> Outcome:
        """WCBH-25: how many actions the character takes this page (each extra one: −2 dice on
        every roll of the page but defence); WCBH-44: or all-out defence (+2 dice to defence, no
        actions). Ruling (PageState.declare_action): only before its first action of the page."""
        turn = self.system.turn(ctx, scene_id)
        character = turn.acting(body.character_id).character
        rules.check_actions(body.actions, body.all_out_defence)
        page = _page_of(turn.scene, character.id)
        _check_turn(page, character)
        rules.check_first_action(page.state.used, body.all_out_defence)
        page.state = replace(
            page.state, declared=body.actions, all_out_defence=body.all_out_defence
        )
        change = "all-out defence" if body.all_out_defence else f"declares {body.actions} action(s)"
        _save_page(turn.scene, character.id, page, change)
        return turn.save(result=PageShown(character.id))

    @command
    def move(self, ctx: CommandContext, scene_id: UUID, body: MoveCreate) -> Outcome:
        """WCBH-25: one move per page, besides the action; not with a lost turn, a 3+ maneuver
        (WCBH-41) or held (WCBH-40)."""
        turn = self.system.turn(ctx, scene_id)
        character = turn.acting(body.character_id).character
        page = _page_of(turn.scene, character.id)
        _check_turn(page, character)
        conditions = _conditions_of(turn.scene, character)
        rules.check_not_held(character.name, conditions)
        rules.check_free(character.name, character.effects, character.effect_rulings, "may_move")
        self._in_order(turn, turn.character(character.id), moving=True)  # WCBH-22..24
        immobile = any(c.get("cannot_move") for c in conditions.values())
        try:
            page.state = replace(page.state, immobile=immobile).move()
        except InvalidInput as exc:
            raise rules.refused(exc) from None
        _save_page(turn.scene, character.id, page, "moves")
        return turn.save(result=PageShown(character.id))

    @command
    def rule_effect(self, ctx: CommandContext, scene_id: UUID, body: EffectRulingCreate) -> Outcome:
        """WCBH-35, 37: the GM's ruling on what a special effect lets its character do (act, move,
        defend actively), recorded as `Character.EffectRuled`; the source leaves an effect's
        meaning to its power's description."""
        self.app._gm(ctx)
        turn = self.system.turn(ctx, scene_id)
        character = turn.character(body.character_id).character
        limits = {
            "may_act": body.may_act,
            "may_move": body.may_move,
            "may_defend_actively": body.may_defend_actively,
        }
        character.rule_effect(body.effect, limits, body.reason, turn.scene.id)
        return turn.save(result=PageShown(character.id))

    # ---- WCBH-22..24: the order of action -----------------------------------------------------

    def _facts(self, turn: Turn) -> TurnFacts:
        order = self.app.order_of_action(turn.actor, turn.scene)
        return turn_facts(turn.scene, order, lambda c: turn.character(c).character)

    def _in_order(self, turn: Turn, who: Sheeted, *, moving: bool = False) -> bool:
        """WCBH-22..24: a character of the scene's fight acts when its turn comes; its move, too,
        until it has had its turn (ruling: a move is part of the turn, and may follow the action).
        Refusals that say more come first (out of the fight, under an effect, a lost turn). A
        scene without a fight roster (no combatants) keeps no order: the table keeps it (ruling).
        The GM's recorded override lets the character act now."""
        scene, character = turn.scene, who.character
        if not scene.combatants:
            return False
        page = _page_of(scene, who.id)
        facts = self._facts(turn)
        together = not moving and self._knocked_out_together(scene, who, page, facts.order)
        if not together:
            rules.check_in_the_fight(character.name, character.status)
        _check_turn(page, character)
        if moving and (page.state.used or page.turn_over(character)):
            return False  # its turn came already, or it has no action to take in it
        rules.check_free(character.name, character.effects, character.effect_rulings, "may_act")
        if page.gm_override is not None:
            return together
        done = facts.done - {who.key} if together else facts.done
        check_turn_order(who.key, who.name, facts.order, done, facts.called)
        return together

    @staticmethod
    def _knocked_out_together(
        scene: Scene, who: Sheeted, page: CharacterPage, order: Order
    ) -> bool:
        """WCBH-23: defeated this page by a member of its own simultaneous group, before acting."""
        at = who.character.defeated_at or {}
        defeated_now = (
            who.character.status == "defeated"
            and str(at.get("scene_id")) == str(scene.id)
            and at.get("page") == scene.page
        )
        attackers = [str(a) for a, target in scene.page_attacks if target == who.id]
        return knocked_out_together(
            who.key, order, attackers, defeated_now=defeated_now, acted=bool(page.state.used)
        )

    def _fighter_page(self, turn: Turn, character_id: UUID) -> tuple[Sheeted, CharacterPage]:
        who = turn.acting(character_id)
        if turn.scene.combatants and who.id not in turn.scene.combatants:
            raise InvalidInput(
                f"{who.name} is not in this scene's fight (POST .../combatants)",
                field="character_id",
                rule="WCBH-22",
            )
        return who, _page_of(turn.scene, who.id)

    @command
    def pass_turn(self, ctx: CommandContext, scene_id: UUID, body: TurnPassCreate) -> Outcome:
        """WCBH-22: the character gives up what is left of its turn this page, so that the order
        moves on (its move stays, ruling)."""
        turn = self.system.turn(ctx, scene_id)
        who, page = self._fighter_page(turn, body.character_id)
        page.passed = True
        _save_page(turn.scene, who.id, page, "passes (WCBH-22)")
        return turn.save(result=PageShown(who.id))

    @command
    def delay(self, ctx: CommandContext, scene_id: UUID, body: DelayCreate) -> Outcome:
        """WCBH-23: the character delays its action to a declared moment; it acts when the GM says
        the moment came (with the others delayed to it, in normal order), or loses it with the
        page. Ruling: before its first action of the page, once a page."""
        turn = self.system.turn(ctx, scene_id)
        who, page = self._fighter_page(turn, body.character_id)
        rules.check_may_delay(who.name, page.state.used, page.delayed_to)
        page.delayed_to = body.moment
        _save_page(turn.scene, who.id, page, f"delays its action to: {body.moment} (WCBH-23)")
        return turn.save(result=PageShown(who.id))

    @command
    def moment_came(self, ctx: CommandContext, scene_id: UUID, body: MomentCreate) -> Outcome:
        """WCBH-23 (GM): the declared moment came: the characters who delayed to it act now, before
        the rest of the order, in normal order among themselves."""
        self.app._gm(ctx)
        turn = self.system.turn(ctx, scene_id)
        waiting = [
            (c, page)
            for c in turn.scene.combatants
            if not (page := _page_of(turn.scene, c)).delay_came
            and moment_matches(page.delayed_to, body.moment)
        ]
        rules.check_someone_delayed(body.moment, len(waiting))
        for character_id, page in waiting:
            page.delay_came = True
            _save_page(turn.scene, character_id, page, f"its moment came: {body.moment} (WCBH-23)")
        return turn.save()  # the response shows the scene's turn

    @command
    def override_order(
        self, ctx: CommandContext, scene_id: UUID, body: OrderOverrideCreate
    ) -> Outcome:
        """WCBH-22..24 (GM): the GM lets the character act out of the order this page, recorded
        with its reason (the page state's `gm_override`, in the scene's log)."""
        self.app._gm(ctx)
        turn = self.system.turn(ctx, scene_id)
        who, page = self._fighter_page(turn, body.character_id)
        page.gm_override = body.reason
        change = f"the GM lets it act out of the order of action: {body.reason} (WCBH-22)"
        _save_page(turn.scene, who.id, page, change)
        return turn.save(result=PageShown(who.id))

    def turn_view(self, actor: Actor, scene: Scene) -> dict[str, Any]:
        """The page's order of action and where it stands: whose turn it is, who is done, who
        waits for a delayed moment, whom the GM let act out of order."""
        order = self.app.order_of_action(actor, scene)
        facts = turn_facts(scene, order, lambda c: self.app.get(actor, Character, c))
        pages = {str(c): _page_of(scene, c) for c in scene.combatants}
        return {
            "scene_id": scene.id,
            "page": scene.page,
            "order_of_action": order,
            "now": list(facts.now),
            "done": sorted(facts.done),
            "delayed": {
                c: p.delayed_to for c, p in pages.items() if p.delayed_to and not p.delay_came
            },
            "moment_came": [c for c, p in pages.items() if p.delay_came],
            "overrides": {c: p.gm_override for c, p in pages.items() if p.gm_override},
            "version": scene.version,
        }

    def page_view(self, actor: Actor, scene: Scene, character: Character) -> dict[str, Any]:
        """The character's page in this scene, with the dice the page adds to its rolls."""
        page = _page_of(scene, character.id)
        nxt = _page_of(scene, character.id, next_page=True)
        return {
            "scene_id": scene.id,
            "page": scene.page,
            "character_id": character.id,
            **page.dump(),
            "dice": {
                "action": _page_dice(scene, character, defence=False),
                "defence": _page_dice(scene, character, defence=True),
            },
            "next_page_lost": nxt.lost_rule if nxt.state.lost_turn else None,
            "conditions": [{"name": n, **c} for n, c in _conditions_of(scene, character).items()],
            "effects": _effects_shown(character),
            "version": scene.version,
        }

    # ---- WCBH-28, 44, 46: attacks ----------------------------------------------------------------

    @command
    def attack(self, ctx: CommandContext, scene_id: UUID, body: FightAttackCreate) -> Outcome:
        """WCBH-25, 28..31, 33: one attack of one character on another, rolled as one fair roll
        (every pool), the Health lowered and defeats recorded in the same save. WCBH-44: a charge
        or all-out attack (`maneuver`), bashing the target with `club_id`, an ally (`defender_id`)
        defending the target; WCBH-46: the target declared a redirect."""
        turn = self.system.turn(ctx, scene_id)
        attacker = turn.acting(body.attacker_id, "attacker_id")
        target = turn.character(body.target_id, "target_id")
        rules.check_other(target.id, attacker.id, "a character does not attack itself", "target_id")
        rules.check_standing(target.name, target.character.status, "target_id")
        conditions = _conditions_of(turn.scene, attacker.character)
        rules.check_armed(attacker.name, conditions, body.weapon)  # WCBH-40, 41
        with_others = body.club_id is not None or body.defender_id is not None
        rules.check_attack_options(body.maneuver, body.effect, with_others)
        together = self._in_order(turn, attacker)  # WCBH-22..24
        if body.redirect:  # WCBH-46: the defender's own declaration, made before its defence roll
            turn.acting(target.id, "redirect")
        if body.defence_resolve:  # WCBH-20b: the defender's Resolve is the defender's to spend
            turn.acting(target.id, "defence_resolve")
        _named_by_their_side(turn, body.defences, target.id, *filter(None, [body.club_id]))
        request = self._attack_request(turn, body, attacker, target)
        pair = (attacker.id, target.id)
        club, guard = _third_parties(turn, body, pair, request)
        targets = [target.id] if club is None else [club.id, target.id]
        _act(
            turn.scene,
            attacker.character,
            targets,
            f"attacks ({body.maneuver or 'attack'})",
            body.maneuver,
            knocked_out_together=together,
        )
        if guard is not None:
            self._defends(turn.scene, guard, target)
        # WCBH-28/30: weapon and situation dice; the sheet lists no weapons, so the weapon's dice
        # are a declaration too (ruling)
        dice = declared_by({"weapon": body.weapon, "modifier": body.modifier})
        outcome, touched = self._roll(turn, ATTACK_CHECK, request, attacker, body.client_seed, dice)
        if body.defence_resolve:
            target.character.spend(
                {"resolve": body.defence_resolve}, reason=f"defence on roll {touched[0].id}"
            )
        self._attack_done(
            turn, body, outcome.result, touched[0].id, (attacker, target, club, guard)
        )
        return turn.save(*touched)

    def _attack_request(
        self, turn: Turn, body: FightAttackCreate, attacker: Sheeted, target: Sheeted
    ) -> dict[str, Any]:
        """The attack's request (its page dice are the roll's, `with_page_dice`)."""
        effect = body.effect
        base = turn.rules.attack_request(
            attacker.sheet,
            target.sheet,
            trait=body.trait,
            target_health=target.level("health"),
            weapon=body.weapon,
            modifier=body.modifier,
            active_defences=body.defences,
            lethal=body.lethal,
            purpose=body.purpose,
            effect=effect,
            effect_pages_before=target.character.effects.get(effect, {}).get("pages", 0)
            if effect
            else 0,
        )
        assert base is not None, "We Can Be Heroes has an attack"
        request: dict[str, Any] = {
            **base,
            "defences": _defences(
                turn.scene, target, body.defences, redirect_declared=body.redirect
            ),
            "target_id": target.key,
            **_as_target(turn.scene, target.character),
            "maneuver": body.maneuver,
            "redirect": body.redirect,
            "resolve": body.resolve,
            "decisive_moment": body.decisive_moment,
            "effort": body.effort,
            "defence_resolve": body.defence_resolve,
        }
        request["situation"] = _situation(turn.scene, attacker.id, target.id)  # WCBH-30
        if body.maneuver == "charge" or body.club_id is not None:
            _reaches(turn.scene, attacker.id, target.id, "a charge or a bash")  # WCBH-26
        if body.club_id is not None:
            _reaches(turn.scene, attacker.id, body.club_id, "grabbing a foe as a club")
        if effect is not None:
            request["besides_damage"] = True  # WCBH-35 (the source: "помимо урона")
        request["power_use"] = limited_power(unwrap(attacker.sheet), body.trait)  # WCBH-2
        if body.maneuver == "charge":
            request["charger"] = _charger(turn.scene, attacker)
        return request

    @staticmethod
    def _defends(scene: Scene, guard: Sheeted, target: Sheeted) -> None:
        """WCBH-44: defending an ally takes the defender's next turn; not while an effect keeps
        the defender from acting (WCBH-37)."""
        who = guard.character
        rules.check_free(who.name, who.effects, who.effect_rulings, "may_act")
        page = _page_of(scene, guard.id)
        page.defending = True
        _save_page(scene, guard.id, page, f"defends {target.name}")
        _lose_next_turn(scene, guard.id, "WCBH-44", f"defended {target.name}")

    @staticmethod
    def _attack_done(
        turn: Turn,
        body: FightAttackCreate,
        result: Mapping[str, Any],
        roll_id: UUID,
        who: tuple[Sheeted, Sheeted, Sheeted | None, Sheeted | None],
    ) -> None:
        """What the attack's outcome does: an effect or a hit, on everyone it reached."""
        attacker, target, club, guard = who
        scene = turn.scene
        # WCBH-35: the effect comes besides the damage; a defeat by the damage is the hit's, one
        # by the effect's length (WCBH-36) the effect's
        _hit(target.character, {**result, "defeated": result["health"] == 0}, roll_id, scene)
        if body.effect is not None and result["effect_pages"]:
            target.character.apply_effect(
                body.effect, result["effect_pages"], result["whole_scene"], scene.id
            )
        if club is not None:
            _hit(club.character, result["club"], roll_id, scene)
        if guard is not None and "damage" in result["guard"]:
            _hit(guard.character, result["guard"], roll_id, scene)
        if "collision" in result:
            _hit(attacker.character, result["collision"], roll_id, scene)

    # ---- WCBH-40: grappling ----------------------------------------------------------------------

    @command
    def grapple(self, ctx: CommandContext, scene_id: UUID, body: GrappleCreate) -> Outcome:
        """WCBH-40: Strength against the target's best active defence; net 1–2 a partial hold (to
        the end of the next page: both roll again then), 3+ held (or its weapon taken) until the
        scene ends or it breaks free (a grapple of its own on the holder with net 1+)."""
        turn = self.system.turn(ctx, scene_id)
        scene = turn.scene
        attacker = turn.acting(body.attacker_id, "attacker_id")
        target = turn.character(body.target_id, "target_id")
        rules.check_other(
            target.id, attacker.id, "a character does not grapple itself", "target_id"
        )
        rules.check_standing(target.name, target.character.status, "target_id")
        rules.check_aim(body.aim)
        _reaches(scene, attacker.id, target.id, "a grapple")  # WCBH-26
        _named_by_their_side(turn, body.defences, target.id)
        active = [o for o in _defences(scene, target, body.defences) if o["active"]]
        request = {
            "trait": body.trait,
            "rank": _rank(attacker, body.trait, "trait", "WCBH-40"),
            "modifier": body.modifier,
            "defences": active,
            "defence_modifier": _as_target(scene, target.character)["defence_modifier"],
            "halve_active": _page_of(scene, target.id).state.halve_active,
            "aim": body.aim,
            "target_id": target.key,
            "purpose": body.purpose,
        }
        together = self._in_order(turn, attacker)  # WCBH-22..24
        _act(scene, attacker.character, [target.id], "grapples", knocked_out_together=together)
        dice = declared_by({"modifier": body.modifier})  # WCBH-30: the situation's dice
        outcome, touched = self._roll(turn, "grapple", request, attacker, body.client_seed, dice)
        _grappled(scene, attacker.character, target.character, body.aim, outcome.result["outcome"])
        return turn.save(*touched)

    # ---- WCBH-41: maneuvers ------------------------------------------------------------------------

    @command
    def maneuver(self, ctx: CommandContext, scene_id: UUID, body: ManeuverCreate) -> Outcome:
        """WCBH-41: a maneuver works like an attack; by net successes the target gets −1..−3 on
        its rolls (ruling: to the end of the next page), speed halved, cannot move, loses its
        weapon, or (5+) loses its next turn."""
        turn = self.system.turn(ctx, scene_id)
        scene, name = turn.scene, body.maneuver
        attacker = turn.acting(body.attacker_id, "attacker_id")
        target = turn.character(body.target_id, "target_id")
        rules.check_other(target.id, attacker.id, "a maneuver is on someone else", "target_id")
        rules.check_standing(target.name, target.character.status, "target_id")
        trait, against = rules.maneuver_traits(name, body.trait, body.against)
        rules.check_maneuver_traits(name, attacker.sheet, trait, target.sheet, against)
        request = {
            "maneuver": name,
            "trait": trait,
            "rank": _rank(attacker, trait, "trait", "WCBH-41"),
            "modifier": body.modifier,
            "against": against,
            "against_rank": _rank(target, against, "against", "WCBH-41"),
            "defence_modifier": _as_target(scene, target.character)["defence_modifier"],
            "target_id": target.key,
            "purpose": body.purpose,
        }
        together = self._in_order(turn, attacker)  # WCBH-22..24
        what = name.replace("_", " ")
        _act(scene, attacker.character, [target.id], what, knocked_out_together=together)
        dice = declared_by({"modifier": body.modifier})  # WCBH-30: the situation's dice
        outcome, touched = self._roll(turn, "maneuver", request, attacker, body.client_seed, dice)
        _maneuvered(scene, attacker.character, target.character, name, outcome.result)
        return turn.save(*touched)

    # ---- WCBH-42: ambush ---------------------------------------------------------------------------

    @command
    def ambush(self, ctx: CommandContext, scene_id: UUID, body: AmbushCreate) -> Outcome:
        """WCBH-42: the ambushers (a group, WCBH-11) roll Stealth, or Charisma for deceit, against
        each target's Perception; a surprised target cannot act on this page (ruling: the fight's
        first page is the page of the ambush) and, without an embellishment (net 3+), cannot
        defend actively on it either."""
        turn = self.system.turn(ctx, scene_id)
        ids = [a.character_id for a in body.ambushers]
        rules.check_ambush_sides(ids, body.target_ids)
        default = "Charisma" if body.deceit else "Stealth"
        entries = []
        for one in body.ambushers:
            ambusher = turn.acting(one.character_id, "ambushers")
            trait = one.trait or default
            entries.append(
                {
                    "character_id": ambusher.key,
                    "trait": trait,
                    "rank": _rank(ambusher, trait, "ambushers", "WCBH-42"),
                    "page_modifier": _page_dice(turn.scene, ambusher.character, defence=False),
                }
            )
        targets = [
            _ambushed(turn.character(t, "target_ids")) for t in dict.fromkeys(body.target_ids)
        ]
        request = {"ambushers": entries, "targets": targets, "purpose": body.purpose}
        first = turn.character(ids[0])
        outcome, touched = self._roll(turn, "ambush", request, first, body.client_seed)
        for entry in outcome.result["targets"]:
            if entry["surprised"]:
                _surprised(turn.scene, UUID(entry["target_id"]), entry["may_defend_actively"])
        return turn.save(*touched)

    # ---- WCBH-43: area attacks ---------------------------------------------------------------------

    @command
    def area_attack(self, ctx: CommandContext, scene_id: UUID, body: AreaAttackCreate) -> Outcome:
        """WCBH-43: one attack roll, every target defends separately in one roll record; an active
        defence counts half unless the target skips its next turn (`skip_turn`, the target's own
        choice: whoever sets it must be allowed to act for that target)."""
        turn = self.system.turn(ctx, scene_id)
        scene = turn.scene
        attacker = turn.acting(body.attacker_id, "attacker_id")
        ids = [t.target_id for t in body.targets]
        rules.check_area_targets(attacker.id, ids)
        _named_by_their_side(turn, body.defences, *ids)
        entries = [_area_target(turn, one, body.defences) for one in body.targets]
        request = {
            "attack_rank": _rank(attacker, body.trait, "trait", "WCBH-28"),
            "weapon": body.weapon,
            "modifier": body.modifier,
            "lethal": body.lethal,
            "targets": entries,
            "purpose": body.purpose,
            "power_use": limited_power(unwrap(attacker.sheet), body.trait),  # WCBH-2
        }
        together = self._in_order(turn, attacker)  # WCBH-22..24
        _act(scene, attacker.character, ids, "area attack", knocked_out_together=together)
        dice = declared_by({"weapon": body.weapon, "modifier": body.modifier})  # WCBH-28/30
        outcome, touched = self._roll(
            turn, "area_attack", request, attacker, body.client_seed, dice
        )
        for entry in outcome.result["targets"]:
            target = turn.character(UUID(entry["target_id"]))
            _hit(target.character, entry, touched[0].id, scene)
            if entry["skips_turn"]:
                _lose_next_turn(scene, target.id, "WCBH-43", "dodged an area attack")
        return turn.save(*touched)

    # ---- WCBH-47: team attacks ---------------------------------------------------------------------

    @command
    def team_attack(self, ctx: CommandContext, scene_id: UUID, body: TeamAttackCreate) -> Outcome:
        """WCBH-47: two or more characters attack one target together at the end of the page;
        each rolls its own attack (+2 dice, its 6s exploding for 1 Resolve), each a roll record
        of its own, all in one save; once per fight (scene) per character."""
        turn = self.system.turn(ctx, scene_id)
        target = _target(turn, body.target_id, "target_id")
        team = [(turn.acting(a.attacker_id, "attackers"), a) for a in body.attackers]
        ids = [who.id for who, _ in team]
        rules.check_not_in_team(target.id, ids)
        _named_by_their_side(turn, body.defences, target.id)
        try:
            team_attack(
                target.key,
                [str(i) for i in ids],
                exploding=[who.key for who, a in team if a.explode],
            )
        except InvalidInput as exc:
            raise InvalidInput(exc.message, field="attackers", rule=exc.rule) from None
        rules.check_each_once(ids)
        # Each attacker's weapon and modifier are a player's declarations: the whole team attack
        # follows player_modifiers (refused, trusted, or waiting for the GM) before any dice.
        declared = _team_declared(body.attackers)
        self.app.modifiers_of(turn.actor, turn.settings, turn.scene, None, declared)
        for who, entry in team:
            rules.check_armed(who.name, _conditions_of(turn.scene, who.character), entry.weapon)
            turn.scene.use_once("team_attack", who.id, "WCBH-47", exclusive=False)
            _act(turn.scene, who.character, [target.id], "team attack")
        rolls, others = self._team_rolls(turn, body, target, team, declared)
        return turn.save(*rolls, *others, result=TeamRolled(tuple(r.id for r in rolls)))

    def _team_rolls(
        self,
        turn: Turn,
        body: TeamAttackCreate,
        target: Sheeted,
        team: list[tuple[Sheeted, TeamAttackerIn]],
        declared: Declared,
    ) -> tuple[list[Aggregate], list[Aggregate]]:
        """Each attacker's roll in team order, each on the target's Health the last one left,
        and what else they touched."""
        defences = _defences(turn.scene, target, body.defences)
        health = target.level("health")
        rolls: list[Aggregate] = []
        others: list[Aggregate] = []
        chain: RollChain | None = None
        for index, (who, entry) in enumerate(team):
            request = _team_request(turn.scene, body, target, who, entry, defences, health)
            own = _attacker_declared(declared, index)
            outcome, touched = self._roll(
                turn, ATTACK_CHECK, request, who, body.client_seed, own, chain
            )
            chain = touched[1]
            rolls.append(touched[0])
            others.extend(touched[1:])
            _hit(target.character, outcome.result, touched[0].id, turn.scene)
            health = outcome.result["health"]
        return rolls, others

    # ---- WCBH-45, 46: after the roll -----------------------------------------------------------------

    def _attack_turn(
        self, ctx: CommandContext, roll_id: UUID, checks: tuple[str, ...]
    ) -> tuple[Turn, Roll]:
        """The attack roll a knockback or redirect follows, and the command on its scene."""
        roll = self.app.get(self.app._member(ctx), Roll, roll_id)
        rules.check_attack_roll(roll.record, checks)
        return self.system.turn(ctx, roll.scene_id), roll

    @command
    def knockback(self, ctx: CommandContext, roll_id: UUID, body: KnockbackCreate) -> Outcome:
        """WCBH-45: after an attack that dealt 6+ damage, the attacker's 1 Resolve throws the
        target as far as a Strength of the attack's rank throws; it loses its next turn; hitting
        an object deals half the attack's damage again (`hits_object`: sturdier, or weaker and
        smashed through; the GM's call). Ruling: one knockback per attack roll."""
        turn, roll = self._attack_turn(ctx, roll_id, (ATTACK_CHECK, "area_attack"))
        scene = turn.scene
        attacker = turn.acting(UUID(roll.record["character_id"]), "roll_id").character
        request = roll.record["request"]
        result = roll.follow_ups[-1]["result"] if roll.follow_ups else roll.record["result"]
        target_id = str(body.target_id) if body.target_id is not None else None
        entry = rules.entry_for(roll.record["check"], request, result, target_id)
        target = turn.character(UUID(entry["target_id"]), "target_id").character
        rules.check_hits_object(body.hits_object)
        try:
            thrown = knockback(
                int(entry.get("damage", 0)),
                int(request["attack_rank"]),
                hits_object=body.hits_object,
            )
        except InvalidInput as exc:
            raise rules.refused(exc, "knockback_refused") from None
        attacker.spend({"resolve": 1}, reason=f"knockback after roll {roll.id} (WCBH-45)")
        details = _knocked_back(scene, target, thrown, roll.id)
        _followed_up(scene, roll.id, "knockback", attacker.id, details)  # 409 the second time
        return turn.save(result=AttackFollowed(roll.id))

    @command
    def redirect(self, ctx: CommandContext, roll_id: UUID, body: RedirectCreate) -> Outcome:
        """WCBH-46: the target declared a redirect before its (active) defence roll and beat the
        attack by 3+ successes: its 1 Resolve sends the attack behind it, or at someone else
        (`at_id`): then the defender loses its next turn and the new target defends (a roll of
        its own against the attack's successes)."""
        turn, roll = self._attack_turn(ctx, roll_id, (ATTACK_CHECK,))
        request = roll.record["request"]
        rules.check_named_target(request)
        defender = turn.acting(UUID(request["target_id"]), "roll_id")
        rules.check_redirectable(request)
        done = _redirect_done(roll, body.at_id is not None)
        defender.character.spend({"resolve": 1}, reason=f"redirect of roll {roll.id} (WCBH-46)")
        details: dict[str, Any] = {
            "at_id": str(body.at_id) if body.at_id else None,
            "new_roll_id": None,
        }
        touched = self._redirected(turn, roll, body, defender, details) if done.at_someone else []
        # 409 the second time
        _followed_up(turn.scene, roll.id, "redirect", defender.id, details)
        return turn.save(turn.scene, *touched, result=AttackFollowed(roll.id))

    def _redirected(
        self,
        turn: Turn,
        roll: Roll,
        body: RedirectCreate,
        defender: Sheeted,
        details: dict[str, Any],
    ) -> list[Aggregate]:
        """WCBH-46: the attack at someone else: the defender loses its next turn, the new target
        defends against the attack's successes (a roll of its own)."""
        assert body.at_id is not None
        scene = turn.scene
        new_target = turn.character(body.at_id, "at_id")
        rules.check_other(
            new_target.id, defender.id, "redirect the attack at someone else", "at_id"
        )
        rules.check_standing(new_target.name, new_target.character.status, "at_id")
        _named_by_their_side(turn, body.defences, new_target.id)
        details["loses_turn_on_page"] = _lose_next_turn(
            scene, defender.id, "WCBH-46", "redirected an attack at someone"
        )
        new_request = _redirected_request(scene, roll, new_target, body.defences)
        outcome, touched = self._roll(
            turn, "redirected_attack", new_request, None, body.client_seed
        )
        details["new_roll_id"] = str(touched[0].id)
        _hit(new_target.character, outcome.result, touched[0].id, scene)
        return touched


# ---- the requests' parts ----------------------------------------------------------------------------


def _third(
    turn: Turn, pair: tuple[UUID, UUID], character_id: UUID, field: str, *, acting: bool
) -> Sheeted:
    """WCBH-44: a club or a defender: a third character besides the attacker and its target,
    not defeated (a defender is one the sender acts for)."""
    third = turn.acting(character_id, field) if acting else turn.character(character_id, field)
    rules.check_third(third.id, pair, "club" if field == "club_id" else "defender", field)
    rules.check_standing(third.name, third.character.status, field)
    return third


def _third_parties(
    turn: Turn, body: FightAttackCreate, pair: tuple[UUID, UUID], request: dict[str, Any]
) -> tuple[Sheeted | None, Sheeted | None]:
    """WCBH-44: the foe the target is bashed with (it is attacked too) and the ally defending the
    target (whoever sends it acts for the ally), each written into the attack's request."""
    club = guard = None
    if body.club_id is not None:
        club = _third(turn, pair, body.club_id, "club_id", acting=False)
        request["club"] = _party(turn.scene, club, body.defences)
    if body.defender_id is not None:
        guard = _third(turn, pair, body.defender_id, "defender_id", acting=True)
        party = _party(turn.scene, guard, body.defences)
        defending = _page_of(turn.scene, guard.id).defending
        rules.check_guard(guard.name, defending, party["defences"], body.defender_active)
        request["guard"] = party
        request["guard_active"] = body.defender_active
    return club, guard


def _area_target(turn: Turn, one: AreaTargetIn, defences: Sequence[str] | None) -> dict[str, Any]:
    """WCBH-43: one target of an area attack; skipping its next turn is its own choice (whoever
    sets it acts for the target)."""
    if one.skip_turn:
        target = turn.acting(one.target_id, "targets")
    else:
        target = turn.character(one.target_id, "targets")
    rules.check_standing(target.name, target.character.status, "targets")
    return {
        "target_id": target.key,
        "defences": _defences(turn.scene, target, defences),
        "health": target.level("health"),
        "minion": is_minion(target.sheet),
        "skip_turn": one.skip_turn,
        **_as_target(turn.scene, target.character),
    }


def _charger(scene: Scene, attacker: Sheeted) -> dict[str, Any]:
    """WCBH-44: a charger's passive defence meets the attack (its collision)."""
    return {
        "character_id": attacker.key,
        "defences": defence_options(attacker.sheet, ()),
        "health": attacker.level("health"),
        **_as_target(scene, attacker.character),
    }


def _team_request(
    scene: Scene,
    body: TeamAttackCreate,
    target: Sheeted,
    who: Sheeted,
    entry: TeamAttackerIn,
    defences: Sequence[Mapping[str, Any]],
    health: int,
) -> dict[str, Any]:
    """WCBH-47: one attacker's request of a team attack, on the Health the last one left."""
    return {
        "attack_rank": _rank(who, entry.trait, "attackers", "WCBH-47"),
        "weapon": entry.weapon,
        "modifier": entry.modifier,
        "defences": defences,
        "target_health": health,
        "lethal": body.lethal,
        "minion": is_minion(target.sheet),
        "purpose": body.purpose,
        "target_id": target.key,
        **_as_target(scene, target.character),
        "team": True,
        "explode": entry.explode,
        "power_use": limited_power(unwrap(who.sheet), entry.trait),  # WCBH-2
        "situation": _situation(scene, who.id, target.id),  # WCBH-30
    }


def _redirected_request(
    scene: Scene, roll: Roll, new_target: Sheeted, defences: Sequence[str] | None
) -> dict[str, Any]:
    """WCBH-46: the attack's successes against the new target's own defence."""
    return {
        "redirected_from": str(roll.id),
        "attack_successes": roll.record["result"]["attack_successes"],
        "target_id": new_target.key,
        "defences": _defences(scene, new_target, defences),
        "target_health": new_target.level("health"),
        "lethal": roll.record["request"].get("lethal", True),
        "minion": is_minion(new_target.sheet),
        **_as_target(scene, new_target.character),
    }


def _redirect_done(roll: Roll, at_someone: bool) -> Redirect:
    """WCBH-46: the redirect the attack roll allows (3+ above the attack, declared before the
    defence roll, an active defence), or a 409 saying why not."""
    request, result = roll.record["request"], roll.record["result"]
    try:
        defence = next(
            Defence(d["name"], d["rank"], d["active"])
            for d in request["defences"]
            if d["name"] == result["defence"]
        )
        return redirect(
            result["attack_successes"],
            result["defence_successes"],
            defence,
            declared_before_defence=bool(request.get("redirect")),
            at_someone=at_someone,
        )
    except InvalidInput as exc:
        raise rules.refused(exc, "redirect_refused") from None


# ---- what the rolls' outcomes do ------------------------------------------------------------------


def _revise_hit(
    target: Character,
    maximum: int,
    request: Mapping[str, Any],
    before: Mapping[str, Any],
    follow: Roll,
    scene: Scene,
) -> bool:
    """WCBH-20b, 20c: the Health the attack took, taken again by its new outcome. Ruling:
    relative to the target's Health now (what changed it since stays), within 0..its maximum; a
    defeat that the new outcome undoes puts the target back up."""
    after = follow.record["result"]
    took_before = request["target_health"] - before["health"]
    took_after = request["target_health"] - after["health"]
    if took_before == took_after:
        return False
    health = int(target.resources.get("health", 0))
    health = min(maximum, max(0, health + took_before - took_after))
    revived = bool(before["defeated"]) and health > 0
    target.revise_hit(health, health == 0, revived, follow.id, scene.id, scene.page)
    if took_after > took_before:
        effects_defeat(target, scene.id, follow.id)
    return True


def _grappled(scene: Scene, attacker: Character, target: Character, aim: str, outcome: str) -> None:
    """WCBH-40: a partial hold to the end of the next page, a hold (or the weapon taken) until
    the scene ends; a grapple on one's holder that succeeds breaks free."""
    condition = {"kind": "grapple", "rule": "WCBH-40", "by": str(attacker.id)}
    if outcome == "partial":
        target.impose_condition(
            "grappled", {**condition, "partial": True, "until_page": scene.page + 1}, scene.id
        )
    elif outcome == "held":
        name = "held" if aim == "hold" else "disarmed"
        target.impose_condition(name, {**condition, "until_page": None}, scene.id)
        if name == "held":
            target.lift_conditions(["grappled"], scene.id, "held now")
    held = attacker.fight_conditions.get("held")
    if outcome != "failed" and held and held.get("by") == str(target.id):
        attacker.lift_conditions(["held"], scene.id, "broke free")


def _knocked_back(
    scene: Scene, target: Character, thrown: Knockback, roll_id: UUID
) -> dict[str, Any]:
    """WCBH-45: the target loses its next turn; an object it hits deals it half the attack's
    damage again. What happened, for the scene's record of the knockback."""
    lost = _lose_next_turn(scene, target.id, "WCBH-45", "knocked back")
    health = int(target.resources.get("health", 0))
    if thrown.extra_damage and health > 0:
        health = max(0, health - thrown.extra_damage)
        target.take_hit(health, health == 0, roll_id, scene.id, scene.page)
        effects_defeat(target, scene.id, roll_id)
    return {
        "target_id": str(target.id),
        "distance": thrown.distance,
        "extra_damage": thrown.extra_damage,
        "smashed_through": thrown.smashed_through,
        "health": health,
        "defeated": target.status == "defeated",
        "loses_turn_on_page": lost,
    }


def _maneuvered(
    scene: Scene, attacker: Character, target: Character, name: str, result: Mapping[str, Any]
) -> None:
    """WCBH-41: net 1+ puts the maneuver's condition on the target (to the end of the next
    page); 5+ takes its next turn."""
    if result["net"] < 1:
        return
    effects = ("penalty", "halve_speed", "cannot_move", "loses_weapon", "loses_turn")
    target.impose_condition(
        name,
        {
            "kind": "maneuver",
            "rule": "WCBH-41",
            "by": str(attacker.id),
            "net": result["net"],
            **{k: result[k] for k in effects},
            "until_page": scene.page + 1,
        },
        scene.id,
    )
    if result["loses_turn"]:
        _lose_next_turn(scene, target.id, "WCBH-41", f"a {name} of 5+")


def _ambushed(target: Sheeted) -> dict[str, Any]:
    """A target of an ambush in its request: its Perception (WCBH-42)."""
    return {
        "target_id": target.key,
        "perception": _rank(target, "Perception", "target_ids", "WCBH-42"),
        "minion": is_minion(target.sheet),
    }


def _surprised(scene: Scene, target_id: UUID, may_defend_actively: bool) -> None:
    """WCBH-42: a surprised target loses this page's turn (and, without net 3+, its active
    defences on it)."""
    page = _page_of(scene, target_id)
    page.state = replace(page.state, lost_turn=True)
    page.lost_rule = "WCBH-42"
    page.passive_only = not may_defend_actively
    _save_page(scene, target_id, page, "surprised by an ambush")


def _team_declared(attackers: Sequence[TeamAttackerIn]) -> Declared:
    """Every attacker's weapon and modifier in a team attack (WCBH-47), named by its place in
    `attackers` ("1.modifier"), those not 0."""
    given = {
        f"{index}.{name}": getattr(entry, name)
        for index, entry in enumerate(attackers)
        for name in ("weapon", "modifier")
    }
    return Declared(
        values={k: v for k, v in given.items() if v}, fields=tuple(given), path="attackers"
    )


def _attacker_declared(team: Declared, index: int) -> Declared:
    """What one attacker of a team attack declared: its own entries of the team's, for its roll."""
    own = {k: v for k, v in team.values.items() if k.split(".", 1)[0] == str(index)}
    return Declared(values=own, fields=team.fields, path=team.path)
