"""Resolve spends, last gasp, Adversity pools and the Decisive Moment's aftermath (WCBH-16..21).

What "unconscious" (after a last gasp, WCBH-19) blocks: rolls (`roll_check`), imitating a Power,
giving Resolve directly (from afar it may, WCBH-20a) and a second last gasp. It ends with the scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from pydantic import BaseModel

from domain.aggregates import Campaign, Character, Issue, Scene
from domain.aggregates._checks import not_enough
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import PageBoundary, Part, SceneBoundary, open_scene_named
from domain.errors import InvalidInput
from domain.requests import PoolChange
from domain.rulesets import get_ruleset
from domain.rulesets.base import form_of
from systems.wcbh.requests import (
    AbilityLossCreate,
    AbilityRestoreCreate,
    ImitationCreate,
    LastGaspCreate,
    LuckCreate,
    LuckDecision,
    ResolveGiftCreate,
    ScenePoolOpen,
    VillainousDeedCreate,
)
from systems.wcbh.rules import resolve as rules
from systems.wcbh.rules.attack import AttackRequest
from systems.wcbh.rules.checks import TraitRequest
from systems.wcbh.rules.play import RESOLVE_SPENDS, DecisiveMoments
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

if TYPE_CHECKING:
    from domain.application import Chronicle
    from systems.wcbh.commands import Wcbh

ADVERSITY = "adversity"
LAST_GASP = "last_gasp"  # the scene's once-per-character use (LIMITED_USES of the wcbh ruleset)


@dataclass(frozen=True)
class Gift:
    """Resolve given (WCBH-20a): the receiver, whom the response shows beside the giver."""

    receiver_id: UUID


@dataclass(frozen=True)
class Luck:
    """The luck request a command asked or decided (WCBH-20e)."""

    request_id: UUID


class Resolve(Part):
    """The commands of the Resolve area, an area of the We Can Be Heroes system (`Wcbh.resolve`)."""

    system: Wcbh

    # ---- WCBH-20a: giving Resolve --------------------------------------------------------------

    @command
    def give_resolve(self, ctx: CommandContext, giver_id: UUID, body: ResolveGiftCreate) -> Outcome:
        """WCBH-20a: 1 Resolve to another character to help an action; from afar it costs 2."""
        actor, giver = self._acting(ctx, giver_id)
        scene = open_scene_named(self.app, actor, body.scene_id)
        receiver = self._named(actor, body.receiver_id, "receiver_id")
        flashback = body.flashback
        rules.check_gift(
            to_self=receiver.id == giver.id,
            receiver_side=receiver.side,
            directly=body.directly,
            flashback=flashback is not None,
        )
        cost = RESOLVE_SPENDS["give" if body.directly else "give_from_afar"].cost
        purpose = rules.text(body.purpose, "purpose")
        flashback = None if flashback is None else rules.text(flashback, "flashback")
        giver.give_resolve(receiver.id, cost, purpose, flashback, scene.id)
        receiver.receive_resolve(giver.id, purpose, scene.id)
        return self.app._commit(ctx, giver, receiver, result=Gift(receiver.id))

    # ---- WCBH-20e: luck, with the GM's approval ------------------------------------------------

    @command
    def ask_luck(self, ctx: CommandContext, character_id: UUID, body: LuckCreate) -> Outcome:
        """WCBH-20e: ask the GM to change a small narrative detail by luck; pending until decided."""
        actor, character = self._acting(ctx, character_id)
        scene = open_scene_named(self.app, actor, body.scene_id)
        request_id = uuid4()
        character.ask_luck(request_id, scene.id, rules.text(body.detail, "detail"))
        return self.app._commit(ctx, character, result=Luck(request_id))

    @command
    def decide_luck(
        self, ctx: CommandContext, character_id: UUID, request_id: UUID, body: LuckDecision
    ) -> Outcome:
        """WCBH-20e: the GM approves (1 Resolve is spent now) or declines, once."""
        character = self.app._gm_target(ctx, Character, character_id)
        character.decide_luck(request_id, body.approve, body.note)
        return self.app._commit(ctx, character, result=Luck(request_id))

    # ---- WCBH-20f: imitating a Power -----------------------------------------------------------

    @command
    def imitate_power(self, ctx: CommandContext, scene_id: UUID, body: ImitationCreate) -> Outcome:
        """WCBH-20f: 1 Resolve, and for this scene an Ability or Power imitates another Power at
        its own rank (the imitating trait is what is rolled)."""
        turn = self.system.turn(ctx, scene_id)
        sheeted = turn.acting(body.character_id)
        character = sheeted.character
        minion = "a minion has no Ability or Power to imitate with"
        sheet = rules.with_abilities(sheeted.sheet, minion, "character_id", "WCBH-20f")
        name, rank = rules.imitating_trait(sheet, body.trait)
        power = rules.text(body.power, "power")
        rules.check_not_known(sheet.powers, power, character.name)
        rules.check_awake(character.unconscious, character.name, "imitate a Power")
        cost = RESOLVE_SPENDS["imitate_power"].cost
        _check_resolve(character, cost, "WCBH-20f")
        turn.scene.imitate_power(character.id, name, power, rank, body.purpose.strip())
        character.spend(
            {"resolve": cost}, reason=f"{name} ({rank}) imitates {power} this scene (WCBH-20f)"
        )
        return turn.save(turn.scene, character)

    # ---- WCBH-19: last gasp --------------------------------------------------------------------

    @command
    def last_gasp(self, ctx: CommandContext, character_id: UUID, body: LastGaspCreate) -> Outcome:
        """WCBH-19: at 0 Resolve, 1 Resolve to spend in this page; when the page ends whatever is
        left of it is gone and the character is unconscious until the end of the scene."""
        actor, character = self._acting(ctx, character_id)
        rules.check_has_resolve(character.side, "character_id", "WCBH-19")
        scene = open_scene_named(self.app, actor, body.scene_id)
        character.take_last_gasp(scene.id, scene.page)
        scene.use_once(LAST_GASP, character.id, "WCBH-19", exclusive=False)
        return self.app._commit(ctx, character, scene)

    def page_advanced(self, at: PageBoundary) -> None:
        """WCBH-19: whoever took a last gasp on the page that ended falls unconscious."""
        for character_id in at.scene.uses.get(LAST_GASP, []):
            character = at.loaded.character(self.app, at.actor, character_id)
            character.fall_unconscious(at.scene.id, at.scene.page)

    def scene_closed(self, at: SceneBoundary) -> None:
        """WCBH-19: the unconscious come to when their scene ends."""
        for character_id in at.scene.uses.get(LAST_GASP, []):
            at.loaded.character(self.app, at.actor, character_id).come_to(at.scene.id)

    # ---- WCBH-21: the scene's own Adversity, the villainous deed -------------------------------

    @command
    def open_scene_pool(self, ctx: CommandContext, scene_id: UUID, body: ScenePoolOpen) -> Outcome:
        """WCBH-21: the GM gives an especially hard scene its own pool (of a kind its game Issue
        has, e.g. adversity)."""
        actor, scene = self.app._addressed(ctx, Scene, scene_id, gm=True)
        issue = self.app.get(actor, Issue, scene.issue_id)
        rules.check_scene_pool(body.pool, issue.pools)
        scene.open_pool(body.pool, body.amount, body.reason)
        return self.app._commit(ctx, scene)

    @command
    def change_scene_pool(self, ctx: CommandContext, scene_id: UUID, body: PoolChange) -> Outcome:
        """WCBH-21: the GM gains or spends from the scene's own pool; never below zero."""
        scene = self.app._gm_target(ctx, Scene, scene_id)
        scene.change_pool(body.pool, body.change, body.reason)
        return self.app._commit(ctx, scene)

    @command
    def villainous_deed(
        self, ctx: CommandContext, issue_id: UUID, body: VillainousDeedCreate
    ) -> Outcome:
        """WCBH-21: once per game Issue the main villain's unstoppable deed, for 1 Adversity from
        the game Issue's pool, or from `scene_id`'s own pool."""
        actor, issue = self.app._addressed(ctx, Issue, issue_id, gm=True)
        _wcbh_campaign(self.app, actor)
        villain = self._named(actor, body.villain_id, "villain_id")
        rules.check_villain(villain.side, villain.name)
        description = rules.text(body.description, "description")
        issue.do_villainous_deed(villain.id, description, body.scene_id)
        reason = f"villainous deed of {villain.name}: {description}"
        if body.scene_id is None:
            issue.change_pool(ADVERSITY, -1, reason)
            return self.app._commit(ctx, issue)
        scene = open_scene_named(self.app, actor, body.scene_id)
        rules.check_same_issue(scene.issue_id == issue.id)
        scene.change_pool(ADVERSITY, -1, reason)
        return self.app._commit(ctx, issue, scene)

    # ---- WCBH-16: the Decisive Moment's Ability loss, and experience ---------------------------

    def rolled(self, scene: Scene, request: BaseModel, character: Character, roll_id: UUID) -> bool:
        """WCBH-16: a Decisive Moment roll with an effort owes an Ability rank (once per scene:
        a continued moment owes no more, WCBH-14); True if the character changed."""
        if not isinstance(request, TraitRequest | AttackRequest) or not request.decisive_moment:
            return False
        if request.effort is None or scene.id in character.loss_scenes:
            return False
        if character.sheet.get("kind", "character") == "minion":  # minions have no Abilities
            return False
        character.owe_ability_loss(roll_id, request.effort, scene.id)
        return True

    @command
    def lose_ability(
        self, ctx: CommandContext, character_id: UUID, body: AbilityLossCreate
    ) -> Outcome:
        """WCBH-16: record the Ability a Decisive Moment roll cost: one rank of Agility, Strength
        or Stamina after a physical effort, of Intelligence, Perception or Will after a mental one."""
        actor, character = self._acting(ctx, character_id)
        campaign = _wcbh_campaign(self.app, actor)
        effort = character.check_loss_owed(body.roll_id)
        ranks = form_of(_sheet(campaign, character), WcbhCharacter).abilities.ranks()
        name = rules.ability_name(body.ability, ranks)
        me = str(character.id)
        moments = DecisiveMoments(
            owed=((me, effort),),  # type: ignore[arg-type]
            lowered=tuple((me, entry["ability"]) for entry in character.lowered),
        )
        _, after = moments.lose_ability(me, name, ranks)  # 422 WCBH-16: wrong kind, rank 1
        rank = after[name] if after != ranks else None  # None: waived, every option is at rank 1
        health = None
        if rank is not None:
            new_health = _derived(campaign, character, name, rank)["health"]
            if character.resources.get("health", 0) > new_health:
                health = new_health  # the lower maximum caps the current Health
        character.lose_ability(body.roll_id, name, rank, health)
        return self.app._commit(ctx, character)

    @command
    def restore_ability(
        self, ctx: CommandContext, character_id: UUID, body: AbilityRestoreCreate
    ) -> Outcome:
        """WCBH-16: the GM records experience restoring a rank a Decisive Moment took."""
        actor, character = self.app._addressed(ctx, Character, character_id, gm=True)
        campaign = _wcbh_campaign(self.app, actor)
        minion = "a minion has no Abilities"
        sheet = rules.with_abilities(_sheet(campaign, character), minion, "ability", "WCBH-16")
        ranks = sheet.abilities.ranks()
        name = rules.ability_name(body.ability, ranks)
        me = str(character.id)
        moments = DecisiveMoments(lowered=tuple((me, e["ability"]) for e in character.lowered))
        _, after = moments.restore_ability(me, name, ranks)  # 422 WCBH-16 unless it was lowered
        _derived(campaign, character, name, after[name])  # the ruleset still accepts it
        character.restore_ability(name, after[name], rules.text(body.reason, "reason"))
        return self.app._commit(ctx, character)

    # ---- loading: these commands act on a character (If-Match names its version) --------------

    def _acting(self, ctx: CommandContext, character_id: UUID) -> tuple[Actor, Character]:
        """The sender and the character of a We Can Be Heroes campaign it acts for."""
        actor, character = self.app._addressed(ctx, Character, character_id)
        self.app._check_may_act_for(actor, character)
        _wcbh_campaign(self.app, actor)
        return actor, character

    def _named(self, actor: Actor, character_id: UUID, field: str) -> Character:
        return self.app.named(actor, Character, character_id, field)


