"""Access control: every endpoint × {no token, GM, owning player, other player, observer, foreign GM}."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.api import test_nimble_health as nh
from tests.api import test_wcbh_fight as fight
from tests.api import test_wcbh_scene_play as play
from tests.api.classd_support import stage
from tests.api.nwod_support import stage as nwod_stage
from tests.api.support import Table, bearer
from tests.api.test_nimble_encounter import stage as nimble_stage
from tests.api.test_nimble_encounter_grapple import stage as grapple_stage
from tests.api.test_nimble_reactions import held_stage

ROLES = (
    "none",
    "foreign",
    "observer",
    "other_player",
    "owner",
    "gm",
)  # the GM goes last: it succeeds


@dataclass(frozen=True)
class Case:
    method: str
    path: Callable[[Table], str]
    body: Callable[[Table], Any]
    expect: dict[str, int]
    ruleset: str = "wcbh"  # the campaign's ruleset (Class D combat needs a classd campaign)
    settings: dict[str, Any] | None = None  # the campaign's settings, if not the defaults


APPROVAL = {"player_sheet_changes": "gm_approval"}


def _in_a_scene(t: Table) -> str:
    hero = t.character(t.player)
    t.scene()
    return hero


def _proposal(t: Table, decision: str) -> str:
    hero = t.character(t.player)
    body = {"sheet": t.example_sheet, "reason": "retrained"}
    response = t.client.put(f"/v1/characters/{hero}/sheet", json=body, headers=bearer(t.player))
    assert response.status_code == 202, response.text
    [change_id] = response.json()["sheet_changes"]
    return f"/v1/characters/{hero}/sheet-changes/{change_id}/{decision}"


def _a_roll(t: Table) -> str:
    body = {
        "check": "trait",
        "character_id": t.character(t.player),
        "request": {"trait": "Agility"},
    }
    return str(t.post(f"/v1/scenes/{t.scene()}/rolls", body, t.player)["id"])


def reads(ok: int = 200) -> dict[str, int]:
    return {"none": 401, "foreign": 404, "observer": ok, "other_player": ok, "owner": ok, "gm": ok}


def gm_only(ok: int) -> dict[str, int]:
    return {
        "none": 401,
        "foreign": 404,
        "observer": 403,
        "other_player": 403,
        "owner": 403,
        "gm": ok,
    }


def owner_and_gm(ok: int) -> dict[str, int]:
    return {
        "none": 401,
        "foreign": 404,
        "observer": 403,
        "other_player": 403,
        "owner": ok,
        "gm": ok,
    }


def no_body(_: Table) -> None:
    return None


CASES: dict[str, Case] = {
    "get campaign": Case("GET", lambda t: f"/v1/campaigns/{t.campaign_id}", no_body, reads()),
    # every token may ask who it is; a foreign GM's is its own campaign's GM
    "who am I": Case("GET", lambda t: "/v1/me", no_body, reads() | {"foreign": 200}),
    "list members": Case(
        "GET", lambda t: f"/v1/campaigns/{t.campaign_id}/members", no_body, reads()
    ),
    "list characters": Case(
        "GET", lambda t: f"/v1/campaigns/{t.campaign_id}/characters", no_body, reads()
    ),
    "list stories": Case(
        "GET", lambda t: f"/v1/campaigns/{t.campaign_id}/stories", no_body, reads()
    ),
    "list missions": Case(
        "GET", lambda t: f"/v1/campaigns/{t.campaign_id}/missions", no_body, reads()
    ),
    "list rolls": Case("GET", lambda t: f"/v1/campaigns/{t.campaign_id}/rolls", no_body, reads()),
    "roll text": Case("GET", lambda t: f"/v1/rolls/{_a_roll(t)}/text", no_body, reads()),
    "list game issues": Case("GET", lambda t: f"/v1/stories/{t.story()}/issues", no_body, reads()),
    "list scenes": Case("GET", lambda t: f"/v1/issues/{t.issue()}/scenes", no_body, reads()),
    "add member": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/members",
        lambda t: {"name": "Ed", "role": "player"},
        gm_only(201),
    ),
    "create character for the owner": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/characters",
        lambda t: {
            "name": "Nova",
            "side": "hero",
            "owner_member_id": t.player_id,
            "sheet": t.example_sheet,
        },
        owner_and_gm(201),
    ),
    "get character": Case(
        "GET", lambda t: f"/v1/characters/{t.character(t.player)}", no_body, reads()
    ),
    "replay character": Case(
        "GET", lambda t: f"/v1/characters/{t.character(t.player)}/replay", no_body, reads()
    ),
    "replace sheet": Case(
        "PUT",
        lambda t: f"/v1/characters/{t.character(t.player)}/sheet",
        lambda t: {"sheet": t.example_sheet, "reason": "retrained"},
        owner_and_gm(200),
    ),
    # setting player_sheet_changes: outside open scenes (the default), or with the GM's approval
    "replace sheet during a scene": Case(
        "PUT",
        lambda t: f"/v1/characters/{_in_a_scene(t)}/sheet",
        lambda t: {"sheet": t.example_sheet, "reason": "retrained"},
        owner_and_gm(200) | {"owner": 409},
    ),
    "propose a sheet change": Case(
        "PUT",
        lambda t: f"/v1/characters/{t.character(t.player)}/sheet",
        lambda t: {"sheet": t.example_sheet, "reason": "retrained"},
        owner_and_gm(200) | {"owner": 202},
        settings=APPROVAL,
    ),
    "approve sheet change": Case(
        "POST", lambda t: _proposal(t, "approve"), no_body, gm_only(200), settings=APPROVAL
    ),
    "decline sheet change": Case(
        "POST",
        lambda t: _proposal(t, "decline"),
        lambda t: {"note": "no"},
        gm_only(200),
        settings=APPROVAL,
    ),
    "create a villain": Case(  # setting player_sides: heroes only by default
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/characters",
        lambda t: {"name": "Dr. Null", "side": "villain", "sheet": t.example_sheet},
        gm_only(201),
    ),
    # credentials: the GM rotates, revokes or removes anyone; a member rotates its own token
    "rotate a member's token": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/members/{t.player_id}/token",
        lambda t: {"expires_in": 3600},
        owner_and_gm(200),
    ),
    "revoke a member's token": Case(
        "DELETE",
        lambda t: f"/v1/campaigns/{t.campaign_id}/members/{t.player_id}/token",
        no_body,
        gm_only(200),
    ),
    "remove a member": Case(
        "DELETE",
        lambda t: f"/v1/campaigns/{t.campaign_id}/members/{t.player_id}",
        no_body,
        gm_only(200),
    ),
    "start story": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/stories",
        lambda t: {"title": "S"},
        gm_only(201),
    ),
    "get story": Case("GET", lambda t: f"/v1/stories/{t.story()}", no_body, reads()),
    "complete story": Case(
        "POST", lambda t: f"/v1/stories/{t.story()}/complete", no_body, gm_only(200)
    ),
    "start game issue": Case(
        "POST", lambda t: f"/v1/stories/{t.story()}/issues", lambda t: {"title": "I"}, gm_only(201)
    ),
    "get game issue": Case("GET", lambda t: f"/v1/issues/{t.issue()}", no_body, reads()),
    "end game issue": Case("POST", lambda t: f"/v1/issues/{t.issue()}/end", no_body, gm_only(200)),
    "open scene": Case(
        "POST", lambda t: f"/v1/issues/{t.issue()}/scenes", lambda t: {"title": "Sc"}, gm_only(201)
    ),
    "get scene": Case("GET", lambda t: f"/v1/scenes/{t.scene()}", no_body, reads()),
    "advance page": Case("POST", lambda t: f"/v1/scenes/{t.scene()}/pages", no_body, gm_only(200)),
    "close scene": Case("POST", lambda t: f"/v1/scenes/{t.scene()}/close", no_body, gm_only(200)),
    "create mission": Case(
        "POST",
        lambda t: f"/v1/campaigns/{t.campaign_id}/missions",
        lambda t: {"title": "M"},
        gm_only(201),
    ),
    "get mission": Case("GET", lambda t: f"/v1/missions/{t.mission()}", no_body, reads()),
    "end mission": Case(
        "POST",
        lambda t: f"/v1/missions/{t.mission()}/end",
        lambda t: {"outcome": "failed"},
        gm_only(200),
    ),
    # missions area: counters and rests (CD-22..25)
    "define mission counter": Case(
        "POST",
        lambda t: f"/v1/missions/{t.mission()}/counters",
        lambda t: {"name": "catastrophe", "maximum": 10, "zones": [{"name": "calm", "start": 0}]},
        gm_only(201),
    ),
    "change mission counter": Case(
        "POST",
        lambda t: f"/v1/missions/{t.mission()}/counters/alarm",
        lambda t: {"change": 1, "reason": "a door slams", "code": "noise"},
        gm_only(200),
    ),
    "rest on mission": Case(
        "POST",
        lambda t: f"/v1/missions/{t.mission()}/rests",
        lambda t: {"character_ids": []},
        gm_only(200),
    ),
    # Class D combat (CD-8..20): the owner acts first, so the GM's repeat meets the round's rules
    # nWoD micro firefights (NW-7..18): Vega (the owner's) acts now; the GM's repeat follows
    "nwod fight state": Case(
        "GET", lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod", no_body, reads(), "nwod-micro"
    ),
    "nwod initiative": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/initiative",
        lambda t: {"character_id": nwod_stage(t)["rook"]},
        owner_and_gm(201) | {"gm": 409},  # NW-14: once per fight
        "nwod-micro",
    ),
    "nwod attack": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/attacks",
        lambda t: {
            "attacker_id": nwod_stage(t)["hero"],
            "target_ids": [nwod_stage(t)["foe"]],
            "weapon": "Assault rifle",
        },
        owner_and_gm(201),  # NW-15: two actions a turn
        "nwod-micro",
    ),
    "nwod action": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/actions",
        lambda t: {"character_id": nwod_stage(t)["hero"], "maneuver": "aim"},
        owner_and_gm(201),
        "nwod-micro",
    ),
    "nwod will power": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/will-power",
        lambda t: {"character_id": nwod_stage(t)["hero"], "boost": "defense"},
        owner_and_gm(201),
        "nwod-micro",
    ),
    "nwod end turn": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/turn-ends",
        lambda t: {"character_id": nwod_stage(t)["hero"]},
        owner_and_gm(200) | {"gm": 409},  # NW-14: no longer its turn
        "nwod-micro",
    ),
    "nwod override": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/overrides",
        lambda t: {"character_id": nwod_stage(t)["rook"], "grant": "extra_action", "reason": "x"},
        gm_only(201) | {"gm": 409},  # NW-14: Rook has not joined the fight
        "nwod-micro",
    ),
    "nwod take out": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/take-outs",
        lambda t: {"character_id": nwod_stage(t)["rook"], "reason": "fled"},
        gm_only(200) | {"gm": 409},  # NW-8: Rook has not joined the fight
        "nwod-micro",
    ),
    "nwod suppression roll": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t, suppressed=True)['scene']}/nwod/suppression-rolls",
        lambda t: {"character_id": nwod_stage(t)["hero"]},
        owner_and_gm(201) | {"gm": 409},  # NW-15: rolled once
        "nwod-micro",
    ),
    "nwod roll": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/rolls",
        lambda t: {"character_id": nwod_stage(t)["hero"], "affinity": "ELG"},
        owner_and_gm(201),
        "nwod-micro",
    ),
    "nwod contest": Case(
        "POST",
        lambda t: f"/v1/scenes/{nwod_stage(t)['scene']}/nwod/contests",
        lambda t: {
            "sides": [
                {"character_id": nwod_stage(t)["hero"], "affinity": "ELG"},
                {"character_id": nwod_stage(t)["foe"], "affinity": "INT"},
            ]
        },
        gm_only(201),
        "nwod-micro",
    ),
    "classd combat state": Case(
        "GET", lambda t: f"/v1/scenes/{stage(t)['scene']}/classd", no_body, reads(), "classd"
    ),
    "classd end heroes' turn": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/villains-turn",
        no_body,
        gm_only(200),
        "classd",
    ),
    "classd attack": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/attacks",
        lambda t: {
            "attacker_id": stage(t)["hero"],
            "target_id": stage(t)["villain"],
            "attack_type": "melee",
        },
        owner_and_gm(201) | {"gm": 409},  # CD-9: one action a round
        "classd",
    ),
    "classd villain attack": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t, 'villains')['scene']}/classd/villain-attacks",
        lambda t: {
            "villain_id": stage(t)["villain"],
            "hero_id": stage(t)["hero"],
            "attack_type": "ranged",
        },
        gm_only(201),
        "classd",
    ),
    "classd action": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/actions",
        lambda t: {"character_id": stage(t)["hero"], "action": "item"},
        owner_and_gm(201) | {"gm": 409},  # CD-9
        "classd",
    ),
    "classd retreat": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/retreats",
        lambda t: {"hero_id": stage(t)["hero"], "pursuer_ids": [stage(t)["villain"]]},
        owner_and_gm(201) | {"gm": 409},  # CD-9 (or CD-14: the hero has left)
        "classd",
    ),
    "classd stop": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t, 'villains', fleeing=True)['scene']}/classd/stops",
        lambda t: {"hero_id": stage(t)["hero"], "villain_id": stage(t)["villain"]},
        owner_and_gm(201) | {"gm": 409},  # CD-16: one stop per hero per turn
        "classd",
    ),
    "classd move": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/moves",
        lambda t: {"hero_id": stage(t)["hero"], "edge": "cover", "difficulty": 8},
        owner_and_gm(201) | {"gm": 409},  # CD-9
        "classd",
        settings={"player_modifiers": "trusted"},  # the owner's difficulty applies (CD-18)
    ),
    "classd hostage shield": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/hostage-shields",
        lambda t: {"villain_id": stage(t)["villain"], "hostage": "A banker"},
        gm_only(200),
        "classd",
    ),
    "classd end fight": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t, 'villains')['scene']}/classd/fight-end",
        lambda t: {"reason": "the goon gives up"},
        gm_only(200),
        "classd",
    ),
    "classd capture": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/captures",
        lambda t: {"hero_id": stage(t)["hero"], "reason": "dragged into the vault"},
        gm_only(200),
        "classd",
    ),
    "classd grant action": Case(
        "POST",
        lambda t: f"/v1/scenes/{stage(t)['scene']}/classd/grants",
        lambda t: {"character_id": stage(t)["hero"], "reason": "she planned it"},
        gm_only(200),
        "classd",
    ),
}


# ---- Resolve area (WCBH-16, 19..21, availability): systems/wcbh/docs/resolve.md ----------------------------


def _spent_hero(t: Table) -> str:
    """The owner's hero at 0 Resolve (Will at the Trait Limit, WCBH-17)."""
    sheet = {**t.example_sheet, "abilities": {**t.example_sheet["abilities"], "Will": 10}}
    body = {"name": "Spent", "side": "hero", "sheet": sheet}
    return str(t.post(f"/v1/campaigns/{t.campaign_id}/characters", body, t.player)["id"])


