"""Credentials: anonymous Idempotency-Keys nobody can guess or probe, stored responses that expire,
and tokens the GM rotates, revokes or removes (401 at once, on every replica), with optional expiry."""

from __future__ import annotations

import base64
import hashlib
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from api.deps import looks_random
from api.main import create_app
from api.settings import Settings
from domain.secrets import mint_token, parse_token
from domain.service import IDEMPOTENCY_TTL
from tests.api.support import Table, bearer, error_apart_from_its_request, ok
from tests.client import TestClient

CAMPAIGN = {"name": "Night City", "ruleset": "wcbh"}


def later(client: TestClient, by: timedelta, monkeypatch: pytest.MonkeyPatch) -> None:
    """Move the application's clock on (token and stored-response expiry read it)."""
    app = client.app.state.chronicle  # type: ignore[attr-defined]
    now = app.clock()
    monkeypatch.setattr(app, "clock", lambda: now + by)


def anonymous(client: TestClient, key: str, body: dict[str, Any] = CAMPAIGN) -> Any:
    return client.post("/v1/campaigns", json=body, headers={"Idempotency-Key": key})


def stored_text(client: TestClient) -> str:
    """Every stored event's state, as the database holds it."""
    app = client.app.state.chronicle  # type: ignore[attr-defined]
    notes = app.recorder.select_notifications(start=1, limit=100_000)
    return "\n".join(n.state.decode("utf-8", "replace") for n in notes)


def member_url(t: Table, token: str, tail: str = "") -> str:
    return f"/v1/campaigns/{t.campaign_id}/members/{t.member_id(token)}{tail}"


def status(t: Table, token: str) -> int:
    return t.client.get(f"/v1/campaigns/{t.campaign_id}", headers=bearer(token)).status_code


# ---- anonymous Idempotency-Keys -----------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "new-campaign",
        "a" * 31,
        "x" * 31 + "!",
        "1234",
        # of the right shape, but made by a person or a counter: anyone could send it again
        "a" * 32,
        "9c1d" * 8,
        "Zx_-" * 8,
        "deadbeef" * 4,
        "0123456789abcdef" * 2,
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef",
        "0" * 31 + "1",
        "00000000-0000-4000-8000-000000000000",
        "12345678-1234-4234-8234-123456789abc",
        "4f620e54-ed92-11f1-b1b7-02fc00000001",  # time-based (version 1)
        str(uuid.uuid5(uuid.NAMESPACE_URL, "night-city")),  # name-based: whoever knows the name
    ],
)
def test_an_anonymous_key_without_128_random_bits_is_refused(client: TestClient, key: str) -> None:
    before = ok(client.get("/health"))["position"]
    response = anonymous(client, key)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_weak"
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert ok(client.get("/health"))["position"] == before


@pytest.mark.parametrize(
    "key",
    [
        "0f8e2a9c-53b1-4c7e-9d2a-6b1f0e4c8a77",
        "0F8E2A9C-53B1-4C7E-9D2A-6B1F0E4C8A77",
        "b12b53bafefb8df2a067bc1656c5580e",
        "kS_B1iVjPeseK8GFcAQ5Q3q_szQhn7lR",
    ],
)
def test_a_uuid_or_32_base64url_characters_replay_the_first_response(
    client: TestClient, key: str
) -> None:
    first = ok(anonymous(client, key), 201)
    again = anonymous(client, key)
    assert ok(again, 201) == first
    assert again.headers["Idempotent-Replayed"] == "true"


def test_random_keys_are_never_refused_as_weak() -> None:
    # A refused key costs a front end only a new key, but it must (almost) never happen: a
    # million random UUIDs showed at least 87 estimated bits against the 72 asked. SHA-256 stands
    # in for a secure random source, so that the test is the same on every run.
    digests = [hashlib.sha256(str(i).encode()).digest() for i in range(30_000)]
    keys = [str(uuid.UUID(bytes=d[:16], version=4)) for d in digests[:10_000]]
    keys += [d[:16].hex() for d in digests[10_000:20_000]]
    keys += [base64.urlsafe_b64encode(d).decode()[:32] for d in digests[20_000:]]
    assert [k for k in keys if not looks_random(k)] == []


def test_another_body_under_a_used_anonymous_key_is_a_new_request_not_a_probe(
    client: TestClient,
) -> None:
    key = str(uuid.uuid4())
    mine = ok(anonymous(client, key), 201)
    theirs = anonymous(client, key, {**CAMPAIGN, "name": "Elsewhere"})
    assert theirs.status_code == 201  # never 422: nothing tells that the key was used
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.json()["gm_token"] != mine["gm_token"]
    assert theirs.json()["id"] != mine["id"]


