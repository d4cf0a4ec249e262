"""The operator's commands: `chronicle status` (log head, views, lag) and `chronicle export` (a
campaign's signed export straight from the store, with progress), and the exit codes of the CLI."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

from api.progress import Update, progress_bar
from api.settings import SQLITE_FILENAME, Settings

if TYPE_CHECKING:
    from domain.application import Chronicle

# The exit codes of every `chronicle` command (docs/operations.md); verify's 1 and 3 are its own.
EXIT_OK = 0
EXIT_FAILED = 1  # verify: tampered or cut; status: the views lag more than ready_max_lag
EXIT_BAD_INPUT = 2  # a bad setting or flag, a file that cannot be read, no usable export
EXIT_UNKNOWN_RULES = 3  # verify: intact, but some rolls need a verifier that knows their rules
EXIT_NOT_FOUND = 4  # export: no such campaign in the store
EXIT_STORE_UNREACHABLE = 5  # the database does not answer, or there is no store at the place named


class StoreUnreachable(Exception):
    """The store named by the settings does not answer (exit 5)."""


def check_store(settings: Settings) -> None:
    """Fail fast, before eventsourcing's retries (or before a new empty SQLite store is made)."""
    if settings.database_url is None:
        path = settings.data_dir / SQLITE_FILENAME
        if not path.exists():
            raise StoreUnreachable(f"no store at {path}")
        return
    try:
        timeout = settings.postgres_connect_timeout
        psycopg.connect(settings.database_url, connect_timeout=timeout).close()
    except psycopg.Error as exc:
        raise StoreUnreachable(f"the database does not answer: {exc}") from None


@contextmanager
def store_errors() -> Iterator[None]:
    """A store lost in the middle of the work is unreachable too."""
    try:
        yield
    except (OperationalError, InterfaceError) as exc:
        raise StoreUnreachable(f"the store stopped answering: {exc}") from None


def status(settings: Settings, as_json: bool) -> int:
    """Print the log head, the views' position and the lag; exit 1 while the lag is over the bound."""
    from api.main import build_application
    from projections.lag import lag_of
    from projections.runner import ViewReader, open_view_store, views_env

    check_store(settings)
    with store_errors():
        app = build_application(settings)
        views = ViewReader(open_view_store(views_env(settings.eventsourcing_env())))
        try:
            lag = lag_of(app, views)
        finally:
            views.store.datastore.close()  # type: ignore[attr-defined]
            app.close()
    ready = lag.within(settings.ready_max_lag)
    figures = {"head": lag.head, "views_position": lag.views, "lag": lag.events}
    if as_json:
        print(json.dumps({**figures, "max_lag": settings.ready_max_lag, "ready": ready}))
    else:
        state = "ready" if ready else "views behind"
        print(f"log head        {lag.head}\nviews position  {lag.views}")
        print(f"lag             {lag.events} (at most {settings.ready_max_lag}: {state})")
    return EXIT_OK if ready else EXIT_FAILED


def export(settings: Settings, campaign_id: UUID, out: Path | None, quiet: bool) -> int:
    """Write the campaign's export (as its GM would read it, signed) to `out` or standard output."""
    from api.main import build_application
    from domain.export import jsonl

    check_store(settings)
    with store_errors():
        app = build_application(settings)
        try:
            app.claim_server_key()  # the export's trailer is signed with keys sealed by it
            entries = _gm_export(app, campaign_id, quiet)
        finally:
            app.close()
    if entries is None:
        print(f"chronicle export: no campaign {campaign_id} in the store", file=sys.stderr)
        return EXIT_NOT_FOUND
    _write(jsonl(iter(entries)), out)
    print(f"chronicle export: {len(entries)} lines", file=sys.stderr)
    return EXIT_OK


def _gm_export(app: Chronicle, campaign_id: UUID, quiet: bool) -> list[dict[str, Any]] | None:
    """Every entry of the campaign, as its GM sees them, and the signed trailer; None: no such
    campaign."""
    from eventsourcing.application import AggregateNotFoundError

    from domain.aggregates import Campaign
    from domain.commands import Actor
    from domain.export import signed_export

    try:
        campaign: object = app.repository.get(campaign_id)
    except AggregateNotFoundError:
        return None
    if not isinstance(campaign, Campaign):
        return None
    head = app.recorder.max_notification_id() or 0
    actor = Actor(campaign_id, campaign.gm.id, "gm")
    with shown_progress("reading the log (log positions)", quiet) as update:
        return signed_export(app, actor, lambda position: update(position, head))


def _write(lines: Iterator[bytes], out: Path | None) -> None:
    """All or nothing: a file is written beside its name and moved there once complete."""
    if out is None:
        for line in lines:
            sys.stdout.write(line.decode())
        return
    partial = out.with_name(out.name + ".partial")
    with partial.open("wb") as f:
        f.writelines(lines)
    os.replace(partial, out)


@contextmanager
def shown_progress(what: str, quiet: bool) -> Iterator[Update]:
    """Progress on standard error (never on standard output, which may be the export itself)."""
    if quiet:
        yield lambda done, total: None
        return
    with progress_bar(what) as update:
        yield update


def counted(lines: Iterable[bytes], size: int | None, quiet: bool) -> Iterator[bytes]:
    """The lines, with the bytes read against `size` (None: not known, from standard input)."""
    read = 0
    with shown_progress("reading the export (bytes)", quiet) as update:
        for line in lines:
            read += len(line)
            update(read, size or read)
            yield line


def add_commands(sub: Any, store_command: Any) -> None:
    """`status` and `export`, on the parser of `chronicle`."""
    ran = store_command(sub, "status", "the log head, the views' position and their lag", _status)
    ran.add_argument("--json", action="store_true", help="one JSON object instead of text")
    exported = store_command(
        sub, "export", "write a campaign's signed export (JSON Lines) from the store", _export
    )
    exported.add_argument("campaign_id", type=UUID)
    exported.add_argument("--out", type=Path, help="the file to write (default: standard output)")
    exported.add_argument("--quiet", action="store_true", help="no progress on standard error")


def _status(args: argparse.Namespace) -> int:
    from api.cli import _settings

    return status(_settings(args), args.json)


def _export(args: argparse.Namespace) -> int:
    from api.cli import _settings

    return export(_settings(args), args.campaign_id, args.out, args.quiet)
