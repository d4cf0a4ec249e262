"""Webhooks against a real receiver (a threaded HTTP server in the test) on each backend: signed
pushes of the wanted entries, retries with backoff in the delivery log, a restart, GM only."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY

from api.main import create_app
from api.settings import Settings
from tests.api.support import Table, bearer, ok, verified_export
from tests.client import TestClient
from tests.server import running_worker

# Deliveries are rows in the views' database, written and read by the store: both backends.
pytestmark = pytest.mark.store

WAIT = 10.0  # seconds any wait below may take before the test fails
FRONT_ENDS = Path(__file__).resolve().parents[2] / "docs" / "front-ends.md"


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def entry(self) -> dict[str, Any]:
        return json.loads(self.body)  # type: ignore[no-any-return]


@dataclass
class Receiver:
    """A forum plugin's endpoint: records every request; answers `statuses` in turn, then 200."""

    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    url: str = ""

    def answer(self, headers: dict[str, str], body: bytes) -> int:
        with self.arrived:
            self.received.append(Received(headers, body))
            self.arrived.notify_all()
            return self.statuses.pop(0) if self.statuses else 200

    def wait_for(self, wanted: Callable[[list[Received]], bool]) -> list[Received]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: wanted(self.received), WAIT), self.received
            return list(self.received)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            headers = {k.lower(): v for k, v in self.headers.items()}
            self.send_response(found.answer(headers, body))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    found.url = f"http://127.0.0.1:{server.server_address[1]}/chronicle/hook"
    # shutdown() waits for serve_forever's next poll: at the default 0.5 s, half a second a test.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield found
    server.shutdown()
    server.server_close()


@pytest.fixture
def fast(settings: Settings) -> Settings:
    """Retries a few milliseconds apart, so that the backoff is seen within a test."""
    update = {"webhook_retry_seconds": 0.05, "webhook_attempts": 3, "webhook_timeout_seconds": 2}
    return settings.model_copy(update=update)


@pytest.fixture
def client(fast: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(fast)) as value:
        yield value


def documented_verify() -> Callable[..., bool]:
    """The receiver snippet of docs/front-ends.md, run as a reader would copy it."""
    section = FRONT_ENDS.read_text().split("### What a receiver gets", 1)[1]
    code = re.search(r"```python\n(.*?)\n```", section, re.DOTALL)
    assert code is not None, "docs/front-ends.md lost its receiver snippet"
    names: dict[str, Any] = {}
    exec(code.group(1), names)  # noqa: S102 - our own documentation
    return names["verify"]  # type: ignore[no-any-return]


def register(table: Table, url: str, types: list[str]) -> dict[str, Any]:
    body = {"url": url, "types": types, "description": "the forum's dice thread"}
    return table.post(f"/v1/campaigns/{table.campaign_id}/webhooks", body)  # type: ignore[no-any-return]


def deliveries(table: Table, webhook_id: str) -> list[dict[str, Any]]:
    return table.get(f"/v1/webhooks/{webhook_id}/deliveries")["items"]  # type: ignore[no-any-return]


def test_a_wanted_entry_is_pushed_with_its_text_and_a_signature_that_verifies(
    table: Table, receiver: Receiver
) -> None:
    hook = register(table, receiver.url, ["Story.Started"])
    table.join("Ed", "player")  # Campaign.MemberJoined: not wanted
    story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "The Heist"})

    [pushed] = receiver.wait_for(lambda got: len(got) >= 1)
    entry = pushed.entry
    assert (entry["type"], entry["text"]) == ("Story.Started", "Story “The Heist” started")
    assert entry["position"] == story["position"]
    assert documented_verify()(hook["secret"], pushed.headers, pushed.body)
    assert not documented_verify()("whsec_another", pushed.headers, pushed.body)
    tampered = pushed.body.replace(b"The Heist", b"The Hoist")
    assert not documented_verify()(hook["secret"], pushed.headers, tampered)
    # the body is the entry exactly as the events API shows it, text included
    events = table.get(f"/v1/campaigns/{table.campaign_id}/events?min_position={story['position']}")
    assert entry == next(e for e in events["items"] if e["position"] == entry["position"])
    assert pushed.headers["x-chronicle-event"] == "Story.Started"
    assert pushed.headers["x-chronicle-webhook"] == hook["id"]
    assert table.client.app.state.dispatcher.wait_for_attempts(1, WAIT)  # type: ignore[attr-defined]
    [delivery] = deliveries(table, hook["id"])  # the member who joined made no delivery
    assert (delivery["id"], delivery["state"]) == (
        pushed.headers["x-chronicle-delivery"],
        "delivered",
    )


