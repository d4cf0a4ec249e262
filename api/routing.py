"""The routes' class: a sync endpoint costs one hop to the thread pool, not two."""

from __future__ import annotations

import functools
from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any

from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool


def in_one_hop(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """`endpoint` as a coroutine that runs it in the thread pool. FastAPI runs a sync endpoint in
    its pool and then checks its answer against the response model in the pool again: two hand-offs
    between the event loop and a thread, each dearer than the check (docs/performance.md, "Thread
    hops"). Seen as async, the endpoint has the one hop here and its answer is checked on the loop.
    FastAPI reads the parameters through `__wrapped__`, so the operation is the same."""

    @functools.wraps(endpoint)
    async def hop(**values: Any) -> Any:
        return await run_in_threadpool(endpoint, **values)

    return hop


class OneHopRoute(APIRoute):
    """Every router's `route_class`: its sync endpoints run as `in_one_hop` makes them."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not iscoroutinefunction(endpoint):
            endpoint = in_one_hop(endpoint)
        super().__init__(path, endpoint, **kwargs)
