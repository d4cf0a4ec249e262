"""The ids the request examples of the OpenAPI document use (api/examples.py and each system's
openapi.py), one name per role, so an example reads as a table: the hero helps the sidekick."""

from __future__ import annotations

HERO = "6f1c2b9e-0d5a-4c3e-9b7a-1e2f3a4b5c6d"
SIDEKICK = "a2d4e6f8-1b3c-4d5e-8f9a-0b1c2d3e4f5a"
VILLAIN = "c3e5f7a9-2b4d-4e6f-9a1b-3c5d7e9f1a2b"
HENCHMAN = "d4f6a8b0-3c5e-4f7a-8b2c-4d6e8f0a2b3c"
PLAYER = "e5a7b9c1-4d6f-4a8b-9c3d-5e7f9a1b3c4d"
SCENE = "f6b8c0d2-5e7a-4b9c-8d4e-6f8a0b2c4d5e"
ROLL = "07c9d1e3-6f8b-4cad-9e5f-7a9b1c3d5e6f"
