"""Character: a hero, villain or anyone else with a sheet that the campaign's ruleset validates."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import check_change, clean_title, not_enough
from domain.errors import Conflict, InvalidInput, NotFound

SIDES = ("hero", "villain", "opponent", "minion", "other")


class Character(Aggregate):
    @event("Created")
    def __init__(
        self,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: dict[str, Any],
        resources: dict[str, int] | None = None,
    ) -> None:
        self.campaign_id = campaign_id
        self.name = name
        self.side = side
        self.owner_member_id = owner_member_id
        self.sheet = sheet
        self.resources: dict[str, int] = dict(resources or {})
        self.status = "active"
        # Special effects (WCBH-35..38): name → {"pages", "whole_scene"}; they end with their scene.
        self.effects: dict[str, dict[str, Any]] = {}
        # Where and when damage last defeated the character (WCBH-31; back in the fight, WCBH-39).
        self.defeated_at: dict[str, Any] | None = None
        # Sheet changes players proposed, by id: {"sheet", "reason", "proposed_by", "status", "note"}.
        self.sheet_changes: dict[str, dict[str, Any]] = {}
        self._init_resolve_area()
        self._init_fight_area()
        self._init_nimble_health_area()
        self._init_gear_area()

    @classmethod
    def create(
        cls,
        campaign_id: UUID,
        name: str,
        side: str,
        owner_member_id: UUID | None,
        sheet: dict[str, Any],
        resources: dict[str, int] | None = None,
    ) -> Character:
        check_side(side)
        return cls(
            campaign_id=campaign_id,
            name=clean_title(name, "name"),
            side=side,
            owner_member_id=owner_member_id,
            sheet=sheet,
            resources=resources or {},
        )

    def change_sheet(
        self,
        sheet: dict[str, Any],
        reason: str,
        resources: dict[str, int],
        change_id: UUID | None = None,
    ) -> None:
        """Replace the sheet (already validated by the campaign's ruleset). `resources` are the
        levels the character keeps: never refilled, only lowered to a smaller new maximum; with
        `change_id`, the GM approves that pending proposal."""
        if change_id is not None:
            self._pending(change_id)
        self._sheet_changed(sheet, clean_title(reason, "reason"), resources, change_id)

    @event("SheetChanged")
    def _sheet_changed(
        self,
        sheet: dict[str, Any],
        reason: str | None = None,
        resources: dict[str, int] | None = None,
        change_id: UUID | None = None,
    ) -> None:
        self.sheet = sheet
        self.resources.update(resources or {})
        if change_id is not None:
            self.sheet_changes[str(change_id)]["status"] = "approved"

    # ---- sheet changes a player proposes (setting player_sheet_changes = "gm_approval") ------

    def propose_sheet(
        self, change_id: UUID, sheet: dict[str, Any], reason: str, proposed_by: UUID
    ) -> None:
        """A player's sheet change that waits for the GM; it replaces the player's pending one."""
        replaces = next(
            (UUID(i) for i, c in self.sheet_changes.items() if c["status"] == "pending"), None
        )
        self._sheet_change_proposed(
            change_id, sheet, clean_title(reason, "reason"), proposed_by, replaces
        )

    @event("SheetChangeProposed")
    def _sheet_change_proposed(
        self,
        change_id: UUID,
        sheet: dict[str, Any],
        reason: str,
        proposed_by: UUID,
        replaces: UUID | None,
    ) -> None:
        if replaces is not None:
            self.sheet_changes[str(replaces)]["status"] = "replaced"
        self.sheet_changes[str(change_id)] = {
            "sheet": sheet,
            "reason": reason,
            "proposed_by": str(proposed_by),
            "status": "pending",
            "note": None,
        }

    def decline_sheet_change(self, change_id: UUID, note: str | None) -> None:
        self._pending(change_id)
        self._sheet_change_declined(change_id, note)

    @event("SheetChangeDeclined")
    def _sheet_change_declined(self, change_id: UUID, note: str | None) -> None:
        self.sheet_changes[str(change_id)].update(status="declined", note=note)

    def pending_sheet_change(self, change_id: UUID) -> dict[str, Any]:
        return self._pending(change_id)

    def _pending(self, change_id: UUID) -> dict[str, Any]:
        change = self.sheet_changes.get(str(change_id))
        if change is None:
            raise NotFound(f"sheet change {change_id} not found", field="change_id")
        if change["status"] != "pending":
            raise Conflict(
                f"sheet change {change_id} is {change['status']}, no longer pending",
                code="sheet_change_decided",
            )
        return change

    def release_to_gm(self, reason: str) -> None:
        """Its owner left the campaign: the GM plays it from now on."""
        self._owner_released(reason)

    @event("OwnerReleased")
    def _owner_released(self, reason: str) -> None:
        self.owner_member_id = None

    def spend(self, costs: dict[str, int], reason: str) -> None:
        """Spend resources (Resolve, Will, Will Power…); never below zero, all or nothing."""
        for name, amount in costs.items():
            have = self.resources.get(name, 0)
            if amount < 0:
                raise InvalidInput(f"cannot spend a negative amount of {name}", field=name)
            if amount > have:
                raise not_enough(self.name, "resource", name, have, amount)
        for name, amount in costs.items():
            if amount:
                self._spent(name, amount, reason)

    def refresh(self, levels: dict[str, int], boundary: str, boundary_id: UUID) -> None:
        """Restore resources at a boundary of play (a new game Issue restores Resolve, WCBH-17)."""
        self._refreshed(levels, boundary, boundary_id)

    @event("ResourcesRefreshed")
    def _refreshed(self, levels: dict[str, int], boundary: str, boundary_id: UUID) -> None:
        self.resources.update(levels)

    def adjust(self, resource: str, change: int, reason: str) -> None:
        """A GM's award or correction (Resolve awards, WCBH-18); never below zero."""
        check_change(self.resources, resource, change, owner=self.name, kind="resource")
        self._adjusted(resource, change, reason)

    @event("ResourceAdjusted")
    def _adjusted(self, resource: str, change: int, reason: str) -> None:
        self.resources[resource] += change

    def take_hit(
        self,
        health: int,
        defeated: bool,
        roll_id: UUID,
        scene_id: UUID | None = None,
        page: int | None = None,
    ) -> None:
        """WCBH-31/33: an attack left the character at `health`; at 0 it is defeated (in `scene_id`
        on `page`: back in the fight is possible on the next page, WCBH-39)."""
        self._hit(health, defeated, roll_id, scene_id, page)

    @event("Hit")
    def _hit(
        self,
        health: int,
        defeated: bool,
        roll_id: UUID,
        scene_id: UUID | None = None,
        page: int | None = None,
    ) -> None:
        self._health_after_hit(health, defeated, scene_id, page)

    def _health_after_hit(
        self, health: int, defeated: bool, scene_id: UUID | None, page: int | None
    ) -> None:
        """What a hit and a revised hit both leave: Health, and at 0 defeated where and when."""
        self.resources["health"] = health
        if defeated:
            self.status = "defeated"
            self.defeated_at = {"scene_id": scene_id, "page": page}

    def revise_hit(
        self,
        health: int,
        defeated: bool,
        revived: bool,
        roll_id: UUID,
        scene_id: UUID,
        page: int,
    ) -> None:
        """WCBH-20b, 20c: Resolve after an attack decided its hit again (`roll_id` the follow-up
        roll): Health is now `health`; at 0 defeated, or `revived` if the first hit had defeated
        it and the new one does not."""
        self._hit_revised(health, defeated, revived, roll_id, scene_id, page)

    @event("HitRevised")
    def _hit_revised(
        self,
        health: int,
        defeated: bool,
        revived: bool,
        roll_id: UUID,
        scene_id: UUID,
        page: int,
    ) -> None:
        self._health_after_hit(health, defeated, scene_id, page)
        if not defeated and revived and self.status == "defeated":
            self.status = "active"
            self.defeated_at = None

    def apply_effect(self, name: str, pages: int, whole_scene: bool, scene_id: UUID) -> None:
        """WCBH-35/36: the effect's pages (added up); defeated by it for the rest of the scene."""
        self._effect_applied(name, pages, whole_scene, scene_id)

    @event("EffectApplied")
    def _effect_applied(self, name: str, pages: int, whole_scene: bool, scene_id: UUID) -> None:
        self.effects[name] = {"pages": pages, "whole_scene": whole_scene}
        if whole_scene:
            self.status = "defeated"

    def be_defeated_by_effects(
        self, names: list[str], scene_id: UUID | None, roll_id: UUID | None, rule: str
    ) -> None:
        """WCBH-36: damage lowered Health to the Pages left of these effects: they defeat the
        character and last to the end of the scene (`roll_id` the roll whose damage did it; None,
        and no `scene_id`, for the GM's change of Health)."""
        self._defeated_by_effects(names, scene_id, roll_id, rule)

    @event("DefeatedByEffects")
    def _defeated_by_effects(
        self, names: list[str], scene_id: UUID | None, roll_id: UUID | None, rule: str
    ) -> None:
        for name in names:
            self.effects[name] = {**self.effects[name], "whole_scene": True}
        self.status = "defeated"

    def rule_effect(self, name: str, limits: dict[str, bool], reason: str, scene_id: UUID) -> None:
        """WCBH-35, 37: the GM says what the effect `name` lets this character do (`limits`:
        may_act, may_move, may_defend_actively); its power's description decides, not the rules."""
        if name not in self.effects:
            raise Conflict(
                f"{self.name} is under no effect {name!r}", field="effect", code="no_such_effect"
            )
        self._effect_ruled(name, limits, reason, scene_id)

    @event("EffectRuled")
    def _effect_ruled(
        self, name: str, limits: dict[str, bool], reason: str, scene_id: UUID
    ) -> None:
        self.effect_rulings[name] = {**limits, "reason": reason, "scene_id": str(scene_id)}

    @property
    def effect_rulings(self) -> dict[str, dict[str, Any]]:
        """WCBH-35: the GM's rulings on what each effect allows, by effect name (a property so
        that characters stored before it have an empty one)."""
        return self.__dict__.setdefault("_effect_rulings", {})

    def tick_effects(self, scene_id: UUID, page: int) -> None:
        """WCBH-35: a new page takes one page off each page-counted effect; at 0 it ends."""
        left = {
            name: effect if effect["whole_scene"] else {**effect, "pages": effect["pages"] - 1}
            for name, effect in self.effects.items()
        }
        left = {n: e for n, e in left.items() if e["whole_scene"] or e["pages"] > 0}
        if left != self.effects:
            self._effects_ticked(left, scene_id, page)

    @event("EffectsTicked")
    def _effects_ticked(self, effects: dict[str, Any], scene_id: UUID, page: int) -> None:
        self.effects = effects

    def end_scene_effects(self, scene_id: UUID) -> None:
        """WCBH-36: effects end with their scene; a character defeated only by an effect is back."""
        if self.effects:
            self._effects_ended(scene_id)

    @event("EffectsEnded")
    def _effects_ended(self, scene_id: UUID) -> None:
        self.effects = {}
        if self.status == "defeated" and self.resources.get("health", 1) > 0:
            self.status = "active"

    @event("ResourceSpent")
    def _spent(self, resource: str, amount: int, reason: str) -> None:
        self.resources[resource] = self.resources.get(resource, 0) - amount
        self._spend_last_gasp(resource, amount)

    # ---- Resolve area (WCBH-16, WCBH-19, WCBH-20a, WCBH-20e; systems/wcbh/commands/resolve.py) ----------

    def _init_resolve_area(self) -> None:
        # WCBH-19: the running last gasp: {"scene_id", "page", "left", "unconscious"}.
        self.last_gasp: dict[str, Any] | None = None
        # WCBH-20e: luck asked for, by request id: {"scene_id", "detail", "status", "note"}.
        self.luck_requests: dict[str, dict[str, Any]] = {}
        # WCBH-16: Ability losses owed after a Decisive Moment, by roll id: {"effort", "scene_id"}.
        self.owed_losses: dict[str, dict[str, Any]] = {}
        self.loss_scenes: list[UUID] = []  # scenes whose Decisive Moment already owes its loss
        self.settled_losses: list[str] = []  # roll ids whose loss is recorded
        self.lowered: list[dict[str, Any]] = []  # {"ability", "roll_id"}: experience may restore

    @property
    def unconscious(self) -> bool:
        """WCBH-19: unconscious after a last gasp, until the end of that scene."""
        return bool(self.last_gasp and self.last_gasp["unconscious"])

    def _spend_last_gasp(self, resource: str, amount: int) -> None:
        # WCBH-19 ruling: Resolve spent during a last gasp's page spends the gasp's Resolve first.
        if resource == "resolve" and self.last_gasp and self.last_gasp["left"]:
            self.last_gasp["left"] = max(0, self.last_gasp["left"] - amount)

    def give_resolve(
        self,
        to_character_id: UUID,
        cost: int,
        purpose: str,
        flashback: str | None,
        scene_id: UUID,
    ) -> None:
        """WCBH-20a: 1 Resolve to another character for `cost` (2 from afar, with a flashback)."""
        have = self.resources.get("resolve", 0)
        if cost > have:
            raise not_enough(self.name, "resource", "resolve", have, cost, "WCBH-20a")
        if flashback is None and (self.unconscious or self.status == "defeated"):
            raise Conflict(
                f"{self.name} is out of the action and cannot help directly: give from afar "
                "(2 Resolve for 1, with a flashback)",
                code="cannot_help_directly",
                rule="WCBH-20a",
            )
        self._resolve_given(to_character_id, cost, purpose, flashback, scene_id)

    @event("ResolveGiven")
    def _resolve_given(
        self,
        to_character_id: UUID,
        cost: int,
        purpose: str,
        flashback: str | None,
        scene_id: UUID,
    ) -> None:
        self.resources["resolve"] = self.resources.get("resolve", 0) - cost
        self._spend_last_gasp("resolve", cost)

    def receive_resolve(self, from_character_id: UUID, purpose: str, scene_id: UUID) -> None:
        """WCBH-20a: the 1 Resolve another character gave (saved with its ResolveGiven)."""
        self._resolve_received(from_character_id, purpose, scene_id)

    @event("ResolveReceived")
    def _resolve_received(self, from_character_id: UUID, purpose: str, scene_id: UUID) -> None:
        self.resources["resolve"] = self.resources.get("resolve", 0) + 1

    def ask_luck(self, request_id: UUID, scene_id: UUID, detail: str) -> None:
        """WCBH-20e: ask the GM to change a small narrative detail by luck (1 Resolve if approved)."""
        have = self.resources.get("resolve", 0)
        if have < 1:
            raise not_enough(self.name, "resource", "resolve", have, 1, "WCBH-20e")
        self._luck_asked(request_id, scene_id, detail)

    @event("LuckAsked")
    def _luck_asked(self, request_id: UUID, scene_id: UUID, detail: str) -> None:
        self.luck_requests[str(request_id)] = {
            "scene_id": scene_id,
            "detail": detail,
            "status": "pending",
            "note": None,
        }

    def decide_luck(self, request_id: UUID, approve: bool, note: str | None) -> None:
        """WCBH-20e: the GM approves (1 Resolve is spent now) or declines; decided once."""
        request = self.luck_requests.get(str(request_id))
        if request is None:
            raise NotFound(f"luck request {request_id} not found", field="request_id")
        if request["status"] != "pending":
            raise Conflict(
                f"this luck request is already {request['status']}",
                code="luck_already_decided",
                rule="WCBH-20e",
            )
        have = self.resources.get("resolve", 0)
        if approve and have < 1:
            raise not_enough(self.name, "resource", "resolve", have, 1, "WCBH-20e")
        self._luck_decided(request_id, approve, note)
        if approve:
            self.spend({"resolve": 1}, reason=f"luck: {request['detail']} (WCBH-20e)")

    @event("LuckDecided")
    def _luck_decided(self, request_id: UUID, approved: bool, note: str | None) -> None:
        request = self.luck_requests[str(request_id)]
        request["status"] = "approved" if approved else "declined"
        request["note"] = note

    def take_last_gasp(self, scene_id: UUID, page: int) -> None:
        """WCBH-19: at 0 Resolve, 1 Resolve to spend in this page; unconscious right after."""
        have = self.resources.get("resolve", 0)
        if have != 0:
            raise Conflict(
                f"{self.name} has {have} Resolve: a last gasp is only at 0",
                code="resolve_not_zero",
                rule="WCBH-19",
                details={"have": have},
            )
        if self.unconscious:
            raise Conflict(f"{self.name} is unconscious", code="unconscious", rule="WCBH-19")
        self._last_gasp_taken(scene_id, page)

    @event("LastGaspTaken")
    def _last_gasp_taken(self, scene_id: UUID, page: int) -> None:
        self.resources["resolve"] = self.resources.get("resolve", 0) + 1
        self.last_gasp = {"scene_id": scene_id, "page": page, "left": 1, "unconscious": False}

    def fall_unconscious(self, scene_id: UUID, page: int) -> None:
        """WCBH-19: the last gasp's page is over: its unspent Resolve is gone; unconscious."""
        gasp = self.last_gasp
        if gasp is None or gasp["unconscious"] or gasp["scene_id"] != scene_id:
            return
        self._fell_unconscious(scene_id, page, min(gasp["left"], self.resources.get("resolve", 0)))

    @event("FellUnconscious")
    def _fell_unconscious(self, scene_id: UUID, page: int, forfeited: int) -> None:
        self.resources["resolve"] = self.resources.get("resolve", 0) - forfeited
        assert self.last_gasp is not None
        self.last_gasp = {**self.last_gasp, "left": 0, "unconscious": True}
        if self.status == "active":
            self.status = "unconscious"

    def come_to(self, scene_id: UUID) -> None:
        """WCBH-19: the scene of the last gasp ended (what was left of it unspent is gone)."""
        gasp = self.last_gasp
        if gasp is None or gasp["scene_id"] != scene_id:
            return
        left = 0 if gasp["unconscious"] else min(gasp["left"], self.resources.get("resolve", 0))
        self._came_to(scene_id, left)

    @event("CameTo")
    def _came_to(self, scene_id: UUID, forfeited: int) -> None:
        self.resources["resolve"] = self.resources.get("resolve", 0) - forfeited
        self.last_gasp = None
        if self.status == "unconscious":
            self.status = "active" if self.resources.get("health", 1) > 0 else "defeated"

    def owe_ability_loss(self, roll_id: UUID, effort: str, scene_id: UUID) -> None:
        """WCBH-16: a Decisive Moment roll leaves one Ability rank of its effort's kind owed."""
        self._ability_loss_owed(roll_id, effort, scene_id)

    @event("AbilityLossOwed")
    def _ability_loss_owed(self, roll_id: UUID, effort: str, scene_id: UUID) -> None:
        self.owed_losses[str(roll_id)] = {"effort": effort, "scene_id": scene_id}
        self.loss_scenes.append(
            scene_id
        )  # one loss per Decisive Moment, however many pages (WCBH-14)

    def check_loss_owed(self, roll_id: UUID) -> str:
        """The effort of the Decisive Moment roll whose Ability loss is owed (WCBH-16)."""
        if str(roll_id) in self.settled_losses:
            raise Conflict(
                "the Ability loss of this Decisive Moment is already recorded",
                field="roll_id",
                code="ability_loss_recorded",
                rule="WCBH-16",
            )
        owed = self.owed_losses.get(str(roll_id))
        if owed is None:
            raise InvalidInput(
                f"{self.name} owes no Ability loss for roll {roll_id}: it names no Decisive "
                "Moment of this character",
                field="roll_id",
                rule="WCBH-16",
            )
        return str(owed["effort"])

    def lose_ability(
        self, roll_id: UUID, ability: str, rank: int | None, health: int | None
    ) -> None:
        """WCBH-16: the owed loss: `ability` down to `rank` (None: waived, every candidate is at
        rank 1); `health` the current Health when the lower maximum caps it."""
        self.check_loss_owed(roll_id)
        self._ability_lost(roll_id, ability, rank, health)

    @event("AbilityLost")
    def _ability_lost(
        self, roll_id: UUID, ability: str, rank: int | None, health: int | None
    ) -> None:
        self.owed_losses.pop(str(roll_id), None)
        self.settled_losses.append(str(roll_id))
        if rank is not None:
            self.sheet = {**self.sheet, "abilities": {**self.sheet["abilities"], ability: rank}}
            self.lowered.append({"ability": ability, "roll_id": roll_id})
        if health is not None:
            self.resources["health"] = health

    def restore_ability(self, ability: str, rank: int, reason: str) -> None:
        """WCBH-16: experience restores a rank a Decisive Moment took (one per loss)."""
        lost = next((entry for entry in self.lowered if entry["ability"] == ability), None)
        if lost is None:
            raise InvalidInput(
                f"{self.name} lost no {ability} rank to a Decisive Moment",
                field="ability",
                rule="WCBH-16",
            )
        self._ability_restored(ability, rank, lost["roll_id"], reason)

    @event("AbilityRestored")
    def _ability_restored(self, ability: str, rank: int, roll_id: UUID, reason: str) -> None:
        self.sheet = {**self.sheet, "abilities": {**self.sheet["abilities"], ability: rank}}
        self.lowered.remove({"ability": ability, "roll_id": roll_id})

    # ---- Class D Heroes combat (CD-11..CD-15, CD-20; systems/classd/commands/fight.py) ------------

    def take_damage(
        self,
        resource: str,
        level: int,
        status: str | None,
        roll_id: UUID,
        scene_id: UUID,
        page: int,
    ) -> None:
        """CD-11/12/15: damage left `resource` (Health or Will) at `level`; `status` "defeated"
        or "captured" (a villain brought to 0 Health by a mental attack, CD-12) takes it out."""
        if resource not in self.resources or not 0 <= level <= self.resources[resource]:
            raise InvalidInput(f"damage cannot leave {resource} at {level}", field=resource)
        self._damage_taken(resource, level, status, roll_id, scene_id, page)

    @event("DamageTaken")
    def _damage_taken(
        self,
        resource: str,
        level: int,
        status: str | None,
        roll_id: UUID,
        scene_id: UUID,
        page: int,
    ) -> None:
        self.resources[resource] = level
        if status is not None:
            self.status = status
            self.defeated_at = {"scene_id": scene_id, "page": page}

    def follow_levels(self, status: tuple[str, str] | None, reason: str) -> None:
        """The status the ruleset says the levels call for now (`status`: the status and its
        rule, from `Ruleset.status_after`; None: it stays), recorded if it differs (CD-11)."""
        if status is not None and status[0] != self.status:
            self._status_changed(status[0], reason, status[1])

    def change_status(self, status: str, reason: str, rule: str) -> None:
        """A status the GM records (a hero captured by the villains, or freed, CD-23)."""
        if status == self.status:
            raise Conflict(f"{self.name} is {status} already", code="same_status", rule=rule)
        self._status_changed(status, reason, rule)

    @event("StatusChanged")
    def _status_changed(self, status: str, reason: str, rule: str) -> None:
        self.status = status
        if status == "active":
            self.defeated_at = None

    # ---- the fight (WCBH-40, WCBH-41; systems/wcbh/commands/fight.py) ------------------------------------

    def _init_fight_area(self) -> None:
        # Conditions a fight imposed: name → {"kind", "rule", "scene_id", "until_page" (None: to
        # the end of the scene), "by", ...}: maneuvers (WCBH-41), holds and taken weapons (WCBH-40).
        self.fight_conditions: dict[str, dict[str, Any]] = {}

    def impose_condition(self, name: str, condition: dict[str, Any], scene_id: UUID) -> None:
        """WCBH-40/41: a maneuver's penalty, a hold...; the same name replaces the earlier one."""
        self._condition_imposed(name, condition, scene_id)

    @event("ConditionImposed")
    def _condition_imposed(self, name: str, condition: dict[str, Any], scene_id: UUID) -> None:
        self.fight_conditions[name] = {**condition, "scene_id": str(scene_id)}

    def lift_conditions(self, names: list[str], scene_id: UUID, reason: str) -> None:
        """The conditions end (their page is over, the scene closed, the character broke free)."""
        names = [n for n in names if n in self.fight_conditions]
        if names:
            self._conditions_lifted(names, scene_id, reason)

    @event("ConditionsLifted")
    def _conditions_lifted(self, names: list[str], scene_id: UUID, reason: str) -> None:
        for name in names:
            self.fight_conditions.pop(name, None)

    # ---- scene play: recovery, shaking off, back in the fight, extended effects -----------------
    # (WCBH-34, WCBH-37..39; systems/wcbh/commands/scene_play.py)

    def recover(self, health: int, roll_id: UUID, scene_id: UUID) -> None:
        """WCBH-34: a recovery check brought Health up to `health`."""
        self._recovered(health, roll_id, scene_id)

    @event("Recovered")
    def _recovered(self, health: int, roll_id: UUID, scene_id: UUID) -> None:
        self.resources["health"] = health
        self._wake_if_able()

    def shake_off_effect(self, name: str, pages: int, roll_id: UUID, scene_id: UUID) -> None:
        """WCBH-37: a shake-off roll left `pages` of the effect (0: it ended, free to act)."""
        if name not in self.effects:
            raise Conflict(f"{self.name} is under no effect {name!r}", code="no_such_effect")
        self._effect_shaken(name, pages, roll_id, scene_id)

    @event("EffectShaken")
    def _effect_shaken(self, name: str, pages: int, roll_id: UUID, scene_id: UUID) -> None:
        if pages > 0:
            self.effects[name] = {**self.effects[name], "pages": pages}
        else:
            del self.effects[name]

    def come_back(self, health: int, scene_id: UUID, page: int) -> None:
        """WCBH-39: back in the fight with `health` (its Resolve is spent with it)."""
        self._came_back(health, scene_id, page)

    @event("CameBack")
    def _came_back(self, health: int, scene_id: UUID, page: int) -> None:
        self.resources["health"] = health
        self._wake_if_able()

    def declare_effect_drop(self, name: str, scene_id: UUID, page: int) -> None:
        """WCBH-39: 1 Resolve (spent with it) rids the character of the effect on the next page."""
        if name not in self.effects:
            raise Conflict(f"{self.name} is under no effect {name!r}", code="no_such_effect")
        self._effect_drop_declared(name, scene_id, page)

    @event("EffectDropDeclared")
    def _effect_drop_declared(self, name: str, scene_id: UUID, page: int) -> None:
        self.effects[name] = {**self.effects[name], "dropping": True}

    def drop_declared_effects(self, scene_id: UUID, page: int) -> None:
        """WCBH-39: a new page: the effects declared dropped are gone."""
        names = [n for n, e in self.effects.items() if e.get("dropping")]
        if names:
            self._effects_dropped(names, scene_id, page)

    @event("EffectsDropped")
    def _effects_dropped(self, names: list[str], scene_id: UUID, page: int) -> None:
        for name in names:
            self.effects.pop(name, None)
        self._wake_if_able()

    def extend_effect(self, name: str, scene_id: UUID, by_character_id: UUID) -> None:
        """WCBH-38: 1 Resolve of another character extends the effect to the end of the next scene;
        once per scene per effect."""
        effect = self.effects.get(name)
        if effect is None:
            raise Conflict(f"{self.name} is under no effect {name!r}", code="no_such_effect")
        if effect.get("extended_in") == str(scene_id):
            raise Conflict(
                f"{name!r} on {self.name} is already extended in this scene",
                code="already_extended",
                rule="WCBH-38",
            )
        self._effect_extended(name, scene_id, by_character_id)

    @event("EffectExtended")
    def _effect_extended(self, name: str, scene_id: UUID, by_character_id: UUID) -> None:
        self.effects[name] = {**self.effects[name], "extended_in": str(scene_id)}

    def carry_effect(self, name: str, from_scene_id: UUID) -> None:
        """WCBH-38: the extended effect outlives its scene and keeps the character defeated."""
        self._effect_carried_over(name, from_scene_id)

    @event("EffectCarriedOver")
    def _effect_carried_over(self, name: str, from_scene_id: UUID) -> None:
        self.effects[name] = {"pages": 0, "whole_scene": True, "carried_from": str(from_scene_id)}
        self.status = "defeated"

    def end_carried_effect(self, name: str, scene_id: UUID | None) -> None:
        """WCBH-38: the scene the effect was extended to ended (`scene_id`), or the game Issue did
        (None)."""
        if name in self.effects:
            self._carried_effect_ended(name, scene_id)

    @event("CarriedEffectEnded")
    def _carried_effect_ended(self, name: str, scene_id: UUID | None) -> None:
        del self.effects[name]
        self._wake_if_able()

    def _wake_if_able(self) -> None:
        # Defeated no more once Health is above 0 and no effect keeps the character down (WCBH-36).
        if (
            self.status == "defeated"
            and self.resources.get("health", 0) > 0
            and not any(e.get("whole_scene") for e in self.effects.values())
        ):
            self.status = "active"
            self.defeated_at = None

    # ---- Nimble health (NB-20..NB-26; systems/nimble/commands/health.py) --------------------------
    # status: "active", "dying" or "dead" for a hero, "active" or "defeated" for a monster.

    # ---- gear: nWoD micro ammunition (NW-16; systems/nwod_micro/commands/fight.py) ------------

    def _init_gear_area(self) -> None:
        # Weapon name -> {"loaded", "spare", "magazine", "sheet_spare"}: the rounds in its magazine
        # and the spare magazines carried, counted against the sheet's magazine and spares.
        self.ammunition: dict[str, dict[str, int]] = {}

    def change_ammunition(
        self, weapon: str, levels: dict[str, int], why: str, scene_id: UUID
    ) -> None:
        """NW-16: rounds fired or a magazine reloaded (`why`) left the weapon at `levels`."""
        if any(int(v) < 0 for v in levels.values()):
            raise InvalidInput(f"ammunition never goes below 0: {levels}", field="rounds")
        self._ammunition_changed(weapon, levels, why, scene_id)

    @event("AmmunitionChanged")
    def _ammunition_changed(
        self, weapon: str, levels: dict[str, int], why: str, scene_id: UUID
    ) -> None:
        self.ammunition[weapon] = dict(levels)

    def _init_nimble_health_area(self) -> None:
        # Conditions (name -> details with "scene_id"): grappling, grappled, mounted, ridden,
        # restrained, hidden, cover (NB-24, NB-26); the Concentration effect (NB-25):
        # {"effect", "scene_id", "saves_due"} or None.
        self.nimble_conditions: dict[str, dict[str, Any]] = {}
        self.concentration: dict[str, Any] | None = None

    def nimble_take_damage(
        self,
        amount: int,
        critical: bool,
        roll_id: UUID | None,
        scene_id: UUID,
        temp_hp_absorbed: int,
        wounds_taken: int,
        levels: dict[str, int],
        status: str,
        concentration: str | None,
    ) -> None:
        """NB-20..NB-23, NB-25: a hit left these `levels` (hp, temp_hp, wounds) and `status`;
        `concentration` "ended" or "save_needed" (a crit) changes the Concentration."""
        self._nimble_damaged(
            amount,
            critical,
            roll_id,
            scene_id,
            temp_hp_absorbed,
            wounds_taken,
            levels,
            status,
            concentration,
        )

    @event("NimbleDamaged")
    def _nimble_damaged(
        self,
        amount: int,
        critical: bool,
        roll_id: UUID | None,
        scene_id: UUID,
        temp_hp_absorbed: int,
        wounds_taken: int,
        levels: dict[str, int],
        status: str,
        concentration: str | None,
    ) -> None:
        self.resources.update(levels)
        self.status = status
        if concentration == "ended":
            self.concentration = None
        elif concentration == "save_needed" and self.concentration is not None:
            self.concentration = {
                **self.concentration,
                "saves_due": self.concentration["saves_due"] + 1,
            }

    def nimble_heal(self, amount: int, levels: dict[str, int], status: str, reason: str) -> None:
        """NB-20: HP restored (above 0 Dying ends)."""
        self._nimble_healed(amount, levels, status, reason)

    @event("NimbleHealed")
    def _nimble_healed(self, amount: int, levels: dict[str, int], status: str, reason: str) -> None:
        self.resources.update(levels)
        self.status = status

    def nimble_gain_temp_hp(self, offered: int, keep: str, temp_hp: int, reason: str) -> None:
        """NB-23: new temporary HP; the hero keeps one amount (`temp_hp`)."""
        self._nimble_temp_hp_gained(offered, keep, temp_hp, reason)

    @event("NimbleTempHpGained")
    def _nimble_temp_hp_gained(self, offered: int, keep: str, temp_hp: int, reason: str) -> None:
        self.resources["temp_hp"] = temp_hp

    def nimble_take_wounds(
        self,
        wounds_taken: int,
        levels: dict[str, int],
        status: str,
        roll_id: UUID | None,
        scene_id: UUID,
        reason: str,
    ) -> None:
        """NB-21/NB-22: Wounds from attacking while Dying (a failed STR save)."""
        self._nimble_wounds_taken(wounds_taken, levels, status, roll_id, scene_id, reason)

    @event("NimbleWoundsTaken")
    def _nimble_wounds_taken(
        self,
        wounds_taken: int,
        levels: dict[str, int],
        status: str,
        roll_id: UUID | None,
        scene_id: UUID,
        reason: str,
    ) -> None:
        self.resources.update(levels)
        self.status = status

    def nimble_safe_rest(self, levels: dict[str, int], wounds_healed: int, status: str) -> None:
        """NB-22/NB-23: a Safe Rest (1 Wound healed, HP and mana back, temporary HP gone); the
        fight's conditions and Concentration end."""
        self._nimble_safe_rested(levels, wounds_healed, status)

    @event("NimbleSafeRested")
    def _nimble_safe_rested(self, levels: dict[str, int], wounds_healed: int, status: str) -> None:
        self.resources.update(levels)
        self.status = status
        self.nimble_conditions = {}
        self.concentration = None

    def nimble_set_condition(self, name: str, condition: dict[str, Any], scene_id: UUID) -> None:
        """NB-24/NB-26: grappling, grappled, mounted, ridden, restrained, hidden, cover."""
        self._nimble_condition_set(name, condition, scene_id)

    @event("NimbleConditionSet")
    def _nimble_condition_set(self, name: str, condition: dict[str, Any], scene_id: UUID) -> None:
        self.nimble_conditions[name] = {**condition, "scene_id": str(scene_id)}

    def nimble_lift_conditions(self, names: list[str], scene_id: UUID, reason: str) -> None:
        """The conditions end (released, escaped, a crit, the scene closed...)."""
        names = [n for n in names if n in self.nimble_conditions]
        if names:
            self._nimble_conditions_lifted(names, scene_id, reason)

    @event("NimbleConditionsLifted")
    def _nimble_conditions_lifted(self, names: list[str], scene_id: UUID, reason: str) -> None:
        for name in names:
            self.nimble_conditions.pop(name, None)

    def start_concentration(self, effect: str, scene_id: UUID) -> None:
        """NB-25: one effect at a time (the caller refuses a second)."""
        self._concentration_started(effect, scene_id)

    @event("NimbleConcentrationStarted")
    def _concentration_started(self, effect: str, scene_id: UUID) -> None:
        self.concentration = {"effect": effect, "scene_id": str(scene_id), "saves_due": 0}

    def end_concentration(self, reason: str, scene_id: UUID, roll_id: UUID | None = None) -> None:
        """NB-25: the effect ends (dropped, a failed save, 0 HP, the scene closed)."""
        if self.concentration is not None:
            self._concentration_ended(self.concentration["effect"], reason, scene_id, roll_id)

    @event("NimbleConcentrationEnded")
    def _concentration_ended(
        self, effect: str, reason: str, scene_id: UUID, roll_id: UUID | None
    ) -> None:
        self.concentration = None

    def concentration_save(self, roll_id: UUID, kept: bool, scene_id: UUID) -> None:
        """NB-25: the STR save a crit called for: kept, or the effect ends."""
        self._concentration_save_rolled(roll_id, kept, scene_id)

    @event("NimbleConcentrationSaveRolled")
    def _concentration_save_rolled(self, roll_id: UUID, kept: bool, scene_id: UUID) -> None:
        if self.concentration is not None:
            if kept:
                self.concentration = {
                    **self.concentration,
                    "saves_due": max(0, self.concentration["saves_due"] - 1),
                }
            else:
                self.concentration = None


def check_side(side: str) -> None:
    if side not in SIDES:
        raise InvalidInput(f"side must be one of {', '.join(SIDES)}, not {side!r}", field="side")
