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

import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from macau_tables.core.errors import MacauTablesError
from macau_tables.server import schemas as S
from macau_tables.server.auth import User, require
from macau_tables.server.errors import ApiError, from_domain
from macau_tables.server.latency import Latencies, label_for
from macau_tables.server.store import render

#: a command's body is a few hundred bytes; anything near this is not a command
MAX_BODY = 256 * 1024

_PATH = re.compile(r"^/tables/([^/]+)/commands$")
_VIEW = re.compile(r"^/tables/([^/]+)/view$")

Handler = Callable[[str, S.CommandBody, User, str | None, str], Awaitable[tuple[int, bytes]]]
ViewHandler = Callable[[str, User], Awaitable[bytes]]


def _invalid(message: str) -> ApiError:
    return ApiError(422, "invalid_input", message, "SRV-INPUT")


def parse_body(raw: bytes) -> S.CommandBody:
    """The body as FastAPI reads it: JSON first (its decode error names the position),
    then the model in Python mode; the first error worded as the app's 422 handler does."""
    if not raw:
        raise _invalid("body: Field required")
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _invalid(f"body.{getattr(exc, 'pos', 0)}: JSON decode error") from exc
    try:
        return S.CommandBody.model_validate(obj, from_attributes=True)
    except ValidationError as exc:
        first: Any = exc.errors()[0]
        where = ".".join(str(p) for p in ("body", *first.get("loc", ())))
        raise _invalid(f"{where}: {first.get('msg', 'invalid')}") from exc


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
        op = ""
        try:
            raw = await _read_body(receive)
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            user = await self.authenticate(_bearer(headers.get("authorization")))
            require(user, "tables.command")
            body = parse_body(raw)
            op = body.op
            status, content = await self.handle(
                table_id, body, user, headers.get("idempotency-key"), scope["path"]
            )
            return status, content, op
        except ApiError as exc:
            return exc.status, render(exc.body()), op
        except MacauTablesError as exc:
            err = from_domain(exc)
            return err.status, render(err.body()), op

    async def _view(self, table_id: str, scope: Scope) -> tuple[int, bytes]:
        """``GET /tables/{id}/view`` as the FastAPI route answers it: the token (401), the
        ``tables.view`` permission (403), the table (404), the caller's view."""
        assert self.view is not None
        try:
            # (the first Authorization header, as Starlette's ``request.headers`` gives it)
            auth = next((v for k, v in scope["headers"] if k == b"authorization"), None)
            token = _bearer(None if auth is None else auth.decode("latin-1"))
            user = await self.authenticate(token)
            require(user, "tables.view")
            return 200, await self.view(table_id, user)
        except ApiError as exc:
            return exc.status, render(exc.body())
        except MacauTablesError as exc:
            err = from_domain(exc)
            return err.status, render(err.body())


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
            raise ApiError(
                413, "too_large", f"a command's body is at most {MAX_BODY} bytes", "SRV-INPUT"
            )
        chunks.append(chunk)
        if not msg.get("more_body", False):
            return b"".join(chunks)
