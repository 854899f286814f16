"""The hot path: ``POST /tables/{id}/commands`` without FastAPI's routing and dependencies.

Every bet, throw and reveal comes through this one endpoint; under load FastAPI's
per-request machinery (route matching over every route, the dependency graph solved
afresh, headers and body validated parameter by parameter) cost more CPU than the
command itself. This ASGI middleware answers that one route with the very same steps as
the FastAPI endpoint, in the same order — authenticate the bearer token (401
``SRV-AUTH``), check the ``tables.command`` permission (403 ``SRV-ROLE``), validate the
body with the same pydantic model (422 ``SRV-INPUT``), then the endpoint's own function
(unknown table 404, ``Idempotency-Key`` 400/422, the table's actor) — and lets every other
request through to FastAPI. The FastAPI route stays declared: it documents the endpoint in
the OpenAPI schema and is the reference the fast path is tested against
(tests/server/test_fastpath.py).

``GET /tables/{id}/view`` — what a polling client reads between its commands — is
answered here too, by the route's steps (token 401, ``tables.view`` 403, table 404, the
caller's view): FastAPI's routing and dependencies were half of a polled view's cost.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from macau_tables.core.errors import MacauTablesError
from macau_tables.server import schemas as S
from macau_tables.server.auth import User, require
from macau_tables.server.errors import ApiError, from_domain
from macau_tables.server.latency import Latencies, label_for
from macau_tables.server.session import credential, scope_headers
from macau_tables.server.wire import (
    MAX_REQUEST_BODY,
    parse_body,
    render,
    too_deep,
    too_large,
)

#: a command's body is a few hundred bytes; anything near this is not a command
MAX_BODY = 256 * 1024

_PATH = re.compile(r"^/tables/([^/]+)/commands$")
_VIEW = re.compile(r"^/tables/([^/]+)/view$")

#: the command's endpoint: table, body, caller, ``Idempotency-Key``, path
Handler = Callable[[str, S.CommandBody, User, str | None, str], Awaitable[tuple[int, bytes]]]
ViewHandler = Callable[[str, User], Awaitable[bytes]]


class CommandFastPath:
    """ASGI middleware: ``POST /tables/{id}/commands`` handled directly (module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        authenticate: Callable[[str], Awaitable[User]],
        handle: Handler,
        latencies: Latencies | None = None,
        view: ViewHandler | None = None,
    ) -> None:
        self.app = app
        self.authenticate = authenticate
        self.handle = handle
        self.latencies = latencies  # each command's time here (server/latency.py)
        self.view = view  # GET /tables/{id}/view's content (polled: its own fast path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and self.view is not None:
            v = _VIEW.match(scope["path"])
            if v is not None:
                status, content = await self._view(v.group(1), scope)
                await send_json(send, status, content)
                return
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        m = _PATH.match(scope["path"])
        if m is None:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status, body, op = await self._answer(m.group(1), scope, receive)
        await send_json(send, status, body)
        if self.latencies is not None:
            self.latencies.observe(label_for(op, status), time.perf_counter() - started)

    async def _answer(
        self, table_id: str, scope: Scope, receive: Receive
    ) -> tuple[int, bytes, str]:
        """The status and body of the answer, and the command's op ("" if unread)."""
        try:
            raw: bytes | None = await _read_body(receive)
        except ApiError as exc:
            if exc.status != 413:
                return exc.status, render(exc.body()), ""
            raw = None
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            authorization = _cookie_as_bearer(headers, "POST")
        except ApiError as exc:
            return exc.status, render(exc.body()), ""
        return await self.answer_command(
            table_id,
            raw,
            authorization,
            headers.get("idempotency-key"),
            scope["path"],
        )

    async def answer_command(
        self,
        table_id: str,
        raw: bytes | None,
        authorization: str | None,
        key: str | None,
        path: str,
    ) -> tuple[int, bytes, str]:
        """A command's answer from its parts (``raw`` ``None``: the body was over
        :data:`MAX_BODY`): the status, the body and the command's op ("" if unread)."""
        op = ""
        try:
            if raw is None:
                raise _too_large()
            user = await self.authenticate(_bearer(authorization))
            require(user, "tables.command")
            body = parse_body(raw)
            op = body.op
            status, content = await self.handle(table_id, body, user, key, path)
            return status, content, op
        except ApiError as exc:
            return exc.status, render(exc.body()), op
        except MacauTablesError as exc:
            err = from_domain(exc)
            return err.status, render(err.body()), op

    async def _view(self, table_id: str, scope: Scope) -> tuple[int, bytes]:
        # (the first of each header, as Starlette's ``request.headers`` gives it)
        try:
            auth = _cookie_as_bearer(scope_headers(scope), "GET")
        except ApiError as exc:
            return exc.status, render(exc.body())
        return await self.answer_view(table_id, auth)

    async def answer_view(self, table_id: str, authorization: str | None) -> tuple[int, bytes]:
        """``GET /tables/{id}/view`` as the FastAPI route answers it: the token (401), the
        ``tables.view`` permission (403), the table (404), the caller's view."""
        assert self.view is not None
        try:
            user = await self.authenticate(_bearer(authorization))
            require(user, "tables.view")
            return 200, await self.view(table_id, user)
        except ApiError as exc:
            return exc.status, render(exc.body())
        except MacauTablesError as exc:
            err = from_domain(exc)
            return err.status, render(err.body())


class BodyLimits:
    """ASGI middleware: every HTTP request that reaches FastAPI (all but the fast path's,
    which holds to :data:`MAX_BODY` and parses with ``wire.parse_body``) has a body of at
    most ``wire.MAX_REQUEST_BODY`` bytes (413 ``SRV-INPUT``) and, when it is JSON, nested
    at most ``wire.MAX_DEPTH`` deep (422 ``SRV-INPUT``) — refused before FastAPI parses
    it, whose decoder would recurse once a level."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        try:
            declared = int(headers.get(b"content-length", b"0"))
        except ValueError:
            declared = 0
        if declared > MAX_REQUEST_BODY:
            await send_json(send, 413, render(too_large(MAX_REQUEST_BODY).body()))
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > MAX_REQUEST_BODY:
                await send_json(send, 413, render(too_large(MAX_REQUEST_BODY).body()))
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        kind = headers.get(b"content-type", b"application/json").lower()
        if body and b"json" in kind and (deep := too_deep(body)) is not None:
            await send_json(send, deep.status, render(deep.body()))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def send_json(send: Send, status: int, body: bytes) -> None:
    """A rendered JSON answer framed as the app's own are: with its ``Content-Length``
    (without it the server would send it in chunks). Also the cluster's relayed answers."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _cookie_as_bearer(headers: dict[str, str], method: str) -> str | None:
    """The request's ``Authorization``; without one, the session cookie's token (its CSRF
    proof checked: server/session.py) as if it were one."""
    if "authorization" in headers or "cookie" not in headers:
        return headers.get("authorization")
    return "Bearer " + credential(headers, method)


def _too_large() -> ApiError:
    return ApiError(413, "too_large", f"a command's body is at most {MAX_BODY} bytes", "SRV-INPUT")


def _bearer(value: str | None) -> str:
    scheme, _, token = (value or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "a bearer token is required", "SRV-AUTH")
    return token.strip()


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            raise ApiError(400, "invalid_input", "the client went away", "SRV-INPUT")
        chunk = msg.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise _too_large()
        chunks.append(chunk)
        if not msg.get("more_body", False):
            return b"".join(chunks)
