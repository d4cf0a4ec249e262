"""Nimble hit points, wounds, dying, temporary HP, grapple, concentration and cover (NB-20..26).

The health area of the Nimble component. For the encounter area (systems/nimble/commands/
encounter.py, through `self.system.health`) it offers, besides the `damage` contract:

- `attack_edge(attacker, target)`: the advantage/disadvantage an attack gets from hiding,
  cover, grapples, Restrained and Mounted, whether the target can be targeted at all (full
  cover), and whether a miss hits the attacker (a ridden creature attacking its rider);
- `attacked(attacker, scene_id)`: call after an attack: the attacker is hidden no more;
- `dying_attack_save(actor, scene, campaign, attacker, client_seed, chain)`: call when a
  Dying hero attacks: the STR save DC 10 and, on a failure, 1 Wound (NB-21);
- `max_actions(character)`: 1 while Dying (NB-21), 0 when dead, else 3;
- `grapple(grab)`: a grapple's checks and roll (NB-24), for the encounter's grapple too.

See systems/nimble/docs/health.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.aggregates import Campaign, Character, Roll, RollChain, Scene
from domain.commands import Actor, CommandContext, Outcome, command
from domain.components import Loaded, SceneBoundary, open_scene_named
from domain.errors import InvalidInput
from domain.rolls import CheckRoll, declared_by
from domain.rulesets import get_ruleset
from domain.rulesets.base import form_of
from systems.nimble.commands.area import Area
from systems.nimble.requests import (
    NimbleConcentrateCreate,
    NimbleCoverCreate,
    NimbleDamageCreate,
    NimbleDyingSaveCreate,
    NimbleEncounterGrappleCreate,
    NimbleEscapeCreate,
    NimbleGrappleCreate,
    NimbleHealCreate,
    NimbleRestrainCreate,
    NimbleRollCreate,
    NimbleRolled,
    NimbleSceneAct,
    NimbleTempHpCreate,
)
from systems.nimble.rules import health
from systems.nimble.rules.health import (
    COVER,
    GRAPPLE_CONDITIONS,
    HIDDEN,
    PARTNER_CONDITION,
    RESTRAINED,
    Health,
)
from systems.nimble.rules.sheet import HERO_ACTIONS, NimbleHero, NimbleMonster, group_hp

NIMBLE = "nimble"


class InScene(Protocol):
    """A request body that names the open scene a command plays in."""

    @property
    def scene_id(self) -> UUID: ...


def _sheet(campaign: Campaign, character: Character) -> NimbleHero | NimbleMonster:
    rules = get_ruleset(campaign.ruleset)
    sheet = rules.parse_sheet(
        character.sheet, rules.parse_settings(campaign.settings), side=character.side
    )
    return form_of(sheet, NimbleHero, NimbleMonster)


def _max_wounds(campaign: Campaign) -> int:
    settings = get_ruleset(NIMBLE).parse_settings(campaign.settings)
    return int(settings.max_wounds)  # type: ignore[attr-defined]


def health_of(campaign: Campaign, character: Character) -> Health:
    """The character's NB-20..NB-23 numbers (a monster group's HP are pooled)."""
    sheet = _sheet(campaign, character)
    hero = isinstance(sheet, NimbleHero)
    max_hp = sheet.max_hp if isinstance(sheet, NimbleHero) else group_hp(sheet)
    res = character.resources
    return Health(
        hp=int(res.get("hp", max_hp)),
        max_hp=max_hp,
        temp_hp=int(res.get("temp_hp", 0)),
        wounds=int(res.get("wounds", 0)),
        max_wounds=_max_wounds(campaign) if hero else 0,
        status=character.status,
        hero=hero,
    )


def _save_request(
    sheet: NimbleHero | NimbleMonster, stat: str, purpose: str, steps: NimbleRolled | None = None
) -> dict[str, Any]:
    """A STR or DEX save DC 10 (NB-21, NB-24, NB-25): a hero's stat, a monster's +0; the steps
    the roller declares, if it may."""
    modifier = getattr(sheet.stats, stat) if isinstance(sheet, NimbleHero) else 0
    request: dict[str, Any] = {"stat": stat, "modifier": modifier, "dc": health.DC}
    if steps is not None:
        request |= {"advantage": steps.advantage, "disadvantage": steps.disadvantage}
    return request | {"purpose": purpose}


def _standing(campaign: Campaign, character: Character, field: str) -> None:
    h = health_of(campaign, character)
    health.check_standing(character.name, h.status, h.hp, field)


def levels(h: Health) -> dict[str, int]:
    return {"hp": h.hp, "temp_hp": h.temp_hp, "wounds": h.wounds}


def nimble_view(character: Character, campaign: Campaign) -> dict[str, Any] | None:
    """The `nimble` block of a character's view (None outside Nimble)."""
    if campaign.ruleset != NIMBLE:
        return None
    sheet = _sheet(campaign, character)
    h = health_of(campaign, character)
    maxima: dict[str, int | None] = {
        "hp": h.max_hp,
        "mana": sheet.mana if isinstance(sheet, NimbleHero) else 0,
        "wounds": h.max_wounds,
    }
    return health.health_view(
        character.resources,
        character.status,
        character.nimble_conditions,
        character.concentration,
        maxima,
        h.hero,
        None if isinstance(sheet, NimbleHero) else (sheet.count, sheet.hp),
    )


