"""HTTP verbs of domain/verbs/nwod_fight.py."""

from __future__ import annotations

from fastapi import APIRouter

from api.errors import ERROR_RESPONSES

router = APIRouter(tags=["nwod"], responses=ERROR_RESPONSES)
