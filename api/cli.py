"""The `chronicle` command: serve the API, verify an export offline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from api.settings import Settings


def _settings(args: argparse.Namespace) -> Settings:
    flags = {
        "host": args.host,
        "port": args.port,
        "data_dir": args.data_dir,
        "database_url": args.database_url,
    }
    return Settings(**{k: v for k, v in flags.items() if v is not None})


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.main import create_app

    settings = _settings(args)
    where = settings.database_url and "PostgreSQL" or f"SQLite in {settings.data_dir.resolve()}"
    print(f"Chronicle on http://{settings.host}:{settings.port} (store: {where})", flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level=args.log_level)
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Check an export offline: no service, no database, only the file and the algorithm."""
    import json

    from domain.audit import Problem, Report, verify_export

    entries = []
    bad: list[Problem] = []
    with open(args.file, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except ValueError:
                bad.append(Problem("unreadable", f"line {number} is not JSON"))
    report: Report = verify_export(entries)
    report.problems[:0] = bad
    print(f"{report.rolls} roll records, {report.recomputed} recomputed from revealed seeds")
    for problem in report.problems:
        where = f"sequence {problem.sequence}: " if problem.sequence is not None else ""
        print(f"{problem.kind.upper()}: {where}{problem.message}")
    print("OK: the chain is intact and every revealed roll recomputes" if report.intact else "FAILED")
    return 0 if report.intact else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chronicle", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API (uvicorn)")
    serve.add_argument("--host", help="interface to bind (CHRONICLE_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (CHRONICLE_PORT, default 8000)")
    serve.add_argument("--data-dir", type=Path, help="SQLite file and key live here (CHRONICLE_DATA_DIR)")
    serve.add_argument(
        "--database-url", help="postgresql://user[:password]@host[:port]/dbname (CHRONICLE_DATABASE_URL)"
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(func=_serve)
    verify = sub.add_parser("verify", help="check an export (JSON Lines) offline; exit 1 on any problem")
    verify.add_argument("file", type=Path, help="the file from GET /v1/campaigns/{id}/export")
    verify.set_defaults(func=_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ValidationError as exc:
        print(f"chronicle: bad setting: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
