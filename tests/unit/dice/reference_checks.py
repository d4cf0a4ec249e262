"""An independent recomputation of every check's and follow-up's `result`, written from
docs/fair-dice-checks.md alone: plain dicts in (the stored request, sheet and settings), the faces
and the result out. It imports nothing from `domain`; its dice come from reference_verifier.

If it and the service ever disagree on a record, either the service or the document is wrong.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any

from tests.unit.dice.reference_verifier import EXPLOSION_CAP, next_face, word_stream

MAX_DICE = 300
Json = dict[str, Any]
Outcome = tuple[Json, int, bool | None]  # result, score, success


class Refused(Exception):
    """The service refuses this roll as a whole: no record exists."""


# -- the dice of one roll (docs/fair-dice.md, section 6) -----------------------------------------


class Dice:
    """One roll's stream and its face records, in draw order."""

    def __init__(self, seed: bytes, client_seed: str, nonce: int) -> None:
        self.words: Iterator[int] = word_stream(seed, client_seed, nonce)
        self.faces: list[Json] = []

    def draw(
        self, sides: int, label: str, exploded_from: int | None = None, reroll_of=None
    ) -> Json:
        if len(self.faces) >= MAX_DICE:
            raise Refused("more than 300 dice")
        face = {
            "index": len(self.faces),
            "sides": sides,
            "face": next_face(self.words, sides),
            "kept": True,
            "exploded_from": exploded_from,
            "reroll_of": reroll_of,
            "label": label,
        }
        self.faces.append(face)
        return face

    def pool(
        self, sides: int, count: int, label: str, explodes: Callable[[int], bool] | None = None
    ) -> list[Json]:
        """`count` base dice, then each base die's chain in turn."""
        if len(self.faces) + count > MAX_DICE:
            raise Refused("more than 300 dice")
        base = [self.draw(sides, label) for _ in range(count)]
        drawn = list(base)
        if explodes is not None:
            for die in base:
                drawn += self.chain(die, explodes)
        return drawn

    def chain(self, die: Json, explodes: Callable[[int], bool], first: bool = False) -> list[Json]:
        """While the latest die explodes, one more of the same size (at most 100). `first`: the
        die is known to set off a chain whatever its face (a Nimble crit)."""
        chain: list[Json] = []
        current = die
        while first or explodes(current["face"]):
            first = False
            if len(chain) == EXPLOSION_CAP:
                break
            current = self.draw(die["sides"], die["label"], exploded_from=current["index"])
            chain.append(current)
        return chain

    def reroll(self, old: list[Json], explodes: Callable[[int], bool] | None = None) -> list[Json]:
        drawn: list[Json] = []
        for die in old:
            die["kept"] = False
            new = self.draw(die["sides"], die["label"], reroll_of=die["index"])
            drawn.append(new)
            if explodes is not None:
                drawn += self.chain(new, explodes)
        return drawn


def half_up(n: int) -> int:
    return (n + 1) // 2


def fold(name: str) -> str:
    return name.strip().casefold()


# -- We Can Be Heroes --------------------------------------------------------------------------

REQUIRED_ABILITIES = ("Agility", "Strength", "Stamina", "Intelligence", "Perception", "Will")
DIFFICULTY_NAMES = (
    (0, "Easy"), (1, "Average"), (2, "Hard"), (3, "Daunting"), (4, "Brutal"), (5, "Inhuman"),
    (6, "Superhuman"), (9, "Legendary"), (12, "Epic"),
)  # fmt: skip
OUTCOMES = {
    "player": (
        ("opponent_narrates", "opponent", None),
        ("opponent_narrates_hero_embellishes", "opponent", "hero"),
        ("hero_narrates_opponent_embellishes", "hero", "opponent"),
        ("hero_narrates", "hero", None),
    ),
    "gm": (
        ("total_failure", "gm", None),
        ("failure_with_positive_detail", "gm", None),
        ("success_with_problem", "gm", None),
        ("success", "gm", None),
    ),
}


def six_explodes(face: int) -> bool:
    return face == 6


def d6_successes(face: int) -> int:
    return 2 if face == 6 else 1 if face in (2, 4) else 0


def wcbh_pool(dice: Dice, rank: int, modifier: int, label: str, explode: bool = False) -> int:
    """Successes of max(0, rank + modifier) d6."""
    faces = dice.pool(6, max(0, rank + modifier), label, six_explodes if explode else None)
    return sum(d6_successes(f["face"]) for f in faces)


def wcbh_rank(req: Json, sheet: Json | None) -> tuple[str | None, int]:
    if req["pool"] is not None:
        return None, req["pool"]
    if sheet is None:
        raise Refused("a raw roll needs a pool")
    if sheet.get("kind", "character") == "minion":
        return "threat", sheet["threat"]
    abilities = sheet["abilities"]
    ordered = [(n, abilities[n]) for n in REQUIRED_ABILITIES]
    ordered += [(n, r) for n, r in abilities.items() if n not in REQUIRED_ABILITIES]
    ordered += list(sheet.get("talents", {}).items())
    ordered += [(n, p["rank"]) for n, p in sheet.get("powers", {}).items()]
    for name, rank in ordered:
        if fold(name) == fold(req["trait"]):
            if rank is None:
                raise Refused("an unranked power")
            return req["trait"], rank
    raise Refused("no such trait")


def trait_result(
    req: Json, trait: str | None, rank: int, faces: list[Json], settings: Json
) -> Outcome:
    kept = [f for f in faces if f["kept"]]
    successes = sum(d6_successes(f["face"]) for f in kept)
    net = successes - req["difficulty"]
    band = 0 if net <= -2 else 1 if net <= 0 else 2 if net <= 2 else 3
    key, narrator, embellishment = OUTCOMES[settings.get("narration_table", "player")][band]
    result = {
        "trait": trait,
        "rank": rank,
        "dice": sum(1 for f in kept if f["exploded_from"] is None),
        "exploded": sum(1 for f in kept if f["exploded_from"] is not None),
        "successes": successes,
        "difficulty": req["difficulty"],
        "difficulty_name": [n for low, n in DIFFICULTY_NAMES if req["difficulty"] >= low][-1],
        "net": net,
        "outcome": key,
        "narrator": narrator,
        "embellishment": embellishment,
        "decisive_moment": req["decisive_moment"],
        "success": net >= 1,
    }
    return result, successes, net >= 1