def _luck_decision(t: Table) -> str:
    hero = t.character(t.player)
    asked = t.post(
        f"/v1/characters/{hero}/luck-requests", {"scene_id": t.scene(), "detail": "a cab"}, t.player
    )
    return f"/v1/characters/{hero}/luck-requests/{asked['id']}/decision"


def _scene_with_pool(t: Table) -> str:
    scene = t.scene()
    t.post(f"/v1/scenes/{scene}/pools/open", {"amount": 3, "reason": "finale"}, status=200)
    return scene


def _issue_with_adversity(t: Table) -> str:
    t.character(t.player)  # one hero: 1 Adversity (WCBH-21)
    return t.issue()


def _villain(t: Table) -> str:
    body = {"name": "Dr. Null", "side": "villain", "sheet": t.example_sheet}
    return str(t.post(f"/v1/campaigns/{t.campaign_id}/characters", body)["id"])


def _decisive_moment(t: Table) -> str:
    """The owner's hero after a physical Decisive Moment; the roll id is kept on the table."""
    hero = t.character(t.player)
    request = {"trait": "Agility", "decisive_moment": True, "effort": "physical"}
    body = {"check": "trait", "character_id": hero, "request": request}
    t.resolve_roll_id = t.post(f"/v1/scenes/{t.scene()}/rolls", body, t.player)["id"]  # type: ignore[attr-defined]
    return hero


