"""The `chronicle` command: serve the API (more subcommands join as capabilities land)."""

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
