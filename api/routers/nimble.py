"""HTTP verbs of domain/verbs/nimble_encounter.py."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["nimble"], responses=ERROR_RESPONSES)
