"""Scripted dice for check tests: a real Roller whose source returns chosen faces in order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from pydantic import BaseModel

from domain.dice.roller import Roller
from domain.dice.source import FairSource
from domain.rulesets import RULESETS


class ScriptedSource:
    """Hands out the given faces in order; running out is a test bug, so it fails loudly."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def die(self, sides: int) -> int:
        if not self.faces:
            raise AssertionError("the test scripted too few faces")
        face = self.faces.pop(0)
        assert 1 <= face <= sides, f"face {face} on a d{sides}"
        return face


def scripted(*faces: int) -> Roller:
    return Roller(cast(FairSource, ScriptedSource(faces)))


def sheet_and_settings(
    ruleset_id: str,
    sheet: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    side: str = "hero",
) -> tuple[BaseModel, BaseModel]:
    rules = RULESETS[ruleset_id]
    parsed_settings = rules.parse_settings(settings)
    raw = rules.example_sheet() if sheet is None else sheet
    return rules.parse_sheet(raw, parsed_settings, side=side), parsed_settings
