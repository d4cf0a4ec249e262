"""The verification report's `client_seed_reused` warning is about one seed epoch (docs/fair-dice.md
§10, §11): the same client seed under another seed is no reuse (the seed differs, so do the dice).
(A reuse within an epoch and a server-made client seed: tests/api/test_audit.py.)"""

from __future__ import annotations

from uuid import UUID

from domain.receipts import audit_export
from domain.requests import RollCreate
from tests.app.table import Table


def roll(table: Table, scene: UUID, hero: UUID, client_seed: str | None) -> str:
    body = RollCreate(
        check="trait", request={"trait": "Agility"}, character_id=hero, client_seed=client_seed
    )
    return str(table.record(table.run(table.player, "roll", scene, body))["roll_id"])


def warnings(table: Table) -> list[tuple[str, str]]:
    report = audit_export(table.export())
    assert report.intact, [p.message for p in report.problems]
    return [(w.kind, str(w.roll_id)) for w in report.warnings]


def table_with_hero() -> tuple[Table, UUID, UUID]:
    table = Table("wcbh")
    hero = table.character("Nova", owner=table.player)
    return table, table.scene(), hero


def test_the_same_client_seed_in_another_epoch_is_no_reuse() -> None:
    table, scene, hero = table_with_hero()
    roll(table, scene, hero, "lucky")
    table.gm_runs("rotate_seed", scene)  # a new seed epoch: the nonces start again at 0
    roll(table, scene, hero, "lucky")
    other = table.scene(title="The roof")
    roll(table, other, hero, "lucky")
    table.gm_runs("close_scene", scene)
    table.gm_runs("close_scene", other)

    assert warnings(table) == []
