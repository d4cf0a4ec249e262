"""The pure Nimble health rules (systems/nimble/rules/health.py), NB-20..NB-26."""

from __future__ import annotations

import pytest

from systems.nimble.rules import health
from systems.nimble.rules.health import Health


def hero(hp: int = 10, temp_hp: int = 0, wounds: int = 0, status: str = "active") -> Health:
    return Health(hp, 20, temp_hp, wounds, 6, status)


def test_damage_lowers_hp_nb_20() -> None:
    hit = health.take_damage(hero(10), 4, critical=False)
    assert (hit.after.hp, hit.wounds_taken, hit.after.status) == (6, 0, "active")


def test_0_hp_is_one_wound_and_dying_whatever_the_excess_nb_20() -> None:
    hit = health.take_damage(hero(10), 25, critical=True)
    assert (hit.after.hp, hit.wounds_taken, hit.after.status, hit.dropped_to_zero) == (
        0,
        1,
        "dying",
        True,
    )


@pytest.mark.parametrize(("critical", "wounds"), [(False, 2), (True, 3)])
def test_damage_while_dying_inflicts_2_wounds_3_on_a_crit_nb_21(
    critical: bool, wounds: int
) -> None:
    hit = health.take_damage(hero(0, wounds=1, status="dying"), 1, critical)
    assert hit.wounds_taken == wounds and hit.after.wounds == 1 + wounds


@pytest.mark.parametrize("max_wounds", [2, 3, 4, 5, 6])
def test_death_at_the_campaign_s_maximum_nb_22(max_wounds: int) -> None:
    dying = Health(0, 20, 0, max_wounds - 1, max_wounds, "dying")
    hit = health.take_damage(dying, 1, critical=False)
    assert hit.after.status == "dead" and hit.after.wounds == max_wounds
    assert hit.wounds_taken == 1  # capped at the maximum


def test_the_dead_take_no_more_damage_nb_22() -> None:
    with pytest.raises(ValueError):
        health.take_damage(Health(0, 20, 0, 6, 6, "dead"), 1, critical=False)


def test_a_failed_dying_save_is_one_wound_nb_21() -> None:
    after = health.take_wounds(hero(0, wounds=5, status="dying"), 1)
    assert (after.wounds, after.status) == (6, "dead")


def test_temporary_hp_go_first_nb_23() -> None:
    hit = health.take_damage(hero(10, temp_hp=3), 5, critical=False)
    assert (hit.temp_hp_absorbed, hit.after.temp_hp, hit.after.hp) == (3, 0, 8)


def test_temporary_hp_absorbing_everything_spare_a_dying_hero_nb_23() -> None:
    hit = health.take_damage(hero(0, temp_hp=4, wounds=1, status="dying"), 4, critical=True)
    assert hit.wounds_taken == 0 and hit.after.temp_hp == 0


@pytest.mark.parametrize(("keep", "kept"), [("higher", 7), ("new", 4), ("current", 7)])
def test_temporary_hp_do_not_stack_nb_23(keep: health.Keep, kept: int) -> None:
    assert health.keep_temp_hp(7, 4, keep) == kept


def test_healing_ends_dying_not_wounds_and_stops_at_the_maximum_nb_20() -> None:
    after = health.heal(hero(0, wounds=2, status="dying"), 50)
    assert (after.hp, after.wounds, after.status) == (20, 2, "active")


def test_a_safe_rest_heals_one_wound_restores_hp_and_mana_clears_temp_hp_nb_22_nb_23() -> None:
    after, levels, healed = health.safe_rest(hero(3, temp_hp=5, wounds=2, status="dying"), 7)
    assert healed == 1 and after.status == "active"
    assert levels == {"hp": 20, "temp_hp": 0, "wounds": 1, "mana": 7}
    assert health.safe_rest(hero(3), 0)[2] == 0


def test_a_monster_at_0_hp_is_defeated_without_wounds() -> None:
    monster = Health(5, 5, 0, 0, 0, "active", hero=False)
    hit = health.take_damage(monster, 9, critical=True)
    assert (hit.after.status, hit.wounds_taken) == ("defeated", 0)