# ---- helpers -------------------------------------------------------------------------------------


def _wcbh_campaign(app: Chronicle, actor: Actor) -> Campaign:
    campaign = app.campaign_of(actor)
    if campaign.ruleset != "wcbh":
        raise InvalidInput(
            f"this is a rule of We Can Be Heroes; the campaign plays {campaign.ruleset}",
            code="wrong_ruleset",
        )
    return campaign


def _sheet(campaign: Campaign, character: Character) -> BaseModel:
    rules_ = get_ruleset(campaign.ruleset)
    settings = rules_.parse_settings(campaign.settings)
    return form_of(
        rules_.parse_sheet(character.sheet, settings, side=character.side),
        WcbhCharacter,
        WcbhMinion,
    )


def _derived(campaign: Campaign, character: Character, ability: str, rank: int) -> dict[str, Any]:
    """The derived stats with `ability` at `rank` (the ruleset validates that sheet)."""
    rules_ = get_ruleset(campaign.ruleset)
    settings = rules_.parse_settings(campaign.settings)
    sheet = {**character.sheet, "abilities": {**character.sheet["abilities"], ability: rank}}
    return rules_.derived_stats(rules_.parse_sheet(sheet, settings, side=character.side), settings)


def _check_resolve(character: Character, cost: int, rule: str) -> None:
    have = character.resources.get("resolve", 0)
    if cost > have:
        raise not_enough(character.name, "resource", "resolve", have, cost, rule)
