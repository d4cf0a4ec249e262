"""The fight's refusals that depend only on the rules and the state (WCBH-25, 31, 40..47): the
commands (systems/wcbh/commands/fight.py) load, ask these, roll, record and save. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from domain.errors import Conflict, InvalidInput
from domain.rulesets.base import unwrap
from systems.wcbh.rules.attack import is_minion
from systems.wcbh.rules.checks import check_server_filled
from systems.wcbh.rules.effects import effect_forbidding
from systems.wcbh.rules.sheet import WcbhCharacter

MAX_ACTIONS = 10

# WCBH-41: maneuver -> (default trait, traits allowed besides Powers (None: any), default
# opposing trait, opposing traits allowed besides Powers (None: any)).
MANEUVER_TRAITS: dict[
    str, tuple[str | None, tuple[str, ...] | None, str, tuple[str, ...] | None]
] = {
    "feint": ("Agility", ("Agility",), "Agility", ("Agility",)),
    "stunning_blow": (None, None, "Agility", ("Agility", "Strength", "Stamina")),
    "overpower": ("Strength", ("Strength",), "Strength", None),
    "taunt": ("Charisma", ("Charisma", "Leadership"), "Will", ("Will",)),
}


def refused(exc: InvalidInput, code: str = "page_action_refused") -> Conflict:
    """The page rules raise InvalidInput; against the page's state they are 409s."""
    return Conflict(exc.message, field=exc.field, code=code, rule=exc.rule, details=exc.details)


def check_page_dice(sent: object, dice: int, name: str) -> None:
    """WCBH-25, 41: the page's dice on a roll are the server's; a client may send the same."""
    check_server_filled("page_modifier", sent, dice, "WCBH-25", f"{name} on this page")


def check_resolve_first(followed_up: bool) -> None:
    """WCBH-20b: Resolve after an attack comes before its knockback or redirect (ruling)."""
    if followed_up:
        raise Conflict(
            "Resolve after an attack comes before its knockback or redirect",
            field="roll_id",
            code="follow_up_refused",
            rule="WCBH-20b",
        )


# ---- who may act, and on whom ------------------------------------------------------------------


def check_turn(name: str, lost_turn: bool, lost_rule: str | None) -> None:
    """WCBH-25: a character whose turn was taken does nothing this page."""
    if lost_turn:
        rule = lost_rule or "WCBH-25"
        raise Conflict(
            f"{name} lost its turn this page ({rule})",
            field="character_id",
            code="turn_lost",
            rule=rule,
        )


def check_in_the_fight(name: str, status: str) -> None:
    """WCBH-31: a defeated character is out of the fight (WCBH-39 brings it back)."""
    if status == "defeated":
        raise Conflict(
            f"{name} is defeated and out of the fight",
            field="character_id",
            code="defeated",
            rule="WCBH-31",
        )


def check_free(
    name: str,
    effects: Mapping[str, Mapping[str, Any]],
    rulings: Mapping[str, Mapping[str, Any]],
    what: str,
) -> None:
    """WCBH-35, 37: a character under a special effect is not free: it neither acts nor moves
    until the effect is shaken off or dropped (WCBH-37, 39), unless the GM ruled the effect lets
    it (`effect_forbidding`)."""
    effect = effect_forbidding(effects, rulings, what)
    if effect is not None:
        doing = {"may_act": "act", "may_move": "move"}.get(what, what)
        raise Conflict(
            f"{name} is under {effect!r} and cannot {doing} until it is free of it (shaken "
            "off, WCBH-37; dropped, WCBH-39) or the GM rules the effect allows it",
            field="character_id",
            code="under_effect",
            rule="WCBH-37",
            details={"effect": effect, "limit": what},
        )


def check_armed(name: str, conditions: Mapping[str, Any], weapon: int) -> None:
    """WCBH-40, 41: a character whose weapon was taken (a hold aimed at it, a maneuver of 3+)
    attacks without its weapon's dice."""
    if not weapon:
        return
    for condition_name, condition in conditions.items():
        if condition_name == "disarmed" or condition.get("loses_weapon"):
            raise Conflict(
                f"{name} lost its weapon ({condition_name}) and has no weapon dice",
                field="weapon",
                code="weapon_lost",
                rule=str(condition.get("rule", "WCBH-41")),
            )


def check_may_delay(name: str, used: int, delayed_to: str | None) -> None:
    """WCBH-23: a character delays its action before taking it (ruling: once a page)."""
    if used:
        raise Conflict(
            f"{name} already acted this page: there is no action left to delay",
            field="character_id",
            code="page_action_refused",
            rule="WCBH-23",
        )
    if delayed_to is not None:
        raise Conflict(
            f"{name} already delays its action this page (to: {delayed_to})",
            field="character_id",
            code="already_delayed",
            rule="WCBH-23",
        )


