"""The `chronicle` command: serve the API, run projection workers, rebuild views, replay, verify."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from api import cli_ops
from api.cli_ops import EXIT_BAD_INPUT, EXIT_STORE_UNREACHABLE, StoreUnreachable
from api.settings import Settings
from domain import receipts
from domain.secrets import WrongKey


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags; the environment (CHRONICLE_*) gives the rest."""
    flags = {
        "host": args.host,
        "port": args.port,
        "data_dir": args.data_dir,
        "database_url": args.database_url,
        "workers": getattr(args, "workers", None),
        "log_format": getattr(args, "log_format", None),
    }
    return {k: v for k, v in flags.items() if v is not None}


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(**_flags(args))


# A backstop for a graceful stop: open streams end on shutdown by themselves.
GRACEFUL_SHUTDOWN_SECONDS = 10
# How long uvicorn's supervisor waits for a worker to answer its health ping before it kills and
# replaces the worker. Its default, 5 s, is less than a worker can be kept from running on a small
# machine under a burst: the load benchmark (4 workers, PostgreSQL, 2 cores) saw a worker replaced,
# the replacement time out on the store's pool while starting, and uvicorn then stop the whole
# server (a worker that fails at start-up stops the parent). A hung worker is still replaced.
WORKER_HEALTHCHECK_SECONDS = 30


def _serve(args: argparse.Namespace) -> int:
    settings = _settings(args)  # a bad setting is refused before seconds of imports

    import uvicorn

    from api.main import create_app

    where = settings.database_url and "PostgreSQL" or f"SQLite in {settings.data_dir.resolve()}"
    print(f"Chronicle on http://{settings.host}:{settings.port} (store: {where})", flush=True)
    if settings.workers > 1:
        return _serve_workers(settings, _flags(args), args.log_level)
    uvicorn.run(create_app(settings), **uvicorn_options(settings, args.log_level))
    return 0


def uvicorn_options(settings: Settings, log_level: str) -> dict[str, Any]:
    """What `chronicle serve` gives uvicorn beside the app, in one process or in workers (and
    what the tests' in-process servers are configured with)."""
    from api.logs import log_config

    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        "log_config": log_config(settings.log_format, log_level),
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
    }


def _serve_workers(settings: Settings, flags: dict[str, Any], log_level: str) -> int:
    """uvicorn's worker processes, each building the app from the environment (the flags are
    passed on in it); the views in one `chronicle project` process beside them, if embedded."""
    import os
    import subprocess

    import uvicorn

    from api.main import prepare_store

    # The store's tables, the server key and the signing key made once, before the workers race.
    prepare_store(settings)
    os.environ.update({f"CHRONICLE_{k.upper()}": str(v) for k, v in flags.items()})
    views = None
    if settings.projections == "embedded":
        os.environ["CHRONICLE_PROJECTIONS"] = "external"  # the workers leave the views to it
        views = subprocess.Popen([sys.executable, "-m", "api.cli", "project"], env=os.environ)
    try:
        uvicorn.run(
            "api.main:create_app",
            factory=True,
            workers=settings.workers,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
            **uvicorn_options(settings, log_level),
        )
    finally:
        if views is not None:
            views.terminate()
            views.wait(timeout=30)
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Check an export offline: no service, no database, only the file and the algorithm.
    Exit 0 intact, 1 tampered, 2 no usable export, 3 nothing wrong but rolls made under rules
    versions this verifier does not know (docs/fair-dice.md)."""
    from domain.audit import CutExport, UnusableExport, parse_export

    try:
        if args.file == "-":
            entries = parse_export(_read(getattr(sys.stdin, "buffer", sys.stdin), args))
        else:
            with open(args.file, "rb") as f:  # bytes: a line that is not UTF-8 is named
                entries = parse_export(_read(f, args))
    except CutExport as exc:
        print(f"TRUNCATED: {exc}\nFAILED")
        return 1
    except (OSError, UnusableExport) as exc:
        print(f"chronicle verify: {args.file}: {exc}", file=sys.stderr)
        return 2
    kept = _receipts_file(args.receipts) if args.receipts is not None else []
    head = _expected_head(args)
    logged, trailer, _ = receipts.split_export(entries)
    keys = _trusted_keys(args, trailer)
    report = receipts.audit_export(
        entries, keys, require_revealed=args.require_revealed, allow_unsigned=args.allow_unsigned
    )
    # Receipts a player kept and a head announced earlier (docs/receipts.md).
    report.problems += receipts.check_receipts(logged, kept, keys)
    if head is not None:
        report.problems += receipts.check_expected_head(logged, head, keys)
    if args.receipts is not None:
        print(f"{len(kept)} receipts checked")
    print("\n".join(report.lines()))
    return report.exit_code


def _read(lines: Any, args: argparse.Namespace) -> Any:
    size = None if args.file == "-" else Path(args.file).stat().st_size
    return cli_ops.counted(lines, size, args.quiet)


class BadInputFile(Exception):
    """A file given to `chronicle verify` cannot be read as what it should be (exit 2)."""


def _json_file(path: Path, what: str) -> Any:
    try:
        return _json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BadInputFile(f"{what} {path}: {exc}") from None


def _json(text: str) -> Any:
    """JSON from a file given to verify; too deep a nesting is bad input like any (the parser
    raises RecursionError for it, which is no ValueError)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply to read") from None