def resolve_count(resolve: int, decisive: bool) -> int:
    return resolve * (3 if decisive else 1)


def wcbh_trait(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    trait, rank = wcbh_rank(req, sheet)
    boom = six_explodes if req["decisive_moment"] else None
    faces = dice.pool(6, max(0, rank + req["modifier"] + req["page_modifier"]), "trait", boom)
    faces += dice.pool(6, resolve_count(req["resolve"], req["decisive_moment"]), "resolve", boom)
    return trait_result(req, trait, rank, faces, settings)


def wcbh_attack_reread(original: Json, faces: list[Json]) -> Outcome:
    """An attack read again after Resolve: the attacker's kept dice against the defence as rolled."""
    kept = [f for f in faces if f["kept"]]
    attack = sum(d6_successes(f["face"]) for f in kept if f["label"] in ("attack", "resolve"))
    defence = sum(
        d6_successes(f["face"]) for f in kept if f["label"] in ("defence", "defence_resolve")
    )
    used = target_defence(original)
    done = hit(attack, defence, original["target_health"], original["minion"])
    result = {
        "attack_successes": attack,
        "defence": used["name"],
        "defence_rank": used["rank"],
        "defence_successes": defence,
        "net": done["net"],
    }
    if original["target_id"] is not None:
        result["target_id"] = original["target_id"]
    result |= {k: done[k] for k in ("damage", "health", "defeated")}
    result["success"] = done["net"] >= 1
    return result, done["net"], done["net"] >= 1


def wcbh_resolve_dice(
    original: Json, faces: list[Json], req: Json, sheet: Json | None, settings: Json, dice: Dice
) -> Outcome:
    if "attack_rank" in original and req.get("side") == "defence":  # the target's, never exploding
        return wcbh_attack_reread(original, faces + dice.pool(6, req["resolve"], "defence_resolve"))
    if "attack_rank" in original:  # an attack: the attacker's dice, as its Decisive Moment says
        count = resolve_count(req["resolve"], original.get("decisive_moment", False))
        boom = six_explodes if attack_explodes(original) else None
        return wcbh_attack_reread(original, faces + dice.pool(6, count, "resolve", boom))
    trait, rank = wcbh_rank(original, sheet)
    decisive = original["decisive_moment"]
    added = dice.pool(
        6, resolve_count(req["resolve"], decisive), "resolve", six_explodes if decisive else None
    )
    return trait_result(original, trait, rank, faces + added, settings)


def wcbh_resolve_reroll(
    original: Json, faces: list[Json], req: Json, sheet: Json | None, settings: Json, dice: Dice
) -> Outcome:
    if "attack_rank" in original and req.get("side") == "defence":  # every kept defence die
        theirs = [f for f in faces if f["kept"] and f["label"] in ("defence", "defence_resolve")]
        return wcbh_attack_reread(original, faces + dice.reroll(theirs))
    if "attack_rank" in original:  # an attack: the attacker's dice only, chains go with their die
        ours = ("attack", "resolve")
        mine = [f for f in faces if f["kept"] and f["label"] in ours and f["exploded_from"] is None]
        for f in faces:
            if f["label"] in ours and f["exploded_from"] is not None:
                f["kept"] = False
        boom = six_explodes if attack_explodes(original) else None
        return wcbh_attack_reread(original, faces + dice.reroll(mine, boom))
    trait, rank = wcbh_rank(original, sheet)
    again = [f for f in faces if f["kept"] and f["exploded_from"] is None]
    for f in faces:
        if f["exploded_from"] is not None:
            f["kept"] = False
    new = dice.reroll(again, six_explodes if original["decisive_moment"] else None)
    return trait_result(original, trait, rank, faces + new, settings)


def best_defence(
    options: list[Json], lethal: bool = True, halve_active: bool = False, halve_passive=False
) -> Json:
    """The highest effective rank; an active one on a tie; else the first listed."""
    best: Json | None = None
    for o in options:
        halved = (
            (not o["active"] and fold(o["name"]) == "stamina" and lethal)
            or (o["active"] and halve_active)
            or (not o["active"] and halve_passive)
        )
        d = {**o, "rank": half_up(o["rank"]) if halved else o["rank"]}
        if best is None or (d["rank"], d["active"]) > (best["rank"], best["active"]):
            best = d
    if best is None:
        raise Refused("no defence")
    return best


def hit(attack: int, defence: int, health: int, minion: bool = False) -> Json:
    net = attack - defence
    damage = max(0, net)
    left = 0 if minion and net >= 1 else max(0, health - damage)
    return {"net": net, "damage": damage, "health": left, "defeated": left == 0}


def hit_json(defence: Json, successes: int, done: Json) -> Json:
    return {
        "defence": defence["name"],
        "defence_rank": defence["rank"],
        "defence_active": defence["active"],
        "defence_successes": successes,
        **done,
    }


def attack_bonus(req: Json) -> int:
    bonus = req["weapon"] + req["modifier"] + req["page_modifier"] + req.get("situation", 0)
    bonus += 2 if req["maneuver"] in ("charge", "all_out") else 0
    bonus += -2 if req["club"] is not None else 0
    return bonus + (2 if req["team"] else 0)


def target_defence(req: Json) -> Json:
    return best_defence(req["defences"], req["lethal"], req["halve_active"], req["halve_passive"])


def party_defence(party: Json, lethal: bool, active: bool | None = None) -> Json:
    options = [d for d in party["defences"] if active is None or d["active"] == active]
    return best_defence(options, lethal, party["halve_active"], party["halve_passive"])


def attack_explodes(req: Json) -> bool:
    return bool(req["explode"] or req.get("decisive_moment", False))


def wcbh_attacker(req: Json, dice: Dice, explode: bool) -> int:
    """The attack dice, then the Resolve dice bought before the roll (3 each in a Decisive Moment)."""
    attack = wcbh_pool(dice, req["attack_rank"], attack_bonus(req), "attack", explode)
    count = resolve_count(req.get("resolve", 0), req.get("decisive_moment", False))
    bought = dice.pool(6, count, "resolve", six_explodes if explode else None)
    return attack + sum(d6_successes(f["face"]) for f in bought)


def wcbh_attack(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    if req["club"] is not None:
        return wcbh_bash(req, dice)
    if req["guard"] is not None:
        return wcbh_guarded(req, dice)
    attack = wcbh_attacker(req, dice, attack_explodes(req))
    defence = target_defence(req)
    rolled = wcbh_pool(dice, defence["rank"], req["defence_modifier"], "defence")
    bought = dice.pool(6, req.get("defence_resolve", 0), "defence_resolve")
    rolled += sum(d6_successes(f["face"]) for f in bought)
    done = hit(attack, rolled, req["target_health"], req["minion"])
    result: Json = {
        "attack_successes": attack,
        "defence": defence["name"],
        "defence_rank": defence["rank"],
        "defence_successes": rolled,
        "net": done["net"],
    }
    if req["target_id"] is not None:
        result["target_id"] = req["target_id"]
    if req["effect"] is not None and req.get("besides_damage"):
        pages = req["effect_pages_before"] + (half_up(done["net"]) if done["net"] > 0 else 0)
        left = done["health"]
        whole = pages > 0 and left > 0 and pages >= left
        result.update(
            damage=done["damage"],
            health=left,
            effect=req["effect"],
            effect_pages=pages,
            whole_scene=whole,
            defeated_by_damage=left == 0,
            defeated=left == 0 or whole,
        )
    elif req["effect"] is not None:
        pages = req["effect_pages_before"] + (half_up(done["net"]) if done["net"] > 0 else 0)
        whole = pages > 0 and pages >= req["target_health"]
        result.update(
            damage=0,
            health=req["target_health"],
            effect=req["effect"],
            effect_pages=pages,
            whole_scene=whole,
            defeated=whole,
        )
    else:
        result.update(damage=done["damage"], health=done["health"], defeated=done["defeated"])
    charger = req["charger"]
    if charger is not None and not defence["active"]:
        own = party_defence(charger, req["lethal"], active=False)
        got = wcbh_pool(dice, own["rank"], charger["defence_modifier"], "collision")
        taken = max(0, attack - got - result["damage"])
        left = max(0, charger["health"] - taken)
        result["collision"] = {
            "defence": own["name"],
            "defence_rank": own["rank"],
            "defence_successes": got,
            "damage": taken,
            "health": left,
            "defeated": left == 0,
        }
    result["success"] = done["net"] >= 1
    return result, done["net"], done["net"] >= 1


def wcbh_bash(req: Json, dice: Dice) -> Outcome:
    club = req["club"]
    attack = wcbh_attacker(req, dice, req.get("decisive_moment", False))
    club_defence = party_defence(club, req["lethal"])
    club_rolled = wcbh_pool(dice, club_defence["rank"], club["defence_modifier"], "club")
    defence = target_defence(req)
    rolled = wcbh_pool(dice, defence["rank"], req["defence_modifier"], "defence")
    club_hit = hit(attack, club_rolled, club["health"], club["minion"])
    failed = club_defence["active"] and club_hit["damage"] == 0
    if failed:
        target_hit = hit(0, 0, req["target_health"])
    else:
        target_hit = hit(attack, rolled, req["target_health"], req["minion"])
    result = {
        "attack_successes": attack,
        **hit_json(defence, rolled, target_hit),
        "club": {
            "character_id": club["character_id"],
            **hit_json(club_defence, club_rolled, club_hit),
        },
        "failed_for_both": failed,
        "success": target_hit["damage"] >= 1,
    }
    if req["target_id"] is not None:
        result["target_id"] = req["target_id"]
    return result, target_hit["net"], target_hit["damage"] >= 1


def wcbh_guarded(req: Json, dice: Dice) -> Outcome:
    guard, active, health = req["guard"], req["guard_active"], req["target_health"]
    attack = wcbh_attacker(req, dice, req.get("decisive_moment", False))
    guard_defence = party_defence(guard, req["lethal"], active=active)
    guard_rolled = wcbh_pool(dice, guard_defence["rank"], guard["defence_modifier"], "guard")
    defence, rolled = guard_defence, guard_rolled
    defender: Json | None = None
    if not active:
        target_hit = hit(0, 0, health)
        defender = hit(attack, guard_rolled, guard["health"])
    elif guard_rolled >= attack:
        target_hit = hit(attack, guard_rolled, health)
    else:
        defence = target_defence(req)
        rolled = wcbh_pool(dice, defence["rank"], req["defence_modifier"], "defence")
        target_hit = hit(attack, rolled, health, req["minion"])
    result: Json = {
        "attack_successes": attack,
        **hit_json(defence, rolled, target_hit),
        "guard": {
            "character_id": guard["character_id"],
            "active": active,
            "defence": guard_defence["name"],
            "defence_rank": guard_defence["rank"],
            "defence_successes": guard_rolled,
        },
        "success": target_hit["damage"] >= 1,
    }
    if defender is not None:
        result["guard"].update(
            damage=defender["damage"], health=defender["health"], defeated=defender["defeated"]
        )
    if req["target_id"] is not None:
        result["target_id"] = req["target_id"]
    score = target_hit["net"] if defender is None else defender["net"]
    return result, score, target_hit["damage"] >= 1


def wcbh_grapple(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    rolled = wcbh_pool(dice, req["rank"], req["modifier"] + req["page_modifier"], "grapple")
    active = [d for d in req["defences"] if d["active"]]
    none: Json = {"name": "none", "rank": 0, "active": True}
    defence = best_defence(active, halve_active=req["halve_active"]) if active else none
    against = wcbh_pool(dice, defence["rank"], req["defence_modifier"], "defence")
    net = rolled - against
    outcome = "failed" if net <= 0 else "partial" if net <= 2 else "held"
    result = {
        "trait": req["trait"],
        "rank": req["rank"],
        "successes": rolled,
        "defence": defence["name"],
        "defence_rank": defence["rank"],
        "defence_successes": against,
        "net": net,
        "outcome": outcome,
        "aim": req["aim"],
        "target_id": req["target_id"],
        "success": outcome != "failed",
    }
    return result, net, outcome != "failed"


MANEUVER_BANDS = (  # the lowest net of each band -> penalty, halve_speed, cannot_move, weapon, turn
    (5, (-3, False, False, False, True)),
    (3, (-2, False, True, True, False)),
    (1, (-1, True, False, False, False)),
    (-(10**9), (0, False, False, False, False)),
)


def wcbh_maneuver(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    rolled = wcbh_pool(dice, req["rank"], req["modifier"] + req["page_modifier"], "maneuver")
    against = wcbh_pool(dice, req["against_rank"], req["defence_modifier"], "defence")
    net = rolled - against
    effect = next(e for low, e in MANEUVER_BANDS if net >= low)
    names = ("penalty", "halve_speed", "cannot_move", "loses_weapon", "loses_turn")
    result = {
        "maneuver": req["maneuver"],
        "trait": req["trait"],
        "rank": req["rank"],
        "successes": rolled,
        "against": req["against"],
        "against_rank": req["against_rank"],
        "against_successes": against,
        "net": net,
        **dict(zip(names, effect, strict=True)),
        "target_id": req["target_id"],
        "success": net >= 1,
    }
    return result, net, net >= 1


def hand_over(rolled: dict[str, int]) -> tuple[dict[str, int], list[Json]]:
    totals = dict(rolled)
    spare = {k: max(0, v - 3) for k, v in rolled.items()}
    moves: dict[tuple[str, str], int] = {}
    while True:
        low = min(totals.values())
        receiver = next(k for k, v in totals.items() if v == low)
        givers = [g for g in totals if spare[g] and g != receiver and totals[g] > low + 1]
        if not givers:
            break
        high = max(totals[g] for g in givers)
        giver = next(g for g in givers if totals[g] == high)
        spare[giver] -= 1
        totals[giver] -= 1
        totals[receiver] += 1
        moves[(giver, receiver)] = moves.get((giver, receiver), 0) + 1
    return totals, [{"from": g, "to": r, "successes": n} for (g, r), n in moves.items()]


def wcbh_ambush(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    rolled: dict[str, int] = {}
    for a in req["ambushers"]:
        rolled[a["character_id"]] = wcbh_pool(dice, a["rank"], a["page_modifier"], "ambush")
    totals, handovers = hand_over(rolled)
    perception: dict[str, int] = {}
    minions = [t for t in req["targets"] if t["minion"]]
    if minions:
        shared = wcbh_pool(dice, max(t["perception"] for t in minions), 0, "perception")
        perception.update({t["target_id"]: shared for t in minions})
    for t in req["targets"]:
        if not t["minion"]:
            perception[t["target_id"]] = wcbh_pool(dice, t["perception"], 0, "perception")
    worst = min(totals.values())
    targets = []
    for t in req["targets"]:
        net = worst - perception[t["target_id"]]
        targets.append(
            {
                "target_id": t["target_id"],
                "perception_successes": perception[t["target_id"]],
                "net": net,
                "surprised": net >= 1,
                "may_defend_actively": net <= 2,
            }
        )
    result = {
        "ambushers": [
            {"character_id": c, "successes": rolled[c], "total": totals[c]} for c in rolled
        ],
        "handovers": handovers,
        "worst": worst,
        "targets": targets,
    }
    return result, worst, None


def wcbh_area_attack(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    bonus = req["weapon"] + req["modifier"] + req["page_modifier"]
    attack = wcbh_pool(dice, req["attack_rank"], bonus, "attack")
    targets = []
    for t in req["targets"]:
        defence = best_defence(
            t["defences"],
            req["lethal"],
            t["halve_active"] or not t["skip_turn"],
            t["halve_passive"],
        )
        rolled = wcbh_pool(dice, defence["rank"], t["defence_modifier"], "defence")
        done = hit(attack, rolled, t["health"], t["minion"])
        targets.append(
            {
                "target_id": t["target_id"],
                **hit_json(defence, rolled, done),
                "skips_turn": t["skip_turn"] and defence["active"],
            }
        )
    result = {
        "attack_successes": attack,
        "targets": targets,
        "damage": sum(t["damage"] for t in targets),
    }
    return result, attack, None


def wcbh_redirected(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    defence = target_defence(req)
    rolled = wcbh_pool(dice, defence["rank"], req["defence_modifier"], "defence")
    done = hit(req["attack_successes"], rolled, req["target_health"], req["minion"])
    result = {
        "attack_successes": req["attack_successes"],
        "target_id": req["target_id"],
        **hit_json(defence, rolled, done),
        "success": done["net"] >= 1,
    }
    return result, done["net"], done["net"] >= 1


# -- Class D Heroes ----------------------------------------------------------------------------

DIFFICULTIES = {"fairly_easy": 6, "medium": 8, "hard": 10, "very_hard": 12, "at_the_limit": 15}
ATTACK_STAT = {"melee": "might", "ranged": "speed", "mental": "spirit"}


def classd_difficulty(req: Json) -> int:
    if req["difficulty_name"] is not None:
        return DIFFICULTIES[req["difficulty_name"]]
    if req["target_stat"] is not None:
        return 5 + req["target_stat"]
    return req["difficulty"]


def classd_keep(faces: list[Json], edge: int) -> None:
    """Keep the two highest (edge >= 0) or lowest; of equal faces the earlier one stays."""
    if edge >= 0:
        ranked = sorted(faces, key=lambda f: (-f["face"], f["index"]))
    else:
        ranked = sorted(faces, key=lambda f: (f["face"], f["index"]))
    for f in ranked[2:]:
        f["kept"] = False


def classd_result(core: Json, stat: str | None, value: int, faces: list[Json]) -> Outcome:
    edge = core["advantage"] - core["disadvantage"]
    difficulty = classd_difficulty(core)
    kept = [f["face"] for f in faces if f["kept"]]
    low, high = sorted(kept)
    total = low + high + value
    critical = "success" if low == high == 6 else "failure" if low == high == 1 else None
    success = critical == "success" if critical else total >= difficulty
    names = [n for n, number in DIFFICULTIES.items() if number == difficulty]
    result = {
        "stat": stat,
        "stat_value": value,
        "dice": len(faces),
        "edge": edge,
        "kept": kept,
        "natural": low + high,
        "total": total,
        "difficulty": difficulty,
        "difficulty_name": names[0] if names else None,
        "net": total - difficulty,
        "critical": critical,
        "outcome": f"critical_{critical}" if critical else "success" if success else "failure",
        "success": success,
    }
    return result, total, success


def classd_stat_value(req: Json, sheet: Json | None) -> tuple[str | None, int]:
    if req["stat_value"] is not None:
        return None, req["stat_value"]
    if sheet is None:
        raise Refused("a raw roll needs a stat_value")
    return req["stat"], sheet[req["stat"]]


def classd_attempts(core: Json, stat: str | None, value: int, dice: Dice, rerolls: int):
    """The check, rolled again whole while it is an ordinary failure and rerolls remain."""
    edge = core["advantage"] - core["disadvantage"]
    faces = dice.pool(6, 2 + abs(edge), "check")
    classd_keep(faces, edge)
    outcome = classd_result(core, stat, value, faces)
    earlier: list[int] = []
    while outcome[0]["outcome"] == "failure" and len(earlier) < rerolls:
        earlier.append(outcome[0]["total"])
        faces = dice.reroll(faces)
        classd_keep(faces, edge)
        outcome = classd_result(core, stat, value, faces)
    return outcome, earlier


def classd_stat(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    stat, value = classd_stat_value(req, sheet)
    return classd_attempts(req, stat, value, dice, 0)[0]


def classd_will_reroll(
    original: Json, faces: list[Json], req: Json, sheet: Json | None, settings: Json, dice: Dice
) -> Outcome:
    stat, value = classd_stat_value(original, sheet)
    edge = original["advantage"] - original["disadvantage"]
    new = dice.reroll(faces[-(2 + abs(edge)) :])
    classd_keep(new, edge)
    return classd_result(original, stat, value, new)


def classd_action(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    stat, value = classd_stat_value(req, sheet)
    (result, score, success), earlier = classd_attempts(req, stat, value, dice, req["will_rerolls"])
    return {**result, "will_spent": len(earlier), "rerolled_totals": earlier}, score, success


def classd_core(req: Json, shield: int = 0) -> Json:
    return {
        "difficulty": None,
        "difficulty_name": None,
        "target_stat": req["target_stat"],
        "advantage": req["advantage"],
        "disadvantage": req["disadvantage"] + shield,
    }


def d6s(dice: Dice, count: int, modifier: int, label: str) -> tuple[list[int], int]:
    faces = [f["face"] for f in dice.pool(6, count, label)]
    return faces, sum(faces) + modifier if count else 0


def classd_hero_attack(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    if req["will_rerolls"] > req["attacker_will"]:
        raise Refused("more Will rerolls than Will")
    physical = req["attack_type"] != "mental"
    core = classd_core(req, 1 if req["hostage_shield"] and physical else 0)
    stat = ATTACK_STAT[req["attack_type"]]
    (check, score, success), earlier = classd_attempts(
        core, stat, req["stat_value"], dice, req["will_rerolls"]
    )
    kind, will = check["outcome"], req["attacker_will"] - len(earlier)
    count = {"critical_success": 2, "success": 1}.get(kind, 0)
    damage_dice, damage = d6s(dice, count, req["damage_modifier"], "damage")
    health = max(0, req["target_health"] - damage)
    out = count > 0 and health == 0
    result: Json = {
        **check,
        "attack_type": req["attack_type"],
        "will_spent": len(earlier),
        "rerolled_totals": earlier,
        "damage_dice": damage_dice,
        "damage": damage,
        "target_health": health,
        "target_out": out,
        "captured": out and not physical,
        "overflow": max(0, damage - req["target_health"]) if out else 0,
        "overflow_moved": False,
        "overflow_target_health": None,
        "hostage_dice": [],
        "hostage_damage": 0,
        "hostage_health": None,
        "strike_back": None,
        "also_at_risk": list(req["engaged_with"]) if req["area"] else [],
    }
    if result["overflow"] and req["overflow_target_health"] is not None and will >= 1:
        will -= 1
        result["will_spent"] += 1
        result["overflow_moved"] = True
        result["overflow_target_health"] = max(
            0, req["overflow_target_health"] - result["overflow"]
        )
    if kind == "critical_failure" and req["hostage_shield"] and physical:
        faces, hurt = d6s(dice, 1, req["damage_modifier"], "hostage")
        result.update(hostage_dice=faces, hostage_damage=hurt)
        if req["hostage_health"] is not None:
            result["hostage_health"] = max(0, req["hostage_health"] - hurt)
    if kind == "critical_failure" or (kind == "failure" and req["reaction"]):
        faces, hurt = d6s(dice, 1, req["strike_back_modifier"], "strike_back")
        level = req["attacker_health"] if physical else will
        result["strike_back"] = {
            "reaction_spent": kind == "failure",
            "dice": faces,
            "damage": hurt,
            "resource": "health" if physical else "will",
            "level": max(0, level - hurt),
        }
    return result, score, success


def classd_villain_attack(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    if req["will_rerolls"] > req["defender_will"]:
        raise Refused("more Will rerolls than Will")
    stat = ATTACK_STAT[req["attack_type"]]
    (check, score, success), earlier = classd_attempts(
        classd_core(req), stat, req["stat_value"], dice, req["will_rerolls"]
    )
    count = {"failure": 1, "critical_failure": 2}.get(check["outcome"], 0)
    faces, damage = d6s(dice, count, req["damage_modifier"], "damage")
    mental = req["attack_type"] == "mental"
    level = req["defender_will"] - len(earlier) if mental else req["defender_health"]
    result = {
        **check,
        "attack_type": req["attack_type"],
        "will_spent": len(earlier),
        "rerolled_totals": earlier,
        "damage_dice": faces,
        "damage": damage,
        "resource": "will" if mental else "health",
        "level": max(0, level - damage),
    }
    return result, score, success


def classd_rest(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    def restore(before: int, maximum: int, die: int) -> Json:
        after = max(before, min(before + die, maximum))
        return {
            "die": die,
            "before": before,
            "gain": after - before,
            "after": after,
            "max": maximum,
        }

    rested, total = [], 0
    for p in req["participants"]:
        health, will = (f["face"] for f in dice.pool(6, 2, p["name"]))
        total += health + will
        rested.append(
            {
                "name": p["name"],
                "health": restore(p["health"], p["health_max"], health),
                "will": restore(p["will"], p["will_max"], will),
            }
        )
    return {"participants": rested, "total": total, "outcome": "rested"}, total, None


# -- Nimble ------------------------------------------------------------------------------------


def nimble_keep(faces: list[Json], edge: int, keep: int) -> list[Json]:
    """Drop the lowest (edge >= 0) or highest dice; of equal faces the earlier one goes first."""
    sign = 1 if edge >= 0 else -1
    ranked = sorted(faces, key=lambda f: (sign * f["face"], f["index"]))
    for f in ranked[: len(faces) - keep]:
        f["kept"] = False
    return [f for f in faces if f["kept"]]


def parse_dice(text: str) -> tuple[list[tuple[int, int]], int]:
    """'2d6+1d4-1' -> ([(2, 6), (1, 4)], -1), for the expressions a record can hold."""
    terms: list[tuple[int, int]] = []
    modifier = 0
    for sign, term in re.findall(r"([+-]?)([^+-]+)", re.sub(r"\s+", "", text)):
        if "d" in term.lower():
            count, sides = term.lower().split("d")
            terms.append((int(count or 1), int(sides)))
        else:
            modifier += -int(term) if sign == "-" else int(term)
    return terms, modifier


def nimble_attack_of(req: Json, sheet: Json | None) -> tuple[str | None, list, int, bool]:
    if req["dice"] is not None:
        terms, modifier = parse_dice(req["dice"])
        primary = req["primary_die"] is not False and not req["area"] and bool(terms)
        return None, terms, modifier, primary
    if sheet is None:
        raise Refused("a raw attack needs dice")
    for attack in sheet.get("attacks", []):
        if fold(attack["name"]) == fold(req["attack"]):
            terms, modifier = parse_dice(attack["dice"])
            primary = attack.get("primary_die", True) and not attack.get("area", False)
            return attack["name"], terms, modifier, primary and bool(terms)
    raise Refused("no such attack")


def nimble_edge(req: Json) -> int:
    return req["advantage"] - req["disadvantage"] - (req.get("attack_number", 1) - 1)


def crit_chain(lead: Json, shift: int, dice: Dice) -> list[Json]:
    if lead["face"] + shift < lead["sides"]:
        return []
    return dice.chain(lead, lambda face: face == lead["sides"], first=True)


def nimble_result(req: Json, name, modifier, lead, counted: list[Json], chain) -> Outcome:
    shifted = lead["face"] + req["primary_shift"] if lead is not None else None
    miss = shifted is not None and shifted <= 1
    critical = shifted is not None and shifted >= lead["sides"]
    rolled = sum(f["face"] for f in counted)
    total = 0 if miss else max(0, rolled + modifier)
    armor = 0 if miss or critical else req["armor"]
    damage = max(0, total - armor)
    result = {
        "attack": name,
        "dice": req["dice"] if name is None else None,
        "edge": nimble_edge(req),
        "primary_die": f"d{lead['sides']}" if lead else None,
        "primary_face": lead["face"] if lead else None,
        "primary_shift": req["primary_shift"],
        "rolled": rolled,
        "modifier": modifier,
        "crit_dice": len(chain),
        "total": total,
        "armor": armor,
        "damage": damage,
        "outcome": "miss" if miss else "critical" if critical else "hit",
        "critical": critical,
        "miss": miss,
        "success": not miss,
    }
    return result, damage, not miss


def nimble_attack(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    name, terms, modifier, primary = nimble_attack_of(req, sheet)
    edge = nimble_edge(req)
    drawn: list[Json] = []
    first: list[Json] = []
    chain: list[Json] = []
    if terms:
        count, sides = terms[0]
        drawn = dice.pool(sides, count + abs(edge), "attack")
        first = nimble_keep(drawn, edge, count)
        for count, sides in terms[1:]:
            drawn += dice.pool(sides, count, "attack")
        if primary:
            chain = crit_chain(first[0], req["primary_shift"], dice)
    lead = first[0] if primary else None
    counted = [f for f in drawn + chain if f["kept"]]
    return nimble_result(req, name, modifier, lead, counted, chain)


def nimble_help_die(
    original: Json, faces: list[Json], req: Json, sheet: Json | None, settings: Json, dice: Dice
) -> Outcome:
    name, terms, modifier, primary = nimble_attack_of(original, sheet)
    edge = nimble_edge(original)
    if not 0 <= req["die"] < len(faces):
        raise Refused("no such die")
    old = faces[req["die"]]
    if old["exploded_from"] is not None or old["reroll_of"] is not None:
        raise Refused("a crit die")
    chain = [f for f in faces if f["exploded_from"] is not None]
    width = terms[0][0] + abs(edge) if terms else 0
    lead = next((f for f in faces[:width] if f["kept"]), None) if primary else None
    new = dice.reroll([old])[0]
    term = [new if i == req["die"] else f for i, f in enumerate(faces[:width])]
    if req["die"] < width:  # the first term keeps and drops again; equal faces by position
        sign = 1 if edge >= 0 else -1
        ranked = sorted(range(width), key=lambda i: (sign * term[i]["face"], i))
        dropped = set(ranked[: width - terms[0][0]])
        for i, f in enumerate(term):
            f["kept"] = i not in dropped
    first = [f for f in term if f["kept"]]
    new_lead = first[0] if primary else None
    new_chain: list[Json] = []
    if new_lead is not lead:  # the old crit chain goes with the old Primary die
        for f in chain:
            f["kept"] = False
        chain = new_chain = (
            crit_chain(new_lead, original["primary_shift"], dice) if new_lead else []
        )
    counted = [f for f in faces + [new] if f["kept"]] + new_chain
    return nimble_result(original, name, modifier, new_lead, counted, chain)


def d20(dice: Dice, edge: int, label: str) -> int:
    return nimble_keep(dice.pool(20, 1 + abs(edge), label), edge, 1)[0]["face"]


def nimble_initiative(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    if req["bonus"] is not None:
        bonus = req["bonus"]
    elif sheet is None or sheet.get("kind", "hero") == "monster":
        raise Refused("no bonus")
    else:
        bonus = sheet.get("initiative_bonus")
        bonus = sheet["stats"]["DEX"] if bonus is None else bonus
    edge = req["advantage"] - req["disadvantage"]
    natural = d20(dice, edge, "initiative")
    total = natural + bonus
    actions = 3 if natural == 20 or total >= 20 else 2 if total >= 10 else 1
    result = {
        "natural": natural,
        "bonus": bonus,
        "total": total,
        "edge": edge,
        "actions": actions,
        "outcome": f"{actions}_actions" if actions > 1 else "1_action",
        "critical": natural == 20,
    }
    return result, actions, None


def nimble_assess(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    edge = req["advantage"] - req["disadvantage"]
    natural = d20(dice, edge, "assess")
    total = natural + req["modifier"]
    success = total >= req["dc"]
    result = {
        "skill": req["skill"],
        "option": req["option"],
        "natural": natural,
        "modifier": req["modifier"],
        "total": total,
        "dc": req["dc"],
        "edge": edge,
        "success": success,
        "outcome": "success" if success else "failure",
    }
    return result, total, success


def nimble_help_reroll(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    natural = dice.pool(20, 1, "help")[0]["face"]
    total = natural + req["modifier"]
    success = total >= req["dc"]
    result = {
        "old_face": req["old_face"],
        "natural": natural,
        "modifier": req["modifier"],
        "total": total,
        "dc": req["dc"],
        "success": success,
        "outcome": "success" if success else "failure",
    }
    return result, total, success


def sheet_modifier(req: Json, sheet: Json | None, of_hero: Callable[[Json], int]) -> int:
    if sheet is None:
        if req["modifier"] is None:
            raise Refused("a raw roll needs a modifier")
        return req["modifier"]
    if sheet.get("kind", "hero") == "monster":
        return req["modifier"] or 0
    value = of_hero(sheet)
    if req["modifier"] is not None and req["modifier"] != value:
        raise Refused("not the sheet's modifier")
    return value


def nimble_d20_check(key: str, label: str, req: Json, modifier: int, edge: int, dice: Dice):
    natural = d20(dice, edge, label)
    total = natural + modifier
    success = total >= req["dc"]
    result = {
        key: req[key],
        "natural": natural,
        "modifier": modifier,
        "total": total,
        "dc": req["dc"],
        "edge": edge,
        "outcome": "success" if success else "failure",
        "success": success,
    }
    return result, total, success


def nimble_save(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    modifier = sheet_modifier(req, sheet, lambda hero: hero["stats"][req["stat"]])
    edge = req["advantage"] - req["disadvantage"]
    return nimble_d20_check("stat", "save", req, modifier, edge, dice)


def nimble_skill(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    def of_hero(hero: Json) -> int:
        found = [v for n, v in hero.get("skills", {}).items() if fold(n) == fold(req["skill"])]
        return found[0] if found else 0

    modifier = sheet_modifier(req, sheet, of_hero)
    return nimble_d20_check("skill", "skill", req, modifier, nimble_edge(req), dice)


# -- nWoD micro ----------------------------------------------------------------------------------

DAMAGE_CLASSES = {"common": 1, "professional": 2, "military": 3, "heavy": 4}


def ten_explodes(face: int) -> bool:
    return face == 10


def d10_successes(faces: list[Json], chance: bool) -> int:
    """8+ succeeds; the chance die itself only on 10 (its explosion dice on 8+ again)."""
    total = 0
    for f in faces:
        need = 10 if chance and f["exploded_from"] is None else 8
        total += 1 if f["kept"] and f["face"] >= need else 0
    return total


def nwod_pool(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    if req["pool"] is not None:
        affinity, value = None, req["pool"]
    elif sheet is None:
        raise Refused("a raw roll needs a pool")
    else:
        affinity, value = req["affinity"], sheet["affinities"][req["affinity"]]
    bonus = req["damage_bonus"]
    if req["weapon"] is not None:
        if sheet is None:
            raise Refused("a raw roll needs a damage_bonus")
        found = [w for w in sheet.get("weapons", []) if fold(w["name"]) == fold(req["weapon"])]
        if not found:
            raise Refused("no such weapon")
        bonus = DAMAGE_CLASSES[found[0]["damage_class"]]
    pool = value + req["modifier"] - (req["target_defense"] or 0) + 3 * req["will_power"]
    chance = pool <= 0
    faces = dice.pool(10, 1 if chance else pool, "chance" if chance else "pool", ten_explodes)
    successes = d10_successes(faces, chance)
    attack = req["kind"] != "universal"
    damage = None
    if attack:
        damage = max(0, successes + (bonus or 0) - req["target_armor"]) if successes else 0
    result = {
        "affinity": affinity,
        "affinity_value": value,
        "kind": req["kind"],
        "pool": pool,
        "chance_roll": chance,
        "dice": sum(1 for f in faces if f["exploded_from"] is None),
        "exploded": sum(1 for f in faces if f["exploded_from"] is not None),
        "successes": successes,
        "net": successes,
        "outcome": "success" if successes else "failure",
        "success": successes >= 1,
        "will_power": req["will_power"],
        "damage_bonus": bonus,
        "target_armor": req["target_armor"] if attack else None,
        "damage": damage,
    }
    return result, successes, successes >= 1


def nwod_sheet_value(sheet: Json | None, affinity: str, value: int) -> None:
    if sheet is not None and sheet["affinities"][affinity] != value:
        raise Refused("not the sheet's Affinity")


def nwod_initiative(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    nwod_sheet_value(sheet, "INT", req["intelligence"])
    face = dice.pool(10, 1, "initiative")[0]["face"]
    total = face + req["intelligence"] + req["modifier"]
    result = {
        "roll": face,
        "intelligence": req["intelligence"],
        "modifier": req["modifier"],
        "total": total,
    }
    return result, total, None


def nwod_fight_roll(req: Json, sheet: Json | None, settings: Json, dice: Dice) -> Outcome:
    nwod_sheet_value(sheet, req["affinity"], req["affinity_value"])
    attack = req["kind"] != "universal"
    extras = ("target_defense", "damage_bonus", "damage_penalty", "target_armor")
    if not attack and any(req[k] for k in extras):
        raise Refused("Defense, weapons and armour are for attacks")
    modifiers = sum(m["dice"] for m in req["modifiers"])
    pool = req["affinity_value"] + modifiers - req["target_defense"] + 3 * req["will_power"]
    chance = pool <= 0 or req["chance_only"]
    successes = d10_successes(dice.pool(10, 1 if chance else pool, "pool", ten_explodes), chance)
    damage = 0
    if successes:
        bonus = max(0, req["damage_bonus"] - req["damage_penalty"])
        damage = max(0, successes + bonus - req["target_armor"])
    health = req["target_health"]
    after = max(0, health - damage) if attack and health is not None else None
    result = {
        "kind": req["kind"],
        "affinity": req["affinity"],
        "affinity_value": req["affinity_value"],
        "modifier_dice": modifiers,
        "target_defense": req["target_defense"],
        "will_power": req["will_power"],
        "pool": pool,
        "chance_roll": chance,
        "successes": successes,
        "success": successes >= 1,
        "outcome": "success" if successes else "failure",
        "damage_bonus": req["damage_bonus"] if attack else None,
        "damage_penalty": req["damage_penalty"] if attack else None,
        "target_armor": req["target_armor"] if attack else None,
        "damage": damage if attack else None,
        "target_health": after,
        "target_at_zero": after == 0 if after is not None else None,
    }
    return result, successes, successes >= 1


# -- dispatch ------------------------------------------------------------------------------------

CHECKS: dict[tuple[str, str], Callable[[Json, Json | None, Json, Dice], Outcome]] = {
    ("wcbh", "trait"): wcbh_trait,
    ("wcbh", "attack"): wcbh_attack,
    ("wcbh", "grapple"): wcbh_grapple,
    ("wcbh", "maneuver"): wcbh_maneuver,
    ("wcbh", "ambush"): wcbh_ambush,
    ("wcbh", "area_attack"): wcbh_area_attack,
    ("wcbh", "redirected_attack"): wcbh_redirected,
    ("classd", "stat"): classd_stat,
    ("classd", "rest"): classd_rest,
    ("classd", "action"): classd_action,
    ("classd", "hero_attack"): classd_hero_attack,
    ("classd", "villain_attack"): classd_villain_attack,
    ("nimble", "attack"): nimble_attack,
    ("nimble", "initiative"): nimble_initiative,
    ("nimble", "assess"): nimble_assess,
    ("nimble", "help_reroll"): nimble_help_reroll,
    ("nimble", "save"): nimble_save,
    ("nimble", "skill"): nimble_skill,
    ("nwod-micro", "pool"): nwod_pool,
    ("nwod-micro", "initiative"): nwod_initiative,
    ("nwod-micro", "fight_roll"): nwod_fight_roll,
}
FOLLOW_UPS = {
    ("wcbh", "resolve_dice"): wcbh_resolve_dice,
    ("wcbh", "resolve_reroll"): wcbh_resolve_reroll,
    ("classd", "will_reroll"): classd_will_reroll,
    ("nimble", "help_die"): nimble_help_die,
}


def recompute(
    record: Json, seed: bytes, original: Json | None = None, earlier: list[Json] | None = None
) -> Json:
    """The faces, result, score and success of a roll record (`original`: the record a
    follow-up follows up; `earlier`: the records its `after` names, in order), from the
    revealed seed."""
    dice = Dice(seed, record["client_seed"], record["nonce"])
    settings = record["settings"] or {}
    if record["follow_up"] is None:
        check = CHECKS[(record["ruleset"], record["check"])]
        result, score, success = check(record["request"], record["sheet"], settings, dice)
    else:
        assert original is not None, "a follow-up is recomputed with the roll it follows up"
        follow_up = FOLLOW_UPS[(record["ruleset"], record["follow_up"])]
        faces = copy.deepcopy(original["faces"])
        if record.get("after") is not None:
            faces = state_after(original, faces, earlier or [], seed)
        result, score, success = follow_up(
            original["request"], faces, record["request"], record["sheet"], settings, dice
        )
    return {"faces": dice.faces, "result": result, "score": score, "success": success}


def state_after(original: Json, faces: list[Json], earlier: list[Json], seed: bytes) -> list[Json]:
    """The dice as the earlier follow-ups left them (docs/fair-dice-checks.md, section 2): each
    applied in turn to the state, its own dice appended with index and exploded_from shifted."""
    for record in earlier:
        dice = Dice(seed, record["client_seed"], record["nonce"])
        follow_up = FOLLOW_UPS[(record["ruleset"], record["follow_up"])]
        follow_up(original["request"], faces, record["request"], record["sheet"],
                  record["settings"] or {}, dice)  # fmt: skip
        shift = len(faces)
        for f in dice.faces:
            moved = dict(f, index=f["index"] + shift)
            if f["exploded_from"] is not None:
                moved["exploded_from"] = f["exploded_from"] + shift
            faces = faces + [moved]
    return faces
