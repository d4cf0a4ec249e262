"""A page of events reads the documents it changes in one query (projections/store.py
`ViewTransaction.prefetch`), and the documents the translations keep are of the kinds it reads."""

from __future__ import annotations

from pathlib import Path

from api.main import create_app
from api.settings import Settings
from projections.runner import decoded, open_view_store, views_env
from projections.store import DOC_KINDS
from projections.views import apply_page
from tests.client import TestClient
from tests.projections.support import caught_up, play


def test_a_play_leaves_documents_of_the_prefetched_kinds_only(settings: Settings) -> None:
    """A kind outside DOC_KINDS would still be read, a query per document: this finds it."""
    with TestClient(create_app(settings)) as client:
        played = play(client)
        kinds = {row[0] for row in caught_up(client, played.last)["view_docs"]}
    assert kinds
    assert kinds <= set(DOC_KINDS)


def test_a_page_reads_its_documents_at_once_and_makes_the_same_views(tmp_path: Path) -> None:
    """The play's log in two pages into a second, empty set of views: the second page's events
    change documents the first made, and it reads them in one query (SQLite's trace of the
    statements), and the views come out as the server kept them event by event."""
    settings = Settings(data_dir=tmp_path / "served")
    with TestClient(create_app(settings)) as client:
        played = play(client)
        kept = caught_up(client, played.last)
        app = client.app.state.chronicle  # type: ignore[attr-defined]
        log = decoded(app, app.recorder.select_notifications(1, played.last), app.name)
    env = {**views_env(settings.eventsourcing_env())}
    env["VIEWS_SQLITE_DBNAME"] = str(tmp_path / "again.sqlite3")
    store = open_view_store(env)
    statements: list[str] = []
    half = len(log) // 2
    try:
        with store.transaction() as tx:
            apply_page(tx, log[:half])
        with store.transaction() as tx:
            connection = tx.cursor.sqlite_cursor.connection
            connection.set_trace_callback(statements.append)
            apply_page(tx, log[half:])
            connection.set_trace_callback(None)
        again = store.dump()
    finally:
        store.datastore.close()  # type: ignore[attr-defined]
    reads = [s for s in statements if s.startswith("SELECT") and "FROM view_docs" in s]
    assert len(reads) == 1, reads
    assert again["view_docs"] == kept["view_docs"]
    assert again["view_log"] == kept["view_log"]
