"""The Views projection: turns each event of the log into view rows, steps and a log entry."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

import systems
from domain.export import entry, ids_in
from domain.rulesets import get_ruleset
from projections.store import Changes, ViewStore, ViewTransaction
from projections.translation import (
    SystemTranslation,
    Translation,
    in_scene,
    refresh_derived,
    system_state,
)
from projections.webhook_views import webhook

Handler = Callable[[Translation], None]

# What each installed game system's own events change (systems/<name>/views.py: TRANSLATIONS), and
# what it keeps in step on a character's view after any event of it (`after_character`).
SYSTEM_TRANSLATIONS: dict[tuple[str, str], SystemTranslation] = {
    key: translate
    for views in systems.parts("views")
    for key, translate in views.TRANSLATIONS.items()
}
AFTER_CHARACTER = [
    views.after_character for views in systems.parts("views") if hasattr(views, "after_character")
]


Page = Sequence[tuple[Any, Tracking]]


class Views(Projection[ViewStore]):
    """All read models of all campaigns, kept by one runner with one tracking position."""

    name = "views"

    def process_page(self, page: Page) -> None:
        """A page of events in one transaction, with the tracking row of its last: one commit
        (and one round of writes) for the page, which is what makes catching up quick."""
        with self.view.transaction() as tx:
            apply_page(tx, page)

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_page([(domain_event, tracking)])


def apply_page(tx: ViewTransaction, page: Page) -> None:
    tx.prefetch({doc_id for event, _ in page for doc_id in ids_named(event)})
    for event, tracking in page:
        tx.apply(translate(tx, event, tracking.notification_id), tracking)


def ids_named(event: Any) -> Iterator[str]:
    """The ids of the documents an event's translation is likely to read: its own, the ids among
    its attributes, and the `..._id` fields of a mapping it carries (a roll's record). A miss
    costs only a query of its own (`ViewTransaction.doc`)."""
    yield str(event.originator_id)
    for value in vars(event).values():
        if isinstance(value, UUID):
            yield str(value)
        elif isinstance(value, Mapping):
            for key, inner in value.items():
                if isinstance(key, str) and key.endswith("_id") and isinstance(inner, str):
                    yield inner


def translate(view: ViewTransaction, event: Any, position: int) -> Changes:
    t = Translation(view, event, position)
    handler = HANDLERS.get(t.aggregate)
    if handler is None:  # idempotency records and anything without a campaign
        return t.changes
    handler(t)
    if t.changes.campaign_id is not None:
        t.changes.log = entry(position, event)
        # what each step is about, so that a reader's replay leaves out what it may not see
        about = sorted(ids_in(t.changes.log))
        for step in t.changes.steps:
            step["about"] = about
    return t.changes


# ---- campaigns ---------------------------------------------------------------------------------


def campaign(t: Translation) -> None:
    e = t.event
    if t.name == "Created":
        doc = {
            "id": t.id,
            "campaign_id": t.id,
            "name": e.name,
            "ruleset": e.ruleset,
            "settings": e.settings,
            "members": [{"id": str(e.gm_member_id), "name": e.gm_name, "role": "gm"}],
        }
        t.save("campaign", doc)
        t.step(f"Campaign “{e.name}” created ({get_ruleset(e.ruleset).name})", None, doc)
    elif t.name == "MemberJoined":
        before, doc = t.edit("campaign")
        doc["members"].append({"id": str(e.member_id), "name": e.name, "role": e.role})
        t.record("campaign", doc, before, f"{e.name} joined as {e.role}")
    elif t.name == "CharacterEnrolled":
        doc = t.load("campaign", t.id)
        doc.setdefault("character_ids", []).append(str(e.character_id))
        t.save("campaign", doc)
    elif t.name in CREDENTIAL_EVENTS:
        _credentials(t)
    t.changes.campaign_id = t.id


CREDENTIAL_EVENTS = {
    "TokenRotated": "{name}'s token was rotated (the old one no longer works)",
    "TokenRevoked": "{name}'s token was revoked",
    "MemberRemoved": "{name} was removed from the campaign",
}


def _credentials(t: Translation) -> None:
    """Token rotations, revocations and removals, told without any secret (no hash)."""
    before, doc = t.edit("campaign")
    member_id = str(t.event.member_id)
    name = next((m["name"] for m in before["members"] if m["id"] == member_id), member_id)
    if t.name == "MemberRemoved":
        doc["members"] = [m for m in doc["members"] if m["id"] != member_id]
        t.save("campaign", doc)
    t.step(CREDENTIAL_EVENTS[t.name].format(name=name), before, doc)


# ---- characters --------------------------------------------------------------------------------


SHEET_EVENTS = ("SheetChanged", "SheetChangeProposed", "SheetChangeDeclined", "OwnerReleased")


def _sheet(t: Translation, doc: dict[str, Any]) -> str:
    """Sheet changes with who (the step's actor) and why; proposals a player makes for the GM."""
    e = t.event
    changes = doc.setdefault("sheet_changes", {})
    reason = getattr(e, "reason", None)
    if t.name == "SheetChanged":
        doc["sheet"] = e.sheet
        refresh_derived(t, doc)
        for name, level in (getattr(e, "resources", None) or {}).items():
            doc["resources"][name]["current"] = level  # kept, never refilled
        change_id = getattr(e, "change_id", None)
        if change_id is not None:
            changes[str(change_id)]["status"] = "approved"
            return f"{doc['name']}'s sheet changed, as proposed and approved ({reason})"
        return f"{doc['name']}'s sheet changed" + (f" ({reason})" if reason else "")
    if t.name == "SheetChangeProposed":
        if e.replaces is not None:
            changes[str(e.replaces)]["status"] = "replaced"
        changes[str(e.change_id)] = {
            "sheet": e.sheet,
            "reason": e.reason,
            "proposed_by": str(e.proposed_by),
            "status": "pending",
            "note": None,
        }
        return f"A sheet change for {doc['name']} awaits the GM ({e.reason})"
    if t.name == "SheetChangeDeclined":
        changes[str(e.change_id)].update(status="declined", note=e.note)
        return f"The GM declined a sheet change for {doc['name']}" + (
            f" ({e.note})" if e.note else ""
        )
    doc["owner_member_id"] = None
    return f"{doc['name']} passes to the GM ({e.reason})"


def character(t: Translation) -> None:
    e = t.event
    if t.name == "Created":
        before, doc = t.new(
            name=e.name,
            side=e.side,
            owner_member_id=str(e.owner_member_id) if e.owner_member_id else None,
            sheet=e.sheet,
            status="active",
            conditions=[],
            sheet_changes={},
        )
        refresh_derived(t, doc)
        for name, level in (getattr(e, "resources", None) or {}).items():
            if name in doc["resources"]:
                doc["resources"][name]["current"] = level
        text = f"{e.name} ({e.side}) joined the campaign"
    else:
        before, doc = t.edit("character")
        if t.name in SHEET_EVENTS:
            text = _sheet(t, doc)
        elif t.name == "ResourceSpent":
            spec = doc["resources"].setdefault(
                e.resource, {"max": None, "start": 0, "refresh": None, "current": 0}
            )
            spec["current"] = spec["current"] - e.amount
            text = f"{doc['name']} spent {e.amount} {e.resource} ({e.reason})"
        elif t.name in ("EffectApplied", "EffectsTicked", "EffectsEnded"):
            if t.name == "EffectApplied":
                effects = {c["name"]: c for c in doc["conditions"]}
                effects[e.name] = {"name": e.name, "pages": e.pages, "whole_scene": e.whole_scene}
                # effects first, then the fight's conditions (they have a kind), as the API lists
                doc["conditions"] = sorted(effects.values(), key=lambda c: "kind" in c)
                if e.whole_scene:
                    doc["status"] = "defeated"
                text = f"{doc['name']}: {e.name} for {e.pages} page(s)" + (
                    ", defeated until the scene ends" if e.whole_scene else ""
                )
            elif t.name == "EffectsTicked":
                doc["conditions"] = [{"name": n, **v} for n, v in e.effects.items()] + [
                    c for c in doc["conditions"] if "kind" in c
                ]
                text = f"{doc['name']}'s effects tick down"
            else:
                doc["conditions"] = [c for c in doc["conditions"] if "kind" in c]
                if doc["status"] == "defeated" and doc["resources"]["health"]["current"] > 0:
                    doc["status"] = "active"
                text = f"{doc['name']}'s effects end with the scene"
        elif t.name in ("ConditionImposed", "ConditionsLifted"):  # WCBH-40, 41 (fight)
            if t.name == "ConditionImposed":
                kept = [c for c in doc["conditions"] if c["name"] != e.name]
                condition = {"name": e.name, **e.condition, "scene_id": str(e.scene_id)}
                doc["conditions"] = sorted([*kept, condition], key=lambda c: "kind" in c)
                text = f"{doc['name']}: {e.name.replace('_', ' ')} ({e.condition.get('rule')})"
            else:
                doc["conditions"] = [
                    c for c in doc["conditions"] if not ("kind" in c and c["name"] in e.names)
                ]
                text = f"{doc['name']}: {', '.join(e.names)} ended ({e.reason})"
        elif t.name == "Hit":
            doc["resources"]["health"]["current"] = e.health
            if e.defeated:
                doc["status"] = "defeated"
            text = f"{doc['name']} is hit: Health {e.health}" + (", defeated" if e.defeated else "")
        elif t.name == "HitRevised":  # WCBH-20b, 20c: Resolve re-decided an attack's hit
            doc["resources"]["health"]["current"] = e.health
            if e.defeated:
                doc["status"] = "defeated"
            elif e.revived and doc["status"] == "defeated":
                doc["status"] = "active"
            text = f"{doc['name']}'s hit is decided again: Health {e.health}" + (
                ", defeated" if e.defeated else ", back up" if e.revived else ""
            )
        elif t.name == "ResourceAdjusted":
            doc["resources"][e.resource]["current"] += e.change
            verb = "gained" if e.change > 0 else "lost"
            text = f"{doc['name']} {verb} {abs(e.change)} {e.resource} ({e.reason})"
        elif t.name == "ResourcesRefreshed":
            for name, level in e.levels.items():
                doc["resources"][name]["current"] = level
            levels = ", ".join(f"{name} {level}" for name, level in e.levels.items())
            text = f"{doc['name']}: {levels} restored (new game {e.boundary})"
            if e.boundary == "issue":
                issue_doc = t.load("issue", str(e.boundary_id))
                issue_doc["refreshed"].append(
                    {"character_id": t.id, "name": doc["name"], "levels": e.levels}
                )
                t.save("issue", issue_doc)
                t.changes.scopes = {"story_id": issue_doc["story_id"], "issue_id": issue_doc["id"]}
        elif t.name == "DamageTaken":  # damage a fight left (Class D CD-11, 12, 15, 20; nWoD)
            doc["resources"][e.resource]["current"] = e.level
            if e.status is not None:
                doc["status"] = e.status
            out = f", {e.status}" if e.status else ""
            text = f"{doc['name']} takes damage: {e.resource.capitalize()} {e.level}{out}"
        elif t.name == "StatusChanged":  # the status follows the levels (Class D, CD-11)
            doc["status"] = e.status
            text = f"{doc['name']} is {e.status} again ({e.reason}; {e.rule})"
        elif ("character", t.name) in SYSTEM_TRANSLATIONS:
            text = SYSTEM_TRANSLATIONS["character", t.name](t, doc)
        else:
            text = f"{doc['name']}: {t.name}"
    for keep_in_step in AFTER_CHARACTER:  # e.g. Nimble's `nimble` block follows the doc
        keep_in_step(t, doc)
    scene_id = getattr(e, "scene_id", None)
    if scene_id is not None and not t.changes.scopes:  # hits, damage, effects… in a scene
        in_scene(t, scene_id)
    t.record("character", doc, before, text)


# ---- stories, game Issues, scenes ----------------------------------------------------------------


def story(t: Translation) -> None:
    e = t.event
    if t.name == "Started":
        before, doc = t.new(
            title=e.title,
            status="running",
            running_issue_id=None,
            issue_ids=[],
            once_per_story_uses={},
        )
        text: str | None = f"Story “{e.title}” started"
    else:
        before, doc = t.edit("story")
        text = None  # game Issue bookkeeping: the game Issue's own events tell it
        if t.name == "GameIssueBegan":
            doc["running_issue_id"] = str(e.issue_id)
            doc["issue_ids"].append(str(e.issue_id))
        elif t.name == "GameIssueFinished":
            doc["running_issue_id"] = None
        elif t.name == "Completed":
            doc["status"] = "completed"
            text = f"Story “{doc['title']}” completed"
        elif t.name == "OnceUsed":
            doc["once_per_story_uses"].setdefault(e.key, []).append(str(e.character_id))
    t.record("story", doc, before, text)
    t.changes.scopes = {"story_id": doc["id"]}


def issue(t: Translation) -> None:
    e = t.event
    if t.name == "Started":
        before, doc = t.new(
            story_id=str(e.story_id),
            title=e.title,
            number=e.number,
            status="running",
            scene_ids=[],
            open_scene_ids=[],
            refreshed=[],  # what refreshed at its start: characters' resources (WCBH-17)
            pools=dict(getattr(e, "pools", None) or {}),  # the GM's pools, e.g. adversity (WCBH-21)
        )
        text: str | None = f"Game Issue #{e.number} “{e.title}” started"
    else:
        before, doc = t.edit("issue")
        text = None
        if t.name == "SceneAdded":
            doc["scene_ids"].append(str(e.scene_id))
            doc["open_scene_ids"].append(str(e.scene_id))
        elif t.name == "SceneFinished":
            doc["open_scene_ids"].remove(str(e.scene_id))
        elif t.name == "Ended":
            doc["status"] = "ended"
            doc["open_scene_ids"] = []
            text = f"Game Issue #{doc['number']} “{doc['title']}” ended"
        elif t.name == "PoolChanged":
            doc["pools"][e.pool] += e.change
            verb = "gained" if e.change > 0 else "spent"
            text = (
                f"The GM {verb} {abs(e.change)} {e.pool} ({e.reason}); {doc['pools'][e.pool]} left"
            )
        elif t.name == "VillainousDeedDone":  # Resolve area (WCBH-21)
            doc["villainous_deed"] = {
                "villain_id": str(e.villain_id),
                "description": e.description,
                "scene_id": str(e.scene_id) if e.scene_id else None,
            }
            villain = t.load("character", str(e.villain_id))["name"]
            text = f"{villain}'s villainous deed, unstoppable: {e.description}"
        elif ("issue", t.name) in SYSTEM_TRANSLATIONS:
            text = SYSTEM_TRANSLATIONS["issue", t.name](t, doc)
    t.record("issue", doc, before, text)
    t.changes.scopes = {"story_id": doc["story_id"], "issue_id": doc["id"]}


def scene(t: Translation) -> None:
    e = t.event
    if t.name == "Opened":
        before, doc = t.new(
            story_id=str(e.story_id),
            issue_id=str(e.issue_id),
            title=e.title,
            status="open",
            page=1,
            seeds=[
                {"number": 0, "commitment": e.seed_commitment, "revealed_seed": None, "rolls": 0}
            ],
            participants=[],
            rolls=[],
            order_of_action=None,
            once_per_scene_uses={},
        )
        text = f"Scene “{e.title}” opened (seed commitment {e.seed_commitment[:12]}…)"
    else:
        before, doc = t.edit("scene")
        if t.name == "PageAdvanced":
            doc["page"] = e.page
            text = f"Page {e.page} of “{doc['title']}”"
        elif t.name in ("CombatantsJoined", "ActsFirst"):
            if t.name == "CombatantsJoined":
                doc.setdefault("combatants", []).extend(str(c) for c in e.character_ids)
                text = f"{len(e.character_ids)} join the fight in “{doc['title']}”"
            else:
                doc.setdefault("acting_first", []).append(str(e.character_id))
                name = t.load("character", str(e.character_id))["name"]
                text = f"{name} spends Resolve to act first from now on"
            doc["order_of_action"] = _order(t, doc)
        elif t.name == "AttackMade":
            text = ""  # the attack's roll tells it
        elif t.name == "OnceUsed":
            doc["once_per_scene_uses"].setdefault(e.key, []).append(str(e.character_id))
            text = f"A {e.key.replace('_', ' ')} is declared in “{doc['title']}”"
        elif t.name == "RollMade":
            doc["seeds"][e.epoch]["rolls"] = e.nonce + 1
            text = ""
        elif t.name == "SeedRotated":
            doc["seeds"][-1]["revealed_seed"] = e.revealed_seed
            doc["seeds"].append(
                {
                    "number": len(doc["seeds"]),
                    "commitment": e.new_commitment,
                    "revealed_seed": None,
                    "rolls": 0,
                }
            )
            text = f"The GM rotated the dice seed of “{doc['title']}” (old seed revealed)"
        elif t.name == "Closed":
            doc["status"] = "closed"
            doc["seeds"][-1]["revealed_seed"] = e.revealed_seed
            text = f"Scene “{doc['title']}” closed; its dice seed is revealed"
        elif t.name == "StateChanged":  # a game system's own state (Ruleset.scene_states)
            text = system_state(t, doc, t.event.ruleset, t.event.area)
        elif ("scene", t.name) in SYSTEM_TRANSLATIONS:
            text = SYSTEM_TRANSLATIONS["scene", t.name](t, doc)
        else:
            text = f"“{doc['title']}”: {t.name}"
    t.record("scene", doc, before, text)
    t.changes.scopes = {
        "story_id": doc["story_id"],
        "issue_id": doc["issue_id"],
        "scene_id": doc["id"],
    }


def _order(t: Translation, scene_doc: dict[str, Any]) -> list[list[str]] | None:
    campaign_doc = t.load("campaign", scene_doc["campaign_id"])
    rules = get_ruleset(campaign_doc["ruleset"])
    settings = rules.parse_settings(campaign_doc["settings"])
    fighters = []
    for character_id in scene_doc.get("combatants", []):
        character = t.load("character", character_id)
        sheet = rules.parse_sheet(character["sheet"], settings, side=character["side"])
        fighters.append((character_id, character["side"], sheet))
    return rules.order_of_action(fighters, set(scene_doc.get("acting_first", [])), settings)


# ---- missions ----------------------------------------------------------------------------------


def mission(t: Translation) -> None:
    # Missions area (CD-21..25): counters, zones and rests, told the way the mission aggregate keeps them.
    from domain.aggregates.mission import initial_counters

    e = t.event
    scene_id: str | None = None
    if t.name == "Created":
        before, doc = t.new(
            title=e.title,
            scene_id=str(e.scene_id) if e.scene_id else None,
            story_id=str(e.story_id) if e.story_id else None,
            status="active",
            outcome=None,
            counters=initial_counters(),
            rest_count=0,
            rests=[],
        )
        text = f"Mission “{e.title}” begins"
    else:
        before, doc = t.edit("mission")
        title = f"Mission “{doc['title']}”"
        counters = doc.setdefault("counters", initial_counters()) or initial_counters()
        doc["counters"] = counters
        if t.name == "Ended":
            doc["status"], doc["outcome"] = "ended", e.outcome
            text = f"{title} ended: {e.outcome.replace('_', ' ')}"
        elif t.name == "CounterDefined":
            zones = [dict(z) for z in e.zones]
            counters[e.name] = {
                "name": e.name,
                "label": e.label,
                "kind": "custom",
                "rule": "CD-25",
                "value": 0,
                "maximum": e.maximum,
                "zones": zones,
                "zone": zones[0]["name"] if zones else None,
                "history": [],
            }
            shown = ", ".join(f"{z['name']} from {z['start']}" for z in zones) or "no zones"
            text = f"{title}: the GM defines the counter “{e.label}” (0–{e.maximum}; {shown})"
        elif t.name == "CounterChanged":
            counter = counters[e.counter]
            counter["value"] = e.value
            clamped = e.applied != e.change
            counter["history"].append(
                {
                    "kind": "change",
                    "change": e.change,
                    "applied": e.applied,
                    "clamped": clamped,
                    "value": e.value,
                    "reason": e.reason,
                    "code": e.code,
                }
            )
            verb = "raised" if e.change > 0 else "lowered"
            cut = f" (clamped: {e.applied:+d} applied)" if clamped else ""
            why = f"{e.code.replace('_', ' ')}: {e.reason}" if e.code else e.reason
            text = (
                f"{title}: {counter['label']} {verb} by {abs(e.change)}{cut} to "
                f"{e.value}/{counter['maximum']} ({why})"
            )
        elif t.name == "ZoneChanged":
            counter = counters[e.counter]
            counter["zone"] = e.to_zone
            counter["history"].append(
                {"kind": "zone", "from_zone": e.from_zone, "to_zone": e.to_zone, "value": e.value}
            )
            text = (
                f"{title}: {counter['label']} moves from {e.from_zone or 'no zone'} into "
                f"{e.to_zone or 'no zone'} at {e.value}"
            )
        elif t.name == "Rested":
            rest = {
                "number": e.number,
                "scene_id": str(e.scene_id) if e.scene_id else None,
                "roll_id": str(e.roll_id) if e.roll_id else None,
                "participants": e.participants,
            }
            doc["rests"] = [*doc.get("rests", []), rest]
            doc["rest_count"] = e.number
            scene_id = rest["scene_id"]
            who = "; ".join(
                f"{p['name']} +{p['health']['gain']} Health "
                f"({p['health']['after']}/{p['health']['max']}), +{p['will']['gain']} Will "
                f"({p['will']['after']}/{p['will']['max']})"
                for p in e.participants
            )
            text = (
                f"{title}: rest {e.number} (CD-22): {who or 'nobody rolled, the rest is counted'}"
            )
        else:
            text = f"{title}: {t.name}"
    t.record("mission", doc, before, text)
    scene_id = doc["scene_id"] or scene_id
    t.changes.scopes = {"story_id": doc["story_id"], "scene_id": scene_id}
    if scene_id:
        # A scene's mission is part of that scene's game Issue and story: their replays tell it too.
        scene_doc = t.load("scene", scene_id)
        t.changes.scopes["story_id"] = doc["story_id"] or scene_doc["story_id"]
        t.changes.scopes["issue_id"] = scene_doc["issue_id"]


# ---- rolls -------------------------------------------------------------------------------------


def _describe_roll(record: dict[str, Any], who: str) -> str:
    result = record["result"]
    what = record.get("follow_up") or record["check"]
    subject = result.get("trait") or result.get("stat") or result.get("affinity")
    shown = ("total", "successes", "damage", "net", "outcome", "critical", "hit")
    detail = ", ".join(f"{k} {result[k]}" for k in shown if result.get(k) not in (None, ""))
    faces = " ".join(str(f["face"]) for f in record["faces"] if f["kept"])
    return f"{who} rolled {what}{f' ({subject})' if subject else ''} [{faces}]: {detail}"


def roll(t: Translation) -> None:
    e = t.event
    if t.name == "FollowedUp":
        roll_followed_up(t)
        return
    if t.name == "Revealed":  # a secret roll shows whole (the campaign's RollRevealed tells it)
        t.changes.campaign_id = t.load("roll", t.id)["campaign_id"]
        return
    record = e.record
    doc = {
        "id": t.id,
        "campaign_id": record["campaign_id"],
        "scene_id": record["scene_id"],
        "sequence": record["sequence"],
        "record": record,
        "score": e.score,
        "success": e.success,
        "odds": e.odds,
    }
    t.save("roll", doc, ref=record.get("character_id"))
    scene_before = t.load("scene", record["scene_id"])
    scene_doc = copy.deepcopy(scene_before)
    scene_doc["rolls"].append(t.id)
    if record.get("character_id") and record["character_id"] not in scene_doc["participants"]:
        scene_doc["participants"].append(record["character_id"])
    t.save("scene", scene_doc)
    who = "The GM"
    if record.get("character_id"):
        who = t.load("character", record["character_id"])["name"]
    t.changes.campaign_id = record["campaign_id"]
    t.changes.scopes = {
        "story_id": scene_doc["story_id"],
        "issue_id": scene_doc["issue_id"],
        "scene_id": scene_doc["id"],
    }
    t.step(_describe_roll(record, who), {}, {"result": record["result"], "faces": record["faces"]})


def roll_followed_up(t: Translation) -> None:
    """The follow-up's own Roll.Recorded tells the story; this notes it on the original roll."""
    doc = t.load("roll", t.id)
    doc.setdefault("follow_ups", []).append(
        {"roll_id": str(t.event.follow_up_id), "name": t.event.name, "success": t.event.success}
    )
    t.save("roll", doc, ref=doc["record"].get("character_id"))
    t.changes.campaign_id = doc["campaign_id"]


def roll_chain(t: Translation) -> None:
    if t.name == "Started":
        t.save("chain", {"id": t.id, "campaign_id": str(t.event.campaign_id)})
        t.changes.campaign_id = str(t.event.campaign_id)
    else:
        t.changes.campaign_id = t.load("chain", t.id)["campaign_id"]


def roll_request(t: Translation) -> None:
    """A roll request and a scene's list of them: only their campaign's log shows them (the GM's
    list reads the aggregates)."""
    if t.name in ("Requested", "Started"):
        t.save("roll_request", {"id": t.id, "campaign_id": str(t.event.campaign_id)})
        t.changes.campaign_id = str(t.event.campaign_id)
    else:
        t.changes.campaign_id = t.load("roll_request", t.id)["campaign_id"]


HANDLERS: dict[str, Handler] = {
    "Campaign": campaign,
    "Character": character,
    "Story": story,
    "Issue": issue,
    "Scene": scene,
    "Mission": mission,
    "Roll": roll,
    "RollChain": roll_chain,
    "RollRequest": roll_request,
    "SceneRollRequests": roll_request,
    "Webhook": webhook,
}
