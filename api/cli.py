"""The `chronicle` command: serve the API, run projection workers, rebuild views, replay, verify."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from uuid import UUID

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
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=10,  # a backstop: open streams end on shutdown by themselves
    )
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Check an export offline: no service, no database, only the file and the algorithm.
    Exit 0 intact, 1 tampered, 2 no usable export (docs/fair-dice.md)."""
    from domain.audit import UnusableExport, parse_export, verify_export

    try:
        if args.file == "-":
            entries = parse_export(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as f:
                entries = parse_export(f)
    except (OSError, UnicodeDecodeError, UnusableExport) as exc:
        print(f"chronicle verify: {args.file}: {exc}", file=sys.stderr)
        return 2
    report = verify_export(entries, require_revealed=args.require_revealed)
    print("\n".join(report.lines()))
    return 0 if report.intact else 1


def _project(args: argparse.Namespace) -> int:
    """A projection worker: keeps the views up to date until SIGTERM/SIGINT (restarting on errors)."""
    import signal
    import threading

    from projections.runner import Supervisor, open_view_store, views_env

    settings = _settings(args)
    env = settings.eventsourcing_env()
    open_view_store(views_env(env)).datastore.close()  # type: ignore[attr-defined]  # create tables up front
    supervisor = Supervisor(env).start()
    done = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: done.set())
    print("chronicle project: keeping the views up to date", flush=True)
    done.wait()
    supervisor.stop()
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    from projections.runner import rebuild

    position = rebuild(_settings(args).eventsourcing_env())
    print(f"rebuilt every view up to log position {position}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Print a scene's story from the views (no service needed)."""
    from projections.runner import open_view_store, views_env

    store = open_view_store(views_env(_settings(args).eventsourcing_env()))
    scene = store.doc("scene", str(args.scene_id))
    if scene is None:
        print(f"chronicle: no scene {args.scene_id} in the views", file=sys.stderr)
        return 1
    print(f"Scene “{scene['title']}” ({scene['status']}, page {scene['page']})")
    for step in store.timeline("scene_id", str(args.scene_id)):
        print(f"  #{step['position']:<6} {step['at'][:19].replace('T', ' ')}  {step['text']}")
    return 0


def _store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", type=Path, help="SQLite file and key live here (CHRONICLE_DATA_DIR)"
    )
    parser.add_argument(
        "--database-url",
        help="postgresql://user[:password]@host[:port]/dbname (CHRONICLE_DATABASE_URL)",
    )
    parser.set_defaults(host=None, port=None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chronicle", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API (uvicorn)")
    serve.add_argument("--host", help="interface to bind (CHRONICLE_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (CHRONICLE_PORT, default 8000)")
    _store_flags(serve)
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(func=_serve)
    verify = sub.add_parser(
        "verify",
        help="check an export (JSON Lines) offline; exit 1 if tampered, 2 if no usable export",
    )
    verify.add_argument(
        "file", help="the file from GET /v1/campaigns/{id}/export ('-': standard input)"
    )
    verify.add_argument(
        "--require-revealed",
        action="store_true",
        help="fail on rolls whose seed is not revealed yet (by default: reported as unverified)",
    )
    verify.set_defaults(func=_verify)
    project = sub.add_parser("project", help="run a projection worker (the views) until stopped")
    _store_flags(project)
    project.set_defaults(func=_project)
    projections = sub.add_parser("projections", help="manage the views")
    projections_sub = projections.add_subparsers(dest="action", required=True)
    rebuild = projections_sub.add_parser("rebuild", help="rebuild every view from the whole log")
    _store_flags(rebuild)
    rebuild.set_defaults(func=_rebuild)
    replay = sub.add_parser("replay", help="print a scene's story in the terminal")
    replay.add_argument("scene_id", type=UUID)
    _store_flags(replay)
    replay.set_defaults(func=_replay)
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
