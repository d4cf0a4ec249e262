"""cProfile of WCBH trait rolls through the command runner and the roll's presenter, in one thread:
call counts (store reads, deep copies, signatures, commits) that do not depend on the machine's load.

Run: .venv/bin/python bench/profile_roll.py [--rolls 300] [--backend sqlite] [--out FILE]
Prints the counts per roll and the functions with the largest cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import sys
import tempfile
from pathlib import Path
from typing import Any
from uuid import UUID

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.deps import Commands
from api.main import create_app
from api.presenters import roll_shown
from api.schemas import REQUEST_SIGNING
from domain.requests import RollCreate
from tests.api.support import Table
from tests.api.test_rolls import Dice
from tests.conftest import store_settings

COUNTED = {
    "store reads": "select_events",
    "deep copies": "deepcopy",
    "receipts signed": "sign_receipt",
    "commits": "commit",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--out", type=Path, help="also write the raw profile (pstats) here")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as data_dir,
        store_settings(args.backend, Path(data_dir)) as settings,
    ):
        settings.projections = "external"  # the views runner is not what is profiled
        with TestClient(create_app(settings)) as client:
            tables = [Dice(Table(client)) for _ in range(10)]
            app = client.app.state.chronicle  # type: ignore[attr-defined]
            REQUEST_SIGNING.set(app.signing)

            def roll(n: int) -> None:
                dice = tables[n % len(tables)]
                actor = app.authenticate(dice.table.gm)
                body = {"check": dice.check, "request": dice.example, "character_id": dice.hero}
                commands = Commands(app, actor, None, None, hashlib.sha256(b"p").hexdigest())
                commands.run(
                    app.roll,
                    UUID(dice.scene),
                    RollCreate(**body),
                    present=lambda outcome: roll_shown(outcome, commands),
                    status_code=201,
                )

            for n in range(len(tables)):  # every campaign in the cache, as in a running server
                roll(n)
            profile = cProfile.Profile()
            profile.enable()
            for n in range(args.rolls):
                roll(n)
            profile.disable()
    stats = pstats.Stats(profile)
    if args.out:
        stats.dump_stats(args.out)
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    calls = sum(entry[1] for entry in entries.values())
    print(f"{calls / args.rolls:,.0f} Python function calls per roll")
    for label, name in COUNTED.items():
        primitive = sum(entry[0] for key, entry in entries.items() if key[2] == name)
        print(f"{primitive / args.rolls:6.2f} {label} per roll")
    stats.sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
