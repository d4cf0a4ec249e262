"""Help, group checks, contests (WCBH-10..12), Decisive Moments (WCBH-15, 16), Resolve
(WCBH-18..20) and Adversity (WCBH-21)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from systems.wcbh.rules.play import (
    RESOLVE_SPENDS,
    Adversity,
    Contest,
    DecisiveMoments,
    award,
    best_help,
    give_resolve,
    group_check,
    help_bonus,
    last_gasp,
    roll_help,
    spend_resolve,
)
from systems.wcbh.rules.ruleset import WcbhRuleset
from systems.wcbh.rules.sheet import WcbhSettings
from tests.unit.checks.support import scripted

ABILITIES = {
    "Agility": 5,
    "Strength": 4,
    "Stamina": 1,
    "Intelligence": 3,
    "Perception": 4,
    "Will": 6,
}


@pytest.mark.parametrize(("successes", "bonus"), [(0, 0), (2, 0), (3, 1), (4, 1), (5, 2), (7, 3)])
def test_help_gives_a_die_per_two_net_successes_at_difficulty_two_wcbh_10(
    successes: int, bonus: int
) -> None:
    assert help_bonus(successes) == bonus


def test_only_the_best_helper_counts_wcbh_10() -> None:
    assert best_help([3, 5, 1]) == 2
    assert best_help([]) == 0


def test_helpers_roll_and_the_best_bonus_is_given_wcbh_10() -> None:
    # ann: 2 dice 6, 6 -> 4 (net 2, +1); bo: 3 dice 6, 6, 2 -> 5 (net 3, +2).
    rolls, bonus = roll_help(scripted(6, 6, 6, 6, 2), {"ann": 2, "bo": 3})
    assert (rolls["ann"].successes, rolls["bo"].successes, bonus) == (4, 5, 2)


def test_a_group_check_hands_over_successes_above_three_wcbh_11() -> None:
    totals = group_check({"a": 6, "b": 1, "c": 2}, [("a", "b", 2), ("a", "c", 1)])
    assert totals == {"a": 3, "b": 3, "c": 3}


@pytest.mark.parametrize(
    "handovers",
    [[("a", "b", 3)], [("b", "a", 1)], [("a", "a", 1)], [("a", "z", 1)], [("a", "b", 0)]],
)
def test_only_successes_above_three_can_be_handed_over_wcbh_11(
    handovers: list[tuple[str, str, int]],
) -> None:
    with pytest.raises(InvalidInput) as caught:
        group_check({"a": 5, "b": 1}, handovers)
    assert caught.value.rule == "WCBH-11"


def test_a_contest_gives_two_dice_to_each_rolls_winner_wcbh_12() -> None:
    contest = Contest(("hero", "villain"))
    assert contest.dice_bonus("hero") == 0
    contest = contest.record(3, 1)
    assert (contest.dice_bonus("hero"), contest.dice_bonus("villain")) == (2, 0)
    contest = contest.record(1, 4)
    assert (contest.dice_bonus("hero"), contest.dice_bonus("villain")) == (0, 2)
    assert not contest.finished
    contest = contest.record(5, 2)
    assert (contest.finished, contest.winner) == (True, "hero")
    with pytest.raises(InvalidInput) as caught:
        contest.record(1, 1)
    assert caught.value.rule == "WCBH-12"


def test_a_tied_final_roll_calls_for_another_ruling_wcbh_12() -> None:
    contest = Contest(("hero", "villain"), rolls=1).record(2, 2)
    assert (contest.finished, contest.dice_bonus("hero")) == (False, 0)
    assert contest.record(1, 2).winner == "villain"


def test_a_decisive_moment_is_once_per_character_per_story_wcbh_15() -> None:
    moments = DecisiveMoments().declare("ace", "hero", "physical").close_scene()
    with pytest.raises(InvalidInput) as caught:
        moments.declare("ace", "hero", "mental")
    assert caught.value.rule == "WCBH-15"
    assert "ace" not in moments.close_story().story


def test_only_one_hero_declares_a_decisive_moment_per_scene_wcbh_15() -> None:
    moments = DecisiveMoments().declare("ace", "hero", "physical")
    with pytest.raises(InvalidInput) as caught:
        moments.declare("bolt", "hero", "physical")
    assert caught.value.rule == "WCBH-15"
    assert "bolt" in moments.close_scene().declare("bolt", "hero", "mental").story


def test_a_villain_is_held_only_to_once_per_story_source_wcbh_15() -> None:
    moments = (
        DecisiveMoments().declare("ace", "hero", "physical").declare("doom", "villain", "mental")
    )
    assert moments.story == frozenset({"ace", "doom"})
    assert moments.scene == "ace"


def test_a_decisive_moment_costs_an_ability_of_the_efforts_kind_wcbh_16() -> None:
    moments = DecisiveMoments().declare("ace", "hero", "physical")
    with pytest.raises(InvalidInput) as caught:
        moments.lose_ability("ace", "Will", ABILITIES)
    assert caught.value.rule == "WCBH-16"
    moments, ranks = moments.lose_ability("ace", "Strength", ABILITIES)
    assert ranks["Strength"] == 3
    assert moments.owed == ()
    with pytest.raises(InvalidInput):
        moments.lose_ability("ace", "Agility", ranks)  # owed only once


def test_a_rank_of_one_cannot_be_lowered_ruling_wcbh_16() -> None:
    moments = DecisiveMoments().declare("ace", "hero", "physical")
    with pytest.raises(InvalidInput) as caught:
        moments.lose_ability("ace", "Stamina", ABILITIES)
    assert caught.value.rule == "WCBH-16"


def test_experience_restores_a_rank_lost_to_a_decisive_moment_wcbh_16() -> None:
    moments, ranks = (
        DecisiveMoments().declare("ace", "hero", "mental").lose_ability("ace", "Will", ABILITIES)
    )
    assert ranks["Will"] == 5
    moments, ranks = moments.restore_ability("ace", "Will", ranks)
    assert ranks["Will"] == 6
    with pytest.raises(InvalidInput) as caught:
        moments.restore_ability("ace", "Will", ranks)
    assert caught.value.rule == "WCBH-16"


def test_resolve_awards_need_a_known_reason_wcbh_18() -> None:
    assert award(2, "flaw") == 3
    with pytest.raises(InvalidInput) as caught:
        award(2, "being nice")
    assert caught.value.rule == "WCBH-18"


def test_a_last_gasp_is_for_zero_resolve_and_spent_the_same_page_wcbh_19() -> None:
    gasp = last_gasp(0, page=4)
    assert gasp.resolve == 1
    assert gasp.spend(4) == 0
    with pytest.raises(InvalidInput) as caught:
        gasp.spend(5)
    assert caught.value.rule == "WCBH-19"
    with pytest.raises(InvalidInput) as caught:
        last_gasp(1, page=4)
    assert caught.value.rule == "WCBH-19"


def test_the_resolve_table_covers_a_to_f_and_the_combat_spends_wcbh_20() -> None:
    rules = {spend.rule for spend in RESOLVE_SPENDS.values()}
    assert {"WCBH-20a", "WCBH-20b", "WCBH-20c", "WCBH-20e", "WCBH-20f"} <= rules
    assert {"WCBH-24", "WCBH-38", "WCBH-39", "WCBH-45", "WCBH-46", "WCBH-47"} <= rules
    assert RESOLVE_SPENDS["give_from_afar"].cost == 2
    assert RESOLVE_SPENDS["luck"].gm_approval


def test_spending_resolve_never_goes_below_zero_wcbh_20() -> None:
    assert spend_resolve(5, "dice", 3) == 2
    with pytest.raises(InvalidInput) as caught:
        spend_resolve(2, "dice", 3)
    assert caught.value.rule == "WCBH-20b"
    with pytest.raises(InvalidInput) as caught:
        spend_resolve(2, "bribe")
    assert caught.value.rule == "WCBH-20"


def test_giving_resolve_costs_one_or_two_from_afar_wcbh_20a() -> None:
    assert give_resolve(3, 0) == (2, 1)
    assert give_resolve(3, 0, directly=False) == (1, 1)
    with pytest.raises(InvalidInput):
        give_resolve(1, 0, directly=False)


def start_issue(heroes: int) -> Adversity:
    """The Adversity of a new game Issue, from the ruleset: the one source of its start."""
    return Adversity(WcbhRuleset().issue_pools(heroes, WcbhSettings())["adversity"])


def test_adversity_starts_each_issue_at_the_number_of_heroes_wcbh_21() -> None:
    assert start_issue(4).pool == 4
    assert start_issue(4).unbecoming().unbecoming().pool == 6


def test_adversity_cannot_be_overspent_wcbh_21() -> None:
    with pytest.raises(InvalidInput) as caught:
        start_issue(1).spend(2)
    assert caught.value.rule == "WCBH-21"
    assert start_issue(3).spend(2).pool == 1


def test_a_scene_may_have_its_own_adversity_pool_wcbh_21() -> None:
    adversity = start_issue(2).open_scene_pool("finale", 3)
    spent = adversity.spend(3, scene="finale")
    assert (spent.pool, spent.scene_pool("finale")) == (2, 0)
    with pytest.raises(InvalidInput):
        spent.spend(1, scene="finale")
    assert spent.close_scene("finale").scenes == ()


def test_the_villainous_deed_is_once_per_issue_wcbh_21() -> None:
    adversity = start_issue(3).villainous_deed()
    assert (adversity.pool, adversity.deed_done) == (2, True)
    with pytest.raises(InvalidInput) as caught:
        adversity.villainous_deed()
    assert caught.value.rule == "WCBH-21"
    assert not start_issue(3).deed_done