def test_the_store_holds_neither_the_key_nor_the_token_it_answered(client: TestClient) -> None:
    key = str(uuid.uuid4())
    created = ok(anonymous(client, key, {**CAMPAIGN, "name": "Vault 7"}), 201)
    text = stored_text(client)
    assert "Vault 7" in text  # the scan does see the stored events
    assert key not in text
    assert created["gm_token"] not in text


def test_a_stored_response_expires(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    key = str(uuid.uuid4())
    first = ok(anonymous(client, key), 201)
    later(client, IDEMPOTENCY_TTL - timedelta(minutes=1), monkeypatch)
    assert ok(anonymous(client, key), 201) == first
    later(client, IDEMPOTENCY_TTL, monkeypatch)
    before = ok(client.get("/health"))["position"]
    expired = anonymous(client, key)
    assert expired.status_code == 422
    assert expired.json()["error"]["code"] == "idempotency_key_expired"
    assert "gm_token" not in expired.text
    assert ok(client.get("/health"))["position"] == before


def test_members_keys_stay_scoped_to_them_and_short_ones_are_fine(table: Table) -> None:
    path = f"/v1/campaigns/{table.campaign_id}/stories"
    headers = {**bearer(table.gm), "Idempotency-Key": "s1"}
    first = ok(table.client.post(path, json={"title": "Once"}, headers=headers), 201)
    again = ok(table.client.post(path, json={"title": "Once"}, headers=headers), 201)
    assert again == first


# ---- rotating, revoking, removing ---------------------------------------------------------------


def test_the_gm_rotates_a_member_s_token_and_the_old_one_is_401_at_once(table: Table) -> None:
    rotated = table.post(member_url(table, table.player, "/token"), {}, status=200)
    assert rotated["member_id"] == table.player_id
    assert (status(table, table.player), status(table, rotated["token"])) == (401, 200)
    entry = table.get(
        f"/v1/campaigns/{table.campaign_id}/events?limit=1000&min_position={table.position()}"
    )["items"][-1]
    assert entry["type"] == "Campaign.TokenRotated"
    assert entry["payload"] == {"member_id": table.player_id, "token_expires_at": None}


def test_a_member_rotates_its_own_token_but_not_another_s(table: Table) -> None:
    other = table.client.post(
        member_url(table, table.other_player, "/token"), headers=bearer(table.player)
    )
    assert other.status_code == 403
    mine = table.post(member_url(table, table.player, "/token"), None, table.player, status=200)
    assert (status(table, table.player), status(table, mine["token"])) == (401, 200)
    assert status(table, table.other_player) == 200


def test_a_revoked_token_is_401_until_the_gm_rotates_a_new_one(table: Table) -> None:
    url = member_url(table, table.player, "/token")
    revoked = ok(table.client.delete(url, headers=bearer(table.gm)))
    member = next(m for m in revoked["members"] if m["id"] == table.player_id)
    assert member["token_revoked"] is True
    response = table.client.get(f"/v1/campaigns/{table.campaign_id}", headers=bearer(table.player))
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "token_revoked"
    assert table.client.delete(url, headers=bearer(table.gm)).status_code == 409  # already
    fresh = table.post(url, {}, status=200)
    assert status(table, fresh["token"]) == 200


def forged(token: str) -> str:
    """A token naming the same campaign and member as `token`, with another secret."""
    parts = parse_token(token)
    assert parts is not None
    return mint_token(parts.campaign_id, parts.member_id)


def test_only_the_revoked_token_itself_is_told_it_was_revoked(table: Table) -> None:
    # Member ids are public (`rolled_by` in exports): a forged token for a revoked member must get
    # the answer a forged token for a member in good standing gets, not "token_revoked".
    ok(table.client.delete(member_url(table, table.player, "/token"), headers=bearer(table.gm)))
    url = f"/v1/campaigns/{table.campaign_id}"
    for_revoked = table.client.get(url, headers=bearer(forged(table.player)))
    for_active = table.client.get(url, headers=bearer(forged(table.other_player)))
    assert for_revoked.status_code == for_active.status_code == 401
    assert error_apart_from_its_request(for_revoked) == error_apart_from_its_request(for_active)
    assert for_revoked.json()["error"]["code"] == "unauthenticated"
    real = table.client.get(url, headers=bearer(table.player))
    assert (real.status_code, real.json()["error"]["code"]) == (401, "token_revoked")


def test_the_gm_cannot_revoke_its_own_token_or_remove_itself(table: Table) -> None:
    before = table.position()
    for response in (
        table.client.delete(member_url(table, table.gm, "/token"), headers=bearer(table.gm)),
        table.client.delete(member_url(table, table.gm), headers=bearer(table.gm)),
    ):
        assert response.status_code == 409
        assert response.json()["error"]["field"] == "member_id"
    assert table.position() == before
    assert status(table, table.gm) == 200


def test_a_removed_member_is_401_and_its_characters_pass_to_the_gm(table: Table) -> None:
    hero = table.character(table.player)
    theirs = table.character(table.other_player, "Bolt")
    removed = ok(table.client.delete(member_url(table, table.player), headers=bearer(table.gm)))
    assert table.player_id not in [m["id"] for m in removed["members"]]
    assert status(table, table.player) == 401
    assert table.get(f"/v1/characters/{hero}")["owner_member_id"] is None
    assert table.get(f"/v1/characters/{theirs}")["owner_member_id"] == table.member_id(
        table.other_player
    )
    now = table.position()
    later = table.get(f"/v1/characters/{hero}?at_position={now}&min_position={now}")
    assert later["owner_member_id"] is None  # the views agree
    again = table.client.delete(member_url(table, table.player), headers=bearer(table.gm))
    assert again.status_code == 404


def test_no_export_or_log_entry_holds_a_token_or_its_hash(table: Table) -> None:
    rotated = table.post(member_url(table, table.player, "/token"), {}, status=200)
    table.client.delete(member_url(table, table.other_player, "/token"), headers=bearer(table.gm))
    exported = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.gm)
    ).text
    assert "TokenRotated" in exported and "TokenRevoked" in exported
    assert "token_hash" not in exported
    assert rotated["token"] not in exported


