"""The ruleset catalogue: its description (with an example sheet per side) and its rules reference,
which a refusal's `rule` field points to."""

from __future__ import annotations

from tests.client import TestClient


def test_the_rules_reference_is_served_as_json_and_as_its_document(client: TestClient) -> None:
    response = client.get("/v1/rulesets/wcbh/rules")
    assert response.status_code == 200
    rules = {rule["id"]: rule for rule in response.json()}
    assert set(rules["WCBH-25"]) == {"id", "title", "section", "text", "status", "enforced"}
    assert rules["WCBH-25"]["status"] == "enforced"
    assert "declare_actions" in rules["WCBH-25"]["enforced"]
    assert [r["id"] for r in response.json()][:2] == ["WCBH-1", "WCBH-2"]

    document = client.get("/v1/rulesets/nwod-micro/rules", headers={"Accept": "text/markdown"})
    assert document.status_code == 200
    assert document.headers["content-type"].startswith("text/markdown")
    assert "### NW-16 Ammunition" in document.text

    unknown = client.get("/v1/rulesets/dnd5e/rules")
    assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "ruleset_id"


def test_the_description_gives_an_example_sheet_for_every_side(client: TestClient) -> None:
    described = client.get("/v1/rulesets/nimble").json()
    examples = described["example_sheets"]
    assert list(examples) == ["hero", "villain", "opponent", "minion", "other"]
    assert examples["hero"] == described["example_sheet"]
    assert examples["minion"]["kind"] == "monster" and examples["minion"]["count"] > 1
