"""Integer query parameters are bounded: a value beyond the stores' 64-bit positions is a 422 naming
the parameter, never a 500 from the database driver."""

from __future__ import annotations

from api.deps import MAX_POSITION
from tests.api.support import Table, bearer, openapi_document

TOO_BIG = 2**63


def _refused(table: Table, path: str, field: str) -> None:
    response = table.client.get(path, headers=bearer(table.gm))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field
    assert str(MAX_POSITION) in error["message"]


def test_after_beyond_64_bits_is_422_naming_it(table: Table) -> None:
    _refused(table, f"/v1/campaigns/{table.campaign_id}/events?after={TOO_BIG}", "after")


def test_at_position_beyond_64_bits_is_422_naming_it(table: Table) -> None:
    character_id = table.character()
    path = f"/v1/characters/{character_id}?at_position={TOO_BIG}"
    _refused(table, path, "at_position")


def test_min_position_beyond_64_bits_is_422_naming_it(table: Table) -> None:
    _refused(table, f"/v1/campaigns/{table.campaign_id}?min_position={TOO_BIG}", "min_position")


def test_the_streams_after_beyond_64_bits_is_422_naming_it(table: Table) -> None:
    _refused(table, f"/v1/campaigns/{table.campaign_id}/stream?after={TOO_BIG}", "after")


def test_the_largest_position_is_still_accepted(table: Table) -> None:
    """The bound is the stores' own: the largest position reads (nothing is that late)."""
    response = table.client.get(
        f"/v1/campaigns/{table.campaign_id}/events?after={MAX_POSITION}", headers=bearer(table.gm)
    )
    assert response.status_code == 200, response.text
    assert response.json()["items"] == []


def test_every_integer_query_parameter_has_an_upper_bound() -> None:
    """Guards new routes too: an unbounded integer query parameter would reach the store as is."""
    unbounded = []
    for path, operations in openapi_document()["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                schema = parameter["schema"]
                for option in [schema, *schema.get("anyOf", [])]:
                    if option.get("type") == "integer" and "maximum" not in option:
                        unbounded.append(f"{method} {path} {parameter['name']}")
    assert unbounded == []
