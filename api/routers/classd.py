"""HTTP verbs of domain/verbs/classd_fight.py (Class D Heroes combat)."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["classd"], responses=ERROR_RESPONSES)
