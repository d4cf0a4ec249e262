"""The firefight's decisions, pure (systems/nwod_micro/rules/maneuvers.py): each refusal and the
dice each maneuver brings, with no store and no HTTP."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import Conflict, DomainError, InvalidInput
from domain.rulesets import get_ruleset
from systems.nwod_micro.requests import ActionCreate, AttackCreate
from systems.nwod_micro.rules import combat, gear, maneuvers
from systems.nwod_micro.rules.maneuvers import Standing
from systems.nwod_micro.rules.sheet import NwodSheet

HERO, FOE = str(uuid4()), str(uuid4())
RULESET = get_ruleset("nwod-micro")


def sheet(**changes: Any) -> NwodSheet:
    raw = RULESET.example_sheet() | changes
    parsed = RULESET.parse_sheet(raw, RULESET.parse_settings({}), side="hero")
    assert isinstance(parsed, NwodSheet)
    return parsed


def fight(*changes: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A firefight in turn 1 where the hero (Initiative 9) acts before the foe (5)."""
    state = combat.fresh(1)
    for who, total in ((HERO, 9), (FOE, 5)):
        rolled = {"character_id": who, "roll": total, "bonus": 0, "modifier": 0, "total": total}
        state = combat.apply(state, 1, "initiative", rolled)
    for change, details in changes:
        state = combat.apply(state, 1, change, details)
    return state


def in_cover(who: str, kind: str, durability: int = 0) -> tuple[str, dict[str, Any]]:
    cover = {"cover": kind, "cover_durability": durability}
    return "acted", {"character_id": who, "maneuver": "take_cover", "cost": 1} | cover


def attack(**fields: Any) -> AttackCreate:
    return AttackCreate(attacker_id=uuid4(), target_ids=[uuid4()], **fields)


def aim(gun: Any = None, **fields: Any) -> maneuvers.Aimed:
    """An attack as sent, with its kind decided from the maneuver and ``gun`` (NW-6)."""
    return maneuvers.aimed(attack(**fields), gun)


def refusal(error: type[DomainError], call: Any, *args: Any) -> DomainError:
    with pytest.raises(error) as raised:
        call(*args)
    return raised.value


# ---- who may take part ---------------------------------------------------------------------


def test_a_closed_scene_and_a_character_out_of_action_take_no_part() -> None:
    maneuvers.check_open(False)
    assert refusal(Conflict, maneuvers.check_open, True).code == "scene_closed"
    maneuvers.check_active("Vega", "active", "character_id")
    error = refusal(Conflict, maneuvers.check_active, "Vega", "dead", "attacker_id")
    assert (error.code, error.field) == ("out_of_action", "attacker_id")


def test_initiative_is_rolled_once_per_fight_nw_14() -> None:
    state = fight()
    error = refusal(Conflict, maneuvers.check_first_initiative, state, HERO, "Vega")
    assert (error.code, error.details["total"]) == ("initiative_rolled", 9)
    maneuvers.check_first_initiative(state, str(uuid4()), "Newcomer")


def test_suppressive_fire_pins_until_the_vio_roll_then_only_cover_is_left_nw_15() -> None:
    state = fight(("suppressed", {"character_id": FOE, "target_ids": [HERO]}))
    assert refusal(Conflict, maneuvers.check_not_pinned, state, HERO, "Vega", "aim").code == (
        "suppression_pending"
    )
    maneuvers.check_not_pinned(state, HERO, "Vega", "take_cover")
    maneuvers.check_pending_suppression(state, HERO, "Vega")
    held = combat.apply(state, 1, "suppression_resolved", {"character_id": HERO, "held": False})
    assert refusal(Conflict, maneuvers.check_not_pinned, held, HERO, "Vega", "run").code == (
        "suppressed"
    )
    error = refusal(Conflict, maneuvers.check_pending_suppression, held, HERO, "Vega")
    assert (error.code, error.rule) == ("not_suppressed", "NW-15")


# ---- merits, weapons, the situation ---------------------------------------------------------


def test_merits_apply_their_written_dice_once_and_only_those_that_have_dice_nw_3_nw_18() -> None:
    hero = sheet()
    dice = maneuvers.merit_dice(hero, "Vega", ["marksman", "marksman"])
    assert dice == [{"source": "merit: Marksman", "dice": 1, "rule": "NW-18"}]
    assert refusal(InvalidInput, maneuvers.merit_dice, hero, "Vega", ["Ex-convict"]).rule == "NW-18"
    unknown = refusal(InvalidInput, maneuvers.merit_dice, hero, "Vega", ["Lucky"])
    assert (unknown.rule, unknown.details["known"]) == ("NW-3", ["Marksman", "Ex-convict"])