def attempts_counted() -> dict[str, float]:
    """This process's webhook attempts as /metrics counts them, by outcome."""
    name = "chronicle_webhook_deliveries_total"
    return {
        outcome: REGISTRY.get_sample_value(name, {"outcome": outcome}) or 0.0
        for outcome in ("delivered", "retrying", "failed")
    }


def test_a_failing_receiver_is_retried_with_backoff_and_the_log_shows_every_attempt(
    client: TestClient, table: Table, receiver: Receiver
) -> None:
    receiver.statuses = [503, 500]
    hook = register(table, receiver.url, ["Story.*"])
    counted = attempts_counted()
    table.story()

    got = receiver.wait_for(lambda got: len(got) >= 3)
    assert len({r.headers["x-chronicle-delivery"] for r in got}) == 1  # one delivery, three tries
    assert client.app.state.dispatcher.wait_for_attempts(3, WAIT)  # type: ignore[attr-defined]
    # and /metrics counts each attempt by what became of it
    now = attempts_counted()
    assert {o: now[o] - counted[o] for o in now} == {"delivered": 1, "retrying": 2, "failed": 0}
    [delivery] = deliveries(table, hook["id"])
    assert delivery["state"] == "delivered"
    assert delivery["next_attempt_at"] is None
    log = delivery["attempt_log"]
    assert [(a["n"], a["status_code"]) for a in log] == [(1, 503), (2, 500), (3, 200)]
    # each wait at least the backoff: 0.05 s after the first failure, 0.1 s after the second
    times = [datetime.fromisoformat(a["at"]) for a in log]
    assert (times[1] - times[0]).total_seconds() >= 0.05
    assert (times[2] - times[1]).total_seconds() >= 0.1


