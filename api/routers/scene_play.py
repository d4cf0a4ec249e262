"""HTTP verbs of domain/verbs/scene_play.py (We Can Be Heroes play)."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["scene_play"], responses=ERROR_RESPONSES)
