"""The examples of docs/events.md, taken from a real session: one log entry per event type.

    python docs/event_catalogue.py           # print one example entry per event type, as Markdown
    python docs/event_catalogue.py --write   # also put them into docs/events.md (its example blocks)

It plays a scripted session in-process (FastAPI TestClient, a temporary SQLite data dir), reads the
campaign's log back page by page from GET /v1/campaigns/{id}/events and prints the first entry of each
event type. It exits 1 if an event class of domain/aggregates has no example (the catalogue fell
behind the code), if an entry of an unknown type or a secret shows up in the log, or (with --write) if
docs/events.md has no example block for a type.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import pkgutil
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "events.md"
sys.path.insert(0, str(ROOT))

from eventsourcing.domain import Aggregate
from fastapi.testclient import TestClient

import domain.aggregates
from api.main import create_app
from api.settings import Settings
from domain.export import SECRET_FIELDS
from domain.secrets import hash_token

# Aggregates whose events never enter a campaign's log (GET .../events, the export, the views).
NOT_IN_LOG = {"IdempotencyRecord"}
# The order of docs/events.md; an aggregate not named here comes after these.
ORDER = ["Campaign", "Character", "Story", "Issue", "Scene", "Mission", "Roll", "RollChain"]
PAGE_SIZE = 7  # small on purpose: the session's log is read over several pages via next_after


# ---- the event types, by introspection -----------------------------------------------------------


def aggregate_classes() -> list[type[Aggregate]]:
    """Every aggregate class defined in the modules of the domain.aggregates package."""
    found: dict[str, type[Aggregate]] = {}
    for info in pkgutil.iter_modules(domain.aggregates.__path__):
        module = importlib.import_module(f"domain.aggregates.{info.name}")
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, Aggregate)
                and value is not Aggregate
                and value.__module__ == module.__name__
            ):
                found[value.__qualname__] = value
    rank = {name: i for i, name in enumerate(ORDER)}
    return [found[name] for name in sorted(found, key=lambda n: (rank.get(n, len(rank)), n))]


def event_types(cls: type[Aggregate]) -> list[str]:
    """The event classes an aggregate can write, as the log names them ("Scene.PageAdvanced").

    eventsourcing nests one class per @event on the aggregate, subclassing its `Event`. It also
    redefines the generic `Created` on every aggregate; that one is written only when `__init__`
    carries no other event name, so `Created` events other than the one `__init__` names are skipped.
    """
    init = cls.__dict__.get("__init__")
    created_name = getattr(init, "event_cls_name", None) or "Created"
    names = []
    for name, value in vars(cls).items():
        if not (inspect.isclass(value) and issubclass(value, cls.Event)) or value is cls.Event:
            continue
        if issubclass(value, Aggregate.Created) and name != created_name:
            continue
        names.append(value.__qualname__)
    return names


def catalogue() -> dict[str, list[str]]:
    return {cls.__qualname__: event_types(cls) for cls in aggregate_classes()}


# ---- a scripted session --------------------------------------------------------------------------


class Session:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.position = 0

    def call(
        self, method: str, path: str, token: str | None, body: Any = None, **headers: str
    ) -> dict[str, Any]:
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.request(method, path, json=body, headers=headers)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        answer: dict[str, Any] = response.json()
        if method != "GET":
            self.position = max(self.position, int(answer["position"]))
        return answer


def play(s: Session) -> tuple[str, list[str]]:
    """Write every event type at least once; returns the campaign id, the tokens and their hashes."""
    wcbh = s.call("GET", "/v1/rulesets/wcbh", None)
    sheet, check = wcbh["example_sheet"], wcbh["checks"][0]

    campaign = s.call(
        "POST", "/v1/campaigns", None, {"name": "Night City", "ruleset": "wcbh", "gm_name": "Ana"}
    )
    campaign_id, gm = campaign["id"], campaign["gm_token"]
    player = s.call(
        "POST", f"/v1/campaigns/{campaign_id}/members", gm, {"name": "Bo", "role": "player"}
    )["token"]

    hero = s.call(
        "POST",
        f"/v1/campaigns/{campaign_id}/characters",
        player,
        {"name": "Nova", "side": "hero", "sheet": sheet},
    )["id"]
    sheet = {**sheet, "perks": [*sheet.get("perks", []), "Rooftop contacts"]}
    s.call("PUT", f"/v1/characters/{hero}/sheet", player, {"sheet": sheet})

    # An Idempotency-Key writes an IdempotencyRecord too: it must not show up in the log.
    story = s.call(
        "POST",
        f"/v1/campaigns/{campaign_id}/stories",
        gm,
        {"title": "The Heist"},
        **{"Idempotency-Key": "heist-1"},
    )["id"]
    issue = s.call("POST", f"/v1/stories/{story}/issues", gm, {"title": "Issue #1"})["id"]
    scene = s.call("POST", f"/v1/issues/{issue}/scenes", gm, {"title": "Rooftops"})["id"]
    s.call("POST", f"/v1/scenes/{scene}/pages", gm, **{"If-Match": '"1"'})
    s.call(
        "POST",
        f"/v1/characters/{hero}/resources",
        gm,
        {"resource": "resolve", "change": 1, "reason": "followed her convictions at a cost"},
    )
    s.call(
        "POST",
        f"/v1/issues/{issue}/pools",
        gm,
        {"pool": "adversity", "change": -1, "reason": "the alarm goes off"},
    )

    roll = s.call(
        "POST",
        f"/v1/scenes/{scene}/rolls",
        player,
        {
            "check": check["name"],
            "request": check["example"],
            "character_id": hero,
            "client_seed": "my own luck",
        },
    )["id"]
    s.call(
        "POST",
        f"/v1/rolls/{roll}/follow-ups",
        player,
        {"follow_up": "resolve_dice", "request": {"resolve": 1}, "client_seed": "more luck"},
    )
    s.call(
        "POST",
        f"/v1/scenes/{scene}/rolls",
        player,
        {
            "check": "trait",
            "request": {"trait": "Agility", "difficulty": 3, "decisive_moment": True},
            "character_id": hero,
        },
    )
    # Dice decide whether an attack hits: attack fresh minions until one is hit (bounded; each
    # attack of 8 dice against a threat of 1 hits far more often than not).
    for n in range(20):
        goon = s.call(
            "POST",
            f"/v1/campaigns/{campaign_id}/characters",
            gm,
            {"name": f"Goon {n + 1}", "side": "minion", "sheet": {"kind": "minion", "threat": 1}},
        )["id"]
        hit = s.call(
            "POST",
            f"/v1/scenes/{scene}/attacks",
            player,
            {"attacker_id": hero, "target_id": goon, "trait": "Lightning Bolt"},
        )
        if hit["result"]["defeated"]:
            break
    # A special effect that lasts 2+ pages, so that a page ticks it and the scene's close ends it.
    sturdy = {**sheet, "abilities": {**sheet["abilities"], "Stamina": 10, "Strength": 10, "Will": 10}}
    for n in range(20):
        villain = s.call(
            "POST",
            f"/v1/campaigns/{campaign_id}/characters",
            gm,
            {"name": f"Villain {n + 1}", "side": "villain", "sheet": sturdy},
        )["id"]
        stunned = s.call(
            "POST",
            f"/v1/scenes/{scene}/attacks",
            player,
            {"attacker_id": hero, "target_id": villain, "trait": "Lightning Bolt", "effect": "Stunned"},
        )
        if stunned["result"]["effect_pages"] >= 2:
            break
    s.call("POST", f"/v1/scenes/{scene}/pages", gm)
    s.call("POST", f"/v1/scenes/{scene}/combatants", gm, {"character_ids": [hero]})
    s.call("POST", f"/v1/scenes/{scene}/act-first", player, {"character_id": hero})
    s.call("POST", f"/v1/scenes/{scene}/seed/rotate", gm)
    s.call("POST", f"/v1/scenes/{scene}/close", gm)

    mission = s.call(
        "POST",
        f"/v1/campaigns/{campaign_id}/missions",
        gm,
        {"title": "Break in", "scene_id": scene, "story_id": story},
    )["id"]
    s.call("POST", f"/v1/missions/{mission}/end", gm, {"outcome": "completed"})

    # A scene still open when its game Issue ends is closed in the same save.
    s.call("POST", f"/v1/issues/{issue}/scenes", gm, {"title": "Getaway"})
    s.call("POST", f"/v1/issues/{issue}/end", gm)
    s.call("POST", f"/v1/stories/{story}/complete", gm)
    tokens = [gm, player]
    return campaign_id, tokens + [hash_token(t) for t in tokens]


def read_log(s: Session, campaign_id: str, token: str) -> list[dict[str, Any]]:
    """The campaign's whole log, page by page, as a front end reads it."""
    if not s.client.app.state.views.wait(s.position, 10):  # type: ignore[attr-defined]
        raise RuntimeError(f"the views did not reach position {s.position} in 10 s")
    entries: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = s.call(
            "GET",
            f"/v1/campaigns/{campaign_id}/events?after={after}&limit={PAGE_SIZE}"
            f"&min_position={s.position}",
            token,
        )
        entries.extend(page["items"])
        after = page["next_after"]
    return entries


