"""HTTP verbs of domain/verbs/fight.py (We Can Be Heroes play)."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["fight"], responses=ERROR_RESPONSES)
