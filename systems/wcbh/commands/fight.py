"""The page's actions and the attack maneuvers of We Can Be Heroes (WCBH-25, WCBH-40..47).

Each character's page state (WCBH-25: declared and used actions, targets, its move, a lost turn,
halved defences) lives on the Scene and starts afresh when the page advances; a lost turn of the
next page waits there too. Maneuver penalties and holds live on the Character as conditions.
The dice a page and conditions add to a roll are written into the roll's request, so that the
roll record recomputes from itself alone (docs/fair-dice.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from pydantic import BaseModel

from domain.aggregates import Campaign, Character, Issue, Roll, RollChain, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Hooks, Loaded
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from domain.rolls import Declared, declared_by
from domain.rulesets import get_ruleset
from domain.rulesets.base import ATTACK_CHECK, Check, unwrap
from systems.wcbh.rules.attack import defence_options, is_minion, rank_of
from systems.wcbh.rules.combat import Defence, PageState
from systems.wcbh.rules.maneuvers import knockback, redirect, team_attack
from systems.wcbh.rules.sheet import WcbhCharacter

WCBH = "wcbh"
MAX_ACTIONS = 10

MANEUVER_TRAITS: dict[
    str, tuple[str | None, tuple[str, ...] | None, str, tuple[str, ...] | None]
] = {
    # WCBH-41: maneuver -> (default trait, traits allowed besides Powers (None: any), default
    # opposing trait, opposing traits allowed besides Powers (None: any)).
    "feint": ("Agility", ("Agility",), "Agility", ("Agility",)),
    "stunning_blow": (None, None, "Agility", ("Agility", "Strength", "Stamina")),
    "overpower": ("Strength", ("Strength",), "Strength", None),
    "taunt": ("Charisma", ("Charisma", "Leadership"), "Will", ("Will",)),
}

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


@dataclass
class Fighter:
    """One character's page, as loaded: the library's PageState and what it does not hold: the
    rule that took the turn, no active defence (WCBH-42), defending an ally (WCBH-44)."""

    state: PageState
    lost_rule: str | None = None
    passive_only: bool = False
    defending: bool = False

    def dump(self) -> dict[str, Any]:
        raw: dict[str, Any] = {name: getattr(self.state, name) for name in STATE_FIELDS}
        raw["attacked"] = sorted(self.state.attacked)
        raw.update(
            lost_rule=self.lost_rule, passive_only=self.passive_only, defending=self.defending
        )
        return raw


def _fighter(raw: Mapping[str, Any], character_id: UUID) -> Fighter:
    fields = {name: raw[name] for name in STATE_FIELDS if name in raw}
    state = PageState(str(character_id), attacked=frozenset(raw.get("attacked", ())), **fields)
    return Fighter(
        state,
        raw.get("lost_rule"),
        bool(raw.get("passive_only", False)),
        bool(raw.get("defending", False)),
    )


def _refused(exc: InvalidInput, code: str = "page_action_refused") -> Conflict:
    """The library's page rules raise InvalidInput; against the page's state they are 409s."""
    return Conflict(exc.message, field=exc.field, code=code, rule=exc.rule, details=exc.details)


def _unique(aggregates: Iterable[Aggregate]) -> list[Aggregate]:
    seen: dict[int, Aggregate] = {}
    for aggregate in aggregates:
        seen.setdefault(id(aggregate), aggregate)
    return list(seen.values())


class FightCommands(Hooks):
    """Mixed into the Chronicle application."""

    # ---- the page state (WCBH-25) ------------------------------------------------------------

    def _fight_page_of(
        self, scene: Scene, character_id: UUID, *, next_page: bool = False
    ) -> Fighter:
        return _fighter(scene.page_state(character_id, next_page=next_page), character_id)

    def _fight_save(self, scene: Scene, character_id: UUID, fighter: Fighter, change: str) -> None:
        scene.set_page_state(character_id, fighter.dump(), change)

    def _lose_next_turn(self, scene: Scene, character_id: UUID, rule: str, why: str) -> int:
        """The character cannot act on the next page (knockback WCBH-45, a 5+ maneuver WCBH-41,
        a redirect at someone WCBH-46, dodging an area attack WCBH-43, defending others WCBH-44).
        Ruling: "its next turn" is the next page (the source's word for both is "ход")."""
        nxt = self._fight_page_of(scene, character_id, next_page=True)
        nxt.state = replace(nxt.state, lost_turn=True)
        nxt.lost_rule = nxt.lost_rule or rule
        scene.set_page_state(
            character_id, nxt.dump(), f"loses its next turn: {why}", next_page=True
        )
        return scene.page + 1

    @staticmethod
    def _fight_check_turn(fighter: Fighter, character: Character) -> None:
        if fighter.state.lost_turn:
            rule = fighter.lost_rule or "WCBH-25"
            raise Conflict(
                f"{character.name} lost its turn this page ({rule})",
                field="character_id",
                code="turn_lost",
                rule=rule,
            )

    def _fight_act(
        self,
        scene: Scene,
        character: Character,
        targets: Sequence[UUID],
        change: str,
        maneuver: str | None = None,
    ) -> None:
        """WCBH-25: one declared action on ``targets`` (none: an action on no one); every target
        counts as attacked this page. ``maneuver``: a charge or all-out attack (WCBH-44)."""
        if character.status == "defeated":  # WCBH-31: out of the fight (WCBH-39 brings it back)
            raise Conflict(
                f"{character.name} is defeated and out of the fight",
                field="character_id",
                code="defeated",
                rule="WCBH-31",
            )
        fighter = self._fight_page_of(scene, character.id)
        self._fight_check_turn(fighter, character)
        state = fighter.state
        try:
            if not targets:
                state = state.act()
            elif maneuver == "charge":
                state = state.charge(str(targets[0]))
            elif maneuver == "all_out":
                state = state.all_out_attack(str(targets[0]))
            else:
                state = state.attack(str(targets[0]))
            for target in targets[1:]:
                if str(target) in state.attacked:
                    raise InvalidInput(
                        "that target was already attacked this page", field="target", rule="WCBH-25"
                    )
                state = replace(state, attacked=state.attacked | {str(target)})
        except InvalidInput as exc:
            raise _refused(exc) from None
        fighter.state = state
        self._fight_save(scene, character.id, fighter, change)
        for target in targets:
            scene.record_attack(character.id, target)

    # ---- dice the page and conditions add (WCBH-25, 41, 44) ------------------------------------

    @staticmethod
    def _fight_conditions_of(scene: Scene, character: Character) -> dict[str, dict[str, Any]]:
        return {
            name: c
            for name, c in character.fight_conditions.items()
            if c.get("scene_id") == str(scene.id)
            and (c.get("until_page") is None or c["until_page"] >= scene.page)
        }

    def _maneuver_penalty(self, scene: Scene, character: Character) -> int:
        """WCBH-41: a maneuver's −1..−3 on every roll of the character. Ruling: several
        maneuvers do not add up; the strongest counts."""
        penalties = [
            c.get("penalty", 0) for c in self._fight_conditions_of(scene, character).values()
        ]
        return min([0, *penalties])

    def _page_dice(self, scene: Scene, character: Character, *, defence: bool) -> int:
        state = self._fight_page_of(scene, character.id).state
        return state.dice_modifier(defence=defence) + self._maneuver_penalty(scene, character)

    def _fight_as_target(self, scene: Scene, character: Character) -> dict[str, Any]:
        """The target's side of a request: its defence dice and defences halved by its own charge
        or all-out attack this page (WCBH-44)."""
        state = self._fight_page_of(scene, character.id).state
        return {
            "defence_modifier": self._page_dice(scene, character, defence=True),
            "halve_active": state.halve_active,
            "halve_passive": state.halve_passive,
        }

    def _with_page_dice(
        self,
        scene: Scene,
        campaign: Campaign,
        check: Check,
        request: Mapping[str, Any],
        character: Character | None,
        *,
        action: bool = True,
    ) -> Mapping[str, Any]:
        """WCBH-25, 41: a character's roll in a scene carries the page's dice in `page_modifier`
        (checks whose request has that field: trait, attack, grapple, maneuver, area attack); a
        client may omit it or send the same value. A check that is no action (`action` False) gets
        only a maneuver's penalty, not the extra actions' (WCBH-25: "other checks are unchanged")."""
        request = super()._with_page_dice(scene, campaign, check, request, character, action=action)
        if (
            campaign.ruleset != WCBH
            or character is None
            or not isinstance(request, Mapping)
            or "page_modifier" not in check.Request.model_fields
        ):
            return request
        dice = (
            self._page_dice(scene, character, defence=False)
            if action
            else self._maneuver_penalty(scene, character)
        )
        sent = request.get("page_modifier", dice)
        if sent != dice:
            raise InvalidInput(
                f"page_modifier is filled by the server: {dice} for {character.name} on this page",
                field="request.page_modifier",
                rule="WCBH-25",
                details={"expected": dice},
            )
        return {**request, "page_modifier": dice}

    # ---- Resolve after an attack (WCBH-20b, 20c) -------------------------------------------------

    def _followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """Resolve dice or a reroll after an attack decided its hit again (the rules,
        systems/wcbh/rules/follow_ups.py): the target's Health changes in the same save."""
        touched: list[Any] = super()._followed_up(actor, scene, original, follow)  # type: ignore[misc]
        record = original.record
        if record.get("ruleset") != WCBH or record.get("check") != ATTACK_CHECK:
            return touched
        if record["request"].get("target_id") is None:
            return touched  # a raw attack roll (POST .../rolls) hit no one: nothing to decide again
        if str(original.id) in scene.attack_follow_ups:
            raise Conflict(
                "Resolve after an attack comes before its knockback or redirect",
                field="roll_id",
                code="follow_up_refused",
                rule="WCBH-20b",
            )
        notes = original.follow_ups  # the new follow-up is the last one
        before = notes[-2]["result"] if len(notes) > 1 else record["result"]
        target = self._fight_character(actor, UUID(record["request"]["target_id"]), "roll_id")
        if self._fight_revise_hit(actor, target, record["request"], before, follow, scene):
            touched.append(target)
        return touched

    def _fight_revise_hit(
        self,
        actor: Actor,
        target: Character,
        request: Mapping[str, Any],
        before: Mapping[str, Any],
        follow: Roll,
        scene: Scene,
    ) -> bool:
        """The Health the attack took, taken again by its new outcome. Ruling: relative to the
        target's Health now (what changed it since stays), within 0..its maximum; a defeat that
        the new outcome undoes puts the target back up."""
        after = follow.record["result"]
        took_before = request["target_health"] - before["health"]
        took_after = request["target_health"] - after["health"]
        if took_before == took_after:
            return False
        _, settings = self._fight(actor)
        rules = get_ruleset(WCBH)
        sheet = self._fight_sheet(target, settings)
        maximum = int(rules.resources(sheet, settings)["health"]["max"])
        health = min(maximum, max(0, self._fight_health(target) + took_before - took_after))
        revived = bool(before["defeated"]) and health > 0
        target.revise_hit(health, health == 0, revived, follow.id, scene.id, scene.page)
        return True

    # ---- boundaries ----------------------------------------------------------------------------

    def _page_advanced(self, actor: Actor, scene: Scene, loaded: Loaded) -> None:
        """Conditions that last to the end of a page end with it (WCBH-40, 41)."""
        super()._page_advanced(actor, scene, loaded)
        for character_id in scene.affected:
            character = loaded.character(self, actor, character_id)
            over = [
                name
                for name, c in character.fight_conditions.items()
                if c.get("scene_id") == str(scene.id)
                and c.get("until_page") is not None
                and c["until_page"] < scene.page
            ]
            character.lift_conditions(over, scene.id, "their page is over")

    def _scene_closed(self, actor: Actor, scene: Scene, issue: Issue, loaded: Loaded) -> None:
        """A fight's conditions end with its scene (holds and taken weapons too, WCBH-40)."""
        super()._scene_closed(actor, scene, issue, loaded)
        for character_id in scene.affected:
            character = loaded.character(self, actor, character_id)
            ended = [
                name
                for name, c in character.fight_conditions.items()
                if c.get("scene_id") == str(scene.id)
            ]
            character.lift_conditions(ended, scene.id, "the scene closed")

    # ---- loading -------------------------------------------------------------------------------

    def _fight(self, actor: Actor) -> tuple[Campaign, BaseModel]:
        campaign = self.campaign_of(actor)
        if campaign.ruleset != WCBH:
            raise InvalidInput(
                f"{get_ruleset(campaign.ruleset).name} has no such fight command",
                field="scene_id",
            )
        return campaign, get_ruleset(WCBH).parse_settings(campaign.settings)

    def _fight_character(
        self, actor: Actor, character_id: UUID, field: str, loaded: Loaded | None = None
    ) -> Character:
        try:
            if loaded is not None:
                return loaded.character(self, actor, character_id)
            return self.get(actor, Character, character_id)
        except NotFound:
            raise InvalidInput(
                f"{field} names no character of this campaign", field=field
            ) from None

    def _fight_actor_character(
        self, actor: Actor, character_id: UUID, field: str, loaded: Loaded | None = None
    ) -> Character:
        character = self._fight_character(actor, character_id, field, loaded)
        try:
            self._check_may_act_for(actor, character)
        except Forbidden as exc:
            raise Forbidden(exc.message, field=field) from None
        return character

    @staticmethod
    def _fight_sheet(character: Character, settings: BaseModel) -> BaseModel:
        return get_ruleset(WCBH).parse_sheet(character.sheet, settings, side=character.side)

    @staticmethod
    def _fight_standing(character: Character, field: str) -> None:
        if character.status == "defeated":
            raise Conflict(
                f"{character.name} is already defeated",
                field=field,
                code="target_defeated",
                rule="WCBH-31",
            )

    def _fight_defences(
        self,
        scene: Scene,
        target: Character,
        sheet: BaseModel,
        active: Sequence[str],
        *,
        field: str = "defences",
        redirect_declared: bool = False,
    ) -> list[dict[str, Any]]:
        """WCBH-28 options, less the active ones of a target surprised by an ambush (WCBH-42),
        less the passive ones of a target that declared a redirect (WCBH-46)."""
        options = defence_options(sheet, active, field)
        if self._fight_page_of(scene, target.id).passive_only:
            options = [o for o in options if not o["active"]]
        if redirect_declared:
            options = [o for o in options if o["active"]]
            if not options:
                raise InvalidInput(
                    "a redirect needs an active defence: name one the target has",
                    field="redirect",
                    rule="WCBH-46",
                )
        return options

    @staticmethod
    def _fight_rank(sheet: BaseModel, trait: str, field: str, rule: str) -> int:
        """A trait's rank; a minion rolls its threat for everything (WCBH-3)."""
        form = unwrap(sheet)
        if is_minion(sheet):
            return int(form.threat)  # type: ignore[attr-defined]
        return rank_of(sheet, trait, field, rule)

    @staticmethod
    def _fight_health(character: Character) -> int:
        return int(character.resources.get("health", 0))

    def _fight_hit(
        self, character: Character, entry: Mapping[str, Any], roll_id: UUID, scene: Scene
    ) -> bool:
        if not (entry.get("damage") or entry.get("defeated")):
            return False
        character.take_hit(entry["health"], entry["defeated"], roll_id, scene.id, scene.page)
        return True

    # ---- WCBH-25: declaring actions, moving ------------------------------------------------------

    @command
    def declare_actions(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        character_id: UUID,
        actions: int = 1,
        all_out_defence: bool = False,
    ) -> Outcome:
        """WCBH-25: how many actions the character takes this page (each extra one: −2 dice on
        every roll of the page but defence); WCBH-44: or all-out defence (+2 dice to defence, no
        actions). Ruling (PageState.declare_action): only before its first action of the page."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._fight(actor)
        character = self._fight_actor_character(actor, character_id, "character_id")
        if not 1 <= actions <= MAX_ACTIONS:
            raise InvalidInput(f"1 to {MAX_ACTIONS} actions", field="actions", rule="WCBH-25")
        if all_out_defence and actions != 1:
            raise InvalidInput(
                "all-out defence takes no actions besides it", field="actions", rule="WCBH-44"
            )
        fighter = self._fight_page_of(scene, character.id)
        self._fight_check_turn(fighter, character)
        state = fighter.state
        if state.used:
            raise Conflict(
                "extra actions (and all-out defence) are declared before the first action of "
                "the page",
                field="actions",
                code="page_action_refused",
                rule="WCBH-44" if all_out_defence else "WCBH-25",
            )
        fighter.state = replace(state, declared=actions, all_out_defence=all_out_defence)
        change = "all-out defence" if all_out_defence else f"declares {actions} action(s)"
        self._fight_save(scene, character.id, fighter, change)
        return self._commit(ctx, scene, revealed={"character_id": character.id})

    @command
    def move(self, ctx: CommandContext, scene_id: UUID, character_id: UUID) -> Outcome:
        """WCBH-25: one move per page, besides the action; not with a lost turn, a 3+ maneuver
        (WCBH-41) or held (WCBH-40)."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        self._fight(actor)
        character = self._fight_actor_character(actor, character_id, "character_id")
        fighter = self._fight_page_of(scene, character.id)
        self._fight_check_turn(fighter, character)
        conditions = self._fight_conditions_of(scene, character)
        if "held" in conditions:
            raise Conflict(
                f"{character.name} is held and cannot move",
                field="character_id",
                code="held",
                rule="WCBH-40",
            )
        immobile = any(c.get("cannot_move") for c in conditions.values())
        try:
            fighter.state = replace(fighter.state, immobile=immobile).move()
        except InvalidInput as exc:
            raise _refused(exc) from None
        self._fight_save(scene, character.id, fighter, "moves")
        return self._commit(ctx, scene, revealed={"character_id": character.id})

    def page_view(self, actor: Actor, scene: Scene, character: Character) -> dict[str, Any]:
        """The character's page in this scene, with the dice the page adds to its rolls."""
        fighter = self._fight_page_of(scene, character.id)
        nxt = self._fight_page_of(scene, character.id, next_page=True)
        return {
            "scene_id": scene.id,
            "page": scene.page,
            "character_id": character.id,
            **fighter.dump(),
            "dice": {
                "action": self._page_dice(scene, character, defence=False),
                "defence": self._page_dice(scene, character, defence=True),
            },
            "next_page_lost": nxt.lost_rule if nxt.state.lost_turn else None,
            "conditions": [
                {"name": n, **c} for n, c in self._fight_conditions_of(scene, character).items()
            ],
            "version": scene.version,
        }

    # ---- WCBH-28, 44, 46: attacks ------------------------------------------------------------------

    @command
    def attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        target_id: UUID,
        trait: str,
        *,
        weapon: int = 0,
        modifier: int = 0,
        active_defences: tuple[str, ...] = ("Agility",),
        lethal: bool = True,
        purpose: str | None = None,
        effect: str | None = None,
        client_seed: str | None = None,
        maneuver: str | None = None,
        club_id: UUID | None = None,
        defender_id: UUID | None = None,
        defender_active: bool = True,
        redirect: bool = False,
    ) -> Outcome:
        """WCBH-25, 28..31, 33: one attack of one character on another, rolled as one fair roll
        (every pool), the Health lowered and defeats recorded in the same save. WCBH-44: a charge
        or all-out attack (`maneuver`), bashing the target with `club_id`, an ally (`defender_id`)
        defending the target; WCBH-46: the target declared a redirect."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        attacker = self._fight_actor_character(actor, attacker_id, "attacker_id", loaded)
        attacker_sheet = self._fight_sheet(attacker, settings)
        target = self._fight_character(actor, target_id, "target_id", loaded)
        if target.id == attacker.id:
            raise InvalidInput("a character does not attack itself", field="target_id")
        self._fight_standing(target, "target_id")
        if maneuver not in (None, "charge", "all_out"):
            raise InvalidInput("maneuver is charge or all_out", field="maneuver", rule="WCBH-44")
        if effect is not None and (club_id is not None or defender_id is not None):
            raise InvalidInput(
                "a special effect hits one target, with no club and no defender", field="effect"
            )
        if redirect:
            # WCBH-46: the defender's own declaration, made before its defence roll.
            self._fight_actor_character(actor, target.id, "redirect", loaded)
        target_sheet = self._fight_sheet(target, settings)
        base = get_ruleset(campaign.ruleset).attack_request(
            attacker_sheet,
            target_sheet,
            trait=trait,
            target_health=self._fight_health(target),
            weapon=weapon,
            modifier=modifier,
            active_defences=active_defences,
            lethal=lethal,
            purpose=purpose,
            effect=effect,
            effect_pages_before=target.effects.get(effect, {}).get("pages", 0) if effect else 0,
        )
        assert base is not None, "We Can Be Heroes has an attack"
        request: dict[str, Any] = {
            **base,
            "defences": self._fight_defences(
                scene, target, target_sheet, active_defences, redirect_declared=redirect
            ),
            "target_id": str(target.id),
            "page_modifier": self._page_dice(scene, attacker, defence=False),
            **self._fight_as_target(scene, target),
            "maneuver": maneuver,
            "redirect": redirect,
        }
        targets = [target.id]
        club = guard = None
        if club_id is not None:  # WCBH-44: the club is attacked too
            club = self._fight_character(actor, club_id, "club_id", loaded)
            if club.id in (attacker.id, target.id):
                raise InvalidInput("the club is a third character", field="club_id")
            self._fight_standing(club, "club_id")
            club_sheet = self._fight_sheet(club, settings)
            request["club"] = {
                "character_id": str(club.id),
                "defences": self._fight_defences(scene, club, club_sheet, active_defences),
                "health": self._fight_health(club),
                "minion": is_minion(club_sheet),
                **self._fight_as_target(scene, club),
            }
            targets = [club.id, target.id]
        if defender_id is not None:  # WCBH-44: defending others
            guard = self._fight_actor_character(actor, defender_id, "defender_id", loaded)
            if guard.id in (attacker.id, target.id):
                raise InvalidInput("the defender is a third character", field="defender_id")
            self._fight_standing(guard, "defender_id")
            guard_fighter = self._fight_page_of(scene, guard.id)
            if guard_fighter.defending:
                raise Conflict(
                    f"{guard.name} already defends an ally this page",
                    field="defender_id",
                    code="page_action_refused",
                    rule="WCBH-44",
                )
            guard_sheet = self._fight_sheet(guard, settings)
            options = self._fight_defences(scene, guard, guard_sheet, active_defences)
            if not any(o["active"] == defender_active for o in options):
                raise InvalidInput(
                    f"the defender has no {'active' if defender_active else 'passive'} defence",
                    field="defender_active",
                    rule="WCBH-44",
                )
            request["guard"] = {
                "character_id": str(guard.id),
                "defences": options,
                "health": self._fight_health(guard),
                "minion": is_minion(guard_sheet),
                **self._fight_as_target(scene, guard),
            }
            request["guard_active"] = defender_active
        if maneuver == "charge":  # WCBH-44: the charger's passive defence meets the attack
            request["charger"] = {
                "character_id": str(attacker.id),
                "defences": defence_options(attacker_sheet, ()),
                "health": self._fight_health(attacker),
                **self._fight_as_target(scene, attacker),
            }
        self._fight_act(scene, attacker, targets, f"attacks ({maneuver or 'attack'})", maneuver)
        if guard is not None:
            fighter = self._fight_page_of(scene, guard.id)
            fighter.defending = True
            self._fight_save(scene, guard.id, fighter, f"defends {target.name}")
            self._lose_next_turn(scene, guard.id, "WCBH-44", f"defended {target.name}")
        outcome, touched = self._roll_check(
            actor,
            scene,
            campaign,
            ATTACK_CHECK,
            request,
            attacker,
            client_seed,
            # WCBH-28/30: weapon and situation dice; the sheet lists no weapons, so the weapon's
            # dice are a declaration too (ruling)
            declared=declared_by({"weapon": weapon, "modifier": modifier}),
        )
        roll_id = touched[0].id
        result = outcome.result
        if effect is not None:
            if result["effect_pages"]:
                target.apply_effect(effect, result["effect_pages"], result["whole_scene"], scene.id)
        else:
            self._fight_hit(target, result, roll_id, scene)
        if club is not None:
            self._fight_hit(club, result["club"], roll_id, scene)
        if guard is not None and "damage" in result["guard"]:
            self._fight_hit(guard, result["guard"], roll_id, scene)
        if "collision" in result:
            self._fight_hit(attacker, result["collision"], roll_id, scene)
        return self._commit(ctx, *_unique([*touched, *loaded.touched(*touched)]))

    # ---- WCBH-40: grappling --------------------------------------------------------------------

    @command
    def grapple(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        target_id: UUID,
        *,
        trait: str = "Strength",
        aim: str = "hold",
        modifier: int = 0,
        active_defences: tuple[str, ...] = ("Agility",),
        purpose: str | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-40: Strength against the target's best active defence; net 1–2 a partial hold (to
        the end of the next page: both roll again then), 3+ held (or its weapon taken) until the
        scene ends or it breaks free (a grapple of its own on the holder with net 1+)."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        attacker = self._fight_actor_character(actor, attacker_id, "attacker_id", loaded)
        target = self._fight_character(actor, target_id, "target_id", loaded)
        if target.id == attacker.id:
            raise InvalidInput("a character does not grapple itself", field="target_id")
        self._fight_standing(target, "target_id")
        if aim not in ("hold", "weapon"):
            raise InvalidInput("aim is hold or weapon", field="aim", rule="WCBH-40")
        target_sheet = self._fight_sheet(target, settings)
        active = [
            o
            for o in self._fight_defences(scene, target, target_sheet, active_defences)
            if o["active"]
        ]
        request = {
            "trait": trait,
            "rank": self._fight_rank(
                self._fight_sheet(attacker, settings), trait, "trait", "WCBH-40"
            ),
            "modifier": modifier,
            "page_modifier": self._page_dice(scene, attacker, defence=False),
            "defences": active,
            "defence_modifier": self._fight_as_target(scene, target)["defence_modifier"],
            "halve_active": self._fight_page_of(scene, target.id).state.halve_active,
            "aim": aim,
            "target_id": str(target.id),
            "purpose": purpose,
        }
        self._fight_act(scene, attacker, [target.id], "grapples")
        outcome, touched = self._roll_check(
            actor,
            scene,
            campaign,
            "grapple",
            request,
            attacker,
            client_seed,
            declared=declared_by({"modifier": modifier}),  # WCBH-30: the situation's dice
        )
        result = outcome.result
        condition = {"kind": "grapple", "rule": "WCBH-40", "by": str(attacker.id)}
        if result["outcome"] == "partial":
            target.impose_condition(
                "grappled", {**condition, "partial": True, "until_page": scene.page + 1}, scene.id
            )
        elif result["outcome"] == "held":
            name = "held" if aim == "hold" else "disarmed"
            target.impose_condition(name, {**condition, "until_page": None}, scene.id)
            if name == "held":
                target.lift_conditions(["grappled"], scene.id, "held now")
        held = attacker.fight_conditions.get("held")
        if result["outcome"] != "failed" and held and held.get("by") == str(target.id):
            attacker.lift_conditions(["held"], scene.id, "broke free")
        return self._commit(ctx, *_unique([*touched, *loaded.touched(*touched)]))

    # ---- WCBH-41: maneuvers ----------------------------------------------------------------------

    @command
    def maneuver(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        target_id: UUID,
        maneuver: str,
        *,
        trait: str | None = None,
        against: str | None = None,
        modifier: int = 0,
        purpose: str | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-41: a maneuver works like an attack; by net successes the target gets −1..−3 on
        its rolls (ruling: to the end of the next page), speed halved, cannot move, loses its
        weapon, or (5+) loses its next turn."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        attacker = self._fight_actor_character(actor, attacker_id, "attacker_id", loaded)
        target = self._fight_character(actor, target_id, "target_id", loaded)
        if target.id == attacker.id:
            raise InvalidInput("a maneuver is on someone else", field="target_id")
        self._fight_standing(target, "target_id")
        if maneuver not in MANEUVER_TRAITS:
            raise InvalidInput(
                f"maneuver is one of {', '.join(MANEUVER_TRAITS)}", field="maneuver", rule="WCBH-41"
            )
        default_trait, traits, default_against, againsts = MANEUVER_TRAITS[maneuver]
        trait = trait or default_trait
        if trait is None:
            raise InvalidInput(
                "a stunning blow names the attacking trait", field="trait", rule="WCBH-41"
            )
        against = against or default_against
        attacker_sheet, target_sheet = (
            self._fight_sheet(attacker, settings),
            self._fight_sheet(target, settings),
        )
        _allowed(attacker_sheet, trait, traits, "trait", maneuver)
        _allowed(target_sheet, against, againsts, "against", maneuver)
        request = {
            "maneuver": maneuver,
            "trait": trait,
            "rank": self._fight_rank(attacker_sheet, trait, "trait", "WCBH-41"),
            "modifier": modifier,
            "page_modifier": self._page_dice(scene, attacker, defence=False),
            "against": against,
            "against_rank": self._fight_rank(target_sheet, against, "against", "WCBH-41"),
            "defence_modifier": self._fight_as_target(scene, target)["defence_modifier"],
            "target_id": str(target.id),
            "purpose": purpose,
        }
        self._fight_act(scene, attacker, [target.id], f"{maneuver.replace('_', ' ')}")
        outcome, touched = self._roll_check(
            actor,
            scene,
            campaign,
            "maneuver",
            request,
            attacker,
            client_seed,
            declared=declared_by({"modifier": modifier}),  # WCBH-30: the situation's dice
        )
        result = outcome.result
        if result["net"] >= 1:
            effects = ("penalty", "halve_speed", "cannot_move", "loses_weapon", "loses_turn")
            target.impose_condition(
                maneuver,
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
                self._lose_next_turn(scene, target.id, "WCBH-41", f"a {maneuver} of 5+")
        return self._commit(ctx, *_unique([*touched, *loaded.touched(*touched)]))

    # ---- WCBH-42: ambush -------------------------------------------------------------------------

    @command
    def ambush(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        ambushers: Sequence[tuple[UUID, str | None]],
        target_ids: Sequence[UUID],
        *,
        deceit: bool = False,
        purpose: str | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-42: the ambushers (a group, WCBH-11) roll Stealth, or Charisma for deceit, against
        each target's Perception; a surprised target cannot act on this page (ruling: the fight's
        first page is the page of the ambush) and, without an embellishment (net 3+), cannot
        defend actively on it either."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        if not ambushers or not target_ids:
            raise InvalidInput("an ambush needs ambushers and targets", field="ambushers")
        entries = []
        seen: set[UUID] = set()
        for cid, trait in ambushers:
            character = self._fight_actor_character(actor, cid, "ambushers", loaded)
            if character.id in seen:
                raise InvalidInput("an ambusher is named twice", field="ambushers", rule="WCBH-42")
            seen.add(character.id)
            trait = trait or ("Charisma" if deceit else "Stealth")
            entries.append(
                {
                    "character_id": str(character.id),
                    "trait": trait,
                    "rank": self._fight_rank(
                        self._fight_sheet(character, settings), trait, "ambushers", "WCBH-42"
                    ),
                    "page_modifier": self._page_dice(scene, character, defence=False),
                }
            )
        targets = []
        for tid in dict.fromkeys(target_ids):
            target = self._fight_character(actor, tid, "target_ids", loaded)
            if target.id in seen:
                raise InvalidInput("an ambusher is no target", field="target_ids", rule="WCBH-42")
            sheet = self._fight_sheet(target, settings)
            targets.append(
                {
                    "target_id": str(target.id),
                    "perception": self._fight_rank(sheet, "Perception", "target_ids", "WCBH-42"),
                    "minion": is_minion(sheet),
                }
            )
        request = {"ambushers": entries, "targets": targets, "purpose": purpose}
        first = loaded.character(self, actor, UUID(str(entries[0]["character_id"])))
        outcome, touched = self._roll_check(
            actor, scene, campaign, "ambush", request, first, client_seed
        )
        for entry in outcome.result["targets"]:
            if entry["surprised"]:
                tid = UUID(entry["target_id"])
                fighter = self._fight_page_of(scene, tid)
                fighter.state = replace(fighter.state, lost_turn=True)
                fighter.lost_rule = "WCBH-42"
                fighter.passive_only = not entry["may_defend_actively"]
                self._fight_save(scene, tid, fighter, "surprised by an ambush")
        return self._commit(ctx, *_unique([*touched, *loaded.touched(*touched)]))

    # ---- WCBH-43: area attacks -------------------------------------------------------------------

    @command
    def area_attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        attacker_id: UUID,
        trait: str,
        targets: Sequence[tuple[UUID, bool]],
        *,
        weapon: int = 0,
        modifier: int = 0,
        active_defences: tuple[str, ...] = ("Agility",),
        lethal: bool = True,
        purpose: str | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-43: one attack roll, every target defends separately in one roll record; an active
        defence counts half unless the target skips its next turn (`skip_turn`, the target's own
        choice: whoever sets it must be allowed to act for that target)."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        attacker = self._fight_actor_character(actor, attacker_id, "attacker_id", loaded)
        if not targets:
            raise InvalidInput("an area attack needs targets", field="targets", rule="WCBH-43")
        entries = []
        ids: list[UUID] = []
        for tid, skip in targets:
            target = (
                self._fight_actor_character(actor, tid, "targets", loaded)
                if skip
                else self._fight_character(actor, tid, "targets", loaded)
            )
            if target.id == attacker.id or target.id in ids:
                raise InvalidInput(
                    "each target once, not the attacker", field="targets", rule="WCBH-43"
                )
            self._fight_standing(target, "targets")
            ids.append(target.id)
            sheet = self._fight_sheet(target, settings)
            entries.append(
                {
                    "target_id": str(target.id),
                    "defences": self._fight_defences(scene, target, sheet, active_defences),
                    "health": self._fight_health(target),
                    "minion": is_minion(sheet),
                    "skip_turn": skip,
                    **self._fight_as_target(scene, target),
                }
            )
        request = {
            "attack_rank": self._fight_rank(
                self._fight_sheet(attacker, settings), trait, "trait", "WCBH-28"
            ),
            "weapon": weapon,
            "modifier": modifier,
            "page_modifier": self._page_dice(scene, attacker, defence=False),
            "lethal": lethal,
            "targets": entries,
            "purpose": purpose,
        }
        self._fight_act(scene, attacker, ids, "area attack")
        outcome, touched = self._roll_check(
            actor,
            scene,
            campaign,
            "area_attack",
            request,
            attacker,
            client_seed,
            declared=declared_by({"weapon": weapon, "modifier": modifier}),  # WCBH-28/30
        )
        roll_id = touched[0].id
        for entry in outcome.result["targets"]:
            target = loaded.character(self, actor, UUID(entry["target_id"]))
            self._fight_hit(target, entry, roll_id, scene)
            if entry["skips_turn"]:
                self._lose_next_turn(scene, target.id, "WCBH-43", "dodged an area attack")
        return self._commit(ctx, *_unique([*touched, *loaded.touched(*touched)]))

    # ---- WCBH-47: team attacks -------------------------------------------------------------------

    @command
    def team_attack(
        self,
        ctx: CommandContext,
        scene_id: UUID,
        target_id: UUID,
        attackers: Sequence[Mapping[str, Any]],
        *,
        active_defences: tuple[str, ...] = ("Agility",),
        lethal: bool = True,
        purpose: str | None = None,
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-47: two or more characters attack one target together at the end of the page;
        each rolls its own attack (+2 dice, its 6s exploding for 1 Resolve), each a roll record
        of its own, all in one save; once per fight (scene) per character."""
        actor = self._member(ctx)
        scene = self._target(ctx, actor, Scene, scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        target = self._fight_character(actor, target_id, "target_id", loaded)
        self._fight_standing(target, "target_id")
        team = []
        for entry in attackers:
            # a UUID from the route; its text when an approved roll request runs it again
            character = self._fight_actor_character(
                actor, UUID(str(entry["attacker_id"])), "attackers", loaded
            )
            if character.id == target.id:
                raise InvalidInput("the target is no attacker", field="attackers", rule="WCBH-47")
            team.append((character, entry))
        try:
            team_attack(
                str(target.id),
                [str(c.id) for c, _ in team],
                exploding=[str(c.id) for c, e in team if e.get("explode")],
            )
        except InvalidInput as exc:
            raise InvalidInput(exc.message, field="attackers", rule=exc.rule) from None
        if len({c.id for c, _ in team}) != len(team):
            raise InvalidInput("an attacker is named twice", field="attackers", rule="WCBH-47")
        # Each attacker's weapon and modifier are a player's declarations: the whole team attack
        # follows player_modifiers (refused, trusted, or waiting for the GM) before any dice.
        declared = _team_declared(team)
        self._modifiers(actor, settings, scene, None, declared)
        for character, _ in team:
            scene.use_once("team_attack", character.id, "WCBH-47", exclusive=False)
            self._fight_act(scene, character, [target.id], "team attack")
        target_sheet = self._fight_sheet(target, settings)
        defences = self._fight_defences(scene, target, target_sheet, active_defences)
        health = self._fight_health(target)
        rolls: list[Aggregate] = []
        others: list[Aggregate] = []
        chain: RollChain | None = None
        for index, (character, entry) in enumerate(team):
            trait = entry["trait"]
            request = {
                "attack_rank": self._fight_rank(
                    self._fight_sheet(character, settings), trait, "attackers", "WCBH-47"
                ),
                "weapon": entry.get("weapon", 0),
                "modifier": entry.get("modifier", 0),
                "defences": defences,
                "target_health": health,
                "lethal": lethal,
                "minion": is_minion(target_sheet),
                "purpose": purpose,
                "target_id": str(target.id),
                "page_modifier": self._page_dice(scene, character, defence=False),
                **self._fight_as_target(scene, target),
                "team": True,
                "explode": bool(entry.get("explode")),
            }
            outcome, touched = self._roll_check(
                actor,
                scene,
                campaign,
                ATTACK_CHECK,
                request,
                character,
                client_seed,
                chain,
                declared=_attacker_declared(declared, index),
            )
            chain = touched[1]
            rolls.append(touched[0])
            others.extend(touched[1:])
            self._fight_hit(target, outcome.result, touched[0].id, scene)
            health = outcome.result["health"]
        aggregates = _unique([*rolls, *others, *loaded.touched(*rolls, *others)])
        return self._commit(ctx, *aggregates, revealed={"rolls": [r.id for r in rolls]})

    # ---- WCBH-45, 46: after the roll ---------------------------------------------------------------

    def _fight_attack_roll(self, actor: Actor, roll_id: UUID, checks: tuple[str, ...]) -> Roll:
        roll = self.get(actor, Roll, roll_id)
        if roll.record.get("check") not in checks or roll.record.get("follow_up") is not None:
            raise Conflict(
                f"this is no {' or '.join(checks)} roll", field="roll_id", code="not_an_attack"
            )
        return roll

    @command
    def knockback(
        self,
        ctx: CommandContext,
        roll_id: UUID,
        target_id: UUID | None = None,
        hits_object: str | None = None,
    ) -> Outcome:
        """WCBH-45: after an attack that dealt 6+ damage, the attacker's 1 Resolve throws the
        target as far as a Strength of the attack's rank throws; it loses its next turn; hitting
        an object deals half the attack's damage again (`hits_object`: sturdier, or weaker and
        smashed through; the GM's call). Ruling: one knockback per attack roll."""
        actor = self._member(ctx)
        roll = self._fight_attack_roll(actor, roll_id, (ATTACK_CHECK, "area_attack"))
        scene = self._target(ctx, actor, Scene, roll.scene_id)
        self._fight(actor)
        loaded = Loaded()
        attacker = self._fight_actor_character(
            actor, UUID(roll.record["character_id"]), "roll_id", loaded
        )
        entry, request = _entry_for(roll, target_id)
        target = self._fight_character(actor, UUID(entry["target_id"]), "target_id", loaded)
        if hits_object not in (None, "sturdier", "weaker"):
            raise InvalidInput("hits_object is sturdier, weaker or null", field="hits_object")
        try:
            thrown = knockback(
                int(entry.get("damage", 0)),
                int(request["attack_rank"]),
                hits_object=hits_object,  # type: ignore[arg-type]
            )
        except InvalidInput as exc:
            raise _refused(exc, "knockback_refused") from None
        attacker.spend({"resolve": 1}, reason=f"knockback after roll {roll.id} (WCBH-45)")
        lost = self._lose_next_turn(scene, target.id, "WCBH-45", "knocked back")
        health = self._fight_health(target)
        if thrown.extra_damage and health > 0:
            health = max(0, health - thrown.extra_damage)
            target.take_hit(health, health == 0, roll.id, scene.id, scene.page)
        details = {
            "target_id": str(target.id),
            "distance": thrown.distance,
            "extra_damage": thrown.extra_damage,
            "smashed_through": thrown.smashed_through,
            "health": health,
            "defeated": target.status == "defeated",
            "loses_turn_on_page": lost,
        }
        scene.follow_up_attack(roll.id, "knockback", attacker.id, details)  # 409 the second time
        return self._commit(ctx, scene, *loaded.touched(scene), revealed={"roll_id": roll.id})

    @command
    def redirect(
        self,
        ctx: CommandContext,
        roll_id: UUID,
        at_id: UUID | None = None,
        active_defences: tuple[str, ...] = ("Agility",),
        client_seed: str | None = None,
    ) -> Outcome:
        """WCBH-46: the target declared a redirect before its (active) defence roll and beat the
        attack by 3+ successes: its 1 Resolve sends the attack behind it, or at someone else
        (`at_id`): then the defender loses its next turn and the new target defends (a roll of
        its own against the attack's successes)."""
        actor = self._member(ctx)
        roll = self._fight_attack_roll(actor, roll_id, (ATTACK_CHECK,))
        scene = self._target(ctx, actor, Scene, roll.scene_id)
        campaign, settings = self._fight(actor)
        loaded = Loaded()
        request, result = roll.record["request"], roll.record["result"]
        if not request.get("target_id"):
            raise Conflict(
                "this attack roll names no target", field="roll_id", code="not_an_attack"
            )
        defender = self._fight_actor_character(actor, UUID(request["target_id"]), "roll_id", loaded)
        if request.get("club") or request.get("guard"):
            raise Conflict(
                "only a plain attack's own defence redirects it", field="roll_id", rule="WCBH-46"
            )
        try:
            defence = next(
                Defence(d["name"], d["rank"], d["active"])
                for d in request["defences"]
                if d["name"] == result["defence"]
            )
            done = redirect(
                result["attack_successes"],
                result["defence_successes"],
                defence,
                declared_before_defence=bool(request.get("redirect")),
                at_someone=at_id is not None,
            )
        except InvalidInput as exc:
            raise _refused(exc, "redirect_refused") from None
        defender.spend({"resolve": 1}, reason=f"redirect of roll {roll.id} (WCBH-46)")
        details: dict[str, Any] = {"at_id": str(at_id) if at_id else None, "new_roll_id": None}
        touched: list[Aggregate] = [scene]
        if done.at_someone:
            assert at_id is not None
            new_target = self._fight_character(actor, at_id, "at_id", loaded)
            if new_target.id == defender.id:
                raise InvalidInput("redirect the attack at someone else", field="at_id")
            self._fight_standing(new_target, "at_id")
            details["loses_turn_on_page"] = self._lose_next_turn(
                scene, defender.id, "WCBH-46", "redirected an attack at someone"
            )
            sheet = self._fight_sheet(new_target, settings)
            new_request = {
                "redirected_from": str(roll.id),
                "attack_successes": result["attack_successes"],
                "target_id": str(new_target.id),
                "defences": self._fight_defences(scene, new_target, sheet, active_defences),
                "target_health": self._fight_health(new_target),
                "lethal": request.get("lethal", True),
                "minion": is_minion(sheet),
                **self._fight_as_target(scene, new_target),
            }
            outcome, touched = self._roll_check(
                actor, scene, campaign, "redirected_attack", new_request, None, client_seed
            )
            details["new_roll_id"] = str(touched[0].id)
            self._fight_hit(new_target, outcome.result, touched[0].id, scene)
        scene.follow_up_attack(roll.id, "redirect", defender.id, details)  # 409 the second time
        aggregates = _unique([scene, *touched, *loaded.touched(*touched)])
        return self._commit(ctx, *aggregates, revealed={"roll_id": roll.id})


def _entry_for(roll: Roll, target_id: UUID | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The roll's result for one target (an area attack names it), with the roll's request; after
    Resolve on the attack (WCBH-20b, 20c), the last follow-up's result is the attack's."""
    request, result = roll.record["request"], roll.record["result"]
    if roll.follow_ups:
        result = roll.follow_ups[-1]["result"]
    if roll.record["check"] == "area_attack":
        entries = result["targets"]
        if target_id is None and len(entries) == 1:
            return entries[0], request
        for entry in entries:
            if entry["target_id"] == str(target_id):
                return entry, request
        raise InvalidInput("target_id names no target of this area attack", field="target_id")
    if not request.get("target_id"):
        raise Conflict("this attack roll names no target", field="roll_id", code="not_an_attack")
    if target_id is not None and str(target_id) != request["target_id"]:
        raise InvalidInput("target_id is not the target of this attack", field="target_id")
    return {**result, "target_id": request["target_id"]}, request


def _allowed(
    sheet: BaseModel, trait: str, allowed: tuple[str, ...] | None, field: str, maneuver: str
) -> None:
    """WCBH-41: the traits a maneuver rolls and meets (any Power where the source says "Power";
    a minion rolls its threat for everything)."""
    if allowed is None or is_minion(sheet):
        return
    form = unwrap(sheet)
    powers = {p.casefold() for p in form.powers} if isinstance(form, WcbhCharacter) else set()
    if trait.casefold() in {a.casefold() for a in allowed} | powers:
        return
    raise InvalidInput(
        f"a {maneuver.replace('_', ' ')} uses {' or '.join(allowed)} or a Power here, not {trait!r}",
        field=field,
        rule="WCBH-41",
    )


def _team_declared(team: Sequence[tuple[Character, Mapping[str, Any]]]) -> Declared:
    """Every attacker's weapon and modifier in a team attack (WCBH-47), named by its place in
    `attackers` ("1.modifier"), those not 0."""
    given = {
        f"{index}.{name}": entry.get(name, 0)
        for index, (_, entry) in enumerate(team)
        for name in ("weapon", "modifier")
    }
    return Declared(
        values={k: v for k, v in given.items() if v}, fields=tuple(given), path="attackers"
    )


def _attacker_declared(team: Declared, index: int) -> Declared:
    """What one attacker of a team attack declared: its own entries of the team's, for its roll."""
    own = {k: v for k, v in team.values.items() if k.split(".", 1)[0] == str(index)}
    return Declared(values=own, fields=team.fields, path=team.path)
