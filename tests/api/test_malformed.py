"""Every command endpoint, addressed to real scenes and characters of each ruleset's campaign, answers
malformed bodies with a 4xx that writes nothing — never a 5xx. (The schemathesis fuzzing in test_fuzz.py
mostly meets 404s: its ids are random; this reaches the ruleset-specific verbs behind them.)"""

from __future__ import annotations

import re

import pytest

from tests.api.support import Table, bearer, openapi_document
from tests.client import TestClient

NOBODY = "00000000-0000-0000-0000-000000000000"
BODIES = [
    None,
    {},
    [],
    {"x": 1},
    {"character_id": "not-a-uuid"},
    {"character_id": NOBODY, "attacker_id": NOBODY, "target_id": NOBODY, "hero_id": NOBODY},
    {"amount": -5, "change": "lots", "actions": 99, "title": ""},
]


def posts() -> list[str]:
    """Every path with a POST (read when a test runs: building the OpenAPI document at import
    cost each xdist worker 2 s of its collection)."""
    return sorted(p for p, ops in openapi_document()["paths"].items() if "post" in ops)


@pytest.mark.parametrize("ruleset", ["wcbh", "classd", "nimble", "nwod-micro"])
def test_malformed_commands_get_a_4xx_and_write_nothing(client: TestClient, ruleset: str) -> None:
    table = Table(client, ruleset)
    scene = table.scene()
    hero = table.character(table.player)
    ids = {"scene_id": scene, "character_id": hero, "campaign_id": table.campaign_id}
    seen = 0
    position = table.position()
    for path in posts():
        if path.endswith(("/close", "/end", "/complete")):
            continue  # they take no body and would end the scene the others address
        url = re.sub(r"\{(\w+)\}", lambda m: ids.get(m.group(1), NOBODY), path)
        url = url.replace(NOBODY, scene, 1) if "/scenes/" in path else url
        answers = [client.post(url, json=body, headers=bearer(table.gm)) for body in BODIES]
        for body, response in zip(BODIES, answers, strict=True):
            assert response.status_code < 500, (path, body, response.text)
            if response.status_code >= 400:
                assert "error" in response.json(), (path, response.text)
            seen += 1
        # One read of the log's head per endpoint: if every body was refused, nothing may have
        # moved it. If one was accepted, the bodies are sent again, each followed by a read.
        before, position = position, table.position()
        if all(r.status_code >= 400 for r in answers):
            assert position == before, (path, "a refusal wrote something")
            continue
        for body in BODIES:
            response = client.post(url, json=body, headers=bearer(table.gm))
            before, position = position, table.position()
            if response.status_code >= 400:
                assert position == before, (path, body, "a refusal wrote something")
    assert seen > 300  # every command endpoint was reached


DEEP = "[" * 100_000 + "]" * 100_000  # 200 kB, under the body limit; far past the parser's depth


def commands() -> list[tuple[str, str]]:
    return sorted(
        (method, path)
        for path, ops in openapi_document()["paths"].items()
        for method in ops
        if method in ("post", "put", "delete")
    )


def test_a_body_nested_too_deeply_is_400_naming_the_body_on_every_command(
    table: Table,
) -> None:
    # Routes without a body (a DELETE, a safe rest) were a 500: the request hash parsed it.
    ids = {"campaign_id": table.campaign_id, "character_id": table.character(table.player)}
    before = table.position()
    for method, path in commands():
        url = re.sub(r"\{(\w+)\}", lambda m: ids.get(m.group(1), NOBODY), path)
        headers = {**bearer(table.gm), "Content-Type": "application/json"}
        response = table.client.request(method.upper(), url, content=DEEP, headers=headers)
        assert response.status_code == 400, (method, path, response.text)
        error = response.json()["error"]
        assert (error["code"], error["field"]) == ("malformed_json", "body"), (method, path)
        assert "nested too deeply" in error["message"]
    assert table.position() == before