def test_bad_conditions_cost_two_dice_once_however_many_nw_17() -> None:
    dice = maneuvers.situation_dice(["smoke", "fog", "smoke"], 1)
    assert [(d["source"], d["dice"]) for d in dice] == [("smoke, fog", -2), ("situation (GM)", 1)]
    assert maneuvers.situation_dice([], 0) == []
    assert refusal(InvalidInput, maneuvers.situation_dice, ["rain"], 0).field == "conditions"


def test_a_weapon_is_found_by_name_or_refused_with_the_known_ones_nw_11() -> None:
    assert maneuvers.weapon_of(sheet(), "Vega", "KNIFE").name == "Knife"
    error = refusal(InvalidInput, maneuvers.weapon_of, sheet(), "Vega", "Bazooka")
    assert error.details["known"] == ["Assault rifle", "Knife"]


# ---- attacks -------------------------------------------------------------------------------


def test_attack_maneuvers_and_their_kinds_nw_15() -> None:
    assert maneuvers.attack_spec("long_burst", "ranged")["targets"] == 3
    assert refusal(InvalidInput, maneuvers.attack_spec, "headbutt", "melee").field == "maneuver"
    assert refusal(InvalidInput, maneuvers.attack_spec, "reckless", "ranged").field == "kind"


def test_targets_once_each_as_many_as_the_maneuver_reaches_never_oneself_nw_15() -> None:
    me, a, b = uuid4(), uuid4(), uuid4()
    burst = combat.ATTACKS["long_burst"]
    assert maneuvers.check_target_ids([a, b], me, "long_burst", burst) == [a, b]
    shot = combat.ATTACKS["standard"]
    assert (
        "each target once"
        in refusal(InvalidInput, maneuvers.check_target_ids, [a, a], me, "standard", shot).message
    )
    assert refusal(InvalidInput, maneuvers.check_target_ids, [a, b], me, "standard", shot).rule == (
        "NW-15"
    )
    assert (
        "itself"
        in refusal(InvalidInput, maneuvers.check_target_ids, [me], me, "standard", shot).message
    )


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"hit_location": "head"}, "hit_location"),  # only a precise shot
        ({"kind": "melee", "range": "medium"}, "range"),  # melee is at close range
    ],
)
def test_an_attacks_options_fit_its_maneuver_nw_15_nw_17(
    fields: dict[str, Any], field: str
) -> None:
    error = refusal(InvalidInput, maneuvers.check_attack, fight(), HERO, "Vega", aim(**fields))
    assert error.field == field


def test_no_melee_from_full_cover_and_only_in_ones_own_turn_nw_13_nw_14() -> None:
    covered = fight(in_cover(HERO, "full", 3))
    melee = aim(kind="melee")
    assert refusal(Conflict, maneuvers.check_attack, covered, HERO, "Vega", melee).code == (
        "in_full_cover"
    )
    maneuvers.check_attack(fight(), HERO, "Vega", aim(maneuver="precise", hit_location="arm"))
    assert refusal(Conflict, maneuvers.check_attack, fight(), FOE, "Gunman", melee).code == (
        "not_your_turn"
    )


def test_firing_names_the_weapon_and_spends_its_rounds_nw_11_nw_16() -> None:
    rifle, knife = maneuvers.weapon_of(sheet(), "Vega", "Assault rifle"), sheet().weapons[1]
    full = gear.ammunition(None, rifle, None)
    fired = maneuvers.firing(rifle, aim(rifle, maneuver="short_burst"), 4, full)
    assert (fired.weapon, fired.bonus, fired.rounds_left) == ("Assault rifle", 2, 26)
    assert fired.gear == full | {"loaded": 26}
    assert maneuvers.firing(knife, aim(knife), None, None).rounds_left is None
    assert maneuvers.firing(None, aim(), None, None) == maneuvers.Firing()
    unarmed = refusal(InvalidInput, maneuvers.firing, None, aim(kind="ranged"), None, None)
    assert (unarmed.field, unarmed.rule) == ("weapon", "NW-11")
    burst = aim(knife, maneuver="short_burst")
    no_magazine = refusal(InvalidInput, maneuvers.firing, knife, burst, 3, None)
    assert no_magazine.field == "weapon"
    assert refusal(InvalidInput, maneuvers.firing, knife, aim(knife), 2, None).field == "rounds"
    assert refusal(InvalidInput, maneuvers.firing, None, aim(), 2, None).field == "rounds"


def test_an_attack_without_a_kind_takes_the_maneuvers_then_the_weapons_nw_6_nw_15() -> None:
    rifle, knife = maneuvers.weapon_of(sheet(), "Vega", "Assault rifle"), sheet().weapons[1]
    assert aim(rifle).kind == "ranged" and aim(knife).kind == "melee" and aim().kind == "melee"
    assert aim(knife, maneuver="short_burst").kind == "ranged"
    assert aim(rifle, maneuver="reckless").kind == "melee"
    assert aim(rifle, kind="melee").kind == "melee"  # a rifle butt: as sent


