"""The live stream against a real server on each backend: order, resume without gaps or repeats, heartbeats."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from api.settings import Settings
from tests.conftest import store_settings
from tests.server import Server, loopback_client, running_server, serving_here

# The stream reads the store's notifications (LISTEN/NOTIFY on PostgreSQL, polling on SQLite).
pytestmark = pytest.mark.store

TIMEOUT = httpx.Timeout(10.0)  # every read sees a byte at least each heartbeat (1 s here)


@dataclass
class Message:
    """One server-sent event or comment, as an EventSource would dispatch it."""

    id: int | None = None
    event: str | None = None
    data: str | None = None
    comment: str | None = None
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def entry(self) -> dict[str, Any]:
        assert self.data is not None
        return json.loads(self.data)  # type: ignore[no-any-return]


def messages(response: httpx.Response) -> Iterator[Message]:
    fields: dict[str, str] = {}
    for line in response.iter_lines():
        if line.startswith(":"):
            yield Message(comment=line[1:].strip())
        elif line:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        elif fields:
            event_id = fields.get("id")
            yield Message(
                id=int(event_id) if event_id is not None else None,
                event=fields.get("event"),
                data=fields.get("data"),
                fields=fields,
            )
            fields = {}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Campaign:
    """A campaign with an open scene, driven through the real server's API."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        created = self.call(
            "POST", "/v1/campaigns", {"name": "Night City", "ruleset": "wcbh"}, None
        )
        self.id, self.token = created["id"], created["gm_token"]
        story = self.call("POST", f"/v1/campaigns/{self.id}/stories", {"title": "The Heist"})
        issue = self.call("POST", f"/v1/stories/{story['id']}/issues", {"title": "Issue #1"})
        self.scene_id = self.call("POST", f"/v1/issues/{issue['id']}/scenes", {"title": "Roofs"})[
            "id"
        ]
        self.position: int = self.advance_page()

    def call(self, method: str, path: str, body: Any = None, token: str | None = "") -> Any:
        headers = bearer(token or self.token) if token is not None else {}
        response = self.client.request(method, path, json=body, headers=headers)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def advance_page(self) -> int:
        self.position = int(self.call("POST", f"/v1/scenes/{self.scene_id}/pages")["position"])
        return self.position

    def log(self) -> list[dict[str, Any]]:
        """Every entry from GET /events, page by page, once the views have reached our last write."""
        items: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = self.client.get(
                f"/v1/campaigns/{self.id}/events",
                params={"after": after, "limit": 7, "min_position": self.position},
                headers=bearer(self.token),
            ).json()
            items += page["items"]
            after = page["next_after"]
        return items

    def stream(self, client: httpx.Client, **params: Any) -> Any:
        headers = bearer(self.token)
        if "last_event_id" in params:
            headers["Last-Event-ID"] = str(params.pop("last_event_id"))
        return client.stream(
            "GET",
            f"/v1/campaigns/{self.id}/stream",
            params={"heartbeat": 1, **params},
            headers=headers,
        )


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per backend for the module (each test makes its own campaigns): starting one takes
    seconds. The shutdown test starts its own from the `settings` fixture."""
    data_dir = tmp_path_factory.mktemp(f"stream-{backend}")
    with store_settings(backend, data_dir) as settings, serving_here(settings) as value:
        yield value


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with loopback_client(base_url=server.url, timeout=TIMEOUT) as value:
        yield value


def read_until(response: httpx.Response, position: int, deadline: float) -> list[Message]:
    """The events of the stream until one at `position` or later has arrived."""
    seen: list[Message] = []
    for message in messages(response):
        assert time.monotonic() < deadline, f"position {position} did not arrive in time"
        if message.id is not None:
            seen.append(message)
            if message.id >= position:
                return seen
    raise AssertionError("the stream ended early")


def test_a_reader_sees_each_command_as_the_events_endpoint_lists_it(client: httpx.Client) -> None:
    campaign = Campaign(client)
    with campaign.stream(client) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        Campaign(client)  # another campaign's entries must not reach this stream
        for _ in range(5):
            campaign.advance_page()
        seen = read_until(response, campaign.position, time.monotonic() + 20)
    ids = [m.id for m in seen]
    assert ids == sorted(set(ids))  # type: ignore[type-var]
    assert [m.entry for m in seen] == campaign.log()
    assert all(m.event == m.entry["type"] and m.id == m.entry["position"] for m in seen)
    assert seen[-1].event == "Scene.PageAdvanced"


def follow_with_disconnects(
    server: Server,
    campaign: Campaign,
    rng: random.Random,
    writing: threading.Event,
    out: list[Message],
) -> int:
    """Reconnect again and again, each time after a few events, until the writer's last entry arrives;
    returns how many connections that took."""
    deadline = time.monotonic() + 30
    last: int | None = None
    connections = 0
    with loopback_client(base_url=server.url, timeout=TIMEOUT) as client:
        while writing.is_set() or last is None or last < campaign.position:
            assert time.monotonic() < deadline, "the client never caught up"
            budget = rng.randint(0, 4)
            # EventSource keeps its first URL (`after`) and sends the newest id: the header must win.
            resume = (
                {}
                if last is None
                else rng.choice(
                    [{"last_event_id": last}, {"after": last}, {"after": 0, "last_event_id": last}]
                )
            )
            with campaign.stream(client, **resume) as response:
                connections += 1
                assert response.status_code == 200, response.read()
                for message in messages(response):
                    assert time.monotonic() < deadline, "the client never caught up"
                    if message.id is not None:
                        out.append(message)
                        last = message.id
                        budget -= 1
                    if budget <= 0 or not writing.is_set() and last == campaign.position:
                        break
    return connections


def test_clients_that_keep_reconnecting_see_every_entry_exactly_once_in_order(
    server: Server, client: httpx.Client
) -> None:
    campaign = Campaign(client)
    writing = threading.Event()
    writing.set()
    seen: list[list[Message]] = [[] for _ in range(3)]

    def write() -> None:
        try:
            for _ in range(40):
                campaign.advance_page()
        finally:
            writing.clear()

    with ThreadPoolExecutor(max_workers=4) as pool:
        readers = [
            pool.submit(
                follow_with_disconnects, server, campaign, random.Random(seed), writing, out
            )
            for seed, out in enumerate(seen)
        ]
        pool.submit(write).result(timeout=40)  # re-raises a failed thread's exception here
        connections = [future.result(timeout=40) for future in readers]
    assert min(connections) >= 10
    expected = campaign.log()
    assert len(expected) > 40
    for out in seen:
        assert [m.entry for m in out] == expected


def test_an_idle_stream_sends_heartbeats(client: httpx.Client) -> None:
    campaign = Campaign(client)
    with campaign.stream(client) as response:
        started = time.monotonic()
        for message in messages(response):
            if message.comment is not None:
                break
            assert time.monotonic() - started < 5, "no heartbeat"
    assert message.comment == "heartbeat"
    assert 0.5 < time.monotonic() - started < 5


def test_limit_ends_the_stream_after_that_many_entries(client: httpx.Client) -> None:
    campaign = Campaign(client)
    with campaign.stream(client, limit=2, after=1) as response:
        seen = [m for m in messages(response) if m.id is not None]
    assert [m.entry for m in seen] == [e for e in campaign.log() if e["position"] > 1][:2]


def test_the_stream_needs_a_token_of_the_campaign_and_a_position_inside_the_log(
    client: httpx.Client,
) -> None:
    campaign, other = Campaign(client), Campaign(client)
    url = f"/v1/campaigns/{campaign.id}/stream"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=bearer("chr_nonsense")).status_code == 401
    assert client.get(url, headers=bearer(other.token)).status_code == 404
    beyond = {**bearer(campaign.token), "Last-Event-ID": str(other.position + 1)}
    refused = client.get(url, headers=beyond)
    assert refused.status_code == 422
    assert refused.json()["error"]["field"] == "Last-Event-ID"
    # b"\xb2" is "²" in Latin-1, how servers decode headers: a digit to str.isdigit, not to int().
    for nonsense in (b"x", b"-1", b"\xb2", b"9" * 5000):
        headers = [
            (b"Authorization", f"Bearer {campaign.token}".encode()),
            (b"Last-Event-ID", nonsense),
        ]
        assert client.get(url, headers=headers).status_code == 422, nonsense


def test_an_open_stream_does_not_hold_up_the_server_shutdown(settings: Settings) -> None:
    opened, ended = threading.Event(), threading.Event()

    def follow(server: Server, campaign: Campaign) -> None:
        with loopback_client(base_url=server.url, timeout=TIMEOUT) as client:
            with campaign.stream(client, heartbeat=60) as response:
                for _ in messages(response):
                    opened.set()
            ended.set()  # a clean end of the response, not a connection torn down

    with running_server(settings) as server:  # the stream notices the process's SIGTERM
        with loopback_client(base_url=server.url, timeout=TIMEOUT) as client:
            campaign = Campaign(client)
        threading.Thread(target=follow, args=(server, campaign), daemon=True).start()
        assert opened.wait(10)
        started = time.monotonic()
    assert time.monotonic() - started < 5  # uvicorn would otherwise wait for the stream forever
    assert ended.wait(5)


def test_an_open_stream_ends_when_its_token_is_revoked(client: httpx.Client) -> None:
    campaign = Campaign(client)
    member = campaign.call(
        "POST", f"/v1/campaigns/{campaign.id}/members", {"name": "Bo", "role": "player"}
    )
    url = f"/v1/campaigns/{campaign.id}/stream"
    params = {"heartbeat": 1, "after": campaign.position}
    with client.stream("GET", url, params=params, headers=bearer(member["token"])) as response:
        assert response.status_code == 200
        campaign.call("DELETE", f"/v1/campaigns/{campaign.id}/members/{member['id']}/token")
        revoked = time.monotonic()
        seen = list(messages(response))  # ends: the stream re-checks its token against the store
    assert time.monotonic() - revoked < 5
    assert not [m for m in seen if m.event == "Campaign.TokenRevoked"]
    again = client.get(url, headers=bearer(member["token"]))
    assert again.status_code == 401
