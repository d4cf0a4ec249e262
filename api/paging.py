"""Lists: every list of the API pages the way the campaign's log does (GET /v1/campaigns/{id}/events).

Items come in the order they were created, and `after` is a log position: a page holds the items
created after it, at most `limit`; `next_after` is the position to pass as `after` for the next page,
null once a page came back short. A position stays valid whatever happens later (items are
appended, never reordered), and `min_position` waits for the views, as on every read from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar
from uuid import UUID

from fastapi import Query
from pydantic import BaseModel, Field

from api.deps import position_query
from projections.runner import ViewReader
from projections.store import Listed

MAX_LIMIT = 1000

After = Annotated[
    int,
    position_query(
        "Only items created after this log position: 0 for the first page, then the last "
        "page's `next_after`"
    ),
]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="At most this many items")]


class Page(BaseModel):
    next_after: int | None = Field(
        description="Pass as `after` for the next page; null at the end (as on /events)"
    )


def next_after(rows: list[Listed], limit: int) -> int | None:
    """A full page may have a next one (perhaps empty); a short page is the last."""
    return rows[-1].created if len(rows) == limit else None


def where_of(**filters: str | None) -> dict[str, list[str | None]]:
    """The filters a caller gave (None: not given), as `ViewStore.listed` takes them."""
    return {name: [value] for name, value in filters.items() if value is not None}


P = TypeVar("P", bound=Page)


@dataclass(frozen=True)
class Listing(Generic[P]):
    """What a list shows: the view documents of one kind, each as `item`, in a `page` model."""

    kind: str
    page: type[P]
    item: Callable[[dict[str, Any]], Any]


def page_of(
    views: ViewReader,
    listing: Listing[P],
    campaign_id: UUID,
    after: int,
    limit: int,
    where: dict[str, list[str | None]],
) -> P:
    """One page of a list from the views: each row's document as its item, and the cursor to the
    next page."""
    rows = views.store.listed(listing.kind, str(campaign_id), after=after, limit=limit, where=where)
    # each page names its own `items` type; the base knows only the cursor
    return listing.page.model_validate(
        {"items": [listing.item(r.doc) for r in rows], "next_after": next_after(rows, limit)}
    )
