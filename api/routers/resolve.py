"""HTTP verbs of domain/verbs/resolve.py (We Can Be Heroes play)."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["resolve"], responses=ERROR_RESPONSES)
