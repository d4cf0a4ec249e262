"""The view store: read-model tables written with their tracking row in one transaction (exactly once).

One schema, two implementations (SQLite and PostgreSQL) that differ only in the recorder they extend and
the parameter style. Documents are JSON: `view_docs` holds the current view of each resource,
`view_versions` every version of it (time travel), `view_log` the campaign's log entries (history,
export, stream) and `view_timeline` the human-readable steps (replay).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL

from domain.pg_schema import LockedTrackingRecorder

TABLES = ("view_docs", "view_versions", "view_log", "view_timeline")

CREATE = [
    (
        "CREATE TABLE IF NOT EXISTS view_docs (kind TEXT NOT NULL, id TEXT NOT NULL, campaign_id TEXT NOT NULL, "
        "ref TEXT, position BIGINT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, id))"
    ),
    "CREATE INDEX IF NOT EXISTS view_docs_campaign ON view_docs (campaign_id, kind, position)",
    (
        "CREATE TABLE IF NOT EXISTS view_versions (kind TEXT NOT NULL, id TEXT NOT NULL, position BIGINT NOT NULL, "
        "at TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, id, position))"
    ),
    (
        "CREATE TABLE IF NOT EXISTS view_log (position BIGINT PRIMARY KEY, campaign_id TEXT NOT NULL, "
        "entry TEXT NOT NULL)"
    ),
    "CREATE INDEX IF NOT EXISTS view_log_campaign ON view_log (campaign_id, position)",
    (
        "CREATE TABLE IF NOT EXISTS view_timeline (position BIGINT NOT NULL, n INTEGER NOT NULL, "
        "campaign_id TEXT NOT NULL, story_id TEXT, issue_id TEXT, scene_id TEXT, step TEXT NOT NULL, "
        "PRIMARY KEY (position, n))"
    ),
    "CREATE INDEX IF NOT EXISTS view_timeline_scene ON view_timeline (scene_id, position)",
    "CREATE INDEX IF NOT EXISTS view_timeline_issue ON view_timeline (issue_id, position)",
    "CREATE INDEX IF NOT EXISTS view_timeline_story ON view_timeline (story_id, position)",
]


DOC_QUERY = "SELECT doc FROM view_docs WHERE kind = %s AND id = %s"


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
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ViewStore(TrackingRecorder):
    """Queries and writes shared by both backends (``%s`` placeholders, rows as mappings)."""

    placeholder = "%s"
    # A top-level field of a document, as text (NULL for JSON null), in the backend's SQL.
    json_text = "(d.doc::jsonb ->> '{name}')"
    _tracking_table: str
    # The name under which the views track their position in the Chronicle application's log.
    application_name = "Chronicle"

    @contextmanager
    def _tx(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as cursor:  # type: ignore[attr-defined]
            yield cursor

    def _sql(self, statement: str) -> str:
        return statement if self.placeholder == "%s" else statement.replace("%s", "?")

    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._tx(commit=False) as cursor:
            cursor.execute(self._sql(statement), tuple(params))
            return list(cursor.fetchall())

    # ---- writing ---------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[ViewTransaction]:
        """One event's reads of the documents it changes and all its writes, its tracking row
        included, in one write transaction: applied exactly once, or not at all."""
        with self._tx(commit=True) as cursor:
            yield ViewTransaction(self, cursor)

    @contextmanager
    def _batch(self, cursor: Any) -> Iterator[None]:
        """Around an event's writes: a backend may batch them and relax their durability."""
        yield

    def _write(self, cursor: Any, changes: Changes, tracking: Tracking) -> None:
        with self._batch(cursor):
            for doc in changes.docs:
                text = _dumps(doc.doc)
                cursor.execute(
                    self._sql(
                        "INSERT INTO view_docs (kind, id, campaign_id, ref, position, doc) "
                        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (kind, id) DO UPDATE SET "
                        "campaign_id = excluded.campaign_id, ref = excluded.ref, "
                        "position = excluded.position, doc = excluded.doc"
                    ),
                    (doc.kind, doc.id, doc.campaign_id, doc.ref, tracking.notification_id, text),
                )
                cursor.execute(
                    self._sql(
                        "INSERT INTO view_versions (kind, id, position, at, doc) "
                        "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (kind, id, position) DO UPDATE "
                        "SET at = excluded.at, doc = excluded.doc"
                    ),
                    (doc.kind, doc.id, tracking.notification_id, changes.at, text),
                )
            if changes.log is not None and changes.campaign_id is not None:
                cursor.execute(
                    self._sql(
                        "INSERT INTO view_log (position, campaign_id, entry) VALUES (%s, %s, %s)"
                    ),
                    (tracking.notification_id, changes.campaign_id, _dumps(changes.log)),
                )
            for n, step in enumerate(changes.steps):
                cursor.execute(
                    self._sql(
                        "INSERT INTO view_timeline (position, n, campaign_id, story_id, issue_id, "
                        "scene_id, step) VALUES (%s, %s, %s, %s, %s, %s, %s)"
                    ),
                    (
                        tracking.notification_id,
                        n,
                        changes.campaign_id,
                        changes.scopes.get("story_id"),
                        changes.scopes.get("issue_id"),
                        changes.scopes.get("scene_id"),
                        _dumps(step),
                    ),
                )
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]

    def clear(self) -> None:
        """Forget every view and the tracking position: the next run rebuilds from the start."""
        with self._tx(commit=True) as cursor:
            for table in TABLES:
                cursor.execute(f"DELETE FROM {table}")
            cursor.execute(
                self._sql(f"DELETE FROM {self._tracking_table} WHERE application_name = %s"),
                (self.application_name,),
            )

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
    """The views inside one event's write transaction: what the event reads, then what it writes."""

    def __init__(self, store: ViewStore, cursor: Any) -> None:
        self.store = store
        self.cursor = cursor

    def doc(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        self.cursor.execute(self.store._sql(DOC_QUERY), (kind, doc_id))
        rows = self.cursor.fetchall()
        return json.loads(rows[0]["doc"]) if rows else None

    def apply(self, changes: Changes, tracking: Tracking) -> None:
        self.store._write(self.cursor, changes, tracking)


# Views are derived data: a crash may lose their last commits (never half of one, the tracking row
# commits with the rows), and the runner applies those events again. So the views' own commits
# do not wait for the disk; the event store's always do.


class SQLiteViewStore(ViewStore, SQLiteTrackingRecorder):
    placeholder = "?"
    json_text = "json_extract(d.doc, '$.{name}')"
    _tracking_table = "tracking"

    @contextmanager
    def _tx(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.get_connection(commit=commit) as connection:
            if commit:  # WAL and synchronous=NORMAL: no fsync per commit; set outside transactions
                connection.cursor().execute("PRAGMA synchronous=NORMAL")
            with connection.transaction(commit=commit) as cursor:
                yield cursor

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *CREATE]


class PostgresViewStore(ViewStore, LockedTrackingRecorder):
    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.sql_create_statements.extend(SQL(statement) for statement in CREATE)  # type: ignore[misc]
        self._tracking_table = f'"{self.datastore.schema}"."{self.tracking_table_name}"'

    @contextmanager
    def _batch(self, cursor: Any) -> Iterator[None]:
        # One round trip for all of an event's writes (the tracking insert's fetch syncs the
        # pipeline, so a clash still raises before the commit).
        with cursor.connection.pipeline():
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
            yield


def view_store_class(persistence_module: str) -> type[ViewStore]:
    return PostgresViewStore if persistence_module.endswith("postgres") else SQLiteViewStore
