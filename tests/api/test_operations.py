"""The operator's view over HTTP: request ids on answers and error bodies, who may read /metrics,
and what it counts (requests, latency and command outcomes per operation id, the views' lag)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.datastructures import State

from api.main import create_app
from api.metrics import AppGauges
from api.settings import Settings
from projections.webhook_metrics import count_webhook_delivery
from tests.api.support import Table, bearer
from tests.client import TestClient

LOOPBACK = ("127.0.0.1", 40000)
ELSEWHERE = ("192.0.2.7", 40000)
TOKEN = "scrape-me-" + "x" * 20


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    """A client on the loopback interface, as a scraper beside the server is."""
    settings = Settings(data_dir=tmp_path, metrics_token=TOKEN)
    with TestClient(create_app(settings), client=LOOPBACK) as value:
        yield value


def samples(client: TestClient, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """The values of one metric in a scrape, by their labels."""
    text = client.get("/metrics").text
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def value(client: TestClient, name: str, **labels: str) -> float:
    return samples(client, name).get(tuple(sorted(labels.items())), 0.0)


def test_an_answer_carries_a_new_request_id_when_none_was_sent(client: TestClient) -> None:
    first = client.get("/health").headers["X-Request-Id"]
    second = client.get("/health").headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", first)
    assert first != second


def test_an_incoming_request_id_is_answered_and_named_in_the_error_body(client: TestClient) -> None:
    response = client.get("/v1/campaigns/nope", headers={"X-Request-Id": "proxy-7f3a.1"})
    assert response.status_code == 401
    assert response.headers["X-Request-Id"] == "proxy-7f3a.1"
    assert response.json()["error"]["request_id"] == "proxy-7f3a.1"


@pytest.mark.parametrize("sent", ["has spaces", "x" * 129, 'quote"d', ""])
def test_an_unfit_incoming_request_id_is_replaced(client: TestClient, sent: str) -> None:
    answered = client.get("/health", headers={"X-Request-Id": sent}).headers["X-Request-Id"]
    assert answered != sent
    assert re.fullmatch(r"[0-9a-f]{32}", answered)


def test_an_answer_a_middleware_gives_carries_the_request_id_too(client: TestClient) -> None:
    too_big = client.post("/v1/campaigns", content=b"x" * 2_000_000, headers={"X-Request-Id": "r1"})
    assert too_big.status_code == 413
    assert too_big.json()["error"]["request_id"] == "r1"


def test_metrics_answer_the_loopback_in_prometheus_text(local: TestClient) -> None:
    response = local.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "# TYPE chronicle_http_requests_total counter" in response.text


def test_metrics_refuse_another_host_without_the_token(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, metrics_token=TOKEN)
    with TestClient(create_app(settings), client=ELSEWHERE) as remote:
        refused = remote.get("/metrics")
        wrong = remote.get("/metrics", headers=bearer(TOKEN + "y"))
        allowed = remote.get("/metrics", headers=bearer(TOKEN))
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "metrics_forbidden"
    assert wrong.status_code == 403
    assert allowed.status_code == 200


def test_metrics_refuse_every_other_host_when_no_token_is_set(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), client=ELSEWHERE) as remote:
        assert remote.get("/metrics", headers=bearer("")).status_code == 403


def test_requests_are_counted_and_timed_by_operation_id_and_status(local: TestClient) -> None:
    before = value(local, "chronicle_http_requests_total", operation="health", status="200")
    timed = value(local, "chronicle_http_request_duration_seconds_count", operation="health")
    for _ in range(3):
        local.get("/health")
    local.get("/no/such/path")
    after = value(local, "chronicle_http_requests_total", operation="health", status="200")
    assert after - before == 3
    assert value(local, "chronicle_http_request_duration_seconds_count", operation="health") == (
        timed + 3
    )
    assert value(local, "chronicle_http_requests_total", operation="unrouted", status="404") >= 1


def test_command_outcomes_are_ok_refused_with_their_code_or_conflict(local: TestClient) -> None:
    def outcomes() -> dict[tuple[str, str], float]:
        found = samples(local, "chronicle_command_outcomes_total")
        return {
            (labels["outcome"], labels["code"]): count
            for key, count in found.items()
            if (labels := dict(key))["operation"] == "advance_page"
        }

    table = Table(local)
    path = f"/v1/scenes/{table.scene()}/pages"
    before = outcomes()
    assert local.post(path, headers=bearer(table.gm)).status_code == 200
    assert local.post(path, headers=bearer(table.player)).status_code == 403
    assert local.post(path, headers={**bearer(table.gm), "If-Match": '"1"'}).status_code == 409
    after = outcomes()
    changed = {key: n - before.get(key, 0) for key, n in after.items() if n != before.get(key, 0)}
    assert changed == {
        ("ok", ""): 1,
        ("refused", "forbidden"): 1,
        ("conflict", "version_conflict"): 1,
    }
    table.get(f"/v1/campaigns/{table.campaign_id}")  # a read is no command
    reads = samples(local, "chronicle_command_outcomes_total")
    assert not [labels for labels in reads if ("operation", "get_campaign") in labels]


def test_a_scrape_reads_the_log_head_and_the_views_lag(local: TestClient) -> None:
    Table(local)
    head = local.get("/health").json()["position"]
    assert value(local, "chronicle_log_head_position") >= head
    assert value(local, "chronicle_store_up") == 1
    lag = value(local, "chronicle_views_lag_events")
    assert lag == value(local, "chronicle_log_head_position") - value(
        local, "chronicle_views_position"
    )


def test_the_open_streams_of_the_app_are_its_subscribers(local: TestClient) -> None:
    state = State()
    state.stream_head = type("Head", (), {"streams": 3})()
    state.store_gate = type("Gate", (), {"reachable": lambda self: False})()
    gauges = {metric.name: metric.samples[0].value for metric in AppGauges(state).collect()}
    # and with the store unreachable, nothing that would have to ask it
    assert gauges == {"chronicle_stream_subscribers": 3, "chronicle_store_up": 0}


def test_webhook_deliveries_the_delivery_code_counts_reach_the_scrape(local: TestClient) -> None:
    name = "chronicle_webhook_deliveries_total"
    before = {o: value(local, name, outcome=o) for o in ("delivered", "retrying", "failed")}
    count_webhook_delivery("delivered")
    count_webhook_delivery("retrying")
    count_webhook_delivery("retrying")
    after = {o: value(local, name, outcome=o) - before[o] for o in before}
    assert after == {"delivered": 1, "retrying": 2, "failed": 0}


def test_an_unexpected_error_is_a_500_naming_the_request_id_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(data_dir=tmp_path))

    def boom() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/boom", boom)
    with TestClient(app) as client:
        answer = client.get("/boom", headers={"X-Request-Id": "bug-1"})
    assert answer.status_code == 500
    assert answer.headers["X-Request-Id"] == "bug-1"
    assert answer.json()["error"]["code"] == "internal_error"
    assert answer.json()["error"]["request_id"] == "bug-1"
    [logged] = [r for r in caplog.records if r.getMessage() == "unexpected error"]
    assert logged.exc_info is not None and "a bug" in str(logged.exc_info[1])