def _lowered(t: Table) -> str:
    hero = _decisive_moment(t)
    body = {"roll_id": t.resolve_roll_id, "ability": "Agility"}  # type: ignore[attr-defined]
    t.post(f"/v1/characters/{hero}/ability-losses", body, t.player, status=200)
    return hero


def _availability(t: Table) -> str:
    scene = t.scene()
    return f"/v1/scenes/{scene}/availability?min_position={t.position()}"


ONCE_THEN_CONFLICT = {**owner_and_gm(200), "gm": 409}  # the owner's use leaves none for the GM

CASES.update(
    {
        "give resolve": Case(
            "POST",
            lambda t: f"/v1/characters/{t.character(t.player)}/resolve-gifts",
            lambda t: {
                "receiver_id": t.character(t.other_player, "Bolt"),
                "scene_id": t.scene(),
                "purpose": "holds the ladder",
            },
            owner_and_gm(200),
        ),
        "ask luck": Case(
            "POST",
            lambda t: f"/v1/characters/{t.character(t.player)}/luck-requests",
            lambda t: {"scene_id": t.scene(), "detail": "a cab"},
            owner_and_gm(201),
        ),
        "decide luck": Case("POST", _luck_decision, lambda t: {"approve": True}, gm_only(200)),
        "imitate power": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/imitations",
            lambda t: {
                "character_id": t.character(t.player),
                "trait": "Agility",
                "power": "Wall Crawling",
            },
            owner_and_gm(200),
        ),
        "last gasp": Case(
            "POST",
            lambda t: f"/v1/characters/{_spent_hero(t)}/last-gasp",
            lambda t: {"scene_id": t.scene()},
            ONCE_THEN_CONFLICT,
        ),
        "open scene pool": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/pools/open",
            lambda t: {"pool": "adversity", "amount": 2, "reason": "finale"},
            gm_only(200),
        ),
        "change scene pool": Case(
            "POST",
            lambda t: f"/v1/scenes/{_scene_with_pool(t)}/pools",
            lambda t: {"pool": "adversity", "change": -1, "reason": "the floor gives way"},
            gm_only(200),
        ),
        "villainous deed": Case(
            "POST",
            lambda t: f"/v1/issues/{_issue_with_adversity(t)}/villainous-deed",
            lambda t: {"villain_id": _villain(t), "description": "the lights go out"},
            gm_only(200),
        ),
        "lose ability": Case(
            "POST",
            lambda t: f"/v1/characters/{_decisive_moment(t)}/ability-losses",
            lambda t: {"roll_id": t.resolve_roll_id, "ability": "Agility"},  # type: ignore[attr-defined]
            ONCE_THEN_CONFLICT,
        ),
        "restore ability": Case(
            "POST",
            lambda t: f"/v1/characters/{_lowered(t)}/ability-restorations",
            lambda t: {"ability": "Agility", "reason": "5 XP"},
            gm_only(200),
        ),
        "scene availability": Case("GET", _availability, no_body, reads()),
    }
)


