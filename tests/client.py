"""The suite's in-process HTTP client: Starlette's TestClient, one thread round trip per request.

Starlette's TestClient (1.10) runs the app on an event loop in another thread and crosses to it six
times or more per request (two events, a memory stream, a cancel scope, the app's task, each body
chunk). On this 2-core machine each crossing costs about half a millisecond, so a `GET /health`
took 5.3 ms of CPU, 2.3 ms of it the app. This client sends the whole exchange to the app's loop
in one call and reads the answer back buffered. Everything else is the TestClient's own: the
lifespan, `client.app`, the base URL, cookies and headers. A stream (`.../stream`, SSE) goes
through the TestClient's own transport, which hands the body over chunk by chunk.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import unquote

import httpx
from starlette import testclient
from starlette.types import Message

DEFAULT_PORTS = {"http": 80, "https": 443}


class TestClient(testclient.TestClient):
    __test__ = False  # not a test class, whatever pytest makes of its name

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)
        self._transport = _OneCall(self._transport, self)  # type: ignore[arg-type,has-type]


class _OneCall(httpx.BaseTransport):
    def __init__(self, streaming: testclient._TestClientTransport, client: TestClient) -> None:
        self.streaming, self.client = streaming, client

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/stream") or self.client.portal is None:
            # a held-open answer, or a client used outside `with` (a portal per request then)
            return self.streaming.handle_request(request)
        scope = self.scope_of(request)
        body = request.read()
        status, headers, content, failure = self.client.portal.call(
            _exchange, self.client.app, scope, body
        )
        if failure is not None and self.streaming.raise_server_exceptions:
            raise failure
        if status is None:
            if self.streaming.raise_server_exceptions:
                raise AssertionError("TestClient did not receive any response.")
            status, headers, content = 500, [], b""
        return httpx.Response(status, headers=headers, content=content, request=request)

    def close(self) -> None:
        self.streaming.close()  # it aborts streams still open when the client closes

    def scope_of(self, request: httpx.Request) -> dict[str, Any]:
        """The ASGI scope Starlette's transport builds for an HTTP request."""
        url, transport = request.url, self.streaming
        headers = [] if "host" in request.headers else [(b"host", url.netloc)]
        headers += [(k.lower().encode(), v.encode()) for k, v in request.headers.multi_items()]
        return {
            "type": "http",
            "http_version": "1.1",
            "method": request.method,
            "path": unquote(url.path),
            "raw_path": url.raw_path.split(b"?", 1)[0],
            "root_path": transport.root_path,
            "scheme": url.scheme,
            "query_string": url.query,
            "headers": headers,
            "client": transport.client,
            "server": [url.raw_host.decode("ascii"), url.port or DEFAULT_PORTS[url.scheme]],
            "extensions": {"http.response.debug": {}, "http.response.trailers": {}},
            "state": transport.app_state.copy(),
        }


async def _exchange(
    app: Any, scope: dict[str, Any], body: bytes
) -> tuple[int | None, list[tuple[str, str]], bytes, BaseException | None]:
    """Run one request through the app on its own loop; the whole answer, and what it raised."""
    sent_body = False
    answered = asyncio.Event()
    status: int | None = None
    headers: list[tuple[str, str]] = []
    chunks: list[bytes] = []

    async def receive() -> Message:
        nonlocal sent_body
        if sent_body:  # as Starlette's client: the caller "disconnects" once it has the answer
            await answered.wait()
            return {"type": "http.disconnect"}
        sent_body = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            headers.extend((k.decode(), v.decode()) for k, v in message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))
            if not message.get("more_body", False):
                answered.set()

    try:
        await app(scope, receive, send)
    except Exception as exc:  # noqa: BLE001 - the caller raises it, as Starlette's client does
        return status, headers, b"".join(chunks), exc
    return status, headers, b"".join(chunks), None
