"""What the Nimble health rules refuse, decided in pure code before any event (NB-20..NB-26)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, DomainError, InvalidInput
from systems.nimble.rules import health as h


def refused(kind: type[DomainError], call: Any, *args: Any) -> DomainError:
    with pytest.raises(kind) as caught:
        call(*args)
    return caught.value


def test_the_dead_and_a_defeated_monster_at_0_hp_take_no_part_nb_20_nb_22() -> None:
    dead = refused(Conflict, h.check_standing, "Nova", "dead", 0, "target_id")
    assert (dead.code, dead.rule, dead.field) == ("out_of_the_fight", "NB-22", "target_id")
    defeated = refused(Conflict, h.check_standing, "Goblins", "defeated", 0, "target_id")
    assert defeated.rule == "NB-20"
    h.check_standing("Nova", "dying", 0, "target_id")  # a Dying hero still takes part
    h.check_standing("Goblins", "defeated", 5, "target_id")


def test_only_a_dying_hero_makes_the_dying_save_nb_21() -> None:
    assert refused(Conflict, h.check_dying, "Nova", "active").code == "not_dying"
    h.check_dying("Nova", "dying")


def test_a_grapple_names_a_size_and_might_or_finesse_nb_24() -> None:
    assert refused(InvalidInput, h.check_grapple_form, "huge", "Might").field == "size"
    assert refused(InvalidInput, h.check_grapple_form, "same", "Lore").field == "skill"
    h.check_grapple_form("larger", "finesse")


def test_a_creature_holds_one_creature_and_is_held_by_one_nb_24() -> None:
    holding = {h.GRAPPLING: {"target_id": "x"}}
    busy = refused(Conflict, h.check_free_to_grapple, "Nova", holding, "Rook", {}, "grappler_id")
    assert (busy.code, busy.field) == ("already_grappling", "grappler_id")
    ridden = {h.RIDDEN: {"by_id": "x"}}
    taken = refused(Conflict, h.check_free_to_grapple, "Nova", {}, "Rook", ridden, "grappler_id")
    assert (taken.code, taken.field) == ("already_grappled", "target_id")
    h.check_free_to_grapple("Nova", {h.COVER: {"level": "partial"}}, "Rook", {}, "grappler_id")


def test_only_a_grappler_or_a_rider_lets_go_nb_24() -> None:
    assert refused(Conflict, h.check_holding, "Nova", {}).code == "not_grappling"
    h.check_holding("Nova", {h.MOUNTED: {"on_id": "x"}})


def test_an_escape_is_from_the_one_thing_holding_the_character_nb_24() -> None:
    both = {h.GRAPPLED: {"by_id": "x"}, h.RESTRAINED: {"by": "tar"}}
    assert refused(InvalidInput, h.escaped_condition, "Nova", both, "CHA", None).field == "stat"
    assert (
        refused(InvalidInput, h.escaped_condition, "Nova", both, "STR", None).field == "condition"
    )
    wrong = refused(InvalidInput, h.escaped_condition, "Nova", both, "STR", "mounted")
    assert wrong.field == "condition"
    free = refused(Conflict, h.escaped_condition, "Nova", {}, "DEX", None)
    assert (free.code, free.field) == ("not_held", "character_id")
    not_that = refused(Conflict, h.escaped_condition, "Nova", both, "DEX", h.RIDDEN)
    assert (not_that.code, not_that.field) == ("not_held", "condition")
    assert h.escaped_condition("Nova", both, "DEX", h.RESTRAINED) == h.RESTRAINED
    assert h.escaped_condition("Nova", {h.GRAPPLED: {"by_id": "x"}}, "STR", None) == h.GRAPPLED


def test_the_gm_frees_only_a_restrained_character_nb_24() -> None:
    assert refused(Conflict, h.check_restrained, "Nova", {}).code == "not_held"
    h.check_restrained("Nova", {h.RESTRAINED: {"by": "chains"}})


def test_concentration_is_on_one_effect_and_not_at_0_hp_nb_25() -> None:
    busy = refused(Conflict, h.check_may_concentrate, "Nova", {"effect": "Bless"}, 5)
    assert (busy.code, busy.field) == ("already_concentrating", "effect")
    down = refused(Conflict, h.check_may_concentrate, "Nova", None, 0)
    assert down.code == "cannot_concentrate"
    h.check_may_concentrate("Nova", None, 1)
    assert refused(Conflict, h.check_concentrating, "Nova", None).code == "not_concentrating"
    assert h.check_concentrating("Nova", {"effect": "Bless"}) == {"effect": "Bless"}


def test_a_concentration_save_is_owed_only_after_a_critical_hit_nb_25() -> None:
    assert refused(Conflict, h.check_save_due, "Nova", None).code == "no_save_due"
    owed_none = {"effect": "Bless", "saves_due": 0}
    assert refused(Conflict, h.check_save_due, "Nova", owed_none).code == "no_save_due"
    assert h.check_save_due("Nova", {"effect": "Bless", "saves_due": 1})["effect"] == "Bless"


def test_cover_is_none_partial_or_full_and_a_change_changes_it_nb_26() -> None:
    assert refused(InvalidInput, h.check_cover_change, "Nova", {}, "total").field == "level"
    same = refused(Conflict, h.check_cover_change, "Nova", {}, "none")
    assert (same.code, same.field) == ("no_change", "level")
    h.check_cover_change("Nova", {h.COVER: {"level": "partial"}}, "full")


def test_a_character_hides_once_behind_cover_nb_26() -> None:
    assert refused(Conflict, h.cover_to_hide_in, "Nova", {}).code == "no_cover"
    hidden = {h.HIDDEN: {}, h.COVER: {"level": "full"}}
    assert refused(Conflict, h.cover_to_hide_in, "Nova", hidden).code == "already_hidden"
    assert h.cover_to_hide_in("Nova", {h.COVER: {"level": "partial"}}) == "partial"


def test_damage_is_never_negative_nb_20() -> None:
    assert refused(InvalidInput, h.check_damage, -1).field == "amount"
    h.check_damage(0)


def test_a_hit_ends_concentration_at_0_hp_and_a_crit_calls_for_the_save_nb_25() -> None:
    bless = {"effect": "Bless", "saves_due": 0}
    assert h.concentration_after(None, 0, True) is None
    assert h.concentration_after(bless, 0, False) == "ended"
    assert h.concentration_after(bless, 4, True) == "save_needed"
    assert h.concentration_after(bless, 4, False) == "kept"


def test_the_damage_summary_tells_what_the_hit_did_nb_20_nb_23() -> None:
    before = h.Health(hp=5, max_hp=20, temp_hp=2, wounds=0, max_wounds=6, status="active")
    summary = h.damage_summary(h.take_damage(before, 9, False), 9, False)
    assert (summary["damage"], summary["temp_hp_absorbed"], summary["hp"]) == (9, 2, 0)
    assert (summary["wounds_taken"], summary["dying"], summary["max_wounds"]) == (1, True, 6)


def test_a_grapple_is_of_another_creature_not_in_full_cover_nb_24_nb_26() -> None:
    assert refused(InvalidInput, h.check_not_grabbing_itself, "a", "a").field == "target_id"
    h.check_not_grabbing_itself("a", "b")
    assert refused(Conflict, h.check_grabbable, "Rook", False).code == "full_cover"
    h.check_grabbable("Rook", True)


def test_a_heros_grapple_modifier_is_its_skill_a_monsters_the_gms_nb_24() -> None:
    skills = {"Might": 2, "Finesse": 1}
    assert h.grapple_modifier(skills, "might", None) == 2
    assert refused(InvalidInput, h.grapple_modifier, skills, "Might", 3).field == "modifier"
    assert h.grapple_modifier(None, "Might", 4) == 4
    assert h.grapple_modifier(None, "Might", None) == 0