# ---- scene play (WCBH-10..12, 27, 34, 37..39): systems/wcbh/docs/scene-play.md -----------------------------
# The owner acts first; where its use leaves none (a roll a round, a use a scene), the GM gets 409.

AGAIN_409 = {"gm": 409}

CASES.update(
    {
        "assisted roll": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/assisted-rolls",
            lambda t: {
                "character_id": t.character(t.player),
                "request": {"trait": "Agility"},
                "helpers": [{"character_id": t.character(t.player, "Bolt"), "trait": "Strength"}],
            },
            owner_and_gm(201),
        ),
        "open group check": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/group-checks",
            lambda t: {
                "participants": [t.character(t.player), play.make(t, "Null", side="villain")]
            },
            owner_and_gm(201),
        ),
        "get group check": Case("GET", play.access_group_roll, no_body, reads()),
        "group check roll": Case(
            "POST",
            lambda t: play.access_group_roll(t) + "/rolls",
            play.kept,
            owner_and_gm(201) | AGAIN_409,
        ),
        "hand over successes": Case("POST", play.access_handover, play.kept, owner_and_gm(200)),
        "start contest": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/contests",
            lambda t: {
                "first_id": t.character(t.player),
                "second_id": play.make(t, "Null", side="villain"),
            },
            owner_and_gm(201),
        ),
        "get contest": Case("GET", play.access_contest, no_body, reads()),
        "contest roll": Case(
            "POST",
            lambda t: play.access_contest(t) + "/rolls",
            play.kept,
            owner_and_gm(201) | AGAIN_409,
        ),
        "start chase": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/chases",
            lambda t: {
                "pairs": [
                    {
                        "pursuer_id": t.character(t.player),
                        "target_id": play.make(t, "Null", side="villain"),
                    }
                ]
            },
            owner_and_gm(201),
        ),
        "get chase": Case("GET", play.access_chase, no_body, reads()),
        "chase check": Case(
            "POST",
            lambda t: play.access_chase(t) + "/checks",
            play.kept,
            owner_and_gm(201) | AGAIN_409,
        ),
        "recovery": Case(
            "POST",
            lambda t: f"/v1/scenes/{t.scene()}/recoveries",
            lambda t: {"character_id": t.character(t.player)},
            owner_and_gm(201) | AGAIN_409,  # WCBH-34 ruling: once per character per scene
        ),
        "shake off": Case(
            "POST",
            lambda t: play.access_stunned_hero(t) + "/shake-offs",
            lambda t: {**play.kept(t), "request": {"trait": "Will", "difficulty": 100}},
            # the owner's difficulty waits for the GM (player_modifiers: gm_approval)
            owner_and_gm(201) | {"owner": 202},
        ),
        "extend effect": Case(
            "POST",
            lambda t: play.access_extension(t) + "/effect-extensions",
            play.kept,
            owner_and_gm(200) | AGAIN_409,  # WCBH-38: once per scene per effect
        ),
        "back in the fight": Case(
            "POST",
            lambda t: play.access_stunned_hero(t) + "/back-in-the-fight",
            lambda t: {**play.kept(t), "use": "drop_effect"},
            owner_and_gm(200) | AGAIN_409,  # WCBH-39: once per scene
        ),
    }
)


