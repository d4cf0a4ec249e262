"""The live stream: a campaign's log as server-sent events, resumable with Last-Event-ID."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any
from uuid import UUID

from anyio import to_thread
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse

from api.deps import ActorDep, AppDep, bearer, position_query
from api.errors import ERROR_RESPONSES
from api.routers.history import LogEntry
from api.routing import OneHopRoute
from api.visibility import seen_by
from domain.aggregates import Campaign
from domain.application import Actor, Chronicle
from domain.errors import InvalidInput, Unauthenticated
from projections.runner import ViewReader

log = logging.getLogger("chronicle.stream")
# ASCII digits only, and not too many: int() refuses other digits and very long numbers.
POSITION = re.compile(r"[0-9]{1,18}")

router = APIRouter(route_class=OneHopRoute, tags=["history"], responses=ERROR_RESPONSES)

POLL_SECONDS = 0.02  # how often the one shared watcher reads the views' position
BATCH = 500
HEARTBEAT_SECONDS = 15
RETRY_MILLISECONDS = 1000  # tells EventSource how soon to reconnect
CHECK_SECONDS = 0.25  # bound on noticing a disconnect or a server shutdown while idle
CREDENTIAL_SECONDS = 1.0  # an open stream re-checks its token against the store this often
CREDENTIAL_ENTRIES = ("Campaign.TokenRotated", "Campaign.TokenRevoked", "Campaign.MemberRemoved")


def server_exiting() -> bool:
    """True once uvicorn has been told to stop.

    uvicorn waits for open responses to end *before* it runs the lifespan shutdown, so an endless stream
    must notice the signal itself; uvicorn's signal handler is a bound method of its Server.
    """
    server = getattr(signal.getsignal(signal.SIGTERM), "__self__", None)
    return bool(getattr(server, "should_exit", False))


class Credential:
    """The stream's token, authenticated again against the store while the stream runs, so that a
    token revoked, rotated, removed or expired ends its open streams too (within a second)."""

    def __init__(self, app: Chronicle, token: str | None, actor: Actor) -> None:
        self.app, self.token, self.actor = app, token, actor
        self.next_check = time.monotonic() + CREDENTIAL_SECONDS

    async def valid(self, entry: dict[str, Any] | None = None) -> bool:
        """Still valid? Checked at once at an entry that changes this member's credentials (so
        nothing after it is sent), else at most every CREDENTIAL_SECONDS."""
        ours = (
            entry is not None
            and entry["type"] in CREDENTIAL_ENTRIES
            and entry["payload"].get("member_id") == str(self.actor.member_id)
        )
        if not ours and time.monotonic() < self.next_check:
            return True
        self.next_check = time.monotonic() + CREDENTIAL_SECONDS
        try:
            return await to_thread.run_sync(self.app.authenticate, self.token) == self.actor
        except Unauthenticated:
            return False


@dataclass(frozen=True)
class Read:
    entries: list[dict[str, Any]]
    complete_to: int


class Head:
    """One watcher per app over the views' position, shared by every open stream.

    Streams query the log only when the position moves, so N idle streams cost one cheap query per
    POLL_SECONDS, not N; and streams of one campaign waiting at the same position share one query.
    The watcher runs only while a stream is open.
    """

    def __init__(self, views: ViewReader) -> None:
        self.views = views
        self.position = 0
        self.streams = 0
        self._moved = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._reads: dict[tuple[str, int], asyncio.Future[Read]] = {}

    def open(self) -> None:
        self.streams += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch(), name="stream-head")

    def close(self) -> None:
        self.streams -= 1

    async def moved_beyond(self, position: int, timeout: float) -> bool:
        """Wait up to `timeout` until the views have applied something after `position`."""
        moved = self._moved
        if self.position > position:
            return True
        try:
            await asyncio.wait_for(moved.wait(), timeout)
        except TimeoutError:
            return False
        return self.position > position

    async def read(self, campaign_id: str, after: int) -> Read:
        """The campaign's entries after `after`, and a position the answer is complete up to."""
        key = (campaign_id, after)
        pending = self._reads.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._read(campaign_id, after))
            self._reads[key] = pending
            pending.add_done_callback(lambda _: self._reads.pop(key, None))
        return await asyncio.shield(pending)  # one reader leaving must not cancel the others' read

    async def _read(self, campaign_id: str, after: int) -> Read:
        # The position is taken before the query: all it covers is committed, so the query sees it.
        complete_to = self.position
        entries = await to_thread.run_sync(partial(self.views.store.log, campaign_id, after, BATCH))
        return Read(entries, complete_to)

    async def _watch(self) -> None:
        while self.streams > 0:
            try:
                position = await to_thread.run_sync(self.views.position)
            except Exception:  # a database blip must not end every stream: retry a little later
                log.exception("reading the views' position failed")
                await asyncio.sleep(1)
                continue
            if position != self.position:
                self.position = position
                self._moved.set()
                self._moved = asyncio.Event()
            if server_exiting():
                self._moved.set()
                return
            await asyncio.sleep(POLL_SECONDS)


