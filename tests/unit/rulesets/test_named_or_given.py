"""The value a check rolls, named on the sheet or given for a GM's raw roll (Class D's stat, nWoD's
Affinity): one shared rule, refused with the field at fault, tested on both systems' checks."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.rulesets import get_ruleset
from systems.classd.rules.checks import StatRequest, stat_value
from systems.nwod_micro.rules.checks import PoolRequest, affinity_value

CLASSD = get_ruleset("classd")
NWOD = get_ruleset("nwod-micro")


def classd_sheet() -> Any:
    settings = CLASSD.parse_settings(None)
    return CLASSD.parse_sheet(CLASSD.example_sheet(), settings, side="hero")


def nwod_sheet() -> Any:
    settings = NWOD.parse_settings(None)
    return NWOD.parse_sheet(NWOD.example_sheet(), settings, side="hero")


def field_refused(call: Any) -> str | None:
    with pytest.raises(InvalidInput) as caught:
        call()
    return caught.value.field


def test_a_named_stat_is_read_from_the_sheet_and_a_given_one_is_taken_as_it_is_cd_2() -> None:
    sheet = classd_sheet()
    assert stat_value(StatRequest.model_validate({"stat": "speed", "difficulty": 8}), sheet) == (
        "speed",
        sheet.speed,
    )
    assert stat_value(StatRequest.model_validate({"stat_value": 4, "difficulty": 8}), None) == (
        None,
        4,
    )


def test_a_named_affinity_is_read_from_the_sheet_and_a_given_pool_is_taken_as_it_is() -> None:
    sheet = nwod_sheet()
    assert affinity_value(PoolRequest.model_validate({"affinity": "VIO"}), sheet) == (
        "VIO",
        sheet.affinities.VIO,
    )
    assert affinity_value(PoolRequest.model_validate({"pool": 5}), None) == (None, 5)


@pytest.mark.parametrize(
    ("request_fields", "with_sheet", "field"),
    [
        ({"stat": "speed", "stat_value": 4}, True, "request.stat_value"),
        ({}, True, "request.stat"),
        ({"stat": "speed"}, False, "request.stat"),
    ],
)
def test_class_d_refuses_both_or_neither_and_a_named_stat_without_a_character(
    request_fields: dict[str, Any], with_sheet: bool, field: str
) -> None:
    request = StatRequest.model_validate({"difficulty": 8, **request_fields})
    sheet = classd_sheet() if with_sheet else None
    assert field_refused(lambda: stat_value(request, sheet)) == field


@pytest.mark.parametrize(
    ("request_fields", "with_sheet", "field"),
    [
        ({"affinity": "VIO", "pool": 4}, True, "request.pool"),
        ({}, True, "request.affinity"),
        ({"affinity": "VIO"}, False, "request.affinity"),
    ],
)
def test_nwod_refuses_both_or_neither_and_a_named_affinity_without_a_character(
    request_fields: dict[str, Any], with_sheet: bool, field: str
) -> None:
    request = PoolRequest.model_validate(request_fields)
    sheet = nwod_sheet() if with_sheet else None
    assert field_refused(lambda: affinity_value(request, sheet)) == field