def test_a_dispatcher_that_never_looks_on_its_own_is_woken_for_new_entries_and_due_retries(
    fast: Settings, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its idle check far beyond the test's wait: every attempt below comes from the views runner
    # waking it after a page (the entry) or from its pause ending when the retry is due.
    policy = {**fast.webhook_policy(), "idle_check_seconds": 100 * WAIT}
    monkeypatch.setattr(Settings, "webhook_policy", lambda _: policy)
    receiver.statuses = [503]
    with TestClient(create_app(fast)) as client:
        table = Table(client)
        register(table, receiver.url, ["Story.*"])
        table.story()
        got = receiver.wait_for(lambda got: len(got) >= 2)
    assert len({r.headers["x-chronicle-delivery"] for r in got}) == 1  # one delivery, tried again


def test_a_receiver_that_keeps_failing_is_given_up_after_the_attempts_allowed(
    client: TestClient, table: Table, receiver: Receiver
) -> None:
    receiver.statuses = [500, 500, 500, 500]
    hook = register(table, receiver.url, ["*"])
    counted = attempts_counted()
    table.story()

    assert client.app.state.dispatcher.wait_for_attempts(3, WAIT)  # type: ignore[attr-defined]
    assert attempts_counted()["failed"] - counted["failed"] == 1
    [delivery] = deliveries(table, hook["id"])
    assert (delivery["state"], delivery["attempts"], delivery["next_attempt_at"]) == (
        "failed",
        3,
        None,
    )
    assert [a["status_code"] for a in delivery["attempt_log"]] == [500, 500, 500]


def test_a_pending_delivery_survives_a_restart_with_the_same_delivery_id(
    fast: Settings, receiver: Receiver
) -> None:
    receiver.statuses = [503]
    # The first server's retry would come after it stopped: the second one makes it.
    patient = fast.model_copy(update={"webhook_retry_seconds": 2.0})
    with TestClient(create_app(patient)) as first:
        table = Table(first)
        hook = register(table, receiver.url, ["Story.Started"])
        table.story()
        assert first.app.state.dispatcher.wait_for_attempts(1, WAIT)  # type: ignore[attr-defined]
    with TestClient(create_app(fast)) as second:
        got = receiver.wait_for(lambda got: len(got) >= 2)
        assert got[0].headers["x-chronicle-delivery"] == got[1].headers["x-chronicle-delivery"]
        assert second.app.state.dispatcher.wait_for_attempts(1, WAIT)  # type: ignore[attr-defined]
        table.client = second
        [delivery] = deliveries(table, hook["id"])
        assert [a["status_code"] for a in delivery["attempt_log"]] == [503, 200]


def test_a_removed_webhook_is_pushed_nothing_more(table: Table, receiver: Receiver) -> None:
    removed = register(table, receiver.url + "?removed", ["Story.Started"])
    kept = register(table, receiver.url, ["Story.Started"])
    gone = ok(table.client.delete(f"/v1/webhooks/{removed['id']}", headers=bearer(table.gm)))
    assert gone["status"] == "removed"
    table.story()

    [pushed] = receiver.wait_for(lambda got: len(got) >= 1)
    assert pushed.headers["x-chronicle-webhook"] == kept["id"]
    # both were matched against the entry at once: the removed one made no delivery
    assert deliveries(table, removed["id"]) == []
    listed = table.get(f"/v1/campaigns/{table.campaign_id}/webhooks")["items"]
    assert [(w["id"], w["status"]) for w in listed] == [
        (removed["id"], "removed"),
        (kept["id"], "active"),
    ]
    assert all("secret" not in w and "sealed_secret" not in w for w in listed)
    again = table.client.delete(f"/v1/webhooks/{removed['id']}", headers=bearer(table.gm))
    assert again.status_code == 409


def test_only_the_gm_manages_webhooks(table: Table, receiver: Receiver) -> None:
    hook = register(table, receiver.url, ["*"])
    body = {"url": receiver.url, "types": ["*"]}
    for token in (table.player, table.observer):
        calls = [
            table.client.post(
                f"/v1/campaigns/{table.campaign_id}/webhooks", json=body, headers=bearer(token)
            ),
            table.client.get(f"/v1/campaigns/{table.campaign_id}/webhooks", headers=bearer(token)),
            table.client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(token)),
            table.client.delete(f"/v1/webhooks/{hook['id']}", headers=bearer(token)),
        ]
        assert [c.status_code for c in calls] == [403, 403, 403, 403]
    foreign = table.client.get(
        f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(table.foreign)
    )
    assert foreign.status_code == 404


