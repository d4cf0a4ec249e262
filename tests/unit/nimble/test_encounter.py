"""The pure Nimble encounter library (systems/nimble/rules/encounter.py), NB-1..NB-21."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict
from systems.nimble.rules import encounter as enc

NOVA, ROOK, GOBLINS = "nova", "rook", "goblins"


def started(actions: dict[str, int] | None = None, **more: Any) -> dict[str, Any]:
    actions = actions if actions is not None else {NOVA: 3, ROOK: 3}
    fields = {
        "round": 1,
        "order": [NOVA, ROOK, GOBLINS],
        "round_order": [NOVA, ROOK, GOBLINS],
        "kinds": {NOVA: "hero", ROOK: "hero", GOBLINS: "monster"},
        "actions": actions,
        "initiative": {},
    } | more
    return enc.apply(None, "started", fields)


def acted(state: dict[str, Any], who: str, cost: int = 1, **more: Any) -> dict[str, Any]:
    top = {k: more.pop(k) for k in ("free", "key", "per") if k in more}
    fields = {"character_id": who, "action": "x", "cost": cost, "round": state["round"]} | top
    return enc.apply(state, "acted", fields | {"details": more})


def end_turn(state: dict[str, Any], who: str, back: int | None = None) -> dict[str, Any]:
    fields: dict[str, Any] = {"character_id": who, "round": state["round"]}
    if back is not None:
        fields["actions_back_to"] = back
    return enc.apply(state, "turn_ended", fields)


# ---- NB-1/NB-2: initiative to starting actions ----------------------------------------------


@pytest.mark.parametrize(
    ("rolled", "surprise", "party", "expected"),
    [
        (1, None, None, 1),
        (2, None, None, 2),
        (3, None, None, 3),
        (2, "disadvantage", None, 2),  # the roll (with disadvantage) decides
        (3, "one_action", None, 1),  # no roll: 1 action
        (None, "one_action", None, 1),
        (None, None, "three_actions", 3),  # no roll: 3 actions
        (None, "one_action", "three_actions", 3),
    ],
)
def test_starting_actions_nb_1_nb_2(
    rolled: int | None, surprise: str | None, party: str | None, expected: int
) -> None:
    assert enc.starting_actions(rolled, surprise, party) == expected


def test_the_encounter_starts_with_the_first_in_the_order_nb_3_nb_4() -> None:
    state = started({NOVA: 2, ROOK: 1})
    assert state["status"] == "running" and enc.current(state) == NOVA
    assert state["actions"] == {NOVA: 2, ROOK: 1}
    state = end_turn(end_turn(end_turn(state, NOVA), ROOK), GOBLINS)
    assert enc.current(state) is None  # the round is over until the page turns
    state = enc.apply(state, "round_started", {"round": 2})
    assert enc.current(state) == NOVA and state["round"] == 2


# ---- NB-7/NB-15/NB-21: action limits ----------------------------------------------------------


def test_actions_are_spent_and_come_back_to_3_at_the_end_of_the_own_turn_nb_7() -> None:
    state = started({NOVA: 1, ROOK: 3})
    enc.check_actions(state, NOVA, "Nova", 1, "NB-7")
    state = acted(state, NOVA)
    with pytest.raises(Conflict) as raised:
        enc.check_actions(state, NOVA, "Nova", 1, "NB-7")
    assert raised.value.rule == "NB-7" and raised.value.code == "no_actions"
    state = enc.apply(state, "granted", {"character_id": NOVA, "actions": 2, "reason": "Haste"})
    assert state["actions"][NOVA] == 2
    state = end_turn(state, NOVA)  # old events carry no actions_back_to: 3
    assert state["actions"][NOVA] == 3  # unspent granted actions lapse


def test_a_dying_hero_is_capped_to_1_and_gets_1_back_nb_21() -> None:
    state = started()
    state = enc.apply(state, "capped", {"character_id": NOVA, "actions": 1})
    assert state["actions"][NOVA] == 1
    assert enc.refreshes(state)["end_of_own_turn"][NOVA]["actions_back_to"] == 1
    state = end_turn(state, NOVA, back=1)
    assert state["actions"][NOVA] == 1
    state = enc.apply(state, "capped", {"character_id": ROOK, "actions": 0})  # dead
    assert state["actions"][ROOK] == 0
    state = end_turn(state, ROOK, back=0)
    assert state["actions"][ROOK] == 0


def test_a_cap_never_raises_the_actions_nb_21() -> None:
    state = started({NOVA: 0, ROOK: 3})
    state = enc.apply(state, "capped", {"character_id": NOVA, "actions": 1})
    assert state["actions"][NOVA] == 0


def test_only_the_current_creature_acts_outside_reactions_nb_15() -> None:
    state = started()
    enc.check_turn(state, NOVA, "Nova")
    with pytest.raises(Conflict) as raised:
        enc.check_turn(state, ROOK, "Rook")
    assert raised.value.code == "not_your_turn" and raised.value.rule == "NB-15"


def test_one_free_action_per_turn_nb_8() -> None:
    state = acted(started(), NOVA, cost=0, free=True)
    assert state["actions"][NOVA] == 3
    with pytest.raises(Conflict) as raised:
        enc.check_free(state, NOVA, "Nova")
    assert raised.value.rule == "NB-8"
    state = end_turn(state, NOVA)
    enc.check_free(state, NOVA, "Nova")  # back at the end of the turn


# ---- NB-5/NB-15: limited uses and reactions, once per round --------------------------------


def test_a_reaction_once_per_round_until_the_own_turn_ends_nb_15() -> None:
    state = end_turn(started(), NOVA)  # Rook's turn; Nova may react
    enc.check_use(state, NOVA, "reaction:defend", "round", "NB-15")
    state = acted(state, NOVA, key="reaction:defend", per="round")
    assert state["actions"][NOVA] == 2  # from the actions of its next turn
    with pytest.raises(Conflict) as raised:
        enc.check_use(state, NOVA, "reaction:defend", "round", "NB-15")
    assert raised.value.rule == "NB-15" and raised.value.code == "already_used"
    enc.check_use(state, NOVA, "reaction:interpose", "round", "NB-15")  # another reaction
    state = end_turn(state, ROOK)  # someone else's turn ending does not reset it
    with pytest.raises(Conflict):
        enc.check_use(state, NOVA, "reaction:defend", "round", "NB-15")
    state = enc.apply(state, "round_started", {"round": 2})  # nor does the round
    with pytest.raises(Conflict):
        enc.check_use(state, NOVA, "reaction:defend", "round", "NB-15")
    state = end_turn(state, NOVA)  # its own turn's end does
    enc.check_use(state, NOVA, "reaction:defend", "round", "NB-15")


def test_a_1_per_turn_use_comes_back_at_the_end_of_any_turn_nb_5() -> None:
    state = acted(started(), NOVA, cost=0, key="sneak", per="turn")
    with pytest.raises(Conflict):
        enc.check_use(state, NOVA, "sneak", "turn", "NB-5")
    state = end_turn(state, NOVA)
    enc.check_use(state, NOVA, "sneak", "turn", "NB-5")


def test_a_1_per_encounter_use_comes_back_only_when_it_ends_nb_5() -> None:
    state = acted(started(), NOVA, cost=0, key="rage", per="encounter")
    state = enc.apply(end_turn(state, NOVA), "round_started", {"round": 2})
    with pytest.raises(Conflict):
        enc.check_use(state, NOVA, "rage", "encounter", "NB-5")
    state = enc.apply(state, "ended", {"round": 2})
    enc.check_use(state, NOVA, "rage", "encounter", "NB-5")


# ---- NB-10: hasty attacks ---------------------------------------------------------------------


def test_attacks_count_for_hasty_and_reset_at_the_own_turn_end_nb_10() -> None:
    state = acted(acted(started(), NOVA, hasty=True), NOVA, hasty=True)
    assert state["attacks"][NOVA] == 2  # the next attack is the 3rd: 2 steps
    state = end_turn(state, NOVA)
    assert NOVA not in state["attacks"]


def test_hasty_attacks_are_a_hero_rule_monster_groups_attack_without_steps_nb_10() -> None:
    state = acted(acted(started(), NOVA, hasty=True), NOVA, hasty=True)
    assert enc.hasty_steps(state, NOVA) == 2  # the hero's 3rd attack: 2 steps
    assert enc.hasty_steps(state, NOVA, reaction=True) == 0  # an opportunity attack (ruling)
    for _ in range(3):
        state = acted(state, GOBLINS, cost=0, hasty=True)
    assert state["attacks"][GOBLINS] == 3  # counted (for the members that attacked) ...
    assert enc.hasty_steps(state, GOBLINS) == 0  # ... but never hasty


# ---- NB-14: Assess once per skill; weakness and anticipated danger ---------------------------


def _assess(
    state: dict[str, Any], who: str, skill: str, option: str, success: bool, **more: Any
) -> dict[str, Any]:
    assess = {
        "roll_id": f"r-{who}-{skill}",
        "character_id": who,
        "skill": skill,
        "option": option,
        "target_id": more.get("target_id"),
        "natural": 12,
        "modifier": 0,
        "total": 12 if success else 5,
        "dc": 10,
        "success": success,
    }
    return acted(state, who, assess=assess)


def test_assess_once_per_skill_per_encounter_even_on_a_failure_nb_14() -> None:
    state = _assess(started(), NOVA, "Might", "question", success=False)
    with pytest.raises(Conflict) as raised:
        enc.check_assess(state, NOVA, "might")  # case does not matter
    assert raised.value.rule == "NB-14" and raised.value.code == "skill_assessed"
    enc.check_assess(state, NOVA, "Lore")  # another skill
    enc.check_assess(state, ROOK, "Might")  # another hero
    state = enc.apply(state, "ended", {"round": 1})
    enc.check_assess(state, NOVA, "Might")  # a new encounter


def test_a_found_weakness_shifts_the_next_primary_die_this_round_nb_14() -> None:
    state = _assess(started(), NOVA, "Might", "find_weakness", True, target_id=GOBLINS)
    assert enc.primary_shift(state, GOBLINS) == (1, True, False)
    used = acted(state, NOVA, target_id=GOBLINS, weakness_used=True, hasty=True)
    assert enc.primary_shift(used, GOBLINS) == (0, False, False)
    kept = enc.apply(state, "round_started", {"round": 2})  # expires with the round
    assert enc.primary_shift(kept, GOBLINS) == (0, False, False)


def test_anticipated_danger_shifts_every_primary_die_down_nb_14() -> None:
    state = _assess(started(), NOVA, "Finesse", "anticipate_danger", True)
    assert enc.primary_shift(state, NOVA) == (-1, False, True)
    state = acted(state, GOBLINS, cost=0, hasty=True, target_id=NOVA)
    assert enc.primary_shift(state, NOVA) == (-1, False, True)  # every attack this round


def test_a_failed_assess_has_no_effect_until_help_succeeds_nb_14_nb_19() -> None:
    state = _assess(started(), NOVA, "Might", "find_weakness", False, target_id=GOBLINS)
    assert enc.primary_shift(state, GOBLINS)[0] == 0
    helped = {"roll_id": f"r-{NOVA}-Might", "success": True, "total": 14, "natural": 14}
    state = acted(state, ROOK, key="reaction:help", per="round", help=helped)
    assert enc.primary_shift(state, GOBLINS)[0] == 1
    assert state["helped"] == [f"r-{NOVA}-Might"]


# ---- NB-6/NB-13: activities and movement ------------------------------------------------------


def test_concentrating_on_an_activity_forbids_other_actions_nb_6() -> None:
    activity = {"name": "Ritual", "cost": 5, "paid": 3}
    state = acted(started(), NOVA, cost=3, activity=activity)
    with pytest.raises(Conflict) as raised:
        enc.check_not_concentrating(state, NOVA, "Nova")
    assert raised.value.rule == "NB-6"
    state = acted(state, NOVA, cost=0, free=True, activity=None)
    enc.check_not_concentrating(state, NOVA, "Nova")


def test_difficult_terrain_costs_double_nb_13() -> None:
    assert enc.movement_cost(2, 3) == 8
    assert enc.movement_cost(0, 0) == 0


def test_apply_refuses_an_unknown_change() -> None:
    with pytest.raises(ValueError):
        enc.apply(None, "teleported", {})


# ---- monster groups: one attack per member left (ruling under NB-3/NB-4) ---------------------


def test_a_group_has_as_many_members_as_its_pooled_hp_hold_nb_4() -> None:
    from systems.nimble.rules.sheet import members_left

    assert [members_left(3, hp) for hp in (12, 10, 9, 4, 3, 1, 0)] == [4, 4, 3, 2, 1, 1, 0]


def test_a_group_attacks_once_per_member_left_plus_the_gm_s_grant_nb_4() -> None:
    state = acted(started(), GOBLINS, cost=0, hasty=True)
    enc.check_members(state, GOBLINS, "Goblins", 2)
    enc.check_members(state, NOVA, "Nova", None)  # heroes and single monsters: not counted
    with pytest.raises(Conflict) as raised:
        enc.check_members(state, GOBLINS, "Goblins", 1)
    assert (raised.value.code, raised.value.rule) == ("no_members_left", "NB-4")
    granted = enc.apply(state, "granted", {"character_id": GOBLINS, "actions": 1, "reason": "x"})
    enc.check_members(granted, GOBLINS, "Goblins", 1)
    assert end_turn(granted, GOBLINS)["extra_attacks"] == {}


# ---- NB-6 with NB-25: an activity lasts while its Concentration does --------------------------


def test_an_activity_lapses_with_its_concentration_nb_6_nb_25() -> None:
    activity = {"name": "Ritual", "cost": 5, "paid": 3}
    state = acted(started(), NOVA, cost=3, activity=activity)
    assert not enc.activity_lapsed(state, NOVA, {"effect": "Ritual", "saves_due": 1})
    assert enc.activity_lapsed(state, NOVA, None)  # 0 HP, a failed save, dropped
    assert not enc.activity_lapsed(state, ROOK, None)  # no activity
    ended = enc.apply(state, "activity_ended", {"character_id": NOVA, "activity": "Ritual"})
    assert ended["activities"] == {}


def test_a_due_concentration_save_comes_before_acting_nb_25() -> None:
    enc.check_no_save_due("Nova", {"effect": "Ritual", "saves_due": 0})
    with pytest.raises(Conflict) as raised:
        enc.check_no_save_due("Nova", {"effect": "Ritual", "saves_due": 1})
    assert (raised.value.code, raised.value.rule) == ("concentration_save_due", "NB-25")


def test_a_hit_on_a_hero_waits_for_reactions_unless_told_otherwise_nb_15() -> None:
    state = started()
    assert enc.holds(state, NOVA, None, reacting=False)  # the default: react after the roll
    assert not enc.holds(state, NOVA, None, reacting=True)  # declared with the attack
    assert not enc.holds(state, NOVA, False, reacting=False)
    assert not enc.holds(state, GOBLINS, None, reacting=False)  # monsters never react
    assert enc.holds(state, GOBLINS, True, reacting=False)  # held for Help (NB-19)


def test_defend_against_a_crit_is_refused_nb_16() -> None:
    enc.check_defend_helps(False)
    with pytest.raises(Conflict) as raised:
        enc.check_defend_helps(True)
    assert (raised.value.code, raised.value.rule, raised.value.field) == (
        "critical_ignores_armor",
        "NB-16",
        "defend",
    )


def test_the_timeline_credits_help_to_the_helper_and_the_reroll_to_the_ally_nb_19() -> None:
    helped = {"roll_id": "aaaaaaaa-1", "reroll_id": "bbbbbbbb-2", "total": 9, "success": True}
    fields = {"character_id": ROOK, "action": "help", "cost": 1, "details": {"help": helped}}
    text = enc.describe("acted", fields, "Rook")
    assert text.startswith("Rook Helps (1 action(s))") and "the ally rerolls" in text
    assert "aaaaaaaa" in text and "bbbbbbbb" in text
