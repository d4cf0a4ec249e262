"""Two API replicas and a views worker on one PostgreSQL database, as docker-compose.yml runs them:
whatever one replica writes, the other reads, streams, replays and refuses as one service would."""

from __future__ import annotations

import secrets
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest

from api.settings import Settings
from domain.claims import PostgresClaims
from domain.secrets import parse_token
from projections.heartbeat import fresh
from tests.api.test_stream import TIMEOUT, Campaign, bearer, read_until
from tests.conftest import temporary_database
from tests.server import all_running, loopback_client, running_server, running_worker


@dataclass
class Replicas:
    settings: Settings
    a: httpx.Client
    b: httpx.Client
    heartbeat: Path  # the worker's

    @property
    def url(self) -> str:
        assert self.settings.database_url is not None
        return self.settings.database_url


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replicas]:
    """`chronicle serve` twice (views external) and one `chronicle project`, each with its own data
    directory: all they share is the database and the server key, as replicas do."""
    key = secrets.token_hex(32)
    with temporary_database() as url:

        def settings(name: str) -> Settings:
            data_dir = Path(tmp_path_factory.mktemp(name))
            return Settings(
                data_dir=data_dir,
                database_url=url,
                secret_key=key,
                projections="external",
                postgres_pool_size=4,
                postgres_connect_timeout=15,  # the machine is shared: a slow start is no failure
            )

        worker = settings("worker")
        heartbeat = worker.data_dir / "heartbeat"
        with (
            all_running(
                running_server(settings("replica-a")),
                running_server(settings("replica-b")),
                running_worker(worker, "--heartbeat", str(heartbeat)),
            ) as (a, b, _),
            loopback_client(base_url=a.url, timeout=TIMEOUT) as client_a,
            loopback_client(base_url=b.url, timeout=TIMEOUT) as client_b,
        ):
            yield Replicas(settings("probe"), client_a, client_b, heartbeat)


def test_what_one_replica_writes_the_other_reads_from_the_store_and_the_views(
    replicas: Replicas,
) -> None:
    campaign = Campaign(replicas.a)
    scene = replicas.b.get(f"/v1/scenes/{campaign.scene_id}", headers=bearer(campaign.token))
    assert scene.status_code == 200, scene.text
    assert scene.json()["page"] == 2
    # The history is a view: only the worker writes it, and replica B waits for A's last write.
    events = replicas.b.get(
        f"/v1/campaigns/{campaign.id}/events",
        params={"min_position": campaign.position, "limit": 50},
        headers=bearer(campaign.token),
    )
    assert events.status_code == 200, events.text
    assert events.json()["items"][-1]["position"] == campaign.position


def test_a_stream_on_one_replica_sees_the_writes_made_on_the_other(replicas: Replicas) -> None:
    campaign = Campaign(replicas.a)
    campaign.client = replicas.b  # the stream is read from B...
    with campaign.stream(replicas.b, after=campaign.position) as response:
        assert response.status_code == 200
        campaign.client = replicas.a  # ...while A writes
        position = campaign.advance_page()
        seen = read_until(response, position, time.monotonic() + 10)
    assert [m.id for m in seen] == [position]
    assert seen[0].entry["type"] == "Scene.PageAdvanced"


def test_an_idempotency_key_sent_to_both_replicas_at_once_writes_one_story(
    replicas: Replicas,
) -> None:
    campaign = Campaign(replicas.a)
    headers = {**bearer(campaign.token), "Idempotency-Key": str(uuid.uuid4())}
    path = f"/v1/campaigns/{campaign.id}/stories"
    start = threading.Barrier(8)

    def send(client: httpx.Client) -> httpx.Response:
        start.wait(timeout=10)
        return client.post(path, json={"title": "Twice told"}, headers=headers)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, [replicas.a, replicas.b] * 4))
    created = [a for a in answers if a.status_code == 201]
    # Every duplicate either waits for nothing (409: the first is still running, on either
    # replica) or gets the first answer again; none is refused for the first one's effect.
    assert {a.status_code for a in answers} <= {201, 409}, [a.text for a in answers]
    assert created and all(a.json()["id"] == created[0].json()["id"] for a in created)
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["error"]["code"] == "idempotency_in_flight"
    stories = replicas.b.get(
        f"/v1/campaigns/{campaign.id}/stories",
        params={"min_position": created[0].json()["position"]},
        headers=bearer(campaign.token),
    )
    assert stories.status_code == 200, stories.text
    titles = [s["title"] for s in stories.json()["items"]]
    assert titles.count("Twice told") == 1


def test_a_key_claimed_elsewhere_is_in_flight_for_a_replica_until_released(
    replicas: Replicas,
) -> None:
    campaign = Campaign(replicas.a)
    key = str(uuid.uuid4())
    headers = {**bearer(campaign.token), "Idempotency-Key": key}
    path = f"/v1/campaigns/{campaign.id}/stories"
    parts = parse_token(campaign.token)
    assert parts is not None
    elsewhere = PostgresClaims({"conninfo": replicas.url})
    try:
        # As replica A holds it while the first request runs (the scope is the member).
        assert elsewhere.claim(f"{parts.member_id.hex}\n{key}")
        refused = replicas.b.post(path, json={"title": "Held"}, headers=headers)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "idempotency_in_flight"
        elsewhere.release(f"{parts.member_id.hex}\n{key}")
        assert replicas.b.post(path, json={"title": "Held"}, headers=headers).status_code == 201
    finally:
        elsewhere.close()


def test_a_claim_ends_with_the_session_that_held_it(replicas: Replicas) -> None:
    first = PostgresClaims({"conninfo": replicas.url})
    second = PostgresClaims({"conninfo": replicas.url})
    try:
        assert first.claim("member\nkey-1")
        assert not second.claim("member\nkey-1")
        assert second.claim("member\nkey-2")  # other keys are free
        # As when its process crashes: the session ends (waited for), and nothing is left held.
        pid = first._connection.info.backend_pid  # type: ignore[union-attr]
        with psycopg.connect(replicas.url, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone()[0]  # type: ignore[index]
        assert second.claim("member\nkey-1")
    finally:
        first.close()
        second.close()


def test_every_replica_on_postgresql_shares_its_claims(replicas: Replicas) -> None:
    from api.main import build_application

    app = build_application(replicas.settings)
    try:
        assert isinstance(app.claims, PostgresClaims)
    finally:
        app.close()


def test_a_token_revoked_on_one_replica_is_refused_by_the_other(replicas: Replicas) -> None:
    campaign = Campaign(replicas.a)
    member = campaign.call(
        "POST", f"/v1/campaigns/{campaign.id}/members", {"name": "Bo", "role": "player"}
    )
    scene = f"/v1/scenes/{campaign.scene_id}"
    assert replicas.b.get(scene, headers=bearer(member["token"])).status_code == 200
    campaign.call("DELETE", f"/v1/campaigns/{campaign.id}/members/{member['id']}/token")
    refused = replicas.b.get(scene, headers=bearer(member["token"]))
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "token_revoked"


def test_the_worker_beats_while_its_runner_follows_the_log(replicas: Replicas) -> None:
    def healthcheck(path: Path) -> int:
        check = [sys.executable, "-m", "projections.heartbeat", str(path)]
        return subprocess.run(check, check=False, capture_output=True, timeout=60).returncode

    # The worker beats as soon as its runner is up, then every few seconds.
    deadline = time.monotonic() + 20
    while not fresh(replicas.heartbeat) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert healthcheck(replicas.heartbeat) == 0
    assert healthcheck(replicas.heartbeat.with_name("no-such-heartbeat")) == 1