def test_dying_heroes_have_one_action_the_dead_none_nb_21() -> None:
    assert health.max_actions("dying", 3) == 1
    assert health.max_actions("dead", 3) == 0
    assert health.max_actions("active", 3) == 3


@pytest.mark.parametrize(
    ("size", "mine", "theirs"),
    [
        ("smaller", "grappling", "grappled"),
        ("same", "grappling", "grappled"),
        ("larger", "mounted", "ridden"),
    ],
)
def test_grabbing_by_size_nb_24(size: str, mine: str, theirs: str) -> None:
    (a, first), (b, second) = health.grapple_conditions("g", "t", size, "s")
    assert (a, b) == (mine, theirs)
    assert health.partner_of(a, first) == "t" and health.partner_of(b, second) == "g"
    assert health.PARTNER_CONDITION[a] == b


def test_attacks_against_either_grappler_have_advantage_nb_24() -> None:
    grappled = {"grappled": {"by_id": "g"}}
    assert health.attack_edge("x", {}, "t", grappled).advantage == 1
    assert health.attack_edge("x", {}, "g", {"grappling": {"target_id": "t"}}).advantage == 1
    assert health.attack_edge("x", {}, "t", {"restrained": {"by": "tar"}}).advantage == 1


def test_a_ridden_creature_attacks_its_rider_at_disadvantage_and_misses_hit_it_nb_24() -> None:
    rider = {"mounted": {"on_id": "ogre"}}
    edge = health.attack_edge("ogre", {}, "hero", rider)
    assert edge.disadvantage == 1 and edge.miss_hits_attacker
    other = health.attack_edge("goblin", {}, "hero", rider)
    assert other.disadvantage == 0 and not other.miss_hits_attacker


def test_cover_and_hiding_nb_26() -> None:
    assert health.attack_edge("a", {}, "t", {"cover": {"level": "partial"}}).disadvantage == 1
    assert not health.attack_edge("a", {}, "t", {"cover": {"level": "full"}}).can_target
    edge = health.attack_edge("a", {"hidden": {}}, "t", {"cover": {"level": "partial"}})
    assert (edge.advantage, edge.disadvantage, edge.from_hiding) == (1, 1, True)
    # a hidden target: a step of its own, on top of its partial cover's (NB-26; NB-17 source)
    hidden = {"hidden": {}, "cover": {"level": "partial"}}
    assert health.attack_edge("a", {}, "t", hidden).disadvantage == 2
    assert health.attack_edge("a", {}, "t", {"hidden": {}}).disadvantage == 1


def test_the_view_shows_what_a_safe_rest_refreshes() -> None:
    view = health.health_view(
        {"hp": 0, "temp_hp": 2, "wounds": 3, "mana": 1},
        "dying",
        {"hidden": {"rule": "NB-26"}},
        {"effect": "Bless", "saves_due": 0},
        {"hp": 20, "mana": 4, "wounds": 6},
        hero=True,
    )
    assert view["dying"] and view["max_actions"] == 1
    assert view["safe_rest"]["hp"] == 20 and view["safe_rest"]["wounds"] == 2
    names = [c["name"] for c in health.condition_list("dying", {"hidden": {}}, {"effect": "B"})]
    assert names == ["dying", "hidden", "concentrating"]


def test_movement_while_held_nb_24() -> None:
    from domain.errors import Conflict

    same = {"grappled": {"by_id": "x", "size": "same"}}
    assert health.move_speed("Rat", same, 6) == 3  # either moves with the other, half speed
    assert health.move_speed("Nova", {"grappling": {"target_id": "x", "size": "same"}}, 7) == 3
    assert health.move_speed("Nova", {"grappling": {"size": "smaller"}}, 6) == 6  # drags it
    assert health.move_speed("Ogre", {"ridden": {"by_id": "x"}}, 6) == 6  # carries its rider
    for held in ({"grappled": {"size": "smaller"}}, {"restrained": {}}, {"mounted": {}}):
        with pytest.raises(Conflict) as raised:
            health.move_speed("Rat", held, 6)
        assert (raised.value.code, raised.value.rule) == ("cannot_move", "NB-24")
