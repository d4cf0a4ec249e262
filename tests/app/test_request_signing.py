"""One request's receipts (domain/signing.py `RequestSigning`): signed with the key active at its
first receipt, the keyring read once; the next request signs with the key active then."""

from __future__ import annotations

from domain.requests import RollCreate
from tests.app.table import Table


def test_a_request_signs_every_receipt_with_one_key_and_the_next_with_the_new_one() -> None:
    table = Table("wcbh")
    hero = table.character("Nova")
    scene = table.scene()
    body = RollCreate(check="trait", request={"trait": "Agility"}, character_id=hero)
    first, second = (table.record(table.gm_runs("roll", scene, body)) for _ in range(2))
    request = table.app.signing.for_request()
    before = request.receipt(first)
    rotated = table.app.signing.rotate()
    during = request.receipt(second)
    assert before["key_id"] == during["key_id"] != rotated
    assert table.app.signing.for_request().receipt(second)["key_id"] == rotated