@dataclass(frozen=True)
class HealthResult:
    """What a health command tells its presenter: its roll (if any) and what came of it."""

    roll_id: UUID | None = None
    outcome: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Grab:
    """One grapple as it is tried (NB-24): who grabs whom in which scene, with the request's
    size, skill, steps and (a monster's) modifier; `attack_number` counts it among the turn's
    attacks (NB-10); `field` names the grappler in errors (the request's field)."""

    actor: Actor
    scene: Scene
    campaign: Campaign
    grappler: Character
    target: Character
    loaded: Loaded
    body: NimbleGrappleCreate | NimbleEncounterGrappleCreate
    attack_number: int
    field: str = "character_id"


class HealthArea(Area):
    """Nimble's health commands (NB-20..26), an area of the Nimble component."""

    # ---- THE CONTRACT with the encounter verbs ---------------------------------------------------

    def damage(
        self,
        actor: Actor,
        scene: Scene,
        target: Character,
        amount: int,
        *,
        critical: bool,
        roll_id: UUID | None,
        loaded: Loaded,
    ) -> dict[str, Any]:
        """THE CONTRACT of every hit (NB-20..NB-25): `amount` damage from roll `roll_id` in `scene`
        to `target` (in `loaded`), temporary HP first; Wounds, Dying and death; Concentration; a
        critical or 0 HP ends its grapples, the partner changed through `loaded`. Returns the
        summary the response shows (systems/nimble/docs/health.md lists its fields)."""
        health.check_damage(amount)
        campaign = self.app.campaign_of(actor)
        before = health_of(campaign, target)
        health.check_standing(target.name, before.status, before.hp, "target_id")
        hit = health.take_damage(before, amount, critical)
        after = hit.after
        concentration = health.concentration_after(target.concentration, after.hp, critical)
        target.nimble_take_damage(
            amount,
            critical,
            roll_id,
            scene.id,
            hit.temp_hp_absorbed,
            hit.wounds_taken,
            levels(after),
            after.status,
            concentration,
        )
        self.system.encounter.sync_activity(scene, target)  # NB-6: 0 HP ends its activity
        freed: list[str] = []
        if critical or after.hp == 0:
            why = "a critical hit (NB-24)" if critical else "0 HP (NB-24 ruling)"
            freed = self._nb_end_grapples(actor, target, scene.id, why, loaded)
        sheet = _sheet(campaign, target)
        group = None if isinstance(sheet, NimbleHero) else (sheet.count, sheet.hp)
        return {
            **health.damage_summary(hit, amount, critical),
            "members": health.members(group, after.hp),  # a group shrinks as its HP fall
            "concentration": concentration,
            "grapple_ended": freed,
        }

    # ---- for the encounter verbs ------------------------------------------------------------------

    @staticmethod
    def attack_edge(attacker: Character, target: Character) -> dict[str, Any]:
        """NB-24/NB-26: what the conditions add to an attack of `attacker` on `target`:
        {"advantage", "disadvantage", "reasons", "can_target" (False: full cover),
        "miss_hits_attacker" (a ridden creature attacking its rider), "from_hiding"}."""
        return health.attack_edge(
            str(attacker.id), attacker.nimble_conditions, str(target.id), target.nimble_conditions
        ).to_json()

    @staticmethod
    def attacked(attacker: Character, scene_id: UUID) -> None:
        """NB-26: after its first attack from hiding the attacker is hidden no more."""
        attacker.nimble_lift_conditions([HIDDEN], scene_id, "attacked (NB-26)")

    @staticmethod
    def max_actions(character: Character) -> int:
        """NB-21: a Dying hero has at most 1 action per turn; the dead none."""
        return health.max_actions(character.status, HERO_ACTIONS)

    def dying_attack_save(
        self,
        actor: Actor,
        scene: Scene,
        campaign: Campaign,
        attacker: Character,
        client_seed: str | None,
        chain: RollChain | None = None,
    ) -> tuple[dict[str, Any] | None, list[Aggregate]]:
        """NB-21: a Dying hero that attacks rolls a STR save DC 10 (a roll record made by
        `attacker`); on a failure it takes 1 Wound (and dies at the maximum, NB-22). Returns
        (None, []) unless the attacker is Dying, else the summary and the aggregates to save
        (systems/nimble/docs/health.md). `chain`: that of an earlier roll of the command."""
        if attacker.status != "dying":
            return None, []
        sheet = _sheet(campaign, attacker)
        request = _save_request(sheet, "STR", "attacking while Dying (NB-21)")
        outcome, touched = self.app.roll_check(
            CheckRoll(
                actor=actor,
                scene=scene,
                campaign=campaign,
                check="save",
                request=request,
                character=attacker,
                client_seed=client_seed,
                chain=chain,
            )
        )
        roll = touched[0]
        before = health_of(campaign, attacker)
        after = before if outcome.success else health.take_wounds(before, 1)
        wounds_taken = after.wounds - before.wounds
        if not outcome.success:
            why = "attacked while Dying and failed the STR save (NB-21)"
            attacker.nimble_take_wounds(
                wounds_taken, levels(after), after.status, roll.id, scene.id, why
            )
        summary = {
            "roll_id": str(roll.id),
            "success": bool(outcome.success),
            "total": outcome.score,
            "wounds_taken": wounds_taken,
            "wounds": after.wounds,
            "dead": after.status == "dead",
        }
        return summary, [*touched, attacker]

    # ---- helpers ----------------------------------------------------------------------------------

    def _nb_campaign(self, actor: Actor, field: str = "character_id") -> Campaign:
        campaign = self.app.campaign_of(actor)
        if campaign.ruleset != NIMBLE:
            raise InvalidInput(
                f"{get_ruleset(campaign.ruleset).name} has no Nimble health verbs", field=field
            )
        return campaign

    def _nb_other(self, actor: Actor, character_id: UUID, field: str, loaded: Loaded) -> Character:
        return loaded.character(self.app, actor, character_id, field)

    def _nb_acting(
        self, ctx: CommandContext, character_id: UUID, *, gm: bool = False
    ) -> tuple[Actor, Campaign, Character, Loaded]:
        """The actor, the campaign, the character addressed (If-Match) and the loaded set; a
        player acts only for its own characters."""
        actor = self.app._gm(ctx) if gm else self.app._member(ctx)
        character = self.app._target(ctx, actor, Character, character_id)
        self.app._check_may_act_for(actor, character)
        campaign = self._nb_campaign(actor)
        return actor, campaign, character, Loaded({character.id: character})

    def _nb_in_scene(
        self, ctx: CommandContext, character_id: UUID, body: InScene, *, gm: bool = False
    ) -> tuple[Actor, Campaign, Character, Loaded, Scene]:
        """`_nb_acting`, and the open scene the body names, where the character acts."""
        actor, campaign, character, loaded = self._nb_acting(ctx, character_id, gm=gm)
        scene = open_scene_named(self.app, actor, body.scene_id)
        return actor, campaign, character, loaded, scene

    def _nb_in_turn(
        self, scene: Scene, character: Character, action: str, cost: int, **how: Any
    ) -> list[Aggregate]:
        """The encounter's turn and actions for a health verb (`Encounter.in_turn`): the scene
        to save with the command if a running encounter recorded it, else nothing."""
        in_fight = self.system.encounter.in_turn(scene, character, action, cost, **how)
        return [scene] if in_fight else []

    def _nb_end_grapples(
        self, actor: Actor, character: Character, scene_id: UUID, reason: str, loaded: Loaded
    ) -> list[str]:
        """NB-24: the character's grapples end, on both sides. Returns the partners' ids."""
        freed: list[str] = []
        names = [n for n in GRAPPLE_CONDITIONS if n in character.nimble_conditions]
        for name in names:
            partner_id = health.partner_of(name, character.nimble_conditions[name])
            if partner_id is None:
                continue
            partner = loaded.character(self.app, actor, UUID(partner_id))
            partner.nimble_lift_conditions([PARTNER_CONDITION[name]], scene_id, reason)
            freed.append(partner_id)
        character.nimble_lift_conditions(names, scene_id, reason)
        return freed

    def _nb_commit(
        self,
        ctx: CommandContext,
        character: Character,
        loaded: Loaded,
        outcome: dict[str, Any],
        touched: list[Aggregate] | None = None,
        roll: Roll | None = None,
    ) -> Outcome:
        unique: dict[UUID, Aggregate] = {}
        for aggregate in [*(touched or []), *loaded.touched(character)]:
            if aggregate.id != character.id:
                unique.setdefault(aggregate.id, aggregate)
        result = HealthResult(roll.id if roll else None, outcome)
        return self.app._commit(ctx, character, *unique.values(), result=result)

    def _nb_roll(
        self, rolled: CheckRoll, body: NimbleRolled, numbers: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], bool, Roll, list[Aggregate]]:
        """The roll of a health command (`rolled`: what, by whom, where; its modifiers are added
        here): the steps the roller declared in `body` (NB-11) follow player_modifiers; those of
        the record (hiding, cover, hasty attacks) are not the roller's. `numbers`: other fields of
        `body` the sender gave (a monster's modifier): they follow player_modifiers too, and a
        GM's are recorded as the GM's."""
        steps = {"advantage": body.advantage, "disadvantage": body.disadvantage}
        declared = declared_by({**steps, **(numbers or {})})
        outcome, touched = self.app.roll_check(replace(rolled, declared=declared))
        roll = touched[0]
        assert isinstance(roll, Roll)
        return outcome.result, bool(outcome.success), roll, touched

    # ---- NB-20..NB-23: the GM's damage, healing, temporary HP; the Safe Rest -------------------

    @command
    def nimble_deal_damage(
        self, ctx: CommandContext, character_id: UUID, body: NimbleDamageCreate
    ) -> Outcome:
        """NB-20..NB-25: (GM) damage dealt directly, through the same `_nimble_damage`."""
        actor, _, target, loaded, scene = self._nb_in_scene(ctx, character_id, body, gm=True)
        summary = self.damage(
            actor, scene, target, body.amount, critical=body.critical, roll_id=None, loaded=loaded
        )
        return self._nb_commit(ctx, target, loaded, summary, [scene])

    @command
    def nimble_heal(
        self, ctx: CommandContext, character_id: UUID, body: NimbleHealCreate
    ) -> Outcome:
        """NB-20: (GM) HP restored up to the maximum; above 0 HP Dying ends. Wounds stay."""
        _, campaign, character, loaded = self._nb_acting(ctx, character_id, gm=True)
        if body.amount < 1:
            raise InvalidInput("heal at least 1 HP", field="amount", rule="NB-20")
        before = health_of(campaign, character)
        health.check_standing(character.name, before.status, before.hp, "character_id")
        after = health.heal(before, body.amount)
        character.nimble_heal(after.hp - before.hp, levels(after), after.status, body.reason)
        summary = {
            "healed": after.hp - before.hp,
            "hp": after.hp,
            "status": after.status,
            "dying_ended": before.status == "dying" and after.status != "dying",
        }
        return self._nb_commit(ctx, character, loaded, summary)

    @command
    def nimble_grant_temp_hp(
        self, ctx: CommandContext, character_id: UUID, body: NimbleTempHpCreate
    ) -> Outcome:
        """NB-23: (GM) temporary HP; they do not stack: `keep` records the hero's choice between
        the new amount and the current one ("higher" by default)."""
        _, campaign, character, loaded = self._nb_acting(ctx, character_id, gm=True)
        if body.amount < 1:
            raise InvalidInput("grant at least 1 temporary HP", field="amount", rule="NB-23")
        if body.keep not in ("higher", "new", "current"):
            raise InvalidInput("keep is higher, new or current", field="keep", rule="NB-23")
        before = health_of(campaign, character)
        health.check_standing(character.name, before.status, before.hp, "character_id")
        kept = health.keep_temp_hp(before.temp_hp, body.amount, body.keep)  # type: ignore[arg-type]
        character.nimble_gain_temp_hp(body.amount, body.keep, kept, body.reason)
        summary = {"offered": body.amount, "previous": before.temp_hp, "temp_hp": kept}
        return self._nb_commit(ctx, character, loaded, summary)

    @command
    def nimble_safe_rest(self, ctx: CommandContext, character_id: UUID) -> Outcome:
        """NB-22/NB-23: (GM) a Safe Rest: 1 Wound heals; HP and mana back to their maximum;
        temporary HP vanish; Dying, the fight's conditions and Concentration end."""
        _, campaign, character, loaded = self._nb_acting(ctx, character_id, gm=True)
        before = health_of(campaign, character)
        if not before.hero:
            raise InvalidInput("monsters take no Safe Rest", field="character_id", rule="NB-22")
        health.check_standing(character.name, before.status, before.hp, "character_id")
        sheet = _sheet(campaign, character)
        assert isinstance(sheet, NimbleHero)
        after, new_levels, healed = health.safe_rest(before, sheet.mana)
        character.nimble_safe_rest(new_levels, healed, after.status)
        summary = {"wounds_healed": healed, **new_levels, "status": after.status}
        return self._nb_commit(ctx, character, loaded, summary)

    # ---- NB-21: the STR save of a Dying hero that attacks ------------------------------------

    @command
    def nimble_dying_save(
        self, ctx: CommandContext, character_id: UUID, body: NimbleDyingSaveCreate
    ) -> Outcome:
        """NB-21: a Dying hero attacked (outside the encounter verbs, which roll it themselves):
        STR save DC 10, or 1 Wound."""
        actor, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        health.check_dying(character.name, character.status)
        summary, touched = self.dying_attack_save(
            actor, scene, campaign, character, body.client_seed
        )
        roll = touched[0]
        assert summary is not None and isinstance(roll, Roll)
        return self._nb_commit(ctx, character, loaded, summary, touched, roll)

    # ---- NB-24: grapples --------------------------------------------------------------------------

    @command
    def nimble_grapple(
        self, ctx: CommandContext, character_id: UUID, body: NimbleGrappleCreate
    ) -> Outcome:
        """NB-24: an action and a Might or Finesse check DC 10 (an attack: hasty attacks add
        disadvantage; hiding, cover... count as for attacks). A smaller or same-size target is
        grappled; a larger one is ridden (Mounted). A Dying grappler first makes its STR save.
        Outside an encounter's bookkeeping: the client spends the action and passes
        `attack_number` (the encounter's own verb is `nimble_encounter_grapple`)."""
        actor, campaign, grappler, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        encounter = scene.state(NIMBLE, "encounter")
        in_encounter = encounter.get("status") == "running" and str(grappler.id) in encounter.get(
            "kinds", {}
        )
        health.check_grapple_outside_encounter(in_encounter, by_gm=actor.is_gm)
        target = self._nb_other(actor, body.target_id, "target_id", loaded)
        grab = Grab(actor, scene, campaign, grappler, target, loaded, body, body.attack_number)
        outcome, touched, roll = self.grapple(grab)
        return self._nb_commit(ctx, grappler, loaded, outcome, touched, roll)

    def grapple(self, grab: Grab) -> tuple[dict[str, Any], list[Aggregate], Roll | None]:
        """NB-24 (shared by `nimble_grapple` and the encounter's `nimble_encounter_grapple`): check
        and roll a grapple of `grab.target` (already in `grab.loaded`); a Dying grappler first
        makes its STR save (NB-21) and, if that kills it, grapples nothing. Changes the two
        characters (conditions; hiding ends) and returns (the outcome {"grappled", "condition",
        "edge", "check", "dying_save"?}, the aggregates the rolls touched, the roll to reveal:
        the grapple check, or the save that killed the grappler). Writes nothing itself: the
        caller commits."""
        edge = self._grab_edge(grab)
        modifier = self._grab_modifier(grab)
        outcome: dict[str, Any] = {}
        dying, touched = self.dying_attack_save(
            grab.actor, grab.scene, grab.campaign, grab.grappler, grab.body.client_seed
        )
        if dying is not None:
            outcome["dying_save"] = dying
            if dying["dead"]:
                outcome["grappled"] = False
                return outcome, touched, touched[0]  # type: ignore[return-value]
        chain = touched[1] if dying is not None else None
        result, success, roll, rolled = self._grab_roll(grab, edge, modifier, chain)
        if edge.from_hiding:
            self.attacked(grab.grappler, grab.scene.id)
        if success:
            self._grabbed(grab)
        outcome.update(
            {
                "grappled": success,
                "condition": ("mounted" if grab.body.size == "larger" else "grappling")
                if success
                else None,
                "edge": edge.to_json(),
                "check": result,
            }
        )
        return outcome, [*touched, *rolled], roll

    @staticmethod
    def _grab_edge(grab: Grab) -> health.AttackEdge:
        """NB-24/NB-26: the grapple's refusals, and what the conditions add to it (an attack)."""
        grappler, target, body = grab.grappler, grab.target, grab.body
        health.check_grapple_form(body.size, body.skill)
        health.check_not_grabbing_itself(str(grappler.id), str(target.id))
        _standing(grab.campaign, grappler, grab.field)
        _standing(grab.campaign, target, "target_id")
        health.check_free_to_grapple(
            grappler.name,
            grappler.nimble_conditions,
            target.name,
            target.nimble_conditions,
            grab.field,
        )
        edge = health.attack_edge(
            str(grappler.id), grappler.nimble_conditions, str(target.id), target.nimble_conditions
        )
        health.check_grabbable(target.name, edge.can_target)
        return edge

    @staticmethod
    def _grab_modifier(grab: Grab) -> int:
        """NB-24: a hero's Might or Finesse from its sheet; a monster's as the GM gives it."""
        sheet = _sheet(grab.campaign, grab.grappler)
        skills = sheet.skills if isinstance(sheet, NimbleHero) else None
        return health.grapple_modifier(skills, grab.body.skill, grab.body.modifier)

    def _grab_roll(
        self, grab: Grab, edge: health.AttackEdge, modifier: int, chain: Any
    ) -> tuple[dict[str, Any], bool, Roll, list[Aggregate]]:
        """The grapple's fair roll: a skill check DC 10 counted among the turn's attacks."""
        body = grab.body
        request = {
            "skill": "Might" if body.skill.casefold() == "might" else "Finesse",
            "modifier": modifier,
            "dc": health.DC,
            "attack_number": grab.attack_number,
            "advantage": body.advantage + edge.advantage,
            "disadvantage": body.disadvantage + edge.disadvantage,
            "purpose": f"grapple {grab.target.name} (NB-24)",
        }
        # NB-24: a monster's modifier is no number of its sheet: whoever gives it declares it
        numbers = {} if body.modifier is None else {"modifier": body.modifier}
        rolled = CheckRoll(
            grab.actor,
            grab.scene,
            grab.campaign,
            "skill",
            request,
            grab.grappler,
            body.client_seed,
            chain,
        )
        return self._nb_roll(rolled, body, numbers)

    @staticmethod
    def _grabbed(grab: Grab) -> None:
        """NB-24: the grappler holds (or rides) the target, and the target is held (or ridden)."""
        scene_id = grab.scene.id
        mine, theirs = health.grapple_conditions(
            str(grab.grappler.id), str(grab.target.id), grab.body.size, str(scene_id)
        )
        grab.grappler.nimble_set_condition(mine[0], mine[1], scene_id)
        grab.target.nimble_set_condition(theirs[0], theirs[1], scene_id)

    @command
    def nimble_release(
        self, ctx: CommandContext, character_id: UUID, body: NimbleSceneAct
    ) -> Outcome:
        """NB-24: the grappler lets go (or the rider gets off), for free."""
        actor, _, grappler, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        health.check_holding(grappler.name, grappler.nimble_conditions)
        # NB-24: "the grappler may let go for free on its turn" (NB-8: the turn's free action)
        touched = self._nb_in_turn(scene, grappler, "release", 0, free=True)
        freed = self._nb_end_grapples(actor, grappler, scene.id, "released (NB-24)", loaded)
        return self._nb_commit(ctx, grappler, loaded, {"released": freed}, touched)

    @command
    def nimble_escape(
        self, ctx: CommandContext, character_id: UUID, body: NimbleEscapeCreate
    ) -> Outcome:
        """NB-24: an action and a STR or DEX save (DC 10, ruling) to break free of a grapple, a
        rider, or what restrains the character."""
        actor, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        conditions = character.nimble_conditions
        name = health.escaped_condition(character.name, conditions, body.stat, body.condition)
        _standing(campaign, character, "character_id")
        # NB-24: "spend an action and pass a STR or DEX save", on the character's own turn
        self.system.encounter.in_turn(scene, character, "escape", 1, condition=name)
        request = _save_request(
            _sheet(campaign, character), body.stat, f"escape: {name} (NB-24)", body
        )
        result, success, roll, touched = self._nb_roll(
            CheckRoll(actor, scene, campaign, "save", request, character, body.client_seed), body
        )
        if success:
            detail = character.nimble_conditions[name]
            partner_id = health.partner_of(name, detail)
            if partner_id is not None:
                partner = loaded.character(self.app, actor, UUID(partner_id))
                partner.nimble_lift_conditions(
                    [PARTNER_CONDITION[name]], scene.id, "the other escaped (NB-24)"
                )
            character.nimble_lift_conditions([name], scene.id, "escaped (NB-24)")
        outcome = {"escaped": success, "condition": name, "save": result}
        return self._nb_commit(ctx, character, loaded, outcome, touched, roll)

    @command
    def nimble_restrain(
        self, ctx: CommandContext, character_id: UUID, body: NimbleRestrainCreate
    ) -> Outcome:
        """NB-24: (GM) the character is Restrained by a thing (tar, chains, roots), or (`by`
        null) freed of it."""
        _, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body, gm=True)
        if body.by is None:
            health.check_restrained(character.name, character.nimble_conditions)
            character.nimble_lift_conditions([RESTRAINED], scene.id, "freed by the GM")
            return self._nb_commit(ctx, character, loaded, {"restrained": False})
        _standing(campaign, character, "character_id")
        character.nimble_set_condition(RESTRAINED, {"by": body.by, "rule": "NB-24"}, scene.id)
        return self._nb_commit(ctx, character, loaded, {"restrained": True, "by": body.by})

    # ---- NB-25: Concentration ---------------------------------------------------------------------

    @command
    def nimble_concentrate(
        self, ctx: CommandContext, character_id: UUID, body: NimbleConcentrateCreate
    ) -> Outcome:
        """NB-25: start concentrating on one effect; refused while concentrating on another, at
        0 HP (Dying) or dead."""
        _, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        h = health_of(campaign, character)
        health.check_standing(character.name, h.status, h.hp, "character_id")
        health.check_may_concentrate(character.name, character.concentration, h.hp)
        # ruling: an effect is begun on one's own turn (its Cast pays the actions), no action more
        touched = self._nb_in_turn(scene, character, "concentrate", 0, effect=body.effect)
        character.start_concentration(body.effect, scene.id)
        outcome = {"concentrating_on": body.effect}
        return self._nb_commit(ctx, character, loaded, outcome, touched)

    @command
    def nimble_end_concentration(
        self, ctx: CommandContext, character_id: UUID, body: NimbleSceneAct
    ) -> Outcome:
        """NB-8/NB-25: end Concentration (a free action)."""
        _, _, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        effect = health.check_concentrating(character.name, character.concentration)["effect"]
        # NB-8: ending concentration is a free action, 1 a turn (anyone's turn)
        touched = self._nb_in_turn(
            scene, character, "end_concentration", 0, free=True, own_turn=False, effect=effect
        )
        character.end_concentration("dropped (a free action, NB-8)", scene.id)
        self.system.encounter.sync_activity(scene, character)  # NB-6: an activity goes with it
        return self._nb_commit(ctx, character, loaded, {"ended": effect}, touched)

    @command
    def nimble_concentration_save(
        self, ctx: CommandContext, character_id: UUID, body: NimbleRollCreate
    ) -> Outcome:
        """NB-25: the STR save DC 10 a critical hit called for; a failure ends the effect."""
        actor, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        concentration = health.check_save_due(character.name, character.concentration)
        purpose = f"keep concentrating on {concentration['effect']} (NB-25)"
        request = _save_request(_sheet(campaign, character), "STR", purpose, body)
        result, success, roll, touched = self._nb_roll(
            CheckRoll(actor, scene, campaign, "save", request, character, body.client_seed), body
        )
        character.concentration_save(roll.id, success, scene.id)
        self.system.encounter.sync_activity(scene, character)  # NB-6: a failure ends it
        outcome = {"effect": concentration["effect"], "kept": success, "save": result}
        return self._nb_commit(ctx, character, loaded, outcome, touched, roll)

    # ---- NB-26: cover and hiding ------------------------------------------------------------------

    @command
    def nimble_take_cover(
        self, ctx: CommandContext, character_id: UUID, body: NimbleCoverCreate
    ) -> Outcome:
        """NB-26: the character is in partial or full cover, or (`none`) out of it; leaving cover
        ends hiding (ruling: hiding is no magic)."""
        _, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        _standing(campaign, character, "character_id")
        health.check_cover_change(character.name, character.nimble_conditions, body.level)
        # ruling: cover is where one stands: it changes on one's own turn (the Move pays for it)
        touched = self._nb_in_turn(scene, character, "cover", 0, level=body.level)
        if body.level == "none":
            character.nimble_lift_conditions([COVER, HIDDEN], scene.id, "left cover (NB-26)")
        else:
            character.nimble_set_condition(COVER, {"level": body.level, "rule": "NB-26"}, scene.id)
        return self._nb_commit(ctx, character, loaded, {"cover": body.level}, touched)

    @command
    def nimble_hide(
        self, ctx: CommandContext, character_id: UUID, body: NimbleRollCreate
    ) -> Outcome:
        """NB-26: in cover, an action and a Stealth check DC 10 (automatic in full cover)."""
        actor, campaign, character, loaded, scene = self._nb_in_scene(ctx, character_id, body)
        _standing(campaign, character, "character_id")
        cover = health.cover_to_hide_in(character.name, character.nimble_conditions)
        # NB-26: hiding is an action (automatic in full cover, an action still), on one's turn
        turn = self._nb_in_turn(scene, character, "hide", 1, cover=cover)
        hidden = {"rule": "NB-26"}
        if cover == "full":
            character.nimble_set_condition(HIDDEN, hidden, scene.id)
            done = {"hidden": True, "automatic": True}
            return self._nb_commit(ctx, character, loaded, done, turn)
        sheet = _sheet(campaign, character)
        skills = sheet.skills if isinstance(sheet, NimbleHero) else {}
        request = {
            "skill": "Stealth",
            "modifier": next((v for k, v in skills.items() if k.casefold() == "stealth"), 0),
            "dc": health.DC,
            "advantage": body.advantage,
            "disadvantage": body.disadvantage,
            "purpose": "hide (NB-26)",
        }
        result, success, roll, touched = self._nb_roll(
            CheckRoll(actor, scene, campaign, "skill", request, character, body.client_seed), body
        )
        if success:
            character.nimble_set_condition(HIDDEN, hidden, scene.id)
        outcome = {"hidden": success, "automatic": False, "check": result}
        return self._nb_commit(ctx, character, loaded, outcome, touched, roll)

    # ---- reads ------------------------------------------------------------------------------------

    def nimble_health(self, actor: Actor, character_id: UUID) -> tuple[Character, Campaign]:
        character = self.app.get(actor, Character, character_id)
        return character, self._nb_campaign(actor)

    def nimble_attack_edge(
        self, actor: Actor, attacker_id: UUID, target_id: UUID
    ) -> dict[str, Any]:
        attacker = self.app.get(actor, Character, attacker_id)
        self._nb_campaign(actor)
        target = self.app.named(actor, Character, target_id, "target_id")
        return self.attack_edge(attacker, target)

    # ---- boundaries -------------------------------------------------------------------------------

    def scene_closed(self, at: SceneBoundary) -> None:
        """Ruling: grapples, Restrained, hiding, cover and Concentration end with their scene."""
        actor, scene, loaded = at.actor, at.scene, at.loaded
        campaign = self.app.campaign_of(actor)
        here = str(scene.id)
        for character_id in campaign.character_ids:
            character = loaded.character(self.app, actor, character_id)
            ended = [n for n, c in character.nimble_conditions.items() if c.get("scene_id") == here]
            character.nimble_lift_conditions(ended, scene.id, "the scene closed")
            if character.concentration and character.concentration.get("scene_id") == here:
                character.end_concentration("the scene closed", scene.id)