# ---- the fight (WCBH-25, 40..47): systems/wcbh/docs/fight.md; the owner acts first, the GM repeats -------

ONE_ACTION = {"gm": 409}  # WCBH-25: the owner's action (or use) leaves none for the GM's repeat
CASES.update(
    {
        "declare actions": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/declarations",
            lambda t: {"character_id": fight.stage(t)["hero"], "actions": 2},
            owner_and_gm(200),
        ),
        "move": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/moves",
            lambda t: {"character_id": fight.stage(t)["hero"]},
            owner_and_gm(200) | ONE_ACTION,
        ),
        "page state": Case(
            "GET",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/page-states/{fight.stage(t)['hero']}",
            no_body,
            reads(),
        ),
        "attack": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/attacks",
            lambda t: fight.hero_on_villain(t, trait="Lightning Bolt"),
            owner_and_gm(201) | ONE_ACTION,
        ),
        "grapple": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/grapples",
            fight.hero_on_villain,
            owner_and_gm(201) | ONE_ACTION,
        ),
        "maneuver": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/maneuvers",
            lambda t: fight.hero_on_villain(t, maneuver="feint"),
            owner_and_gm(201) | ONE_ACTION,
        ),
        "ambush": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/ambushes",
            lambda t: {
                "ambushers": [{"character_id": fight.stage(t)["hero"]}],
                "target_ids": [fight.stage(t)["villain"]],
            },
            owner_and_gm(201),  # an ambush is no action of the page (ruling)
        ),
        "area attack": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/area-attacks",
            lambda t: {
                "attacker_id": fight.stage(t)["hero"],
                "trait": "Lightning Bolt",
                "targets": [{"target_id": fight.stage(t)["villain"]}],
            },
            owner_and_gm(201) | ONE_ACTION,
        ),
        "team attack": Case(
            "POST",
            lambda t: f"/v1/scenes/{fight.stage(t)['scene']}/team-attacks",
            lambda t: {
                "target_id": fight.stage(t)["villain"],
                "attackers": [
                    {"attacker_id": fight.stage(t)["hero"], "trait": "Lightning Bolt"},
                    {"attacker_id": fight.stage(t)["sidekick"], "trait": "Strength"},
                ],
            },
            owner_and_gm(201) | ONE_ACTION,  # WCBH-47: once per fight per character
        ),
        "knockback": Case(
            "POST", fight.knockback_path, lambda t: {}, owner_and_gm(200) | ONE_ACTION
        ),
        "redirect": Case("POST", fight.redirect_path, lambda t: {}, owner_and_gm(200) | ONE_ACTION),
    }
)


