"""Which key signs (domain/signing.py `KEY_REFRESH`): a process reads the keyring for its signatures
at most once a `KEY_REFRESH`, so a key rotated by another process signs here within it; one it
rotated itself signs at once."""

from __future__ import annotations

from datetime import datetime

from domain.requests import RollCreate
from domain.signing import KEY_REFRESH, Signing
from tests.app.table import Table


def test_a_key_rotated_elsewhere_signs_here_after_the_refresh_and_one_rotated_here_at_once() -> (
    None
):
    table = Table("wcbh")
    app = table.app
    scene, hero = table.scene(), table.character("Nova")
    body = RollCreate(check="trait", request={"trait": "Agility"}, character_id=hero)
    record = table.record(table.gm_runs("roll", scene, body))
    now = app.clock()
    app.clock = lambda: now
    first = app.signing.receipt(record)["key_id"]
    elsewhere = Signing(app.repository, app.save, app.sealer, app.clock)  # another process's
    rotated = elsewhere.rotate()
    assert app.signing.receipt(record)["key_id"] == first != rotated
    moved: datetime = now + KEY_REFRESH
    app.clock = lambda: moved
    assert app.signing.receipt(record)["key_id"] == rotated
    again = app.signing.rotate()
    assert app.signing.receipt(record)["key_id"] == again
