"""Rebuilding the views beside the live ones: new tables filled from the whole log a page per
transaction, then put in the live ones' place in one transaction once they have caught up.

Until that transaction commits, the API answers from the live views and their runner keeps them
up to date; the switch holds the live runner's write lock, brings the new tables to exactly the
live position and renames them into place, so the live runner's next page goes into them and no
event is applied twice or skipped (the tracking row moves with the tables).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from eventsourcing.persistence import Tracking

from domain.application import Chronicle
from domain.subscriptions import PAGE_SIZE, Pages
from projections.runner import decoded, open_view_store, views_env
from projections.store import LIVE, ViewStore
from projections.views import Page, Views, apply_page

# Told after each page: the position reached and the log's head at the time.
Progress = Callable[[int, int], None]


def rebuild(
    env: Mapping[str, str], *, progress: Progress | None = None, page_size: int = PAGE_SIZE
) -> int:
    """Build every view anew from the whole log and switch the live views to them; returns the
    position they hold then. Raises RebuildRunning if another rebuild is under way."""
    env = views_env(env)
    open_view_store(env).datastore.close()  # type: ignore[attr-defined]  # live tables to replace
    app = Chronicle(env)
    beside = open_view_store(env, beside_live=True)
    try:
        with beside.rebuild_lock():
            beside.recreate()  # whatever an interrupted rebuild left
            position = _catch_up(app, beside, page_size, progress or _quiet)
            position = _switch(app, beside, position, progress or _quiet)
            beside.drop_retired()
            return position
    finally:
        beside.datastore.close()  # type: ignore[attr-defined]
        app.close()


def _quiet(position: int, head: int) -> None:
    pass


def _catch_up(app: Chronicle, beside: ViewStore, page_size: int, progress: Progress) -> int:
    """Pages of the log into the new tables, each its own transaction, until less than a page
    is left (what the commands wrote meanwhile included); returns the position reached. The
    log is read through a subscription, whose thread selects the next pages meanwhile."""
    views = Views(beside)
    position = 0
    head = app.recorder.max_notification_id() or 0
    progress(position, head)
    with app.recorder.subscribe(gt=0) as subscription:
        assert isinstance(subscription, Pages), "the recorders subscribe a page at a time"
        while head - position > page_size:  # events after `position` exist: no long wait
            notifications = subscription.next_page(page_size)
            views.process_page(decoded(app, notifications, beside.application_name))
            position = notifications[-1].id
            progress(position, head)
            if head - position <= page_size:
                head = app.recorder.max_notification_id() or 0
    return position


def _switch(app: Chronicle, beside: ViewStore, position: int, progress: Progress) -> int:
    """In one transaction holding the live views' lock: the rest of the log up to the live
    position or the log's head, whichever is further, then the new tables in the live ones'
    place."""
    with beside.replacing_live() as tx:
        reached = tx.position(beside.application_name)
        # at least the log's head: with no live runner (external views, none started) the
        # live position stays 0 and a short log would otherwise be left out entirely
        head = app.recorder.max_notification_id() or 0
        target = max(tx.position(LIVE), position, reached, head)
        for page in _pages(app, beside, reached, target, PAGE_SIZE):
            apply_page(tx, page)
        tx.advance(Tracking(beside.application_name, target))  # past any gaps at the end
    progress(target, target)
    return target


def _pages(app: Chronicle, beside: ViewStore, after: int, upto: int, size: int) -> Iterator[Page]:
    """The events after `after` up to `upto`, decoded, a page at a time, read in the caller's
    thread: the switch holds the live views' lock, so it reads only what exists, and stops."""
    while after < upto:
        notifications = app.recorder.select_notifications(
            start=after, limit=size, stop=upto, inclusive_of_start=False
        )
        if not notifications:
            return
        yield decoded(app, notifications, beside.application_name)
        after = notifications[-1].id
