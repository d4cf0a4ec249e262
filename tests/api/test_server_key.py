"""The store records its server key's fingerprint: a server started with another key refuses to
start, naming the setting, instead of failing later with a bare InvalidTag."""

from __future__ import annotations

import secrets

import pytest

from api.main import create_app
from api.settings import KEY_FILENAME, Settings
from domain.secrets import WrongKey
from tests.api.support import Table, bearer
from tests.client import TestClient
from tests.server import running_server

# The fingerprint is kept in the store: checked on SQLite and PostgreSQL.
pytestmark = pytest.mark.store


def with_key(settings: Settings, key: str | None) -> Settings:
    return settings.model_copy(update={"secret_key": key})


def started(settings: Settings) -> Table:
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        table.scene()  # a scene holds a sealed seed
        return table


def test_a_restart_with_the_same_key_starts(settings: Settings) -> None:
    key = secrets.token_hex(32)
    table = started(with_key(settings, key))
    with TestClient(create_app(with_key(settings, key))) as client:
        response = client.get(f"/v1/campaigns/{table.campaign_id}", headers=bearer(table.gm))
        assert response.status_code == 200


def test_another_key_in_the_setting_refuses_to_start_naming_it(settings: Settings) -> None:
    started(with_key(settings, secrets.token_hex(32)))
    with (
        pytest.raises(WrongKey, match="CHRONICLE_SECRET_KEY") as refused,
        TestClient(create_app(with_key(settings, secrets.token_hex(32)))),
    ):
        pass
    assert "sealed with" in str(refused.value)
    assert "The key came from CHRONICLE_SECRET_KEY" in str(refused.value)


def test_a_replaced_key_file_refuses_to_start_naming_the_file(settings: Settings) -> None:
    started(with_key(settings, None))
    key_file = settings.data_dir / KEY_FILENAME
    key_file.write_text(secrets.token_hex(32))
    with (
        pytest.raises(WrongKey, match=KEY_FILENAME) as refused,
        TestClient(create_app(with_key(settings, None))),
    ):
        pass
    assert f"the key file {key_file}" in str(refused.value)


def test_the_key_file_keeps_working_after_the_same_key_moves_to_the_setting(
    settings: Settings,
) -> None:
    started(with_key(settings, None))
    key = (settings.data_dir / KEY_FILENAME).read_text().strip()
    with TestClient(create_app(with_key(settings, key))) as client:
        assert client.get("/health").status_code == 200


def test_a_real_server_with_another_key_exits_with_the_message(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    started(with_key(settings, None))
    monkeypatch.setenv("CHRONICLE_SECRET_KEY", secrets.token_hex(32))
    with pytest.raises(RuntimeError, match="did not start") as refused, running_server(settings):
        pass
    assert "CHRONICLE_SECRET_KEY" in str(refused.value)
    assert "InvalidTag" not in str(refused.value)