def check_someone_delayed(moment: str, waiting: int) -> None:
    """WCBH-23: the moment the GM says came is one a character delayed its action to."""
    if not waiting:
        raise Conflict(
            f"no one in the fight delays its action to {moment!r} this page",
            field="moment",
            code="no_such_moment",
            rule="WCBH-23",
        )


def check_standing(name: str, status: str, field: str) -> None:
    """WCBH-31: a defeated character is no target."""
    if status == "defeated":
        raise Conflict(
            f"{name} is already defeated", field=field, code="target_defeated", rule="WCBH-31"
        )


def check_other(first: object, second: object, message: str, field: str) -> None:
    """Two roles of one command that must be two characters (no attacking oneself)."""
    if first == second:
        raise InvalidInput(message, field=field)


def check_third(third: object, pair: Iterable[object], what: str, field: str) -> None:
    """WCBH-44: a club or a defender is neither the attacker nor the target."""
    if third in tuple(pair):
        raise InvalidInput(f"the {what} is a third character", field=field)


# ---- WCBH-25, 40, 44: the page -------------------------------------------------------------------


def check_actions(actions: int, all_out_defence: bool) -> None:
    """WCBH-25: 1..10 actions; WCBH-44: all-out defence takes no actions besides it."""
    if not 1 <= actions <= MAX_ACTIONS:
        raise InvalidInput(f"1 to {MAX_ACTIONS} actions", field="actions", rule="WCBH-25")
    if all_out_defence and actions != 1:
        raise InvalidInput(
            "all-out defence takes no actions besides it", field="actions", rule="WCBH-44"
        )


def check_first_action(used: int, all_out_defence: bool) -> None:
    """WCBH-25, 44: extra actions and all-out defence are declared before the page's first
    action (ruling, PageState.declare_action)."""
    if used:
        raise Conflict(
            "extra actions (and all-out defence) are declared before the first action of the page",
            field="actions",
            code="page_action_refused",
            rule="WCBH-44" if all_out_defence else "WCBH-25",
        )


def check_not_held(name: str, conditions: Mapping[str, Any]) -> None:
    """WCBH-40: a held character does not move."""
    if "held" in conditions:
        raise Conflict(
            f"{name} is held and cannot move", field="character_id", code="held", rule="WCBH-40"
        )


def check_already_attacked(attacked: Iterable[str], target: str) -> None:
    """WCBH-25: one attack per target per page."""
    if target in attacked:
        raise InvalidInput(
            "that target was already attacked this page", field="target", rule="WCBH-25"
        )


# ---- WCBH-28, 44, 46: attacks --------------------------------------------------------------------


def check_attack_options(maneuver: str | None, effect: str | None, with_others: bool) -> None:
    """WCBH-44: a charge or an all-out attack; WCBH-35: a special effect hits one target, with no
    club and no defender (`with_others`)."""
    if maneuver not in (None, "charge", "all_out"):
        raise InvalidInput("maneuver is charge or all_out", field="maneuver", rule="WCBH-44")
    if effect is not None and with_others:
        raise InvalidInput(
            "a special effect hits one target, with no club and no defender", field="effect"
        )


def check_guard(
    name: str, defending: bool, options: Sequence[Mapping[str, Any]], active: bool
) -> None:
    """WCBH-44: an ally defends one other a page, with a defence of the kind it names."""
    if defending:
        raise Conflict(
            f"{name} already defends an ally this page",
            field="defender_id",
            code="page_action_refused",
            rule="WCBH-44",
        )
    if not any(o["active"] == active for o in options):
        raise InvalidInput(
            f"the defender has no {'active' if active else 'passive'} defence",
            field="defender_active",
            rule="WCBH-44",
        )


def defence_choices(
    options: Sequence[Mapping[str, Any]], *, passive_only: bool, redirect_declared: bool
) -> list[Mapping[str, Any]]:
    """WCBH-28 options, less the active ones of a target surprised by an ambush (WCBH-42), less
    the passive ones of a target that declared a redirect (WCBH-46)."""
    chosen = [o for o in options if not (passive_only and o["active"])]
    if redirect_declared:
        chosen = [o for o in chosen if o["active"]]
        if not chosen:
            raise InvalidInput(
                "a redirect needs an active defence: name one the target has",
                field="redirect",
                rule="WCBH-46",
            )
    return chosen


# ---- WCBH-40..43, 47: grapples, maneuvers, ambushes, area and team attacks ----------------------


def check_aim(aim: str) -> None:
    if aim not in ("hold", "weapon"):
        raise InvalidInput("aim is hold or weapon", field="aim", rule="WCBH-40")


