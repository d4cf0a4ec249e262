"""docker-compose.yml and deploy/nginx.conf stay consistent with the code. Docker cannot run on this
machine, so the deployment is read as a structure: its services, their commands and healthchecks,
and the proxy's upstreams and stream location."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
import yaml  # type: ignore[import-untyped]

from api.cli import build_parser
from api.main import create_app
from api.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def concrete(value: str) -> str:
    """A compose value with each ${NAME:-default} replaced by its default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def healthcheck(service: str) -> list[str]:
    test = SERVICES[service]["healthcheck"]["test"]
    assert test[0] in ("CMD", "CMD-SHELL"), f"{service}: a healthcheck is CMD or CMD-SHELL"
    return list(test[1:]) if test[0] == "CMD" else shlex.split(test[1])


def nginx_block(name: str) -> str:
    """The text of the first block whose header starts with `name` (braces balanced)."""
    start = NGINX.index(name)
    depth = 0
    for end in range(NGINX.index("{", start), len(NGINX)):
        depth += {"{": 1, "}": -1}.get(NGINX[end], 0)
        if depth == 0:
            return NGINX[start : end + 1]
    raise AssertionError(f"the block {name} is not closed")


def test_every_chronicle_variable_in_the_deployment_is_a_real_setting() -> None:
    text = (ROOT / "docker-compose.yml").read_text() + (ROOT / "Dockerfile").read_text()
    names = set(re.findall(r"CHRONICLE_([A-Z_]+)\s*[:=]", text))
    fields = {name.upper() for name in Settings.model_fields}
    assert names, "the deployment sets no CHRONICLE_ variable"
    assert names - {"DB_PASSWORD"} <= fields


def test_the_deployment_database_url_is_one_the_service_accepts() -> None:
    url = concrete(COMPOSE["x-chronicle-env"]["CHRONICLE_DATABASE_URL"])
    env = Settings(database_url=url).eventsourcing_env()
    assert env["PERSISTENCE_MODULE"] == "domain.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_DBNAME"]) == ("postgres", "chronicle")
    assert env["POSTGRES_HOST"] in SERVICES


def test_several_api_replicas_run_behind_the_proxy_and_only_the_proxy_is_published() -> None:
    api = SERVICES["api"]
    assert api["deploy"]["replicas"] >= 2
    assert "ports" not in api  # replicas cannot share a host port; the proxy is the way in
    assert api["environment"]["CHRONICLE_PROJECTIONS"] == "external"
    assert SERVICES["proxy"]["depends_on"]["api"]["condition"] == "service_healthy"
    assert SERVICES["proxy"]["ports"]
    for service in ("api", "projections"):
        assert SERVICES[service]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_proxy_is_nginx_from_its_official_image_with_the_repository_config() -> None:
    proxy = SERVICES["proxy"]
    assert re.fullmatch(r"nginx:[\w.-]+", proxy["image"])  # the official image, no registry prefix
    mounts = {m.split(":")[1]: m.split(":")[0] for m in proxy["volumes"]}
    assert (ROOT / mounts["/etc/nginx/nginx.conf"]).resolve() == ROOT / "deploy" / "nginx.conf"


def test_the_proxy_sends_every_request_to_the_api_service_at_its_port() -> None:
    upstream = nginx_block("upstream chronicle_api")
    servers = re.findall(r"^\s*server\s+([\w.-]+):(\d+)\b(.*);", upstream, re.MULTILINE)
    port = SERVICES["api"]["environment"]["CHRONICLE_PORT"]
    assert [(host, p) for host, p, _ in servers] == [("api", port)]
    assert "resolve" in servers[0][2].split()  # finds every replica, and new ones
    assert re.search(r"resolver\s+127\.0\.0\.11\b", NGINX)  # Docker's DNS
    assert re.findall(r"proxy_pass\s+http://(\w+);", NGINX) == ["chronicle_api"] * 2


def test_the_stream_passes_the_proxy_unbuffered() -> None:
    location = nginx_block("location ~ ^/v1/campaigns/[^/]+/stream$")
    pattern = re.search(r"location ~ (\S+)", location)
    assert pattern is not None
    assert re.search(pattern.group(1), f"/v1/campaigns/{uuid4()}/stream")
    paths = {getattr(r, "path", "") for r in create_app(Settings()).routes}
    assert "/v1/campaigns/{campaign_id}/stream" in paths
    assert re.search(r"proxy_buffering\s+off;", location)
    timeout = re.search(r"proxy_read_timeout\s+(\d+)([smh]);", location)
    assert timeout is not None
    seconds = int(timeout.group(1)) * {"s": 1, "m": 60, "h": 3600}[timeout.group(2)]
    assert seconds > 15  # longer than the stream's idle heartbeat


def test_the_proxy_lets_the_api_refuse_large_bodies_itself() -> None:
    size = re.search(r"client_max_body_size\s+(\d+)m;", NGINX)
    assert size is not None
    assert int(size.group(1)) * 1024 * 1024 > Settings().max_body_bytes


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_every_service_has_a_healthcheck_of_its_own(service: str) -> None:
    assert healthcheck(service)


def test_the_worker_checks_its_heartbeat_not_the_apis_http_port() -> None:
    worker = SERVICES["projections"]
    args = build_parser().parse_args(worker["command"][1:])
    assert args.command == "project"
    assert args.heartbeat is not None
    check = healthcheck("projections")
    assert check[:3] == ["python", "-m", "projections.heartbeat"]
    assert Path(check[3]) == args.heartbeat  # the file the worker touches
    assert not any("8000" in part or "http" in part for part in check)
    assert "CHRONICLE_PROJECTIONS" in worker["environment"]


def test_the_api_healthcheck_asks_the_api_itself() -> None:
    check = " ".join(healthcheck("api"))
    port = SERVICES["api"]["environment"]["CHRONICLE_PORT"]
    assert f"http://127.0.0.1:{port}/health" in check