def token_of(table: Table, role: str) -> dict[str, str]:
    tokens = {
        "none": None,
        "foreign": table.foreign,
        "observer": table.observer,
        "other_player": table.other_player,
        "owner": table.player,
        "gm": table.gm,
    }
    token = tokens[role]
    return bearer(token) if token else {}


# ---- Nimble encounters (NB-1..19): systems/nimble/docs/encounters.md; the owner acts first, the GM repeats


def _nb(t: Table, what: str, **kw: bool) -> str:
    return f"/v1/scenes/{nimble_stage(t, **kw)['scene']}/nimble/{what}"


CASES.update(
    {
        "nimble encounter state": Case(
            "GET", lambda t: _nb(t, "encounter"), no_body, reads(), "nimble"
        ),
        "nimble start encounter": Case(
            "POST",
            lambda t: _nb(t, "encounter", started=False),
            lambda t: {"order": [nimble_stage(t, started=False)["hero"]]},
            gm_only(201),
            "nimble",
        ),
        "nimble end encounter": Case(
            "POST", lambda t: _nb(t, "encounter/end"), no_body, gm_only(200), "nimble"
        ),
        "nimble end turn": Case(
            "POST",
            lambda t: _nb(t, "turns/end"),
            lambda t: {"character_id": nimble_stage(t)["hero"]},
            owner_and_gm(200) | {"gm": 409},  # NB-4: then it is the ally's turn
            "nimble",
        ),
        "nimble swap": Case(
            "POST",
            lambda t: _nb(t, "swaps"),
            lambda t: {"first_id": nimble_stage(t)["hero"], "second_id": nimble_stage(t)["ally"]},
            gm_only(200),
            "nimble",
        ),
        "nimble grant": Case(
            "POST",
            lambda t: _nb(t, "grants"),
            lambda t: {"character_id": nimble_stage(t)["hero"], "actions": 1, "reason": "Haste"},
            gm_only(200),
            "nimble",
        ),
        "nimble action": Case(
            "POST",
            lambda t: _nb(t, "actions"),
            lambda t: {"character_id": nimble_stage(t)["hero"], "action": "Search"},
            owner_and_gm(201),
            "nimble",
        ),
        "nimble move": Case(
            "POST",
            lambda t: _nb(t, "moves"),
            lambda t: {"character_id": nimble_stage(t)["hero"], "squares": 3},
            owner_and_gm(201),
            "nimble",
        ),
        "nimble attack": Case(
            "POST",
            lambda t: _nb(t, "attacks"),
            lambda t: {
                "attacker_id": nimble_stage(t)["hero"],
                "target_id": nimble_stage(t)["goblin"],
                "attack": "Greataxe",
            },
            owner_and_gm(201),
            "nimble",
        ),
        "nimble assess": Case(
            "POST",
            lambda t: _nb(t, "assessments"),
            lambda t: {
                "character_id": nimble_stage(t)["hero"],
                "skill": "Might",
                "option": "question",
            },
            owner_and_gm(201) | {"gm": 409},  # NB-14: a skill Assesses once per encounter
            "nimble",
        ),
        "nimble help": Case(
            "POST",
            lambda t: _nb(t, "help", assessed=True),
            lambda t: {
                "helper_id": nimble_stage(t, assessed=True)["hero"],
                "roll_id": nimble_stage(t, assessed=True)["roll"],
            },
            owner_and_gm(201) | {"gm": 409},  # NB-19: one Help per roll
            "nimble",
        ),
        "nimble resolve held attack": Case(
            "POST",
            lambda t: (
                f"/v1/scenes/{held_stage(t)['scene']}/nimble/attacks/{held_stage(t)['roll']}/resolve"
            ),
            lambda t: {"defend": True},
            owner_and_gm(200) | {"gm": 409},  # NB-15: the owner settled it; nothing is held now
            "nimble",
        ),
        "nimble encounter grapple": Case(
            "POST",
            lambda t: f"/v1/scenes/{grapple_stage(t)['scene']}/nimble/grapples",
            lambda t: {
                "grappler_id": grapple_stage(t)["hero"],
                "target_id": grapple_stage(t)["goblin"],
                "size": "same",
            },
            owner_and_gm(201) | {"gm": 409},  # NB-7: the owner spent the hero's last action
            "nimble",
        ),
    }
)