def _head(request: Request) -> Head:
    state = request.app.state
    if getattr(state, "stream_head", None) is None:
        state.stream_head = Head(state.views)
    return state.stream_head  # type: ignore[no-any-return]


def _resume_from(app: Chronicle, after: int, last_event_id: str | None) -> int:
    """Last-Event-ID wins over `after`: EventSource keeps the first URL but sends the newest id."""
    if last_event_id is not None and last_event_id.strip():
        if not POSITION.fullmatch(last_event_id.strip()):
            raise InvalidInput("Last-Event-ID must be a log position", field="Last-Event-ID")
        start, field = int(last_event_id), "Last-Event-ID"
    else:
        start, field = after, "after"
    head = app.recorder.max_notification_id() or 0
    # A client of another (or a restored) database would otherwise wait for entries that never come.
    if start > head:
        raise InvalidInput(f"{field} {start} is beyond the end of the log ({head})", field=field)
    return start


def _event(entry: dict[str, Any]) -> str:
    data = LogEntry.model_validate(entry).model_dump_json()
    return f"id: {entry['position']}\nevent: {entry['type']}\ndata: {data}\n\n"


async def _events(
    request: Request,
    credential: Credential,
    campaign_id: str,
    after: int,
    limit: int | None,
    heartbeat: float,
) -> AsyncIterator[str]:
    head = _head(request)
    head.open()
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        last, sent = after, 0
        beat = time.monotonic() + heartbeat
        while await credential.valid():
            read = await head.read(campaign_id, last)
            # taken after the read: it knows every hide and secret roll the entries hold
            seen = await to_thread.run_sync(seen_by, credential.app, credential.actor)
            for entry in read.entries:
                last = entry["position"]
                if not await credential.valid(entry):
                    return
                shown = seen.entry(entry)
                if shown is not None:
                    yield _event(shown)
                    sent += 1
                    if sent == limit:
                        return
                    beat = time.monotonic() + heartbeat
            if len(read.entries) == BATCH:
                continue
            # Everything up to there is sent: query again only once the views move on.
            while not await head.moved_beyond(
                max(read.complete_to, last), min(CHECK_SECONDS, beat - time.monotonic())
            ):
                if await request.is_disconnected() or server_exiting():
                    return
                if not await credential.valid():
                    return
                if time.monotonic() >= beat:
                    yield ": heartbeat\n\n"
                    beat = time.monotonic() + heartbeat
            if server_exiting():
                return
    finally:
        head.close()


@router.get(
    "/v1/campaigns/{campaign_id}/stream",
    operation_id="campaign_stream",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "Server-sent events: `id` the log position, `event` the entry's type, `data` "
            "the entry as in GET /v1/campaigns/{campaign_id}/events; `: heartbeat` comments while idle.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        }
    },
)
def stream(
    request: Request,
    campaign_id: UUID,
    app: AppDep,
    actor: ActorDep,
    token: Annotated[str | None, Depends(bearer)],
    after: Annotated[int, position_query("Start after this position (Last-Event-ID wins)")] = 0,
    last_event_id: Annotated[
        str | None, Header(description="The last `id` received: resume right after it")
    ] = None,
    limit: Annotated[
        int | None, Query(ge=1, le=100_000, description="End the stream after this many entries")
    ] = None,
    heartbeat: Annotated[
        float, Query(ge=1, le=60, description="Seconds between `: heartbeat` comments while idle")
    ] = HEARTBEAT_SECONDS,
) -> StreamingResponse:
    """Follow the campaign's log live; reconnect with Last-Event-ID to resume without gaps or repeats."""
    campaign = app.get(actor, Campaign, campaign_id)
    start = _resume_from(app, after, last_event_id)
    return StreamingResponse(
        _events(request, Credential(app, token, actor), str(campaign.id), start, limit, heartbeat),
        media_type="text/event-stream",
        # no-transform and X-Accel-Buffering: proxies must pass each event on at once, not buffer them.
        headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"},
    )
