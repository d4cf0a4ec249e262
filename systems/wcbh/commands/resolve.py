"""Resolve spends, last gasp, Adversity pools and the Decisive Moment's aftermath (WCBH-16..21).

What "unconscious" (after a last gasp, WCBH-19) blocks: rolls (`_roll_check`), imitating a Power,
giving Resolve directly (from afar it may, WCBH-20a) and a second last gasp. It ends with the scene.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from pydantic import BaseModel

from domain.aggregates import Campaign, Character, Issue, Scene
from domain.aggregates._checks import not_enough
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks, Loaded
from domain.errors import Conflict, InvalidInput, NotFound
from domain.rulesets import get_ruleset
from domain.rulesets.base import form_of
from systems.wcbh.rules.checks import TraitRequest
from systems.wcbh.rules.play import ABILITY_LOSS, RESOLVE_SPENDS, DecisiveMoments
from systems.wcbh.rules.sheet import WcbhCharacter, WcbhMinion

ADVERSITY = "adversity"
LAST_GASP = "last_gasp"  # the scene's once-per-character use (LIMITED_USES of the wcbh ruleset)


class ResolveCommands(Hooks):
    """Mixed into the Chronicle application."""

    # ---- WCBH-20a: giving Resolve --------------------------------------------------------------

    @command
    def give_resolve(
        self,
        ctx: CommandContext,
        giver_id: UUID,
        receiver_id: UUID,
        scene_id: UUID,
        purpose: str,
        *,
        directly: bool = True,
        flashback: str | None = None,
    ) -> Outcome:
        """WCBH-20a: 1 Resolve to another character to help an action; from afar it costs 2."""
        actor = self._member(ctx)
        giver = self._target(ctx, actor, Character, giver_id)
        self._check_may_act_for(actor, giver)
        self._rv_wcbh(actor)
        scene = self._rv_open_scene(actor, scene_id)
        receiver = self._rv_named_character(actor, receiver_id, "receiver_id")
        if receiver.id == giver.id:
            raise InvalidInput(
                "a character gives Resolve to another character",
                field="receiver_id",
                rule="WCBH-20a",
            )
        if receiver.side == "minion":
            raise InvalidInput(
                "a minion has no Resolve (WCBH-3)", field="receiver_id", rule="WCBH-20a"
            )
        if directly == (flashback is not None):
            raise InvalidInput(
                "a gift from afar (directly false) comes with its flashback; a direct one has none",
                field="flashback",
                rule="WCBH-20a",
            )
        cost = RESOLVE_SPENDS["give" if directly else "give_from_afar"].cost
        purpose = _text(purpose, "purpose")
        flashback = None if flashback is None else _text(flashback, "flashback")
        giver.give_resolve(receiver.id, cost, purpose, flashback, scene.id)
        receiver.receive_resolve(giver.id, purpose, scene.id)
        return self._commit(ctx, giver, receiver, revealed={"receiver_id": receiver.id})

    # ---- WCBH-20e: luck, with the GM's approval ------------------------------------------------

    @command
    def ask_luck(
        self, ctx: CommandContext, character_id: UUID, scene_id: UUID, detail: str
    ) -> Outcome:
        """WCBH-20e: ask the GM to change a small narrative detail by luck; pending until decided."""
        actor = self._member(ctx)
        character = self._target(ctx, actor, Character, character_id)
        self._check_may_act_for(actor, character)
        self._rv_wcbh(actor)
        scene = self._rv_open_scene(actor, scene_id)
        request_id = uuid4()
        character.ask_luck(request_id, scene.id, _text(detail, "detail"))
        return self._commit(ctx, character, revealed={"request_id": request_id})

    @command
    def decide_luck(
        self,
        ctx: CommandContext,
        character_id: UUID,
        request_id: UUID,
        approve: bool,
        note: str | None = None,
    ) -> Outcome:
        """WCBH-20e: the GM approves (1 Resolve is spent now) or declines, once."""
        actor = self._gm(ctx)
        character = self._target(ctx, actor, Character, character_id)
        character.decide_luck(request_id, approve, note)
        return self._commit(ctx, character, revealed={"request_id": request_id})

    # ---- WCBH-20f: imitating a Power -----------------------------------------------------------

    @command
    def imitate_power(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        trait: str,
        power: str,
        purpose: str = "",
    ) -> Outcome:
        """WCBH-20f: 1 Resolve, and for this scene an Ability or Power imitates another Power at
        its own rank (the imitating trait is what is rolled)."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        character = self._rv_named_character(actor, character_id, "character_id")
        self._check_may_act_for(actor, character)
        campaign = self._rv_wcbh(actor)
        sheet = self._rv_sheet(campaign, character)
        if not isinstance(sheet, WcbhCharacter):
            raise InvalidInput(
                "a minion has no Ability or Power to imitate with",
                field="character_id",
                rule="WCBH-20f",
            )
        name, rank = _imitating_trait(sheet, trait)
        power = _text(power, "power")
        if any(known.casefold() == power.casefold() for known in sheet.powers):
            raise InvalidInput(
                f"{character.name} has {power!r} already: roll it", field="power", rule="WCBH-20f"
            )
        _check_awake(character, "imitate a Power")
        cost = RESOLVE_SPENDS["imitate_power"].cost
        _check_resolve(character, cost, "WCBH-20f")
        scene.imitate_power(character.id, name, power, rank, purpose.strip())
        character.spend(
            {"resolve": cost}, reason=f"{name} ({rank}) imitates {power} this scene (WCBH-20f)"
        )
        return self._commit(ctx, scene, character)

    # ---- WCBH-19: last gasp --------------------------------------------------------------------

    @command
    def last_gasp(self, ctx: CommandContext, character_id: UUID, scene_id: UUID) -> Outcome:
        """WCBH-19: at 0 Resolve, 1 Resolve to spend in this page; when the page ends whatever is
        left of it is gone and the character is unconscious until the end of the scene."""
        actor = self._member(ctx)
        character = self._target(ctx, actor, Character, character_id)
        self._check_may_act_for(actor, character)
        self._rv_wcbh(actor)
        if character.side == "minion":
            raise InvalidInput(
                "a minion has no Resolve (WCBH-3)", field="character_id", rule="WCBH-19"
            )
        scene = self._rv_open_scene(actor, scene_id)
        character.take_last_gasp(scene.id, scene.page)
        scene.use_once(LAST_GASP, character.id, "WCBH-19", exclusive=False)
        return self._commit(ctx, character, scene)

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        super()._page_advanced(actor, scene, loaded)
        for character_id in scene.uses.get(LAST_GASP, []):
            loaded.character(self, actor, character_id).fall_unconscious(scene.id, scene.page)

    def _scene_closed(self, actor: Actor, scene: Scene, issue: Issue, loaded: Loaded) -> None:
        super()._scene_closed(actor, scene, issue, loaded)
        for character_id in scene.uses.get(LAST_GASP, []):
            loaded.character(self, actor, character_id).come_to(scene.id)

    # ---- WCBH-21: the scene's own Adversity, the villainous deed -------------------------------

    @command
    def open_scene_pool(
        self, ctx: CommandContext, scene_id: UUID, pool: str, amount: int, reason: str
    ) -> Outcome:
        """WCBH-21: the GM gives an especially hard scene its own pool (of a kind its game Issue
        has, e.g. adversity)."""
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        issue = self.get(actor, Issue, scene.issue_id)
        if pool not in issue.pools:
            raise InvalidInput(
                f"a scene's own pool is of a kind its game Issue has: {', '.join(issue.pools) or 'none'}",
                field="pool",
                rule="WCBH-21",
            )
        scene.open_pool(pool, amount, reason)
        return self._commit(ctx, scene)

    @command
    def change_scene_pool(
        self, ctx: CommandContext, scene_id: UUID, pool: str, change: int, reason: str
    ) -> Outcome:
        """WCBH-21: the GM gains or spends from the scene's own pool; never below zero."""
        actor = self._gm(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        scene.change_pool(pool, change, reason)
        return self._commit(ctx, scene)

    @command
    def villainous_deed(
        self,
        ctx: CommandContext,
        issue_id: UUID,
        villain_id: UUID,
        description: str,
        scene_id: UUID | None = None,
    ) -> Outcome:
        """WCBH-21: once per game Issue the main villain's unstoppable deed, for 1 Adversity from
        the game Issue's pool, or from `scene_id`'s own pool."""
        actor = self._gm(ctx)
        issue = self._target(ctx, actor, Issue, issue_id)
        self._rv_wcbh(actor)
        villain = self._rv_named_character(actor, villain_id, "villain_id")
        if villain.side != "villain":
            raise InvalidInput(
                f"the main villain is a character of the villain side; {villain.name} is "
                f"{villain.side}",
                field="villain_id",
                rule="WCBH-21",
            )
        description = _text(description, "description")
        issue.do_villainous_deed(villain.id, description, scene_id)
        reason = f"villainous deed of {villain.name}: {description}"
        if scene_id is None:
            issue.change_pool(ADVERSITY, -1, reason)
            return self._commit(ctx, issue)
        scene = self._rv_open_scene(actor, scene_id)
        if scene.issue_id != issue.id:
            raise InvalidInput(
                "scene_id names a scene of another game Issue", field="scene_id", rule="WCBH-21"
            )
        scene.change_pool(ADVERSITY, -1, reason)
        return self._commit(ctx, issue, scene)

    # ---- WCBH-16: the Decisive Moment's Ability loss, and experience ---------------------------

    def _rolled(
        self, actor: Actor, scene: Scene, request: BaseModel, character: Character, roll_id: UUID
    ) -> list[Any]:
        touched = super()._rolled(actor, scene, request, character, roll_id)
        if (
            isinstance(request, TraitRequest)
            and request.decisive_moment
            and request.effort is not None
            and character.sheet.get("kind", "character") != "minion"  # minions have no Abilities
            and scene.id not in character.loss_scenes  # a continued moment owes no more (WCBH-14)
        ):
            character.owe_ability_loss(roll_id, request.effort, scene.id)
            touched.append(character)
        return touched

    @command
    def lose_ability(
        self, ctx: CommandContext, character_id: UUID, roll_id: UUID, ability: str
    ) -> Outcome:
        """WCBH-16: record the Ability a Decisive Moment roll cost: one rank of Agility, Strength
        or Stamina after a physical effort, of Intelligence, Perception or Will after a mental one."""
        actor = self._member(ctx)
        character = self._target(ctx, actor, Character, character_id)
        self._check_may_act_for(actor, character)
        campaign = self._rv_wcbh(actor)
        effort = character.check_loss_owed(roll_id)
        ranks = form_of(self._rv_sheet(campaign, character), WcbhCharacter).abilities.ranks()
        name = _ability_name(ability, ranks)
        me = str(character.id)
        moments = DecisiveMoments(
            owed=((me, effort),),  # type: ignore[arg-type]
            lowered=tuple((me, entry["ability"]) for entry in character.lowered),
        )
        _, after = moments.lose_ability(me, name, ranks)  # 422 WCBH-16: wrong kind, rank 1
        rank = after[name] if after != ranks else None  # None: waived, every option is at rank 1
        health = None
        if rank is not None:
            new_health = self._rv_derived(campaign, character, name, rank)["health"]
            if character.resources.get("health", 0) > new_health:
                health = new_health  # the lower maximum caps the current Health
        character.lose_ability(roll_id, name, rank, health)
        return self._commit(ctx, character)

    @command
    def restore_ability(
        self, ctx: CommandContext, character_id: UUID, ability: str, reason: str
    ) -> Outcome:
        """WCBH-16: the GM records experience restoring a rank a Decisive Moment took."""
        actor = self._gm(ctx)
        character = self._target(ctx, actor, Character, character_id)
        campaign = self._rv_wcbh(actor)
        sheet = self._rv_sheet(campaign, character)
        if not isinstance(sheet, WcbhCharacter):
            raise InvalidInput("a minion has no Abilities", field="ability", rule="WCBH-16")
        ranks = sheet.abilities.ranks()
        name = _ability_name(ability, ranks)
        me = str(character.id)
        moments = DecisiveMoments(lowered=tuple((me, e["ability"]) for e in character.lowered))
        _, after = moments.restore_ability(me, name, ranks)  # 422 WCBH-16 unless it was lowered
        self._rv_derived(campaign, character, name, after[name])  # the ruleset still accepts it
        character.restore_ability(name, after[name], _text(reason, "reason"))
        return self._commit(ctx, character)

    # ---- helpers -------------------------------------------------------------------------------

    def _rv_wcbh(self, actor: Actor) -> Campaign:
        campaign = self.campaign_of(actor)
        if campaign.ruleset != "wcbh":
            raise InvalidInput(
                f"this is a rule of We Can Be Heroes; the campaign plays {campaign.ruleset}",
                code="wrong_ruleset",
            )
        return campaign

    def _rv_named_character(self, actor: Actor, character_id: UUID, field: str) -> Character:
        try:
            return self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                f"{field} names no character of this campaign", field=field
            ) from None

    def _rv_open_scene(self, actor: Actor, scene_id: UUID) -> Scene:
        try:
            scene = self.get(actor, Scene, scene_id)
        except NotFound:
            raise InvalidInput(
                "scene_id names no scene of this campaign", field="scene_id"
            ) from None
        if scene.closed:
            raise Conflict("the scene is closed", field="scene_id", code="scene_closed")
        return scene

    @staticmethod
    def _rv_sheet(campaign: Campaign, character: Character) -> BaseModel:
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        return form_of(
            rules.parse_sheet(character.sheet, settings, side=character.side),
            WcbhCharacter,
            WcbhMinion,
        )

    @staticmethod
    def _rv_derived(
        campaign: Campaign, character: Character, ability: str, rank: int
    ) -> dict[str, Any]:
        """The derived stats with `ability` at `rank` (the ruleset validates that sheet)."""
        rules = get_ruleset(campaign.ruleset)
        settings = rules.parse_settings(campaign.settings)
        sheet = {**character.sheet, "abilities": {**character.sheet["abilities"], ability: rank}}
        return rules.derived_stats(
            rules.parse_sheet(sheet, settings, side=character.side), settings
        )