def _receipts_file(path: Path) -> list[dict[str, Any]]:
    """One receipt per line (JSON Lines), as a front end keeps them; blank lines are skipped."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputFile(f"--receipts {path}: {exc}") from None
    found = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                found.append(receipts.parse_receipt(_json(line), f"receipt on line {number}"))
            except (ValueError, receipts.BadStatement) as exc:
                raise BadInputFile(f"--receipts {path}: {exc}") from None
    return found


def _trusted_keys(args: argparse.Namespace, trailer: Any) -> dict[str, bytes]:
    if args.keys is not None:
        try:
            keys = receipts.parse_keys(_json_file(args.keys, "--keys"))
        except receipts.BadStatement as exc:
            raise BadInputFile(f"--keys {args.keys}: {exc}") from None
        print(f"trusted keys from {args.keys}: {', '.join(keys) or 'none'}")
        return keys
    keys = receipts.trailer_keys(trailer)
    print(
        f"trusted keys named by the export itself: {', '.join(keys) or 'none'} (not checked "
        "against the published ones: pass --keys with GET /v1/signing-keys to rule out a forger)"
    )
    return keys


def _expected_head(args: argparse.Namespace) -> Any:
    if args.expect_head is None:
        return None
    try:
        return receipts.parse_head(_json_file(args.expect_head, "--expect-head"))
    except receipts.BadStatement as exc:
        raise BadInputFile(f"--expect-head {args.expect_head}: {exc}") from None


def _rotate_key(args: argparse.Namespace) -> int:
    """A new active signing key for every replica; the old ones stay published."""
    from api.main import build_application

    app = build_application(_settings(args))
    try:
        key_id = app.signing.rotate()
    finally:
        app.close()
    print(f"signing key {key_id} is now active; earlier keys stay published at /v1/signing-keys")
    return 0


def _project(args: argparse.Namespace) -> int:
    """A projection worker: keeps the views up to date until SIGTERM/SIGINT (restarting on errors)."""
    import logging.config
    import signal
    import threading

    from api.logs import log_config
    from api.main import build_application
    from projections.heartbeat import Heartbeat
    from projections.runner import Supervisor, open_view_store, views_env
    from projections.webhooks import start_dispatcher

    settings = _settings(args)
    logging.config.dictConfig(log_config(settings.log_format, "info"))  # as `serve` logs
    app = build_application(settings)
    try:  # the webhooks' secrets are sealed with the server key: refuse another key (WrongKey)
        app.claim_server_key()
    finally:
        app.close()
    env = settings.eventsourcing_env()
    open_view_store(views_env(env)).datastore.close()  # type: ignore[attr-defined]  # create tables up front
    supervisor = Supervisor(env).start()
    # Webhook deliveries run beside the views they are made from (projections/webhooks.py).
    dispatcher = start_dispatcher(env, settings.key_bytes(), settings.webhook_policy(), supervisor)
    heartbeat = Heartbeat(args.heartbeat, supervisor.alive).start() if args.heartbeat else None
    done = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: done.set())
    print("chronicle project: keeping the views up to date", flush=True)
    done.wait()
    if heartbeat is not None:
        heartbeat.stop()
    dispatcher.stop()
    supervisor.stop()
    return 0


# `chronicle projections rebuild` exit codes (besides 0, switched, and 2, a bad setting).
REBUILD_STORE_FAILED = 3  # the store failed or could not be reached: the live views are unchanged
REBUILD_RUNNING = 4  # another rebuild of the same views is under way: nothing was done
REBUILD_INTERRUPTED = 5  # stopped (Ctrl-C) before the switch: the live views are unchanged


def _rebuild(args: argparse.Namespace) -> int:
    """New views beside the live ones, switched to in one transaction once caught up."""
    from eventsourcing.persistence import PersistenceError

    from api.progress import progress_bar
    from projections.rebuild import rebuild
    from projections.store import RebuildRunning

    env = _settings(args).eventsourcing_env()
    try:
        with progress_bar("rebuilding the views (log positions)") as progress:
            position = rebuild(env, progress=progress)
    except RebuildRunning as exc:
        print(f"chronicle: {exc}; nothing was done", file=sys.stderr)
        return REBUILD_RUNNING
    except PersistenceError as exc:
        print(f"chronicle: the store failed ({exc}); the live views are unchanged", file=sys.stderr)
        return REBUILD_STORE_FAILED
    except KeyboardInterrupt:
        print("chronicle: interrupted; the live views are unchanged", file=sys.stderr)
        return REBUILD_INTERRUPTED
    print(f"rebuilt every view up to log position {position} and switched to them")
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
    serve.add_argument(
        "--workers",
        type=int,
        help="server processes (CHRONICLE_WORKERS, default 1); the views run in one process beside",
    )
    serve.add_argument(
        "--log-format",
        choices=["json", "text"],
        help="json: one object a line; text: for a terminal (CHRONICLE_LOG_FORMAT, default json)",
    )
    serve.set_defaults(func=_serve)
    verify = sub.add_parser(
        "verify",
        help="check an export (JSON Lines) offline; exit 1 if tampered, 2 if no usable export, "
        "3 if some rolls were made under rules versions this verifier does not know",
    )
    verify.add_argument(
        "file", help="the file from GET /v1/campaigns/{id}/export ('-': standard input)"
    )
    verify.add_argument(
        "--require-revealed",
        action="store_true",
        help="fail on rolls whose seed is not revealed yet (by default: reported as unverified)",
    )
    verify.add_argument(
        "--receipts", type=Path, help="receipts kept by players (JSON Lines): each must be inside"
    )
    verify.add_argument(
        "--expect-head", type=Path, help="a head from GET /v1/campaigns/{id}/head: must be inside"
    )
    verify.add_argument(
        "--allow-unsigned",
        action="store_true",
        help="accept an export without its signed ExportHead line (made before exports were "
        "signed): truncation can then not be ruled out, and a warning says so",
    )
    verify.add_argument(
        "--keys", type=Path, help="the trusted keys, as GET /v1/signing-keys serves"
    )
    verify.add_argument("--quiet", action="store_true", help="no progress on standard error")
    verify.set_defaults(func=_verify)
    keys = sub.add_parser("keys", help="manage the signing keys of receipts, heads and exports")
    keys_sub = keys.add_subparsers(dest="action", required=True)
    _store_command(keys_sub, "rotate", "add a new active signing key", _rotate_key)
    project = _store_command(
        sub, "project", "run a projection worker (the views) until stopped", _project
    )
    project.add_argument(
        "--heartbeat",
        type=Path,
        help="touch this file every few seconds while the views runner runs (the container's "
        "healthcheck: python -m projections.heartbeat FILE)",
    )
    projections = sub.add_parser("projections", help="manage the views")
    projections_sub = projections.add_subparsers(dest="action", required=True)
    _store_command(
        projections_sub,
        "rebuild",
        "rebuild every view from the whole log beside the live ones (which keep answering), "
        "then switch to them; exit 3 if the store failed, 4 if another rebuild is running, "
        "5 if interrupted (the live views are then unchanged)",
        _rebuild,
    )
    replay = _store_command(sub, "replay", "print a scene's story in the terminal", _replay)
    replay.add_argument("scene_id", type=UUID)
    cli_ops.add_commands(sub, _store_command)
    return parser


def _store_command(
    subparsers: Any, name: str, help: str, func: Callable[[argparse.Namespace], int]
) -> argparse.ArgumentParser:
    """A subcommand that opens the store (so it takes the store's flags) and runs `func`."""
    command: argparse.ArgumentParser = subparsers.add_parser(name, help=help)
    _store_flags(command)
    command.set_defaults(func=func)
    return command


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ValidationError as exc:
        print(f"chronicle: bad setting: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (BadInputFile, OSError, WrongKey) as exc:  # a file that cannot be read: say which
        print(f"chronicle: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StoreUnreachable as exc:
        print(f"chronicle: {exc}", file=sys.stderr)
        return EXIT_STORE_UNREACHABLE


if __name__ == "__main__":
    sys.exit(main())
