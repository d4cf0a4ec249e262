"""docker-compose.yml stays consistent with the code (Docker itself cannot run on this machine)."""

from __future__ import annotations

import re
from pathlib import Path

from api.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_every_chronicle_variable_in_the_deployment_is_a_real_setting() -> None:
    text = (ROOT / "docker-compose.yml").read_text() + (ROOT / "Dockerfile").read_text()
    names = set(re.findall(r"CHRONICLE_([A-Z_]+)\s*[:=]", text))
    fields = {name.upper() for name in Settings.model_fields}
    assert names, "the deployment sets no CHRONICLE_ variable"
    assert names - {"DB_PASSWORD"} <= fields


def test_the_deployment_runs_projection_workers_and_tells_the_api_not_to() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    assert 'command: ["chronicle", "project"]' in text
    assert "CHRONICLE_PROJECTIONS: external" in text
    assert Settings(projections="external").projections == "external"


def test_the_deployment_database_url_is_one_the_service_accepts() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    url = re.search(r"CHRONICLE_DATABASE_URL: (\S+)", text)
    assert url is not None
    concrete = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", url.group(1))
    env = Settings(database_url=concrete).eventsourcing_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_DBNAME"]) == ("postgres", "chronicle")
