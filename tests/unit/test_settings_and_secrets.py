"""Settings → eventsourcing environment, and the token and sealing primitives."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest
from cryptography.exceptions import InvalidTag
from pydantic import ValidationError

from api.settings import Settings
from domain.secrets import Sealer, hash_token, mint_token, parse_token, token_matches


def test_the_embedded_default_is_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    env = Settings(data_dir=tmp_path / "new").eventsourcing_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert env["SQLITE_DBNAME"] == str(tmp_path / "new" / "chronicle.sqlite3")
    assert (tmp_path / "new").is_dir()


def test_a_postgres_url_becomes_the_postgres_environment() -> None:
    env = Settings(
        database_url="postgresql://ann:s%40cret@db.example:6543/camp"
    ).eventsourcing_env()
    assert env["PERSISTENCE_MODULE"] == "domain.postgres"
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("ann", "s@cret")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.example",
        "6543",
        "camp",
    )


def test_a_url_without_password_or_port_uses_empty_and_5432() -> None:
    env = Settings(database_url="postgresql://root@localhost/x").eventsourcing_env()
    assert (env["POSTGRES_PASSWORD"], env["POSTGRES_PORT"]) == ("", "5432")


def test_only_postgres_urls_are_accepted() -> None:
    with pytest.raises(ValidationError):
        Settings(database_url="mysql://root@localhost/x")


def test_environment_variables_configure_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHRONICLE_PORT", "9123")
    monkeypatch.setenv("CHRONICLE_DATA_DIR", "/tmp/somewhere")
    settings = Settings()
    assert (settings.port, settings.data_dir) == (9123, Path("/tmp/somewhere"))


def test_the_server_key_is_created_once_and_kept(tmp_path: Path) -> None:
    first = Settings(data_dir=tmp_path).key_bytes()
    assert len(first) == 32
    assert Settings(data_dir=tmp_path).key_bytes() == first
    assert (tmp_path / "chronicle.key").stat().st_mode & 0o777 == 0o600


def test_a_configured_key_must_be_64_hex_digits(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path, secret_key="ab" * 32).key_bytes() == bytes([0xAB]) * 32
    with pytest.raises(ValueError):
        Settings(data_dir=tmp_path, secret_key="abc").key_bytes()


def test_a_token_names_its_campaign_and_member_and_matches_only_its_hash() -> None:
    campaign_id, member_id = uuid4(), uuid4()
    token = mint_token(campaign_id, member_id)
    parts = parse_token(token)
    assert parts is not None and (parts.campaign_id, parts.member_id) == (campaign_id, member_id)
    assert token_matches(token, hash_token(token))
    assert not token_matches(mint_token(campaign_id, member_id), hash_token(token))
    assert hash_token(token) != token


@pytest.mark.parametrize(
    "token", ["", "chr", "chr_a_b_c", "xyz_" + "0" * 32 + "_" + "0" * 32 + "_s"]
)
def test_malformed_tokens_parse_to_nothing(token: str) -> None:
    assert parse_token(token) is None


def test_sealed_text_round_trips_and_hides_the_plaintext() -> None:
    sealer = Sealer(bytes(32))
    sealed = sealer.seal("chr_secret")
    assert "chr_secret" not in sealed
    assert sealer.unseal(sealed) == "chr_secret"
    assert sealer.seal("chr_secret") != sealed  # a fresh nonce every time


def test_a_derived_sealer_needs_both_the_server_key_and_its_context() -> None:
    server = Sealer(bytes(32))
    sealed = server.derive("idempotency-key-1").seal("chr_gm_token")
    assert server.derive("idempotency-key-1").unseal(sealed) == "chr_gm_token"
    for wrong in (
        server,
        server.derive("idempotency-key-2"),
        Sealer(bytes([1]) * 32).derive("idempotency-key-1"),
    ):
        with pytest.raises(InvalidTag):
            wrong.unseal(sealed)


def test_postgres_connections_wait_the_set_timeout_and_are_checked_by_ours_not_a_ping() -> None:
    env = Settings(
        database_url="postgresql://root@localhost/x", postgres_connect_timeout=7
    ).eventsourcing_env()
    assert env["POSTGRES_CONNECT_TIMEOUT"] == "7"
    # domain/postgres.py's check_if_spoken replaces eventsourcing's ping on every take
    assert env["PERSISTENCE_MODULE"] == "domain.postgres"
    assert "POSTGRES_PRE_PING" not in env


def test_a_key_fingerprint_names_the_key_without_revealing_it() -> None:
    key, other = bytes(range(32)), bytes(range(1, 33))
    assert Sealer(key).fingerprint == Sealer(bytes(key)).fingerprint
    assert Sealer(key).fingerprint != Sealer(other).fingerprint
    assert key.hex() not in Sealer(key).fingerprint and len(Sealer(key).fingerprint) == 64