# ---- Nimble health (NB-20..26): systems/nimble/docs/health.md; the owner acts first, the GM repeats ------

NB = "nimble"
CASES.update(
    {
        "nimble health": Case("GET", nh.path(""), no_body, reads(), NB),
        "nimble attack edge": Case(
            "GET",
            lambda t: f"{nh.path('attack-edge')(t)}?target_id={nh.stage(t)['monster']}",
            no_body,
            reads(),
            NB,
        ),
        "nimble damage": Case("POST", nh.path("damage"), nh.in_scene(amount=3), gm_only(200), NB),
        "nimble heal": Case("POST", nh.path("heal"), lambda t: {"amount": 2}, gm_only(200), NB),
        "nimble temp hp": Case(
            "POST", nh.path("temp-hp"), lambda t: {"amount": 2}, gm_only(200), NB
        ),
        "nimble safe rest": Case("POST", nh.path("safe-rest"), no_body, gm_only(200), NB),
        "nimble restraint": Case(
            "POST", nh.path("restraint"), nh.in_scene(by="roots"), gm_only(200), NB
        ),
        "nimble dying save": Case(
            "POST",
            nh.path("dying-save", "dying"),
            nh.in_scene("dying"),
            owner_and_gm(201),
            NB,
        ),
        "nimble grapple": Case(
            "POST",
            nh.path("grapples"),
            lambda t: {
                "scene_id": nh.stage(t)["scene"],
                "target_id": nh.stage(t)["monster"],
                "size": "same",
            },
            owner_and_gm(201) | {"gm": 409},  # already grappling
            NB,
        ),
        "nimble release": Case(
            "POST",
            nh.path("release", "grappling"),
            nh.in_scene("grappling"),
            owner_and_gm(200) | {"gm": 409},  # released already
            NB,
        ),
        "nimble escape": Case(
            "POST",
            nh.path("escape", "restrained"),
            nh.in_scene("restrained"),
            owner_and_gm(201) | {"gm": 409},  # escaped already
            NB,
        ),
        "nimble concentrate": Case(
            "POST",
            nh.path("concentration"),
            nh.in_scene(effect="Bless"),
            owner_and_gm(200) | {"gm": 409},  # one effect at a time
            NB,
        ),
        "nimble end concentration": Case(
            "POST",
            nh.path("concentration/end", "concentrating"),
            nh.in_scene("concentrating"),
            owner_and_gm(200) | {"gm": 409},
            NB,
        ),
        "nimble concentration save": Case(
            "POST",
            nh.path("concentration/save", "save_due"),
            nh.in_scene("save_due"),
            owner_and_gm(201) | {"gm": 409},  # the one save due is made
            NB,
        ),
        "nimble cover": Case(
            "POST",
            nh.path("cover"),
            nh.in_scene(level="partial"),
            owner_and_gm(200) | {"gm": 409},  # no change
            NB,
        ),
        "nimble hide": Case(
            "POST",
            nh.path("hide", "cover"),
            nh.in_scene("cover"),
            owner_and_gm(201) | {"gm": 409},  # hidden already
            NB,
        ),
    }
)


