"""A table's live feed over a WebSocket (docs/reference/api.md, "The WebSocket").

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from macau_tables.server import store
from macau_tables.server.api.deps import Deps, viewer
from macau_tables.server.auth import require
from macau_tables.server.errors import ApiError
from macau_tables.server.session import (
    SESSION_COOKIE,
    cookie_of,
    same_origin,
)
from macau_tables.server.tables import Subscriber
from macau_tables.server.wire import MAX_WS_MESSAGE

#: a WebSocket without the session cookie sends its token as its first message within this
#: many seconds (else it is closed, 4401)
WS_AUTH_TIMEOUT_S = 10.0
#: an open WebSocket's token is looked at again this often (and at its expiry): a logout
#: closes the viewer's sockets within this many seconds (close code 4401)
WS_TOKEN_RECHECK_S = 10.0


#: a socket that is dropped gets its last message and its close frame within this many
#: seconds each, or goes without them (a client that does not read)
WS_CLOSE_TIMEOUT_S = 1.0


async def _pump(ws: WebSocket, sub: Subscriber) -> None:
    """Send the subscriber's messages in their order; return at the queue's end (``None``)."""
    while (msg := await sub.queue.get()) is not None:
        await ws.send_json(msg)


async def _close(ws: WebSocket, last: dict[str, Any], code: int) -> None:
    """The last message and the close frame, each given up on after a while."""
    steps: tuple[Callable[[], Awaitable[None]], ...] = (
        lambda: ws.send_json(last),
        lambda: ws.close(code=code),
    )
    for step in steps:
        try:
            await asyncio.wait_for(step(), WS_CLOSE_TIMEOUT_S)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it disconnects; a message over
    ``wire.MAX_WS_MESSAGE`` bytes closes the socket (1009)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if len(msg.get("text") or msg.get("bytes") or b"") > MAX_WS_MESSAGE:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(ws.close(code=1009), WS_CLOSE_TIMEOUT_S)
                return


def router(d: Deps) -> APIRouter:
    """The socket routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor = d.floor

    # --- WebSocket --------------------------------------------------------------------------

    @r.websocket("/tables/{table_id}/ws")
    async def table_ws(ws: WebSocket, table_id: str, last_seq: int | None = None) -> None:
        """The table's live feed. Authenticated by the session cookie (a page of this
        origin), else by the first message ``{"type": "auth", "token": "…"}`` — never by
        the URL (a URL is logged: 4401 if it has a ``token``). docs/server.md."""
        await ws.accept()
        try:
            token = await _ws_token(ws)
            user = await the_floor.authenticate(token)
            require(user, "tables.watch")
            if the_floor.cluster is not None:  # a table another process created just now
                await the_floor.adopt([table_id])
            actor = the_floor.table(table_id)
        except ApiError as exc:
            with contextlib.suppress(Exception):  # (unless the client went away already)
                await ws.send_json({"type": "error", **exc.body()})
                await ws.close(code=4000 + exc.status)
            return
        sub = await actor.subscribe(viewer(user), last_seq)
        receiver = asyncio.create_task(_drain(ws))
        session = asyncio.create_task(_session_ends(token))
        pump = asyncio.create_task(_pump(ws, sub))
        dropped = asyncio.create_task(sub.dropped.wait())
        try:
            done, _ = await asyncio.wait(
                {pump, receiver, session, dropped}, return_when=asyncio.FIRST_COMPLETED
            )
            pump.cancel()  # (before anything else is sent: one sender at a time)
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await pump
            if receiver in done:  # the client went away
                pass
            elif session in done:  # the token expired or was logged out: 4401, as at connect
                ended = session.exception()
                if not isinstance(ended, ApiError):
                    raise ended or RuntimeError("the session watch ended")
                await _close(ws, {"type": "error", **ended.body()}, 4000 + ended.status)
            elif pump in done and pump.exception() is not None:
                pass  # the client went away while a message was sent
            else:  # too slow (the queue overflowed, a send stuck or not), or shutting down
                await _close(
                    ws,
                    {
                        "type": "error",
                        "error": "overflow",
                        "rule": "SRV-WS",
                        "message": "reconnect with last_seq",
                    },
                    1013,
                )
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            actor.unsubscribe(sub)
            for task in (receiver, session, pump, dropped):
                task.cancel()

    async def _ws_token(ws: WebSocket) -> str:
        if "token" in ws.query_params:
            raise ApiError(
                401,
                "unauthorized",
                'a token never goes in the URL: send {"type": "auth", "token": …} first',
                "SRV-AUTH",
            )
        headers = {k.lower(): v for k, v in ws.headers.items()}
        cookie = cookie_of(headers.get("cookie"), SESSION_COOKIE)
        if cookie is not None:
            if not same_origin(headers):
                raise ApiError(
                    403, "csrf", "a cookie's WebSocket comes from a page of this origin", "SRV-CSRF"
                )
            return cookie
        try:
            first = await asyncio.wait_for(ws.receive_text(), WS_AUTH_TIMEOUT_S)
            msg = json.loads(first)
        except (TimeoutError, ValueError, KeyError, RuntimeError, WebSocketDisconnect):
            msg = None
        if not isinstance(msg, dict) or msg.get("type") != "auth" or not msg.get("token"):
            raise ApiError(
                401,
                "unauthorized",
                'authenticate with the first message {"type": "auth", "token": …} '
                "(or the session cookie)",
                "SRV-AUTH",
            )
        return str(msg["token"])

    async def _session_ends(token: str) -> None:
        """Returns never: raises the 401 once ``token`` has expired or was logged out —
        checked at its expiry and every ``WS_TOKEN_RECHECK_S`` (from the process's cache
        of tokens, which a logout here empties at once)."""
        while True:
            await the_floor.authenticate(token)
            expires = the_floor.token_expires_ms(token)
            left = WS_TOKEN_RECHECK_S if expires is None else (expires - store.now_ms()) / 1000
            await asyncio.sleep(min(WS_TOKEN_RECHECK_S, max(left, 0.0) + 0.001))

    return r
