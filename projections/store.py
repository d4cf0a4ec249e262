"""The view store: read-model tables written with their tracking row in one transaction (exactly once).

One schema, two implementations (SQLite and PostgreSQL) that differ only in the recorder they extend and
the parameter style. Documents are JSON: `view_docs` holds the current view of each resource,
`view_versions` every version of it (time travel), `view_log` the campaign's log entries (history,
export, stream) and `view_timeline` the human-readable steps (replay).
"""

from __future__ import annotations

import fcntl
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder, SQLiteTransaction
from psycopg.sql import SQL

from domain.pg_schema import LockedTrackingRecorder

TABLES = ("view_docs", "view_versions", "view_log", "view_timeline")
_TABLE_NAME = re.compile(r"\b(view_docs|view_versions|view_log|view_timeline)\b")

# The secondary indexes are UNIQUE constraints whose columns end with the primary key's (so they
# constrain nothing more): their indexes are named after their table and follow it when it is
# renamed, so a set of tables rebuilt beside the live one takes its place by renames alone (SQLite
# cannot rename an index, and index names are global to a database on both backends).
CREATE = [
    (
        "CREATE TABLE IF NOT EXISTS view_docs (kind TEXT NOT NULL, id TEXT NOT NULL, campaign_id TEXT NOT NULL, "
        "ref TEXT, position BIGINT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, id), "
        "UNIQUE (campaign_id, kind, position, id))"
    ),
    (
        "CREATE TABLE IF NOT EXISTS view_versions (kind TEXT NOT NULL, id TEXT NOT NULL, position BIGINT NOT NULL, "
        "at TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, id, position))"
    ),
    (
        "CREATE TABLE IF NOT EXISTS view_log (position BIGINT PRIMARY KEY, campaign_id TEXT NOT NULL, "
        "entry TEXT NOT NULL, UNIQUE (campaign_id, position))"
    ),
    (
        "CREATE TABLE IF NOT EXISTS view_timeline (position BIGINT NOT NULL, n INTEGER NOT NULL, "
        "campaign_id TEXT NOT NULL, story_id TEXT, issue_id TEXT, scene_id TEXT, step TEXT NOT NULL, "
        "PRIMARY KEY (position, n), UNIQUE (scene_id, position, n), UNIQUE (issue_id, position, n), "
        "UNIQUE (story_id, position, n))"
    ),
]

UPSERT_DOC = (
    "INSERT INTO view_docs (kind, id, campaign_id, ref, position, doc) "
    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (kind, id) DO UPDATE SET "
    "campaign_id = excluded.campaign_id, ref = excluded.ref, "
    "position = excluded.position, doc = excluded.doc"
)
INSERT_VERSION = (
    "INSERT INTO view_versions (kind, id, position, at, doc) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (kind, id, position) DO UPDATE SET at = excluded.at, doc = excluded.doc"
)
INSERT_LOG = "INSERT INTO view_log (position, campaign_id, entry) VALUES (%s, %s, %s)"
INSERT_STEP = (
    "INSERT INTO view_timeline (position, n, campaign_id, story_id, issue_id, scene_id, step) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s)"
)
# What the views a rebuild replaced are called until they are dropped.
RETIRED = "old_"
# The column types of each insert, for PostgreSQL's one statement per table and page.
COLUMN_TYPES = {
    UPSERT_DOC: ("text", "text", "text", "text", "bigint", "text"),
    INSERT_VERSION: ("text", "text", "bigint", "text", "text"),
    INSERT_LOG: ("bigint", "text", "text"),
    INSERT_STEP: ("bigint", "int", "text", "text", "text", "text", "text"),
}
# The live views' tracking name: their position in the Chronicle application's log.
LIVE = "Chronicle"
# Any fixed 64-bit number (domain/pg_schema.py holds another): one rebuild at a time.
REBUILD_LOCK_KEY = 0x7669657773_2B2B


class RebuildRunning(Exception):
    """Another rebuild holds the lock on the tables built beside the live views."""