# ---- checks and output ---------------------------------------------------------------------------


def problems_of(
    entries: list[dict[str, Any]], secrets: list[str], known: dict[str, list[str]]
) -> list[str]:
    """Missing or unknown event types, leaked secrets, entries out of order."""
    in_log = {t for aggregate, types in known.items() if aggregate not in NOT_IN_LOG for t in types}
    seen = {e["type"] for e in entries}
    problems = [
        f"no example of {t}: make the session in docs/event_catalogue.py write one"
        for t in sorted(in_log - seen)
    ]
    problems += [f"{t} is in the log but is no known event type" for t in sorted(seen - in_log)]
    for e in entries:
        leaked = SECRET_FIELDS & set(e["payload"])
        text = json.dumps(e)
        if leaked or any(secret in text for secret in secrets):
            problems.append(f"a secret is in the log entry at position {e['position']}")
    positions = [e["position"] for e in entries]
    if positions != sorted(set(positions)):
        problems.append("the log entries are not in strictly ascending position order")
    return problems


def examples(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    first: dict[str, dict[str, Any]] = {}
    for e in entries:
        first.setdefault(e["type"], e)
    return first


def block(example: dict[str, Any]) -> str:
    return "```json\n" + json.dumps(example, indent=2, ensure_ascii=False) + "\n```"


def markdown(known: dict[str, list[str]], found: dict[str, dict[str, Any]]) -> str:
    lines = ["# Example log entries (generated by `python docs/event_catalogue.py`)", ""]
    for aggregate, types in known.items():
        lines += [f"## {aggregate}", ""]
        if aggregate in NOT_IN_LOG:
            lines += [f"{aggregate} events never appear in a campaign's log.", ""]
            continue
        for t in types:
            lines += [f"### `{t}`", "", block(found[t]), ""]
    return "\n".join(lines)


def write_doc(found: dict[str, dict[str, Any]]) -> list[str]:
    """Replace each `<!-- example: Type -->` block of docs/events.md with the fresh example."""
    text = DOC.read_text()
    missing = []
    for t, example in found.items():
        # The block after the marker, up to its own closing fence (never into the next block).
        marker = re.compile(rf"(<!-- example: {re.escape(t)} -->\n)```json\n(?:(?!```)[\s\S])*```")
        fresh = block(example)
        text, count = marker.subn(lambda m: m.group(1) + fresh, text)  # noqa: B023 (used at once)
        if count != 1:
            missing.append(f"docs/events.md has {count} example blocks for {t}, not 1")
    if not missing:
        DOC.write_text(text)
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true", help="also update docs/events.md")
    args = parser.parse_args(argv)
    known = catalogue()
    with tempfile.TemporaryDirectory(prefix="chronicle-catalogue-") as tmp:
        settings = Settings(data_dir=Path(tmp), database_url=None, projections="embedded")
        with TestClient(create_app(settings)) as client:
            session = Session(client)
            campaign_id, secrets = play(session)
            entries = read_log(session, campaign_id, secrets[1])  # as the player
    problems = problems_of(entries, secrets, known)
    found = examples(entries)
    if not problems:
        print(markdown(known, found))
        if args.write:
            problems = write_doc(found)
    for problem in problems:
        print(f"event_catalogue: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