def maneuver_traits(maneuver: str, trait: str | None, against: str | None) -> tuple[str, str]:
    """WCBH-41: the attacking and the opposing trait of a maneuver (its defaults filled)."""
    if maneuver not in MANEUVER_TRAITS:
        raise InvalidInput(
            f"maneuver is one of {', '.join(MANEUVER_TRAITS)}", field="maneuver", rule="WCBH-41"
        )
    default_trait, _, default_against, _ = MANEUVER_TRAITS[maneuver]
    chosen = trait or default_trait
    if chosen is None:
        raise InvalidInput(
            "a stunning blow names the attacking trait", field="trait", rule="WCBH-41"
        )
    return chosen, against or default_against


def check_maneuver_traits(
    maneuver: str, attacker: BaseModel, trait: str, target: BaseModel, against: str
) -> None:
    """WCBH-41: the traits a maneuver rolls and meets."""
    _, traits, _, againsts = MANEUVER_TRAITS[maneuver]
    _allowed(attacker, trait, traits, "trait", maneuver)
    _allowed(target, against, againsts, "against", maneuver)


def _allowed(
    sheet: BaseModel, trait: str, allowed: tuple[str, ...] | None, field: str, maneuver: str
) -> None:
    """Any Power where the source says "Power"; a minion rolls its threat for everything."""
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


def check_ambush_sides(ambushers: Sequence[object], targets: Sequence[object]) -> None:
    """WCBH-42: an ambush needs both sides, each ambusher once, no ambusher among the targets."""
    if not ambushers or not targets:
        raise InvalidInput("an ambush needs ambushers and targets", field="ambushers")
    if len(set(ambushers)) != len(ambushers):
        raise InvalidInput("an ambusher is named twice", field="ambushers", rule="WCBH-42")
    if set(ambushers) & set(targets):
        raise InvalidInput("an ambusher is no target", field="target_ids", rule="WCBH-42")


def check_area_targets(attacker: object, targets: Sequence[object]) -> None:
    """WCBH-43: targets, each once, not the attacker."""
    if not targets:
        raise InvalidInput("an area attack needs targets", field="targets", rule="WCBH-43")
    if attacker in targets or len(set(targets)) != len(targets):
        raise InvalidInput("each target once, not the attacker", field="targets", rule="WCBH-43")


def check_not_in_team(target: object, attackers: Sequence[object]) -> None:
    """WCBH-47: the target is no attacker."""
    if target in attackers:
        raise InvalidInput("the target is no attacker", field="attackers", rule="WCBH-47")


def check_each_once(attackers: Sequence[object]) -> None:
    """WCBH-47: each attacker once."""
    if len(set(attackers)) != len(attackers):
        raise InvalidInput("an attacker is named twice", field="attackers", rule="WCBH-47")


# ---- WCBH-45, 46: after the roll -------------------------------------------------------------------


def check_attack_roll(record: Mapping[str, Any], checks: tuple[str, ...]) -> None:
    """A knockback or a redirect follows an attack roll of these checks, not a follow-up."""
    if record.get("check") not in checks or record.get("follow_up") is not None:
        raise Conflict(
            f"this is no {' or '.join(checks)} roll", field="roll_id", code="not_an_attack"
        )


def check_named_target(request: Mapping[str, Any]) -> None:
    if not request.get("target_id"):
        raise Conflict("this attack roll names no target", field="roll_id", code="not_an_attack")


def check_not_followed_up(done: Mapping[str, Any] | None) -> None:
    """WCBH-45, 46: one knockback or redirect per attack roll (ruling)."""
    if done is not None:
        raise Conflict(
            f"this attack roll was already followed by a {done['kind']}",
            code="attack_followed_up",
            rule="WCBH-45" if done["kind"] == "knockback" else "WCBH-46",
            details={"kind": done["kind"]},
        )


def check_hits_object(hits_object: str | None) -> None:
    if hits_object not in (None, "sturdier", "weaker"):
        raise InvalidInput("hits_object is sturdier, weaker or null", field="hits_object")


def check_redirectable(request: Mapping[str, Any]) -> None:
    """WCBH-46: only a plain attack on a named target is redirected by that target's defence."""
    check_named_target(request)
    if request.get("club") or request.get("guard"):
        raise Conflict(
            "only a plain attack's own defence redirects it", field="roll_id", rule="WCBH-46"
        )


def entry_for(
    check: str, request: Mapping[str, Any], result: Mapping[str, Any], target_id: str | None
) -> dict[str, Any]:
    """An attack roll's result for one target (an area attack names it), with its target_id."""
    if check == "area_attack":
        entries = result["targets"]
        if target_id is None and len(entries) == 1:
            return dict(entries[0])
        for entry in entries:
            if entry["target_id"] == target_id:
                return dict(entry)
        raise InvalidInput("target_id names no target of this area attack", field="target_id")
    check_named_target(request)
    if target_id is not None and target_id != request["target_id"]:
        raise InvalidInput("target_id is not the target of this attack", field="target_id")
    return {**result, "target_id": request["target_id"]}
