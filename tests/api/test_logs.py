"""Logs: one JSON object a line (or text, by setting), each line written while a request runs
carrying the request's id, uvicorn's access lines included."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from api.logs import LogFormat, log_config
from api.request_ids import RequestIds
from api.settings import Settings
from tests.client import TestClient
from tests.server import Server, loopback_client, running_server


def handler_for(fmt: LogFormat, stream: io.StringIO) -> logging.Handler:
    """The handler `chronicle serve` logs through, writing into `stream`."""
    config = log_config(fmt, "info")
    configurator = logging.config.DictConfigurator(config)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(configurator.configure_formatter(config["formatters"]["chosen"]))
    handler.addFilter(configurator.configure_filter(config["filters"]["request_id"]))
    return handler


@pytest.fixture
def logged() -> Iterator[tuple[TestClient, io.StringIO, logging.Logger]]:
    """An app whose one route logs twice, from the thread pool as our routes do."""
    app = FastAPI()
    log = logging.getLogger("chronicle.test_logs")

    @app.get("/work")
    def work() -> dict[str, str]:
        log.info("started")
        log.warning("done %s", "twice", extra={"count": 2})
        return {}

    app.add_middleware(RequestIds)  # type: ignore[arg-type]
    with TestClient(app) as client:
        yield client, io.StringIO(), log


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_every_line_a_request_writes_carries_its_id(
    logged: tuple[TestClient, io.StringIO, logging.Logger], fmt: LogFormat
) -> None:
    client, stream, log = logged
    handler = handler_for(fmt, stream)
    log.addHandler(handler)
    log.setLevel(logging.INFO)  # as `chronicle serve --log-level info` sets the root's
    try:
        client.get("/work", headers={"X-Request-Id": "trace-42"})
        log.info("outside any request")
    finally:
        log.removeHandler(handler)
        log.setLevel(logging.NOTSET)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    if fmt == "text":
        assert [("[trace-42]" in line) for line in lines] == [True, True, False]
        assert lines[1].endswith("done twice")
        return
    records = [json.loads(line) for line in lines]
    assert [r["request_id"] for r in records] == ["trace-42", "trace-42", None]
    assert records[1]["message"] == "done twice"
    assert records[1]["count"] == 2
    assert (records[1]["level"], records[1]["logger"]) == ("WARNING", "chronicle.test_logs")
    assert "time" in records[1]


def until_logged(server: Server, text: str) -> str:
    """The server's stderr line holding `text`, read as the server writes it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [line for line in list(server.log) if text in line]
        if found:
            return found[0]
        time.sleep(0.01)
    raise AssertionError(f"the server logged no line with {text!r}:\n{''.join(server.log)}")


def test_the_server_logs_json_lines_with_the_request_id_on_its_access_lines(
    tmp_path: Path,
) -> None:
    with running_server(Settings(data_dir=tmp_path)) as server:
        with loopback_client() as http:
            answer = http.get(f"{server.url}/health", headers={"X-Request-Id": "probe-9"})
        line = until_logged(server, "probe-9")
        written = list(server.log)
    access = json.loads(line)
    assert answer.headers["X-Request-Id"] == "probe-9"
    assert access["logger"] == "uvicorn.access"
    assert (access["method"], access["path"], access["status"]) == ("GET", "/health", 200)
    assert access["request_id"] == "probe-9"
    for each in written:  # every line is one JSON object, the start-up lines too
        assert isinstance(json.loads(each), dict), each
