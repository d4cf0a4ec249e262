"""Webhook deliveries: an outbox in the views' database, filled from the views' log and sent by one
dispatcher beside the views runner, at least once, retried with exponential backoff.

Why here: a delivery carries the entry with its readable text, which only the views have; the
views runner's process (`chronicle serve` embedded, or `chronicle project`) already follows the
log, so no command ever waits for a receiver. A delivery is a row before it is sent, so a restart
sends what was pending again (with the same `X-Chronicle-Delivery` id, for receivers to dedupe).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from threading import Condition, Lock
from typing import Any
from uuid import UUID

import httpx
from cryptography.exceptions import InvalidTag
from eventsourcing.sqlite import SQLiteDatastore

from domain.application import Chronicle
from domain.secrets import Sealer
from domain.visibility import Visibility
from domain.webhooks import SIGNATURE_HEADER, signature, wanted
from projections.runner import Loop, Supervisor, open_view_store, views_env
from projections.store import ViewStore
from projections.webhook_metrics import DeliveryOutcome, count_webhook_delivery

log = logging.getLogger("chronicle.webhooks")

CREATE = [
    "CREATE TABLE IF NOT EXISTS webhook_cursor (name TEXT PRIMARY KEY, position BIGINT NOT NULL)",
    (
        "CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, webhook_id TEXT "
        "NOT NULL, campaign_id TEXT NOT NULL, position BIGINT NOT NULL, type TEXT NOT NULL, "
        "body TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL, due_us BIGINT, "
        "created_at TEXT NOT NULL, UNIQUE (webhook_id, position))"
    ),
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, due_us)",
    (
        "CREATE TABLE IF NOT EXISTS webhook_attempts (delivery_id TEXT NOT NULL, n INTEGER NOT "
        "NULL, at TEXT NOT NULL, status_code INTEGER, error TEXT, PRIMARY KEY (delivery_id, n))"
    ),
]
OUTBOX_SQLITE_FILENAME = "webhooks.sqlite3"
CREATE_LOCK = 0x57E8B001  # the advisory lock that serialises creating the tables on PostgreSQL
CURSOR = "deliveries"
BATCH = 200
# How far the in-memory cursor may run ahead of the stored one on entries that make no delivery
# (what a restart reads again).
CURSOR_WRITE_EVERY = 2_000
NAMESPACE = uuid.UUID("5b0c7c52-3f1e-4c57-9a53-2f1d0c6e8a41")


@dataclass(frozen=True)
class Policy:
    """How often and how long deliveries are tried (Settings.webhook_*)."""

    attempts: int = 8
    first_retry_seconds: float = 10.0  # after the first failure; doubles after each next one
    max_retry_seconds: float = 3600.0
    timeout_seconds: float = 5.0
    # A dispatcher is woken when its process's views move (Supervisor.after_each_page) and sleeps
    # until the next retry is due; this is how long it sleeps at most without being told of work:
    # deliveries another process enqueued or a crashed sender's hold running out.
    idle_check_seconds: float = 2.0
    senders: int = 4  # deliveries sent at once, so that one slow receiver holds up no other

    def retry_after(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number `attempt` (1, 2…): deterministic backoff."""
        return float(min(self.first_retry_seconds * 2 ** (attempt - 1), self.max_retry_seconds))


@dataclass(frozen=True)
class Due:
    id: str
    webhook_id: str
    type: str
    body: str
    attempts: int
    due_us: int


@dataclass(frozen=True)
class Attempt:
    status_code: int | None
    error: str | None

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def now_us() -> int:
    return time.time_ns() // 1000