# ---- pure helpers ------------------------------------------------------------------------------


def _text(value: str, field: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(f"{field} must not be empty", field=field)
    return text


def _check_resolve(character: Character, cost: int, rule: str) -> None:
    have = character.resources.get("resolve", 0)
    if cost > have:
        raise not_enough(character.name, "resource", "resolve", have, cost, rule)


def _check_awake(character: Character, what: str) -> None:
    if character.unconscious:
        raise Conflict(
            f"{character.name} is unconscious until the end of the scene and cannot {what}",
            field="character_id",
            code="unconscious",
            rule="WCBH-19",
        )


def _imitating_trait(sheet: WcbhCharacter, trait: str) -> tuple[str, int]:
    """WCBH-20f: the Ability or ranked Power that imitates (Talents do not), by name and rank."""
    wanted = trait.strip().casefold()
    ranked = [
        *sheet.abilities.ranks().items(),
        *((name, power.rank) for name, power in sheet.powers.items() if power.rank is not None),
    ]
    for name, rank in ranked:
        if name.casefold() == wanted:
            return name, rank
    raise InvalidInput(
        f"the sheet has no Ability or ranked Power {trait!r} (Talents do not imitate Powers)",
        field="trait",
        rule="WCBH-20f",
        details={"known": [name for name, _ in ranked]},
    )


def _ability_name(ability: str, ranks: dict[str, int]) -> str:
    """The sheet's spelling of an Ability named in any case."""
    wanted = ability.strip().casefold()
    return next((name for name in ranks if name.casefold() == wanted), ability.strip())


def resolve_fields(character: Character) -> dict[str, Any]:
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


def owed_loss(effort: str, scene_id: UUID | str) -> dict[str, Any]:
    """One owed Ability loss as the character view shows it (WCBH-16)."""
    return {
        "effort": effort,
        "scene_id": str(scene_id),
        "options": list(ABILITY_LOSS[effort]),  # type: ignore[index]
    }