@pytest.mark.parametrize(
    ("url", "types", "field_name"),
    [
        ("ftp://forum.example.org/hook", ["*"], "url"),
        ("/chronicle/hook", ["*"], "url"),
        ("https:///no-host", ["*"], "url"),
        ("https://forum.example.org/hook#top", ["*"], "url"),
        ("https://forum.example.org/" + "x" * 2000, ["*"], "url"),
        ("https://forum.example.org/hook", [], "types"),
        ("https://forum.example.org/hook", ["Roll.Rolled"], "types"),
    ],
)
def test_a_bad_url_or_type_is_refused_naming_the_field_and_nothing_is_written(
    table: Table, url: str, types: list[str], field_name: str
) -> None:
    before = table.position()
    refused = table.client.post(
        f"/v1/campaigns/{table.campaign_id}/webhooks",
        json={"url": url, "types": types},
        headers=bearer(table.gm),
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["field"] == field_name
    assert table.position() == before


def test_the_log_shows_a_registration_without_its_url_or_secret(
    table: Table, receiver: Receiver
) -> None:
    hook = register(table, receiver.url, ["Roll.Recorded"])
    events = table.get(f"/v1/campaigns/{table.campaign_id}/events?min_position={hook['position']}")
    [entry] = [e for e in events["items"] if e["type"] == "Webhook.Registered"]
    assert entry["payload"] == {
        "campaign_id": table.campaign_id,
        "types": ["Roll.Recorded"],
        "description": "the forum's dice thread",
    }
    assert entry["text"] == "The GM added a webhook for Roll.Recorded"
    export = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.gm)
    ).text
    assert receiver.url not in export and hook["secret"] not in export
    verified_export(table)  # the webhook's entries keep the export verifiable


def test_a_projection_worker_delivers_for_an_api_that_keeps_no_views(
    fast: Settings, receiver: Receiver
) -> None:
    external = fast.model_copy(update={"projections": "external"})
    with running_worker(external), TestClient(create_app(external)) as api:
        table = Table(api)
        hook = register(table, receiver.url, ["Story.Started"])
        table.story()
        [pushed] = receiver.wait_for(lambda got: len(got) >= 1)
        assert documented_verify()(hook["secret"], pushed.headers, pushed.body)
        [delivery] = deliveries(table, hook["id"])  # the worker's outbox, read by the API
        assert delivery["id"] == pushed.headers["x-chronicle-delivery"]


def test_a_secret_gm_roll_is_pushed_withheld_and_its_reveal_is_pushed_when_the_gm_reveals_it(
    table: Table, receiver: Receiver
) -> None:
    """A receiver sees what anyone but the GM sees (docs/front-ends.md): the secret roll's place
    in the chain, none of its contents and no text; then the GM's reveal, after which the roll
    reads whole without a GM token."""
    hook = register(table, receiver.url, ["Roll.Recorded", "Roll.Revealed"])
    check = table.get(f"/v1/rulesets/{table.ruleset}")["checks"][0]
    hero, scene = table.character(table.player), table.scene()
    seed, purpose = "webhook-secret-seed-4410", "Listen at the vault door"
    body = {
        "check": check["name"],
        "request": {**check["example"], "purpose": purpose},
        "character_id": hero,
        "secret": True,
        "client_seed": seed,
    }
    secret = table.post(f"/v1/scenes/{scene}/rolls", body)

    [pushed] = receiver.wait_for(lambda got: len(got) >= 1)
    assert documented_verify()(hook["secret"], pushed.headers, pushed.body)
    entry = pushed.entry
    assert (entry["type"], entry["originator_id"]) == ("Roll.Recorded", secret["id"])
    assert entry["payload"]["withheld"] is True and entry["text"] is None
    record = entry["payload"]["record"]
    assert record["withheld"] is True and record["hash"] == secret["proof"]["hash"]
    for kept in (seed, purpose, json.dumps(secret["faces"])[1:-1]):
        assert kept not in pushed.body.decode(), kept
    # what an observer's events API shows is what was pushed, byte for byte in meaning
    shown = table.get(f"/v1/campaigns/{table.campaign_id}/events", table.observer)["items"]
    assert entry == next(e for e in shown if e["position"] == entry["position"])

    table.post(f"/v1/rolls/{secret['id']}/reveal", status=200)
    [_, revealed] = receiver.wait_for(lambda got: len(got) >= 2)
    assert documented_verify()(hook["secret"], revealed.headers, revealed.body)
    assert (revealed.entry["type"], revealed.entry["originator_id"]) == (
        "Roll.Revealed",
        secret["id"],
    )
    whole = table.get(f"/v1/rolls/{secret['id']}", table.observer)
    assert whole["withheld"] is False and whole["faces"] == secret["faces"]