@pytest.mark.parametrize("name", list(CASES))
def test_each_role_gets_exactly_its_status(table: Table, name: str) -> None:
    case = CASES[name]
    if case.ruleset != table.ruleset or case.settings:
        table = Table(table.client, case.ruleset, case.settings)
    path, body = case.path(table), case.body(table)
    seen: dict[str, int] = {}
    # Every role's member joined before any position is read: a join is a write.
    headers = {role: token_of(table, role) for role in ROLES}
    # The log's position is read once after each run of refusals, before the request expected to
    # succeed next (and at the end): a refusal that wrote anything moved it.
    before = table.position()
    refused: list[str] = []
    for role in ROLES:
        if refused and case.expect[role] < 400:
            assert_nothing_written(table, before, refused, seen, case)
            refused = []
        response = table.client.request(case.method, path, json=body, headers=headers[role])
        seen[role] = response.status_code
        if response.status_code >= 400:
            assert "error" in response.json(), response.text
            refused.append(role)
        else:
            before = table.position()
    if refused:
        assert_nothing_written(table, before, refused, seen, case)
    assert seen == case.expect


def assert_nothing_written(
    table: Table, before: int, refused: list[str], seen: dict[str, int], case: Case
) -> None:
    if table.position() != before:
        # the statuses first: a role that succeeded where it should not is the likelier fault
        assert seen == {role: case.expect[role] for role in seen}
        raise AssertionError(f"{refused} were refused but something was written")


def test_a_token_with_a_wrong_secret_is_unauthenticated(table: Table) -> None:
    forged = table.gm[:-4] + ("AAAA" if not table.gm.endswith("AAAA") else "BBBB")
    response = table.client.get(f"/v1/campaigns/{table.campaign_id}", headers=bearer(forged))
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"


@pytest.mark.parametrize(
    "header", ["Bearer", "Basic abc", "Bearer not-a-token", "Bearer chr_x_y_z"]
)
def test_malformed_authorization_is_unauthenticated(table: Table, header: str) -> None:
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}", headers={"Authorization": header}
    )
    assert response.status_code == 401


def test_creating_a_campaign_and_reading_rulesets_need_no_token(table: Table) -> None:
    assert (
        table.client.post("/v1/campaigns", json={"name": "A", "ruleset": "nimble"}).status_code
        == 201
    )
    assert table.client.get("/v1/rulesets").status_code == 200
    assert table.client.get("/health").status_code == 200


def test_a_player_cannot_create_a_character_for_another_player(table: Table) -> None:
    body = {
        "name": "Nova",
        "side": "hero",
        "owner_member_id": table.member_id(table.other_player),
        "sheet": table.example_sheet,
    }
    response = table.client.post(
        f"/v1/campaigns/{table.campaign_id}/characters", json=body, headers=bearer(table.player)
    )
    assert response.status_code == 403


def test_a_player_s_character_defaults_to_its_own(table: Table) -> None:
    character_id = table.character(table.player)
    assert table.get(f"/v1/characters/{character_id}")["owner_member_id"] == table.player_id


def test_authentication_comes_before_waiting_for_min_position(table: Table) -> None:
    story_id = table.story()
    position = table.position()
    response = table.client.get(f"/v1/stories/{story_id}?min_position={position}")
    assert response.status_code == 401
