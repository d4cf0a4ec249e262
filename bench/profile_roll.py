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
from tests.conftest import store_settings

COUNTED = {
    "store reads": "select_events",
    "deep copies": "deepcopy",
    "receipts signed": "sign_receipt",
    "commits": "commit",
}


def table(client: TestClient, described: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """A campaign with a hero and an open scene: the GM's token, the scene and the roll's body."""
    created = client.post("/v1/campaigns", json={"name": "P", "ruleset": "wcbh"}).json()
    gm = {"Authorization": f"Bearer {created['gm_token']}"}

    def made(path: str, body: dict[str, Any]) -> str:
        return str(client.post(path, json=body, headers=gm).json()["id"])

    hero = {"name": "Nova", "side": "hero", "sheet": described["example_sheet"]}
    hero_id = made(f"/v1/campaigns/{created['id']}/characters", hero)
    story = made(f"/v1/campaigns/{created['id']}/stories", {"title": "S"})
    issue = made(f"/v1/stories/{story}/issues", {"title": "I"})
    scene = made(f"/v1/issues/{issue}/scenes", {"title": "Sc"})
    trait = next(c for c in described["checks"] if c["name"] == "trait")
    return (
        created["gm_token"],
        scene,
        {"check": "trait", "request": trait["example"], "character_id": hero_id},
    )


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
            described = client.get("/v1/rulesets/wcbh").json()
            tables = [table(client, described) for _ in range(10)]
            app = client.app.state.chronicle  # type: ignore[attr-defined]
            REQUEST_SIGNING.set(app.signing)

            def roll(n: int) -> None:
                token, scene, body = tables[n % len(tables)]
                actor = app.authenticate(token)
                commands = Commands(app, actor, None, None, hashlib.sha256(b"p").hexdigest())
                commands.run(
                    app.roll,
                    UUID(scene),
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