def iso_us(micros: int | None) -> str | None:
    if micros is None:
        return None
    moment = datetime.fromtimestamp(micros / 1_000_000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def delivery_id(webhook_id: str, position: int) -> str:
    """The same id whoever enqueues it, however often (a rebuild of the views included)."""
    return str(uuid.uuid5(NAMESPACE, f"{webhook_id}:{position}"))


class Outbox:
    """The deliveries' tables. On PostgreSQL they sit beside the views; on SQLite in a file of
    their own: SQLite has one writer per file, and the views runner's transactions read before
    they write, so any other writer in the views' file would make them fail (SQLITE_BUSY). The
    views are only read here, and a rebuild of the views leaves the deliveries alone."""

    def __init__(
        self, views: ViewStore, env: Mapping[str, str], app: Chronicle | None = None
    ) -> None:
        self.store = views
        self.app = app  # what a receiver may see is read off the campaign (enqueue only)
        self._cursor = 0  # the last entry read; the stored cursor may be behind it (enqueue)
        self.cursor_write_every = CURSOR_WRITE_EVERY
        if env["PERSISTENCE_MODULE"].endswith("sqlite"):
            path = Path(env["VIEWS_SQLITE_DBNAME"]).with_name(OUTBOX_SQLITE_FILENAME)
            self._datastore: Any = SQLiteDatastore(str(path), lock_timeout=10)
            self._placeholder = "?"
        else:
            self._datastore = views.datastore  # type: ignore[attr-defined]
            self._placeholder = "%s"
        with self._tx() as cursor:
            if self._placeholder == "%s":  # replicas and workers starting together: one at a time
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))
            for statement in CREATE:
                cursor.execute(statement)

    @contextmanager
    def _tx(self, commit: bool = True) -> Iterator[Any]:
        with self._datastore.transaction(commit=commit) as cursor:
            yield cursor

    def _run(self, cursor: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        cursor.execute(statement.replace("%s", self._placeholder), tuple(params))
        return cursor

    def close(self) -> None:
        """Close what it opened (on SQLite, its own file's connections)."""
        if self._datastore is not getattr(self.store, "datastore", None):
            self._datastore.close()

    def enqueue(self) -> int:
        """Turn the log entries after the cursor into deliveries for the webhooks that want them;
        the deliveries and the new cursor commit together (a delivery made twice, by a race or a
        retry, is the same row). Returns how many entries it read.

        A batch that makes no delivery (no campaign in it has a webhook: the usual case) moves
        the cursor in memory only, and the stored cursor catches up every `cursor_write_every`
        entries: a commit per page of views cost more than the views' own page. Reading entries
        again after a restart makes nothing twice: a delivery is one row per (webhook, entry),
        and a webhook registered since skips the entries before it."""
        stored = self._stored_cursor()
        start = max(stored, self._cursor)
        rows = self.store.log_rows(start, BATCH)
        if not rows:
            return 0
        # Read after the entries: a webhook registered before the last of them is in the views.
        hooks = self._webhooks()
        seen: dict[str, Visibility] = {}
        last = int(rows[-1][1]["position"])
        wanted_rows = [(c, entry) for c, entry in rows if c in hooks]
        if wanted_rows or last - stored >= self.cursor_write_every:
            with self._tx() as cursor:
                for campaign_id, entry in wanted_rows:
                    for hook in hooks[campaign_id]:
                        if campaign_id not in seen:
                            seen[campaign_id] = self._receivers_view(campaign_id)
                        self._deliver(cursor, hook, seen[campaign_id].entry(entry))
                self._run(
                    cursor,
                    "INSERT INTO webhook_cursor (name, position) VALUES (%s, %s) ON CONFLICT "
                    "(name) DO UPDATE SET position = excluded.position",
                    (CURSOR, last),
                )
        self._cursor = last
        return len(rows)

    def _stored_cursor(self) -> int:
        """The cursor as committed (by this dispatcher or another on the same database)."""
        with self._tx(commit=False) as cursor:
            found = self._run(
                cursor, "SELECT position FROM webhook_cursor WHERE name = %s", (CURSOR,)
            ).fetchall()
        return int(found[0]["position"]) if found else 0

    def _receivers_view(self, campaign_id: str) -> Visibility:
        """A receiver sees what anyone but the GM sees (domain/visibility.py), as of now: after
        the entries were read, so every hide and secret roll among them is known."""
        assert self.app is not None, "only a dispatcher's outbox enqueues"
        return Visibility.public(self.app.repository.get(UUID(campaign_id)))

    def _webhooks(self) -> dict[str, list[dict[str, Any]]]:
        by_campaign: dict[str, list[dict[str, Any]]] = {}
        for doc in self.store.docs("webhook"):
            by_campaign.setdefault(doc["campaign_id"], []).append(doc)
        return by_campaign

    def _deliver(self, cursor: Any, hook: dict[str, Any], body: dict[str, Any] | None) -> None:
        """One delivery of an entry as the receiver sees it (None: nothing of it is shown)."""
        if body is None:
            return
        position = body["position"]
        removed = hook["removed_at"]
        if position <= hook["registered_at"] or (removed is not None and position >= removed):
            return
        if not wanted(hook["types"], body["type"]):
            return
        made = now_us()
        self._run(
            cursor,
            "INSERT INTO webhook_deliveries (id, webhook_id, campaign_id, position, type, body, "
            "state, attempts, due_us, created_at) VALUES (%s, %s, %s, %s, %s, %s, 'pending', 0, "
            "%s, %s) ON CONFLICT DO NOTHING",
            (
                delivery_id(hook["id"], position),
                hook["id"],
                hook["campaign_id"],
                position,
                body["type"],
                json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                made,
                iso_us(made),
            ),
        )

    def due(self, limit: int = 20) -> list[Due]:
        with self._tx(commit=False) as cursor:
            rows = self._run(
                cursor,
                "SELECT id, webhook_id, type, body, attempts, due_us FROM webhook_deliveries "
                "WHERE state = 'pending' AND due_us <= %s ORDER BY due_us, position LIMIT %s",
                (now_us(), limit),
            ).fetchall()
        return [Due(**dict(r)) for r in rows]

    def next_due_us(self) -> int | None:
        """When the earliest pending delivery is due (microseconds), None if none is pending."""
        with self._tx(commit=False) as cursor:
            rows = self._run(
                cursor,
                "SELECT MIN(due_us) AS due_us FROM webhook_deliveries WHERE state = 'pending'",
            ).fetchall()
        due = rows[0]["due_us"] if rows else None
        return None if due is None else int(due)

    def claim(self, due: Due, hold_us: int) -> bool:
        """Take a due delivery for one attempt, holding it off for `hold_us`; False if another
        dispatcher took it first (its due time moved)."""
        claimed = now_us() + hold_us
        with self._tx() as cursor:
            self._run(
                cursor,
                "UPDATE webhook_deliveries SET due_us = %s WHERE id = %s AND due_us = %s "
                "AND state = 'pending'",
                (claimed, due.id, due.due_us),
            )
            now = self._run(
                cursor, "SELECT due_us FROM webhook_deliveries WHERE id = %s", (due.id,)
            ).fetchall()
        return bool(now) and int(now[0]["due_us"]) == claimed

    def record(self, due: Due, attempt: Attempt, policy: Policy, *, final: bool = False) -> None:
        """Note an attempt: delivered, due again after the backoff, or given up."""
        n, at = due.attempts + 1, now_us()  # the backoff runs from the attempt's noted time
        outcome: DeliveryOutcome
        if attempt.delivered:
            state, next_us, outcome = "delivered", None, "delivered"
        elif final or n >= policy.attempts:
            state, next_us, outcome = "failed", None, "failed"
        else:
            state, next_us = "pending", at + int(policy.retry_after(n) * 1_000_000)
            outcome = "retrying"
        with self._tx() as cursor:
            self._run(
                cursor,
                "INSERT INTO webhook_attempts (delivery_id, n, at, status_code, error) VALUES "
                "(%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (due.id, n, iso_us(at), attempt.status_code, attempt.error),
            )
            self._run(
                cursor,
                "UPDATE webhook_deliveries SET state = %s, attempts = %s, due_us = %s WHERE id = %s",
                (state, n, next_us, due.id),
            )
        count_webhook_delivery(outcome)  # for /metrics, once the attempt is noted

    def deliveries(self, webhook_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """A webhook's deliveries in log order with their attempts (the GM's delivery log)."""
        with self._tx(commit=False) as cursor:
            rows = self._run(
                cursor,
                "SELECT id, position, type, state, attempts, due_us, created_at FROM "
                "webhook_deliveries WHERE webhook_id = %s AND position > %s ORDER BY position "
                "LIMIT %s",
                (webhook_id, after, limit),
            ).fetchall()
            found = [dict(r) for r in rows]
            ids = [d["id"] for d in found]
            tried: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                marks = ", ".join(["%s"] * len(ids))
                for row in self._run(
                    cursor,
                    "SELECT delivery_id, n, at, status_code, error FROM webhook_attempts "
                    f"WHERE delivery_id IN ({marks}) ORDER BY delivery_id, n",
                    tuple(ids),
                ).fetchall():
                    tried[row["delivery_id"]].append(dict(row))
        for delivery in found:
            delivery["attempt_log"] = tried[delivery["id"]]
            delivery["next_attempt_at"] = (
                iso_us(delivery.pop("due_us")) if delivery["state"] == "pending" else None
            )
            delivery.pop("due_us", None)
        return found


class Dispatcher(Loop):
    """One thread: fills the outbox from the views' log and sends what is due, until stopped."""

    thread_name = "webhook-dispatcher"
    failure = "webhook deliveries failed; retrying"
    logger = log

    def __init__(self, outbox: Outbox, sealer: Sealer, policy: Policy) -> None:
        super().__init__()
        self.outbox, self.sealer, self.policy = outbox, sealer, policy
        # How many attempts this dispatcher has recorded, told to whoever waits for one.
        self.attempts_made = 0
        self._recorded = Condition()
        self._senders = ThreadPoolExecutor(policy.senders, thread_name_prefix="webhook-send")
        self._client: httpx.Client | None = None
        self._client_made = Lock()

    def pause(self) -> float:
        """Until the next pending delivery is due, or the idle check."""
        due_us = self.outbox.next_due_us()
        if due_us is None:
            return self.policy.idle_check_seconds
        return max(0.0, min(self.policy.idle_check_seconds, (due_us - now_us()) / 1_000_000))

    def step(self) -> bool:
        """Enqueue and send one round; True if there may be more to do at once."""
        read = self.outbox.enqueue()
        hold = int((self.policy.timeout_seconds + 5) * 1_000_000)
        due = [d for d in self.outbox.due(self.policy.senders * 4) if self.outbox.claim(d, hold)]
        list(self._senders.map(self.send, due))
        # A short batch read the views' log to its end: the views runner wakes this loop after
        # its next page, so there is no need to read again at once.
        return read >= BATCH or bool(due)

    def send(self, due: Due) -> None:
        doc = self.outbox.store.doc("webhook", due.webhook_id)
        if doc is None or doc["status"] == "removed":  # removed: what it still owed is dropped
            gone = Attempt(None, "the webhook was removed")
            self.outbox.record(due, gone, self.policy, final=True)
        else:
            self.outbox.record(due, self._post(due, doc), self.policy)
        with self._recorded:
            self.attempts_made += 1
            self._recorded.notify_all()

    def wait_for_attempts(self, count: int, timeout: float) -> bool:
        """True once this dispatcher has recorded `count` attempts; False after `timeout` s."""
        with self._recorded:
            return self._recorded.wait_for(lambda: self.attempts_made >= count, timeout)

    def _post(self, due: Due, doc: dict[str, Any]) -> Attempt:
        try:
            secret = self.sealer.unseal(doc["sealed_secret"])
        except InvalidTag:  # `chronicle project` checks its key at start; this is the backstop
            return Attempt(None, "this process's server key cannot unseal the webhook's secret")
        body = due.body.encode()
        stamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Chronicle-Webhooks/1",
            "X-Chronicle-Delivery": due.id,
            "X-Chronicle-Webhook": due.webhook_id,
            "X-Chronicle-Event": due.type,
            "X-Chronicle-Timestamp": stamp,
            SIGNATURE_HEADER: signature(secret, stamp, body),
        }
        try:
            response = self._http().post(doc["url"], content=body, headers=headers)
        except httpx.HTTPError as exc:
            return Attempt(None, f"{type(exc).__name__}: {exc}"[:500])
        return Attempt(response.status_code, None)

    def _http(self) -> httpx.Client:
        # Made at the first delivery, not at start: its TLS context (the system's CA bundle) costs
        # tens of milliseconds, which every process start would pay though most never deliver.
        with self._client_made:
            if self._client is None:
                self._client = httpx.Client(
                    timeout=self.policy.timeout_seconds, follow_redirects=False
                )
            return self._client

    def stop(self) -> None:
        self._halt()
        self._join()
        self._senders.shutdown(wait=True)
        if self._client is not None:
            self._client.close()
        self.outbox.close()
        if self.outbox.app is not None:
            self.outbox.app.close()
        self.outbox.store.datastore.close()  # type: ignore[attr-defined]  # its own, from start_dispatcher


def start_dispatcher(
    env: Mapping[str, str], key: bytes, policy: Mapping[str, Any], runner: Supervisor
) -> Dispatcher:
    """The dispatcher a views runner's process starts beside it (`env`: the application's), on
    a views store of its own, reading campaigns with an application of its own (no key: it
    writes nothing to the event store), woken by that runner after each page of views."""
    views = views_env(env)
    # One thread reads campaigns with it: a small pool (it holds no LISTEN connection).
    reading = {**views, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"}
    outbox = Outbox(open_view_store(views), views, Chronicle(reading))
    dispatcher = Dispatcher(outbox, Sealer(key), Policy(**policy))
    runner.after_each_page(dispatcher.wake)
    return dispatcher.start()
