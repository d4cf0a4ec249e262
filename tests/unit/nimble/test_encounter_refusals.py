"""What the Nimble encounter rules refuse, decided in pure code before any change (NB-2..NB-21)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from domain.errors import Conflict, DomainError, InvalidInput
from systems.nimble.rules import encounter as enc
from tests.unit.nimble.test_encounter import GOBLINS, NOVA, ROOK, acted, end_turn, started


def refused(kind: type[DomainError], call: Any, *args: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(kind) as caught:
        call(*args, **kwargs)
    return caught.value


def test_one_encounter_at_a_time_each_creature_once_in_the_order_nb_3_nb_4() -> None:
    running = refused(Conflict, enc.check_can_start, started(), [NOVA])
    assert (running.code, running.rule) == ("encounter_running", "NB-4")
    twice = refused(InvalidInput, enc.check_can_start, enc.state_of(None), [NOVA, NOVA])
    assert (twice.field, twice.rule) == ("order", "NB-3")
    assert refused(InvalidInput, enc.check_can_start, enc.state_of(None), []).field == "order"
    enc.check_can_start(enc.state_of(None), [NOVA, GOBLINS])


def test_only_heroes_are_surprised_nb_2() -> None:
    kinds = {NOVA: "hero", GOBLINS: "monster"}
    assert refused(InvalidInput, enc.check_surprised, kinds, [GOBLINS]).field == "surprised"
    enc.check_surprised(kinds, [NOVA])


def test_two_heroes_yet_to_act_swap_places_nb_3() -> None:
    state = started()
    assert refused(InvalidInput, enc.check_swap, state, NOVA, GOBLINS).field == "second_id"
    assert refused(InvalidInput, enc.check_swap, state, NOVA, NOVA).field == "second_id"
    taken = refused(Conflict, enc.check_swap, end_turn(state, NOVA), NOVA, ROOK)
    assert (taken.code, taken.field) == ("turn_taken", "first_id")
    enc.check_swap(state, ROOK, NOVA)


def test_a_dying_hero_is_granted_no_more_than_one_action_a_turn_nb_21() -> None:
    state = started({NOVA: 1, ROOK: 3})
    dying = refused(Conflict, enc.check_grant, state, NOVA, "Nova", 1, 1)
    assert (dying.code, dying.details) == ("dying", {"have": 1, "spent_this_turn": 0, "max": 1})
    enc.check_grant(started({NOVA: 0, ROOK: 3}), NOVA, "Nova", 1, 1)
    enc.check_grant(state, ROOK, "Rook", 3, 5)  # NB-7: a healthy hero beyond 3


def test_a_limited_use_names_key_and_period_together_nb_5() -> None:
    assert refused(InvalidInput, enc.check_limited_use, "rage", None).field == "per"
    assert refused(InvalidInput, enc.check_limited_use, None, "turn").field == "per"
    enc.check_limited_use("rage", "encounter")
    enc.check_limited_use(None, None)


def test_ending_an_activity_needs_one_nb_6() -> None:
    state = started()
    assert refused(Conflict, enc.check_activity, state, NOVA, "Nova").code == "not_concentrating"
    paying = acted(state, NOVA, 3, activity={"name": "ritual", "cost": 5, "paid": 3})
    enc.check_activity(paying, NOVA, "Nova")


def test_mana_speed_and_full_cover_refuse_nb_12_nb_13_nb_26() -> None:
    mana = refused(Conflict, enc.check_mana, "Nova", 1, 2, "spell_tier")
    assert (mana.code, mana.field, mana.details) == (
        "not_enough_mana",
        "spell_tier",
        {"have": 1, "needed": 2},
    )
    enc.check_mana("Nova", 2, 2, "mana")
    assert refused(Conflict, enc.check_can_move, "Nova", 0).code == "cannot_move"
    enc.check_can_move("Nova", 6)
    assert refused(Conflict, enc.check_targetable, "Goblins", False).code == "full_cover"
    enc.check_targetable("Goblins", True)


def test_a_creature_attacks_another_and_a_held_attack_reacts_later_nb_15() -> None:
    assert refused(InvalidInput, enc.check_attack, NOVA, NOVA, False, False).field == "target_id"
    held = refused(InvalidInput, enc.check_attack, NOVA, GOBLINS, True, True)
    assert (held.field, held.rule) == ("hold", "NB-15")
    enc.check_attack(NOVA, GOBLINS, True, False)
    enc.check_attack(NOVA, GOBLINS, False, True)


def test_the_dead_take_no_part_and_a_dying_hero_still_acts_nb_20_nb_22() -> None:
    dead = refused(Conflict, enc.check_standing, "Nova", "dead", "attacker_id")
    assert (dead.code, dead.rule, dead.field) == ("out_of_the_fight", "NB-22", "attacker_id")
    assert refused(Conflict, enc.check_standing, "Goblins", "defeated", "target_id").rule == "NB-20"
    enc.check_standing("Nova", "dying", "attacker_id")


def test_a_hero_spends_on_its_turn_and_reacts_off_it_nb_4_nb_7_nb_15() -> None:
    state = started()
    monster = refused(Conflict, enc.check_spend, state, GOBLINS, "Goblins", 1, reaction="defend")
    assert monster.code == "no_reactions"
    enc.check_spend(state, NOVA, "Nova", 3, reaction=None)
    enc.check_spend(state, ROOK, "Rook", 1, reaction="defend")  # off its turn: a reaction
    assert refused(DomainError, enc.check_spend, state, ROOK, "Rook", 1, reaction=None).rule
    assert refused(DomainError, enc.check_spend, state, NOVA, "Nova", 4, reaction=None).rule


def test_an_ally_interposes_for_a_hero_nb_17() -> None:
    assert refused(InvalidInput, enc.check_interposer, NOVA, NOVA, GOBLINS).field == "interpose_by"
    assert refused(InvalidInput, enc.check_interposer, GOBLINS, NOVA, GOBLINS).rule == "NB-17"
    enc.check_interposer(ROOK, NOVA, GOBLINS)
    assert refused(InvalidInput, enc.check_interposed_for, started(), GOBLINS).rule == "NB-17"
    enc.check_interposed_for(started(), NOVA)


def held(state: dict[str, Any], attacker: str = NOVA, target: str = GOBLINS) -> dict[str, Any]:
    fields = {"roll_id": "r1", "character_id": attacker, "target_id": target, "damage": 4}
    return enc.apply(state, "held", fields)


def test_a_held_attack_is_named_by_its_roll_nb_15() -> None:
    state = held(started())
    other = refused(Conflict, enc.held_attack, state, "r2")
    assert (other.code, other.details) == ("not_pending", {"pending": "r1"})
    none = refused(Conflict, enc.held_attack, started(), "r1")
    assert none.details == {"pending": None}
    assert enc.held_attack(state, "r1")["damage"] == 4


def test_finding_a_weakness_names_its_target_nb_14() -> None:
    assert refused(InvalidInput, enc.check_weakness_target, "find_weakness", None).rule == "NB-14"
    enc.check_weakness_target("find_weakness", GOBLINS)
    enc.check_weakness_target("question", None)


def test_help_rerolls_an_allys_assess_once_nb_19() -> None:
    assess = {
        "roll_id": "a1",
        "character_id": NOVA,
        "skill": "Lore",
        "natural": 4,
        "success": False,
    }
    state = acted(started(), NOVA, 1, assess=assess)
    assert refused(InvalidInput, enc.helped_assessment, state, "zz", ROOK, None).field == "roll_id"
    assert refused(InvalidInput, enc.helped_assessment, state, "a1", ROOK, 0).field == "die"
    own = refused(InvalidInput, enc.helped_assessment, state, "a1", NOVA, None)
    assert own.field == "helper_id"
    assert enc.helped_assessment(state, "a1", ROOK, None)["natural"] == 4
    state["helped"] = ["a1"]
    again = refused(Conflict, enc.helped_assessment, state, "a1", ROOK, None)
    assert again.code == "already_helped"


def test_help_on_a_held_attack_is_a_hero_allys_named_die_nb_19() -> None:
    state = held(started())
    assert refused(InvalidInput, enc.check_help_on_attack, state, NOVA, 0).field == "helper_id"
    assert refused(InvalidInput, enc.check_help_on_attack, state, ROOK, None).field == "die"
    enc.check_help_on_attack(state, ROOK, 0)
    on_hero = held(started(), attacker=NOVA, target=ROOK)
    target = refused(InvalidInput, enc.check_help_on_attack, on_hero, ROOK, 0)
    assert target.field == "helper_id"
    by_monster = held(started(), attacker=GOBLINS, target=NOVA)
    assert refused(InvalidInput, enc.check_help_on_attack, by_monster, ROOK, 0).field == "roll_id"
    state["helped"] = ["r1"]
    assert refused(Conflict, enc.check_help_on_attack, state, ROOK, 0).code == "already_helped"


def asked(action: str = "x", cost: int = 1, **more: Any) -> SimpleNamespace:
    fields = {"free": False, "activity_cost": None, "end_concentration": False} | more
    return SimpleNamespace(action=action, cost=cost, **fields)


def test_an_action_costs_its_actions_or_is_the_turns_free_one_nb_7_nb_8() -> None:
    state = started()
    assert enc.action_cost(state, NOVA, "Nova", asked(cost=2)) == (2, False, {})
    assert enc.action_cost(state, NOVA, "Nova", asked(free=True)) == (0, True, {})
    assert refused(DomainError, enc.action_cost, state, NOVA, "Nova", asked(cost=4)).rule == "NB-7"
    spent = acted(state, NOVA, 0, free=True)
    assert refused(DomainError, enc.action_cost, spent, NOVA, "Nova", asked(free=True)).rule


def test_an_activity_takes_all_the_actions_until_it_is_paid_nb_6() -> None:
    state = started()
    cost, free, details = enc.action_cost(state, NOVA, "Nova", asked("ritual", activity_cost=5))
    assert (cost, free, details["activity_done"]) == (3, False, False)
    assert details["activity"] == {"name": "ritual", "cost": 5, "paid": 3}
    paying = acted(end_turn(acted(state, NOVA, 3, **details), NOVA, 3), ROOK, 0)
    paying = end_turn(paying, ROOK, 3)
    paying = enc.apply(paying, "round_started", {"round": 2})
    cost, _, details = enc.action_cost(paying, NOVA, "Nova", asked("ritual"))
    assert (cost, details["activity"], details["activity_done"]) == (2, None, True)
    ended = enc.action_cost(paying, NOVA, "Nova", asked("ritual", end_concentration=True))
    assert ended == (0, True, {"activity": None})


def test_a_move_costs_move_actions_beyond_the_squares_left_nb_13() -> None:
    assert enc.move_actions("Nova", 4, 3, 6) == (0, 1)
    assert enc.move_actions("Nova", 1, 8, 6) == (2, 5)
    assert refused(Conflict, enc.move_actions, "Nova", 0, 1, 0).code == "cannot_move"


def test_a_hero_defends_with_a_reaction_and_an_interposer_with_two_actions_nb_16_nb_17() -> None:
    state = started({NOVA: 3, ROOK: 1})
    enc.check_defend(state, ROOK, "Rook", False)  # off its turn: the reaction
    short = refused(DomainError, enc.check_defend, state, ROOK, "Rook", True)
    assert short.rule == "NB-15"
    enc.check_defend(started({NOVA: 3, ROOK: 3}), ROOK, "Rook", True)
    assert refused(DomainError, enc.check_defend, state, GOBLINS, "Goblins", False).rule == "NB-16"
