"""Order of action: Edge, tie order, simultaneous groups, minions, delays, acting first
(WCBH-22..24)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.initiative import (
    Combatant,
    delayed_order,
    lost_delays,
    order_of_action,
)


def test_everyone_acts_once_per_page_wcbh_22() -> None:
    fight = [
        Combatant("a", "hero", 9),
        Combatant("b", "villain", 12),
        Combatant("c", "minion", None),
        Combatant("d", "opponent", 9),
    ]
    order = order_of_action(fight)
    acting = [i for group in order for i in group]
    assert sorted(acting) == ["a", "b", "c", "d"]


def test_higher_edge_acts_first_wcbh_23() -> None:
    order = order_of_action([Combatant("slow", "hero", 6), Combatant("fast", "opponent", 11)])
    assert order == (("fast",), ("slow",))


def test_equal_edge_goes_heroes_villains_opponents_others_wcbh_23() -> None:
    fight = [
        Combatant("bystander", "other", 8),
        Combatant("thug", "opponent", 8),
        Combatant("doctor", "villain", 8),
        Combatant("hero", "hero", 8),
    ]
    assert order_of_action(fight) == (("hero",), ("doctor",), ("thug",), ("bystander",))


def test_equal_edge_on_the_same_side_acts_simultaneously_wcbh_23() -> None:
    fight = [Combatant("a", "hero", 8), Combatant("b", "hero", 8), Combatant("c", "hero", 7)]
    assert order_of_action(fight) == (("a", "b"), ("c",))


def test_minions_act_last_wcbh_23() -> None:
    fight = [
        Combatant("goon1", "minion", None),
        Combatant("weakling", "other", 2),
        Combatant("goon2", "minion", None),
    ]
    assert order_of_action(fight) == (("weakling",), ("goon1", "goon2"))


def test_a_character_without_edge_must_be_a_minion_wcbh_23() -> None:
    with pytest.raises(InvalidInput) as caught:
        order_of_action([Combatant("x", "hero", None)])
    assert caught.value.rule == "WCBH-23"


def test_delayed_actions_act_at_their_moment_in_normal_order_wcbh_23() -> None:
    fight = [
        Combatant("a", "villain", 10),
        Combatant("b", "hero", 10),
        Combatant("c", "hero", 4),
        Combatant("d", "hero", 12),
    ]
    delays = {"a": "door opens", "b": "door opens", "c": "alarm"}
    assert order_of_action(fight, delayed=delays) == (("d",),)
    assert delayed_order(fight, delays, "door opens") == (("b",), ("a",))


def test_a_delayed_action_whose_moment_never_comes_is_lost_wcbh_23() -> None:
    delays = {"a": "door opens", "c": "alarm"}
    assert lost_delays(delays, ["door opens"]) == frozenset({"c"})


def test_act_first_characters_go_before_all_others_by_edge_wcbh_24() -> None:
    fight = [
        Combatant("speedster", "villain", 14),
        Combatant("a", "hero", 5, acts_first=True),
        Combatant("b", "opponent", 7, acts_first=True),
        Combatant("goon", "minion", None),
    ]
    assert order_of_action(fight) == (("b",), ("a",), ("speedster",), ("goon",))


def test_the_double_edge_variant_doubles_edge_instead_wcbh_24() -> None:
    fight = [
        Combatant("speedster", "villain", 14),
        Combatant("a", "hero", 6, acts_first=True),  # 12: still after the speedster
        Combatant("b", "hero", 7, acts_first=True),  # 14: ties, heroes first
    ]
    order = order_of_action(fight, variant="double_edge")
    assert order == (("b",), ("speedster",), ("a",))


def test_a_minion_cannot_buy_acting_first_wcbh_24() -> None:
    with pytest.raises(InvalidInput) as caught:
        order_of_action([Combatant("goon", "minion", None, acts_first=True)])
    assert caught.value.rule == "WCBH-24"


def test_team_attackers_act_at_the_very_end_of_the_page_wcbh_47() -> None:
    fight = [
        Combatant("a", "hero", 12),
        Combatant("b", "hero", 9),
        Combatant("c", "hero", 3),
        Combatant("goon", "minion", None),
    ]
    order = order_of_action(fight, team_attack=["b", "a"])
    assert order == (("c",), ("goon",), ("a", "b"))


def test_delaying_someone_not_in_the_fight_is_refused_wcbh_23() -> None:
    fight = [Combatant("a", "hero", 8)]
    with pytest.raises(InvalidInput) as caught:
        order_of_action(fight, delayed=["ghost"])
    assert caught.value.field == "delayed"
    with pytest.raises(InvalidInput):
        delayed_order(fight, {"ghost": "door opens"}, "door opens")


# ---- enforcing the order (issue #15: computed but never enforced) -------------------------------


def test_the_turn_is_the_first_group_with_someone_not_done_wcbh_22_23() -> None:
    from systems.wcbh.rules.initiative import now_acting

    order = (("quick",), ("nova", "bolt"), ("null",), ("goon1", "goon2"))
    assert now_acting(order, set()) == ("quick",)
    assert now_acting(order, {"quick"}) == ("nova", "bolt")  # simultaneous
    assert now_acting(order, {"quick", "nova"}) == ("bolt",)
    assert now_acting(order, {"quick", "nova", "bolt", "null"}) == ("goon1", "goon2")
    assert now_acting(order, {"quick", "nova", "bolt", "null", "goon1", "goon2"}) == ()
    # a delayed character whose moment came acts before the rest, in normal order (WCBH-23)
    assert now_acting(order, {"quick", "nova"}, called=("null",)) == ("null",)


def test_acting_out_of_turn_is_a_409_naming_the_rule_and_who_acts_now_wcbh_22() -> None:
    from domain.errors import Conflict
    from systems.wcbh.rules.initiative import check_turn_order

    order = (("quick",), ("nova",))
    check_turn_order("quick", "Quick", order, set())
    with pytest.raises(Conflict) as refused:
        check_turn_order("nova", "Nova", order, set())
    assert (refused.value.code, refused.value.rule) == ("not_your_turn", "WCBH-22")
    assert refused.value.details == {"now": ["quick"]}
    with pytest.raises(Conflict) as refused:
        check_turn_order("stranger", "Stranger", order, set())
    assert (refused.value.code, refused.value.field) == ("not_in_the_fight", "character_id")
    with pytest.raises(Conflict) as refused:  # while a delayed moment plays out
        check_turn_order("quick", "Quick", order, set(), called=("nova",))
    assert refused.value.rule == "WCBH-23"