# ---- expiry -------------------------------------------------------------------------------------


def test_a_token_minted_with_expires_in_is_401_after_it(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    member = table.post(
        f"/v1/campaigns/{table.campaign_id}/members",
        {"name": "Ed", "role": "player", "expires_in": 3600},
    )
    assert status(table, member["token"]) == 200
    listed = next(
        m
        for m in table.get(f"/v1/campaigns/{table.campaign_id}")["members"]
        if m["id"] == member["id"]
    )
    assert listed["token_expires_at"] is not None
    later(table.client, timedelta(minutes=59), monkeypatch)
    assert status(table, member["token"]) == 200
    later(table.client, timedelta(hours=1), monkeypatch)
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}", headers=bearer(member["token"])
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "token_expired"
    assert status(table, table.player) == 200  # tokens without expires_in do not expire


def test_a_rotated_token_may_expire_too(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    rotated = table.post(
        member_url(table, table.player, "/token"), {"expires_in": 120}, table.player, status=200
    )
    assert rotated["token_expires_at"] is not None
    later(table.client, timedelta(seconds=121), monkeypatch)
    assert status(table, rotated["token"]) == 401


def test_the_gm_s_own_token_cannot_be_made_to_expire(table: Table) -> None:
    before = table.position()
    response = table.client.post(
        member_url(table, table.gm, "/token"), json={"expires_in": 3600}, headers=bearer(table.gm)
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "expires_in"
    assert table.position() == before
    rotated = table.post(member_url(table, table.gm, "/token"), {}, status=200)
    assert (status(table, table.gm), status(table, rotated["token"])) == (401, 200)


@pytest.mark.parametrize("expires_in", [0, 59, "soon"])
def test_expires_in_must_be_at_least_a_minute(table: Table, expires_in: Any) -> None:
    response = table.client.post(
        member_url(table, table.player, "/token"),
        json={"expires_in": expires_in},
        headers=bearer(table.gm),
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "expires_in"


# ---- every replica --------------------------------------------------------------------------------


@pytest.fixture
def replicas(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two API processes on one store, as behind a load balancer (the second runs no projections)."""
    second = settings.model_copy(update={"projections": "external"})
    with TestClient(create_app(settings)) as one, TestClient(create_app(second)) as two:
        yield one, two


@pytest.mark.store  # the store is what it tests: on SQLite and PostgreSQL
def test_a_token_revoked_on_one_replica_is_401_on_the_other_at_once(
    replicas: tuple[TestClient, TestClient],
) -> None:
    one, two = replicas
    repository = two.app.state.chronicle.repository  # type: ignore[attr-defined]
    assert repository.fastforward and not repository.fastforward_skipping  # reads hit the store
    t = Table(one)
    other, observer = t.other_player, t.observer  # joined before the other replica caches it
    on_two = Table.__new__(Table)
    on_two.client, on_two.campaign_id = two, t.campaign_id
    assert status(on_two, t.player) == 200  # the other replica has the campaign cached now
    ok(one.delete(member_url(t, t.player, "/token"), headers=bearer(t.gm)))
    assert status(on_two, t.player) == 401
    rotated = t.post(member_url(t, other, "/token"), {}, status=200)
    assert (status(on_two, other), status(on_two, rotated["token"])) == (401, 200)
    ok(one.delete(member_url(t, observer), headers=bearer(t.gm)))
    assert status(on_two, observer) == 401