DOC_QUERY = "SELECT doc FROM view_docs WHERE kind = %s AND id = %s"
# The kinds of document the translations keep (tests/projections/test_page_prefetch.py checks that
# the views' test play leaves no other; a kind missing here is still read, a query per document),
# and how many ids one prefetch query names.
DOC_KINDS = (
    "campaign",
    "chain",
    "character",
    "issue",
    "mission",
    "roll",
    "roll_request",
    "scene",
    "story",
    "webhook",
)
PREFETCH_IDS = 400


@dataclass
class Doc:
    kind: str
    id: str
    campaign_id: str
    doc: dict[str, Any]
    ref: str | None = None


@dataclass(frozen=True)
class Listed:
    """A document of a list with the log position and the time that created it."""

    doc: dict[str, Any]
    created: int
    at: str


@dataclass
class Changes:
    """Everything one event changes in the views; written with its tracking row, all or nothing."""

    docs: list[Doc] = field(default_factory=list)
    log: dict[str, Any] | None = None
    campaign_id: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    scopes: dict[str, str | None] = field(default_factory=dict)
    at: str = ""


def _dumps(value: Any) -> str:
    """Compact, keys sorted, UTF-8 unescaped: what json.dumps(sort_keys=True, separators=(",",
    ":"), ensure_ascii=False) writes, about seven times faster (written for every event)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


class ViewStore(TrackingRecorder):
    """Queries and writes shared by both backends (``%s`` placeholders, rows as mappings)."""

    placeholder = "%s"
    # A top-level field of a document, as text (NULL for JSON null), in the backend's SQL.
    json_text = "(d.doc::jsonb ->> '{name}')"
    _tracking_table: str
    # The name under which these tables track their position in the Chronicle application's log,
    # and what their names start with: the live views' (what the API reads) or a rebuild's.
    application_name = LIVE
    prefix = ""

    @contextmanager
    def _tx(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as cursor:  # type: ignore[attr-defined]
            yield cursor

    def _sql(self, statement: str) -> str:
        if self.prefix:
            statement = _TABLE_NAME.sub(lambda m: self.prefix + m.group(1), statement)
        return statement if self.placeholder == "%s" else statement.replace("%s", "?")

    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._tx(commit=False) as cursor:
            cursor.execute(self._sql(statement), tuple(params))
            return list(cursor.fetchall())

    # ---- writing ---------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[ViewTransaction]:
        """One write transaction for a page of events: what each reads and all they write, the
        last one's tracking row included. Applied exactly once, or not at all."""
        with self._tx(commit=True) as cursor:
            page = ViewTransaction(self, cursor)
            yield page
            page.flush()

    @contextmanager
    def replacing_live(self) -> Iterator[ViewTransaction]:
        """A transaction that holds the live views' write lock while the caller brings these
        tables up to the live position (`ViewTransaction.position(LIVE)`), then puts them, with
        their tracking row, in the live ones' place. Readers see the old views until it commits
        and these after; a live runner's next transaction writes into these."""
        with self._tx(commit=True) as cursor:
            self._lock_live(cursor)
            page = ViewTransaction(self, cursor)
            yield page
            page.flush()
            for table in TABLES:  # renames only: the old rows are dropped after the commit
                cursor.execute(f"DROP TABLE IF EXISTS {RETIRED}{table}")
                cursor.execute(f"ALTER TABLE {table} RENAME TO {RETIRED}{table}")
                cursor.execute(f"ALTER TABLE {self.prefix}{table} RENAME TO {table}")
            cursor.execute(
                self._sql(f"DELETE FROM {self._tracking_table} WHERE application_name = %s"),
                (LIVE,),
            )
            cursor.execute(
                self._sql(
                    f"UPDATE {self._tracking_table} SET application_name = %s "
                    "WHERE application_name = %s"
                ),
                (LIVE, self.application_name),
            )

    def clear(self) -> None:
        """Forget every view and the tracking position, so that the next runner starts from the
        beginning (what a benchmark of a new worker's catch-up needs; a rebuild never clears)."""
        with self._tx(commit=True) as cursor:
            for table in TABLES:
                cursor.execute(self._sql(f"DELETE FROM {table}"))
            cursor.execute(
                self._sql(f"DELETE FROM {self._tracking_table} WHERE application_name = %s"),
                (self.application_name,),
            )

    def drop_retired(self) -> None:
        """Drop the views a switch replaced (outside its transaction: dropping takes a while)."""
        with self._tx(commit=True) as cursor:
            for table in TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {RETIRED}{table}")

    def recreate(self) -> None:
        """Empty tables with this store's names (a rebuild's, after any interrupted one)."""
        with self._tx(commit=True) as cursor:
            for table in TABLES:
                cursor.execute(self._sql(f"DROP TABLE IF EXISTS {table}"))
            for statement in CREATE:
                cursor.execute(self._sql(statement))
            cursor.execute(
                self._sql(f"DELETE FROM {self._tracking_table} WHERE application_name = %s"),
                (self.application_name,),
            )

    def _lock_live(self, cursor: Any) -> None:
        """Keep the live runner from committing until the caller's transaction ends."""

    @contextmanager
    def rebuild_lock(self) -> Iterator[None]:
        """One rebuild at a time (raises RebuildRunning), released however the holder ends."""
        yield

    @contextmanager
    def _batch(self, cursor: Any) -> Iterator[None]:
        """Around a page's writes: a backend may batch them and relax their durability."""
        yield

    def _write(self, cursor: Any, page: ViewTransaction, tracking: Tracking) -> None:
        rows = (
            (UPSERT_DOC, list(page.docs.values())),
            (INSERT_VERSION, page.versions),
            (INSERT_LOG, page.log),
            (INSERT_STEP, page.steps),
        )
        with self._batch(cursor):
            for statement, values in rows:
                if values:
                    self._insert(cursor, statement, values)
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]

    def _insert(self, cursor: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        cursor.executemany(self._sql(statement), rows)

    # ---- reading ---------------------------------------------------------------------------

    def doc(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        rows = self._rows(DOC_QUERY, (kind, doc_id))
        return json.loads(rows[0]["doc"]) if rows else None

    def docs(self, kind: str) -> list[dict[str, Any]]:
        """Every document of one kind, of every campaign (for the few kinds that stay few)."""
        rows = self._rows("SELECT doc FROM view_docs WHERE kind = %s ORDER BY id", (kind,))
        return [json.loads(r["doc"]) for r in rows]

    def version_at(
        self, kind: str, doc_id: str, *, position: int | None = None, at: str | None = None
    ) -> dict[str, Any] | None:
        statement = "SELECT doc FROM view_versions WHERE kind = %s AND id = %s"
        params: list[Any] = [kind, doc_id]
        if position is not None:
            statement += " AND position <= %s"
            params.append(position)
        if at is not None:
            statement += " AND at <= %s"
            params.append(at)
        rows = self._rows(statement + " ORDER BY position DESC LIMIT 1", params)
        return json.loads(rows[0]["doc"]) if rows else None

    def log(
        self, campaign_id: str, after: int = 0, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """A campaign's log entries after `after`, each with its readable `text`."""
        return [entry for _, entry in self.log_rows(after, limit, campaign_id)]

    def log_rows(
        self, after: int = 0, limit: int | None = None, campaign_id: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """(campaign id, entry) of the log after `after`, of one campaign or of all, in order.
        Each entry carries `text`: its replay steps' texts (a line each), the very texts the
        replays show; null for bookkeeping entries whose story another entry tells."""
        scope = "campaign_id = %s AND " if campaign_id else ""
        given = [campaign_id] if campaign_id else []
        statement = (
            f"SELECT campaign_id, entry FROM view_log WHERE {scope}position > %s ORDER BY position"
        )
        if limit is not None:
            statement += f" LIMIT {int(limit)}"
        rows = [
            (r["campaign_id"], json.loads(r["entry"]))
            for r in self._rows(statement, [*given, after])
        ]
        if not rows:
            return rows
        texts: dict[int, list[str]] = {}
        for row in self._rows(
            f"SELECT position, step FROM view_timeline WHERE {scope}position > %s "
            "AND position <= %s ORDER BY position, n",
            [*given, after, rows[-1][1]["position"]],
        ):
            texts.setdefault(int(row["position"]), []).append(json.loads(row["step"])["text"])
        for _, entry in rows:
            entry["text"] = "\n".join(texts.get(entry["position"], [])) or None
        return rows

    def listed(
        self,
        kind: str,
        campaign_id: str,
        *,
        after: int = 0,
        limit: int = 100,
        where: Mapping[str, Sequence[str | None]] | None = None,
        ref: str | None = None,
    ) -> list[Listed]:
        """A campaign's documents of one kind in the order they were created, paged by the log
        position that created each (its first version): `after` that position, up to `limit`.
        `where` keeps documents whose top-level field is one of the texts given (None: JSON
        null); `ref`, those whose reference column is the text given (a roll's character).
        Field names come from code, never from a request."""
        filters, params = ["d.kind = %s", "d.campaign_id = %s"], [kind, campaign_id]
        for name, values in (where or {}).items():
            assert name.isidentifier(), name
            field = self.json_text.format(name=name)
            texts = [v for v in values if v is not None]
            either = [f"{field} IN ({', '.join(['%s'] * len(texts))})"] if texts else []
            either += [f"{field} IS NULL"] if None in values else []
            filters.append(f"({' OR '.join(either) or 'FALSE'})")
            params.extend(texts)
        if ref is not None:
            filters.append("d.ref = %s")
            params.append(ref)
        # The creation position is looked up per document through view_versions' primary key,
        # so a page costs one index probe per document of the kind in the campaign.
        statement = (
            "SELECT s.doc, s.created, v.at FROM (SELECT d.id, d.doc, (SELECT MIN(f.position) "
            "FROM view_versions f WHERE f.kind = d.kind AND f.id = d.id) AS created "
            f"FROM view_docs d WHERE {' AND '.join(filters)}) s "
            "JOIN view_versions v ON v.kind = %s AND v.id = s.id AND v.position = s.created "
            "WHERE s.created > %s ORDER BY s.created LIMIT %s"
        )
        rows = self._rows(statement, [*params, kind, after, limit])
        return [Listed(json.loads(r["doc"]), int(r["created"]), r["at"]) for r in rows]

    def joined(self, campaign_id: str) -> dict[str, Listed]:
        """Each member's joining, by member id: the position and time of the campaign's Created
        (its GM) or MemberJoined entry. Only the campaign's own entries are read."""
        rows = self._rows(
            "SELECT l.position, l.entry FROM view_log l WHERE l.campaign_id = %s AND l.position "
            "IN (SELECT v.position FROM view_versions v WHERE v.kind = 'campaign' AND v.id = %s) "
            "ORDER BY l.position",
            (campaign_id, campaign_id),
        )
        found = {}
        for row in rows:
            entry = json.loads(row["entry"])
            payload = entry["payload"]
            member = {
                "Campaign.Created": payload.get("gm_member_id"),
                "Campaign.MemberJoined": payload.get("member_id"),
            }.get(entry["type"])
            if member is not None:
                found[str(member)] = Listed(payload, int(row["position"]), entry["timestamp"])
        return found

    def timeline(self, scope: str, scope_id: str) -> list[dict[str, Any]]:
        assert scope in ("scene_id", "issue_id", "story_id")
        rows = self._rows(
            f"SELECT step FROM view_timeline WHERE {scope} = %s ORDER BY position, n", (scope_id,)
        )
        return [json.loads(r["step"]) for r in rows]

    def doc_timeline(self, kind: str, doc_id: str) -> list[dict[str, Any]]:
        """The steps of every event that changed one view document (a character's history)."""
        rows = self._rows(
            "SELECT t.step FROM view_versions v JOIN view_timeline t ON t.position = v.position "
            "WHERE v.kind = %s AND v.id = %s ORDER BY t.position, t.n",
            (kind, doc_id),
        )
        return [json.loads(r["step"]) for r in rows]

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every view table, in a stable order (to compare two builds)."""
        keys = {
            "view_docs": "kind, id",
            "view_versions": "kind, id, position",
            "view_log": "position",
            "view_timeline": "position, n",
        }
        return {
            table: [
                tuple(dict(r).values())
                for r in self._rows(f"SELECT * FROM {table} ORDER BY {order}")
            ]
            for table, order in keys.items()
        }


class ViewTransaction:
    """The views inside the write transaction of a page of events. Each event reads the documents
    it changes (those an earlier event of the page changed as that event left them, from memory),
    and the page's rows are written together when it ends, with the last event's tracking row."""

    def __init__(self, store: ViewStore, cursor: Any) -> None:
        self.store = store
        self.cursor = cursor
        # Documents as the page has read or left them, as stored (JSON text; None: no such doc).
        self._texts: dict[tuple[str, str], str | None] = {}
        self.docs: dict[tuple[str, str], tuple[Any, ...]] = {}  # the last row of each document
        self.versions: list[tuple[Any, ...]] = []
        self.log: list[tuple[Any, ...]] = []
        self.steps: list[tuple[Any, ...]] = []
        self.tracking: Tracking | None = None
        # The ids `prefetch` asked for: a document of theirs (of a kind in DOC_KINDS) that it did
        # not find has no row, and needs no query of its own.
        self._asked_ids: set[str] = set()

    def prefetch(self, ids: set[str]) -> None:
        """Read the stored documents of `ids` (of every kind in DOC_KINDS) before the page's
        events ask for them one by one: a query per page instead of one per document, which
        was a quarter of a views runner's time on PostgreSQL (docs/performance.md). A document
        this transaction has read or changed already stays as it has it: the rows it changed
        are written only when it ends."""
        kinds = ", ".join(["%s"] * len(DOC_KINDS))
        wanted = sorted(ids - self._asked_ids)  # a later page of one transaction: the new ones
        for start in range(0, len(wanted), PREFETCH_IDS):
            chunk = wanted[start : start + PREFETCH_IDS]
            marks = ", ".join(["%s"] * len(chunk))
            query = (
                f"SELECT kind, id, doc FROM view_docs WHERE kind IN ({kinds}) AND id IN ({marks})"
            )
            self.cursor.execute(self.store._sql(query), (*DOC_KINDS, *chunk))
            for row in self.cursor.fetchall():
                self._texts.setdefault((row["kind"], row["id"]), row["doc"])
        self._asked_ids.update(wanted)

    def doc(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        """A fresh copy of the document as the page stands (parsing is cheaper than a deep copy)."""
        key = (kind, doc_id)
        if key not in self._texts and kind in DOC_KINDS and doc_id in self._asked_ids:
            self._texts[key] = None  # prefetched: there is no such document
        if key not in self._texts:
            self.cursor.execute(self.store._sql(DOC_QUERY), key)
            rows = self.cursor.fetchall()
            self._texts[key] = rows[0]["doc"] if rows else None
        text = self._texts[key]
        return None if text is None else orjson.loads(text)  # type: ignore[no-any-return]

    def position(self, application_name: str) -> int:
        """The position the tracking table holds under a name, read inside this transaction."""
        table = self.store._tracking_table
        self.cursor.execute(
            self.store._sql(
                f"SELECT MAX(notification_id) AS n FROM {table} WHERE application_name = %s"
            ),
            (application_name,),
        )
        rows = self.cursor.fetchall()
        return int(rows[0]["n"] or 0) if rows else 0

    def apply(self, changes: Changes, tracking: Tracking) -> None:
        position = tracking.notification_id
        for doc in changes.docs:
            text = _dumps(doc.doc)
            self._texts[(doc.kind, doc.id)] = text
            self.docs[(doc.kind, doc.id)] = (
                doc.kind,
                doc.id,
                doc.campaign_id,
                doc.ref,
                position,
                text,
            )
            self.versions.append((doc.kind, doc.id, position, changes.at, text))
        if changes.log is not None and changes.campaign_id is not None:
            self.log.append((position, changes.campaign_id, _dumps(changes.log)))
        scopes = [changes.scopes.get(s) for s in ("story_id", "issue_id", "scene_id")]
        for n, step in enumerate(changes.steps):
            self.steps.append((position, n, changes.campaign_id, *scopes, _dumps(step)))
        self.tracking = tracking

    def advance(self, tracking: Tracking) -> None:
        """Track a later position than the last event applied (the log's last ids may be gaps)."""
        current = self.tracking or Tracking(tracking.application_name, 0)
        if tracking.notification_id > max(
            current.notification_id, self.position(tracking.application_name)
        ):
            self.tracking = tracking

    def flush(self) -> None:
        if self.tracking is not None:
            self.store._write(self.cursor, self, self.tracking)


# Views are derived data: a crash may lose their last commits (never half of one, the tracking row
# commits with the rows), and the runner applies those events again. So the views' own commits
# do not wait for the disk; the event store's always do.


class _Immediate(SQLiteTransaction):
    """BEGIN IMMEDIATE: a write transaction takes the file's write lock first, waiting up to the
    lock timeout. A deferred one that reads, then writes, fails at once if another process (a
    rebuild, a second runner) wrote in between."""

    def __enter__(self) -> Any:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class SQLiteViewStore(ViewStore, SQLiteTrackingRecorder):
    placeholder = "?"
    json_text = "json_extract(d.doc, '$.{name}')"
    _tracking_table = "tracking"

    @contextmanager
    def _tx(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.get_connection(commit=commit) as connection:
            if commit:  # WAL and synchronous=NORMAL: no fsync per commit; set outside transactions
                connection.cursor().execute("PRAGMA synchronous=NORMAL")
                # Fewer, larger checkpoints (each syncs the disk twice): views are rewritten often.
                connection.cursor().execute("PRAGMA wal_autocheckpoint=10000")
            begin = _Immediate if commit else SQLiteTransaction
            with begin(connection, commit=commit) as cursor, cursor:
                yield cursor

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *map(self._sql, CREATE)]

    @contextmanager
    def rebuild_lock(self) -> Iterator[None]:
        # A lock on a file beside the views' file, which the system drops with the process.
        with open(f"{self.datastore.pool.db_name}.rebuild-lock", "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RebuildRunning("another rebuild of these views is running") from None
            yield


class PostgresViewStore(ViewStore, LockedTrackingRecorder):
    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.sql_create_statements.extend(SQL(self._sql(statement)) for statement in CREATE)  # type: ignore[misc,arg-type]
        self._tracking_table = f'"{self.datastore.schema}"."{self.tracking_table_name}"'

    @contextmanager
    def _batch(self, cursor: Any) -> Iterator[None]:
        # psycopg's executemany already sends each table's rows in one pipeline; an outer
        # pipeline here would hand the tracking insert's fetch another statement's result.
        cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield

    def _insert(self, cursor: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        # One statement for the page's rows of a table, passed as one JSON array (orjson writes
        # it; psycopg's text arrays escape in Python): the server parses and plans it once, where
        # executemany ran one statement per row.
        types = COLUMN_TYPES[statement]
        values = "VALUES (" + ", ".join(["%s"] * len(types)) + ")"
        fields = ", ".join(f"(r ->> {n})::{kind}" for n, kind in enumerate(types))
        assert values in statement, statement
        selected = statement.replace(values, f"SELECT {fields} FROM json_array_elements(%s) r")
        cursor.execute(self._sql(selected), (orjson.dumps(rows).decode(),))

    def _lock_live(self, cursor: Any) -> None:
        # The view tables, then the tracking table: the order a live runner's transaction takes
        # them in, so that neither waits for the other in a cycle.
        cursor.execute(f"SET LOCAL lock_timeout = '{int(self.datastore.lock_timeout)}s'")
        cursor.execute(f"LOCK TABLE {', '.join(TABLES)} IN ACCESS EXCLUSIVE MODE")
        cursor.execute(f"LOCK TABLE {self._tracking_table} IN EXCLUSIVE MODE")

    @contextmanager
    def rebuild_lock(self) -> Iterator[None]:
        # A session lock on a connection held for the rebuild; PostgreSQL drops it with the session.
        with self.datastore.get_connection() as conn:
            row = conn.execute("SELECT pg_try_advisory_lock(%s) AS held", (REBUILD_LOCK_KEY,))
            if not (row.fetchone() or {}).get("held"):
                raise RebuildRunning("another rebuild of these views is running")
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (REBUILD_LOCK_KEY,))


class BesideLive:
    """The tables a rebuild writes beside the live views, under their own tracking name."""

    prefix = "next_"
    application_name = f"{LIVE} (rebuild)"


class SQLiteBesideLive(BesideLive, SQLiteViewStore):
    pass


class PostgresBesideLive(BesideLive, PostgresViewStore):
    pass


def view_store_class(persistence_module: str, *, beside_live: bool = False) -> type[ViewStore]:
    if persistence_module.endswith("postgres"):
        return PostgresBesideLive if beside_live else PostgresViewStore
    return SQLiteBesideLive if beside_live else SQLiteViewStore