def test_the_attackers_dice_aim_dodging_blind_fire_and_range_nw_13_nw_15_nw_17() -> None:
    state = fight(
        in_cover(HERO, "full", 2),
        ("acted", {"character_id": HERO, "maneuver": "aim", "cost": 1}),
    )
    dice = maneuvers.attack_dice(state, HERO, aim(maneuver="long_burst", range="long"))
    assert [(d["source"], d["dice"]) for d in dice] == [
        ("long burst", 2),
        ("aim (1 action(s))", 1),
        ("blind fire from full cover", -5),
        ("long range", -4),
    ]
    assert maneuvers.attack_dice(fight(), HERO, aim(kind="melee", range="close")) == []


def test_a_shot_at_a_target_in_partial_cover_that_defends_nw_6_nw_13_nw_15() -> None:
    state = fight(in_cover(FOE, "partial"))
    shot = maneuvers.Shot("melee", 4, [], bonus=1)
    request = shot.at(state, FOE, sheet(), 7, 1, 0, "Strike")
    assert request["modifiers"] == [
        {"source": "target in partial cover", "dice": -2, "rule": "NW-13"}
    ]
    assert (request["target_defense"], request["target_armor"], request["damage_bonus"]) == (
        2,
        2,
        1,
    )
    unseen = maneuvers.Shot("melee", 4, [], sneak=True).at(fight(), FOE, sheet(), 7, 0, 0, "")
    assert unseen["target_defense"] == 0
    assert [maneuvers.burst_penalty("long_burst", i) for i in range(3)] == [0, 1, 2]
    assert maneuvers.burst_penalty("standard", 0) == 0


# ---- maneuvers without a roll ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"maneuver": "aim", "dodge": True}, "dodge"),
        ({"maneuver": "defend", "difficult_terrain": True}, "difficult_terrain"),
        ({"maneuver": "take_cover"}, "cover"),
        ({"maneuver": "aim", "cover": "full"}, "cover"),
        ({"maneuver": "run", "weapon": "Knife"}, "weapon"),
    ],
)
def test_what_each_maneuver_combines_with_nw_13_nw_15_nw_17(
    fields: dict[str, Any], field: str
) -> None:
    move = ActionCreate(character_id=uuid4(), **fields)
    assert refusal(InvalidInput, maneuvers.check_move, move).field == field


def test_a_move_costs_its_actions_in_ones_turn_and_aim_stops_at_three_nw_15() -> None:
    aim = ActionCreate(character_id=uuid4(), maneuver="aim")
    assert maneuvers.check_may_move(fight(), HERO, "Vega", aim) == 1
    sprint = ActionCreate(character_id=uuid4(), maneuver="sprint")
    assert maneuvers.check_may_move(fight(), HERO, "Vega", sprint) == 2
    aimed = fight(*[("acted", {"character_id": HERO, "maneuver": "aim", "cost": 0})] * 3)
    assert refusal(Conflict, maneuvers.check_may_move, aimed, HERO, "Vega", aim).code == (
        "aim_limit"
    )


def test_a_reload_names_a_weapon_with_a_magazine_nw_16() -> None:
    assert maneuvers.reloaded(sheet(), "Vega", "assault rifle").magazine == 30
    assert refusal(InvalidInput, maneuvers.reloaded, sheet(), "Vega", None).rule == "NW-16"
    assert (
        "no magazine" in refusal(InvalidInput, maneuvers.reloaded, sheet(), "Vega", "Knife").message
    )


# ---- Will Power and contests ----------------------------------------------------------------


def test_will_power_raises_defense_or_initiative_by_whole_points_nw_9() -> None:
    maneuvers.check_boost("defense", 1)
    assert refusal(InvalidInput, maneuvers.check_boost, "speed", 1).field == "boost"
    assert refusal(InvalidInput, maneuvers.check_boost, "initiative", 0).field == "points"


def test_a_contest_has_two_sides_or_more_of_different_characters_and_a_tie_no_winner_nw_6() -> None:
    a, b = uuid4(), uuid4()
    maneuvers.check_sides([a, b])
    assert "two sides" in refusal(InvalidInput, maneuvers.check_sides, [a]).message
    assert "one side" in refusal(InvalidInput, maneuvers.check_sides, [a, a]).message
    assert maneuvers.winner([Standing("a", "r1", 2), Standing("b", "r2", 1)]) == "a"
    assert maneuvers.winner([Standing("a", "r1", 2), Standing("b", "r2", 2)]) is None
