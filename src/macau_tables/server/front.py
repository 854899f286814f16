"""The front process: a SQLite server's HTTP, in a process of its own (``serve`` on SQLite).

SQLite allows one writing process, and that process's event loop was the server's limit:
every bet's HTTP — reading and parsing the request, 400 sockets polled, the answer
framed and written — took about a quarter of its time, beside the commands themselves.
So ``serve`` on SQLite runs two processes:

* **the core** (the process ``serve`` started: the floor, the tables' actors, the group
  commit, the FastAPI app on an internal loopback address), and
* **the front** (this module, started by the core; it imports the standard library,
  ``httptools``, ``uvloop`` and the commands' schema — not the database), which owns the
  public port.

The front parses every request. The two routes that carry the play —
``POST /tables/{id}/commands`` and ``GET /tables/{id}/view`` — go to the core as small
frames on a socket pair the two processes share (the table, the ``Authorization`` and
``Idempotency-Key`` headers, the body, the path), many per system call; the core answers
each by the very steps of its HTTP fast path (server/fastpath.py: the token, the
permission, the body's model, the table's actor) and sends back the status and the JSON
body, which the front frames as HTTP. Every other request — login, the lobby, the
supervisor's and cashier's operations, the web pages, ``/docs`` — is relayed unchanged
to the core's internal address and its answer relayed back; a WebSocket's handshake is
relayed and the connection then joined byte for byte to the core's.

Nothing about money is decided here: the front holds no state but its connections. If
the core dies, the front sees its end of the socket pair close and exits at once (the
port closes with it: clients see the server gone, as with one process); if the front
dies, the core starts another. A command whose answer was lost with the front is
answered again from its idempotency record when the client sends it again.

Frames: a 4-byte big-endian length, then :mod:`marshal` data (both ends are the same
Python, on a socket pair no other process holds). Front to core: ``(rid, kind, table,
authorization, idempotency_key, body, path, prepared)`` with ``kind`` ``"c"`` (a command,
its body validated and hashed here — ``prepared``, server/wire.py — or ``None`` when it was
over the fast path's limit) or ``"v"`` (a view); core to front:
``(rid, status, body)``, or ``(0, "ready", "")`` once the floor is up — only then does
the front listen.
"""

from __future__ import annotations

import asyncio
import collections
import email.utils
import http
import marshal
import os
import re
import signal
import socket
import struct
import sys
import time
import urllib.parse
from collections.abc import Callable
from typing import Any, cast

import httptools

from macau_tables.server import session, wire

#: a frame's length prefix
LENGTH = struct.Struct("!I")
#: a command's body is a few hundred bytes; the core refuses one over this (413)
MAX_BODY = 256 * 1024
#: a relayed request's body is held in memory before it goes on: at most this much, the
#: core's own limit for any request (413 beyond, here as there)
MAX_RELAYED = wire.MAX_REQUEST_BODY

#: a request's line and headers: at most this many bytes (431 beyond)
MAX_HEAD = 64 * 1024
#: an idle keep-alive connection (no request in progress) is closed after this many seconds,
#: as uvicorn's are
KEEP_ALIVE = 5.0

COMMANDS = re.compile(r"^/tables/([^/]+)/commands$")
VIEW = re.compile(r"^/tables/([^/]+)/view$")

_BAD_REQUEST_BODY = (
    b'{"error":"invalid_input","rule":"SRV-INPUT","message":"malformed HTTP request"}'
)
_HEAD_TOO_LARGE_BODY = (
    b'{"error":"too_large","rule":"SRV-INPUT","message":"the request\'s headers are too large"}'
)
#: a client at one of these addresses is a reverse proxy: its X-Forwarded-For is relayed
_LOOPBACK = frozenset({"127.0.0.1", "::1"})
#: headers a relay sets itself (hop by hop, or the body's framing)
_HOP = {
    b"connection",
    b"keep-alive",
    b"transfer-encoding",
    b"content-length",
    b"expect",
    b"upgrade",
    b"proxy-connection",
    b"te",
    b"trailer",
}


def encode(frame: tuple[Any, ...]) -> bytes:
    data = marshal.dumps(frame)
    return LENGTH.pack(len(data)) + data


class FrameReader:
    """Frames out of a byte stream (a socket pair's end)."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[Any, ...]]:
        self._buf += data
        out: list[tuple[Any, ...]] = []
        buf, pos, end = self._buf, 0, len(self._buf)
        while end - pos >= 4:
            (size,) = LENGTH.unpack_from(buf, pos)
            if end - pos - 4 < size:
                break
            out.append(marshal.loads(bytes(buf[pos + 4 : pos + 4 + size])))
            pos += 4 + size
        if pos:
            del buf[:pos]
        return out


class Batcher:
    """Writes queued during one turn of the event loop go out in one system call."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self._out: list[bytes] = []

    def send(self, frame: tuple[Any, ...]) -> None:
        if not self._out:
            self.loop.call_soon(self._flush)
        self._out.append(encode(frame))

    def _flush(self) -> None:
        data, self._out = b"".join(self._out), []
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)


_date_cache: tuple[int, bytes] = (0, b"")


def _date() -> bytes:
    global _date_cache
    now = int(time.time())
    if _date_cache[0] != now:
        _date_cache = (now, email.utils.formatdate(now, usegmt=True).encode("ascii"))
    return _date_cache[1]


#: the security headers of every answer the front frames itself (server/session.py)
_SECURITY = b"".join(k + b": " + v + b"\r\n" for k, v in session.SECURITY_HEADERS)


def json_response(status: int, body: bytes, *, close: bool = False) -> bytes:
    """An answer framed as the core's own JSON answers are."""
    try:
        reason = http.HTTPStatus(status).phrase.encode("ascii")
    except ValueError:
        reason = b""
    return b"".join(
        (
            b"HTTP/1.1 %d %s\r\n" % (status, reason),
            b"date: %s\r\nserver: uvicorn\r\n" % _date(),  # (as the relayed answers)
            b"content-type: application/json\r\n",
            _SECURITY,
            b"connection: close\r\n" if close else b"",
            b"content-length: %d\r\n\r\n" % len(body),
            body,
        )
    )


class _Slot:
    """One request's place in its connection's order of answers."""

    __slots__ = ("chunks", "close", "done", "line", "status")

    def __init__(self, close: bool, line: str = "") -> None:
        self.chunks: list[bytes] = []
        self.done = False
        self.close = close
        self.line = line  # the request line, for the access log
        self.status = 0


class Front:
    """The front's state: the socket pair to the core, the pending frames, the clients."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, internal: tuple[str, int], access_log: bool = False
    ) -> None:
        self.loop = loop
        self.access_log = access_log  # a line per request, as uvicorn's access log
        self.internal = internal  # the core's HTTP address, for what is relayed
        self.core = Batcher(loop)
        self.waiting: dict[int, Callable[[int, bytes], None]] = {}
        self.clients: set[Client] = set()
        self._rid = 0
        self.ready = asyncio.Event()
        self.gone = asyncio.Event()
        self.stopping = False
        self.server: asyncio.AbstractServer | None = None

    def ask(self, frame: tuple[Any, ...], answer: Callable[[int, bytes], None]) -> None:
        self._rid = self._rid + 1 if self._rid < 2**31 else 1
        self.waiting[self._rid] = answer
        self.core.send((self._rid, *frame))

    def answered(self, frame: tuple[Any, ...]) -> None:
        rid, status, body = frame
        if rid == 0:
            if status == "ready":
                self.ready.set()
            elif status == "stop":  # the core stops: no new request; then we exit
                self.stopping = True
                if self.server is not None:
                    self.server.close()
                if not self.waiting:
                    self.gone.set()
            return
        answer = self.waiting.pop(rid, None)
        if answer is not None:
            answer(status, body)
        if self.stopping and not self.waiting:
            self.gone.set()

    def core_lost(self) -> None:
        """The core is gone: the clients' connections close unanswered, as they would
        with the core's own HTTP (a client retries with the same ``Idempotency-Key``:
        a command the core did commit is answered from its record); then we exit."""
        self.waiting.clear()
        for client in list(self.clients):
            client._close()
        self.gone.set()


class CoreLink(asyncio.Protocol):
    """The front's end of the socket pair."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.reader = FrameReader()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.front.core.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        for frame in self.reader.feed(data):
            self.front.answered(frame)

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.core_lost()


class Client(asyncio.Protocol):
    """A client's HTTP/1.1 connection: requests parsed, answers written in order."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.slots: collections.deque[_Slot] = collections.deque()
        self.url = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.size = 0
        self.upstream: Upstream | None = None  # relayed requests' connection to the core
        self.tunnel: Tunnel | None = None  # a WebSocket, joined to the core's
        self.closed = False
        self.broken = False  # a malformed request was read: the connection ends there
        self.upgrade: list[bytes] | None = None  # a WebSocket's handshake, waiting its turn
        self.peer = ""
        self.address = ""  # the client's IP address (relayed as X-Forwarded-For)
        self.head_size = 0  # the request line's and headers' bytes
        self.active = front.loop.time()  # when it last received data

    # --- the connection ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.front.clients.add(self)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple):
            self.address = str(peer[0])
            if self.front.access_log:
                self.peer = f"{peer[0]}:{peer[1]}"

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.front.clients.discard(self)
        for other in (self.upstream, self.tunnel):
            if other is not None:
                other.close()
        self.upstream = None

    def data_received(self, data: bytes) -> None:
        self.active = self.front.loop.time()
        if self.tunnel is not None:
            self.tunnel.write(data)
            return
        if self.broken or self.upgrade is not None:  # (nothing more is read as HTTP)
            if self.upgrade is not None:
                self.upgrade.append(data)
            return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade as exc:
            self._upgrade(data[exc.args[0] :])
        except httptools.HttpParserError:  # answered after the answers before it; then closed
            too_large = self.head_size > MAX_HEAD
            slot = _Slot(close=True)
            self.slots.append(slot)
            self.broken = True
            self._finish(
                slot,
                json_response(431, _HEAD_TOO_LARGE_BODY, close=True)
                if too_large
                else json_response(400, _BAD_REQUEST_BODY, close=True),
            )

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def idle(self, now: float) -> bool:
        """Kept alive with nothing asked for ``KEEP_ALIVE`` seconds (a WebSocket never is)."""
        return self.tunnel is None and not self.slots and now - self.active > KEEP_ALIVE

    def pause_writing(self) -> None:  # the client reads slowly: so does what feeds it
        for other in (self.upstream, self.tunnel):
            if other is not None and other.transport is not None:
                other.transport.pause_reading()

    def resume_writing(self) -> None:
        for other in (self.upstream, self.tunnel):
            if other is not None and other.transport is not None:
                other.transport.resume_reading()

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # --- the parser's callbacks ---------------------------------------------------------

    def on_message_begin(self) -> None:
        self.url, self.headers, self.body, self.size = b"", [], [], 0
        self.head_size = 0

    def on_url(self, url: bytes) -> None:
        self.url += url
        self._count(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name.lower(), value))
        self._count(len(name) + len(value))

    def _count(self, n: int) -> None:
        self.head_size += n
        if self.head_size > MAX_HEAD:  # (the parser stops; data_received answers 431)
            raise ValueError("request head too large")

    def on_headers_complete(self) -> None:
        if any(k == b"expect" and v.lower() == b"100-continue" for k, v in self.headers):
            self._write(b"HTTP/1.1 100 Continue\r\n\r\n")

    def on_body(self, body: bytes) -> None:
        self.size += len(body)
        if self.size <= MAX_RELAYED:
            self.body.append(body)

    def on_message_complete(self) -> None:
        if self.parser.should_upgrade():
            return  # the upgrade's exception follows (data_received)
        self._dispatch()

    # --- requests -------------------------------------------------------------------------

    def _dispatch(self, *, close: bool = False) -> None:
        method = self.parser.get_method()
        close = close or not self.parser.should_keep_alive()
        line = ""
        if self.front.access_log:
            line = f"{method.decode()} {self.url.decode('latin-1')} HTTP/"
            line += self.parser.get_http_version()
        slot = _Slot(close, line)
        self.slots.append(slot)
        if self.front.stopping:  # as uvicorn does when it stops: no answer, the connection
            slot.done = slot.close = True  # closed (after the answers before it)
            self._drain()
            return
        path = _path(self.url)
        if path is not None:
            match = None
            if method == b"POST":
                match = COMMANDS.match(path)
                kind = "c"
            elif method == b"GET":
                match = VIEW.match(path)
                kind = "v"
            # (a browser's, by its session cookie: relayed, the core checks its CSRF proof)
            if match is not None and not self._by_cookie():
                self._ask(slot, kind, match.group(1), path)
                return
        if self.size > MAX_RELAYED:
            body = wire.render(wire.too_large(MAX_RELAYED).body())
            slot.close = True
            self._finish(slot, json_response(413, body, close=True))
            return
        self._relay(slot, method)

    def _by_cookie(self) -> bool:
        names = {k for k, _ in self.headers}
        return b"cookie" in names and b"authorization" not in names

    def _ask(self, slot: _Slot, kind: str, table: str, path: str) -> None:
        prepared: wire.Prepared | None = None
        if kind == "c":  # as the fast path reads them: the last of each header
            headers = dict(self.headers)
            auth, key = headers.get(b"authorization"), headers.get(b"idempotency-key")
            body: bytes | None = None
            if self.size <= MAX_BODY:  # (over it: None, which the core refuses: 413)
                # validated and hashed here, the core's time saved (answered by the core
                # after the token and the permission, as without the front)
                prepared, body = wire.prepare(b"".join(self.body), path), b""
        else:  # the view: the first Authorization header (as Starlette's request has it)
            auth = next((v for k, v in self.headers if k == b"authorization"), None)
            key, body = None, b""
        frame = (
            kind,
            table,
            None if auth is None else auth.decode("latin-1"),
            None if key is None else key.decode("latin-1"),
            body,
            path,
            prepared,
        )

        def answer(status: int, content: bytes) -> None:
            slot.status = status
            self._finish(slot, json_response(status, content, close=slot.close))

        self.front.ask(frame, answer)

    def _finish(self, slot: _Slot, data: bytes) -> None:
        slot.status = slot.status or int(data[9:12])
        slot.chunks.append(data)
        slot.done = True
        self._drain()

    def _drain(self) -> None:
        """Write what is ready, in the order the requests came; then a WebSocket waiting
        for its turn is joined to the core's."""
        self._write_ready()
        if self.upgrade is not None and not self.slots and not self.closed:
            handshake, self.upgrade = b"".join(self.upgrade), None
            self.tunnel = Tunnel(self, handshake)

    def _write_ready(self) -> None:
        while self.slots:
            head = self.slots[0]
            if head.chunks:
                self._write(b"".join(head.chunks))
                head.chunks.clear()
            if not head.done:
                return
            self.slots.popleft()
            if head.line:
                self._log(head)
            if head.close:
                self.slots.clear()
                self._close()
                return

    def _log(self, slot: _Slot) -> None:
        try:
            phrase = http.HTTPStatus(slot.status).phrase
        except ValueError:
            phrase = ""
        line = session.redact(slot.line)  # (a token in a URL never reaches the log)
        sys.stdout.write(f'INFO:     {self.peer} - "{line}" {slot.status} {phrase}\n')
        sys.stdout.flush()

    def _request_head(self, method: bytes, *, keep: tuple[bytes, ...] = ()) -> list[bytes]:
        """The request as relayed, with the client's address in ``X-Forwarded-For`` (the
        core trusts it from the loopback, and throttles logins per address by it): set
        here, never the client's own — unless the client is itself on the loopback (a
        reverse proxy in front of this one), whose header is relayed as uvicorn would
        trust it."""
        lines = [method + b" " + self.url + b" HTTP/1.1\r\n"]
        proxied = self.address in _LOOPBACK and any(
            k == b"x-forwarded-for" for k, _ in self.headers
        )
        lines += [
            k + b": " + v + b"\r\n"
            for k, v in self.headers
            if (k not in _HOP or k in keep) and (proxied or k != b"x-forwarded-for")
        ]
        if self.address and not proxied:
            lines.append(b"x-forwarded-for: " + self.address.encode() + b"\r\n")
        return lines

    def _relay(self, slot: _Slot, method: bytes) -> None:
        body = b"".join(self.body)
        head = self._request_head(method)
        if body or method in (b"POST", b"PUT", b"PATCH"):
            head.append(b"content-length: %d\r\n" % len(body))
        if method == b"HEAD":  # its answer has no body to count: alone, read to the end
            head.append(b"connection: close\r\n\r\n")
            slot.close = True
            Upstream.open(self, slot, b"".join(head) + body, until_eof=True)
            return
        head.append(b"\r\n")
        if self.upstream is None or self.upstream.closed:
            self.upstream = Upstream.open(self, None, b"", until_eof=False)
        self.upstream.send(slot, b"".join(head) + body)

    def _upgrade(self, rest: bytes) -> None:
        upgrade = next((v for k, v in self.headers if k == b"upgrade"), b"").lower()
        if upgrade != b"websocket":  # as uvicorn does: the request, not the upgrade
            self._dispatch(close=True)
            return
        head = self._request_head(self.parser.get_method(), keep=(b"connection", b"upgrade"))
        head.append(b"\r\n")
        # joined once the answers asked before it are written (pipelined before a handshake)
        self.upgrade = [b"".join(head), rest]
        self._drain()


def _path(url: bytes) -> str | None:
    """The request's path as the core's HTTP server decodes it (``None``: not a path)."""
    try:
        raw = httptools.parse_url(url).path
    except httptools.HttpParserInvalidURLError:
        return None
    if raw is None:
        return None
    path = raw.decode("ascii", "replace")
    return urllib.parse.unquote(path) if "%" in path else path


class Upstream(asyncio.Protocol):
    """A connection to the core's internal address for a client's relayed requests, one
    at a time: the next goes once the answer before it has ended (a response parser finds
    its end), so that the bytes of one read belong to one answer — a client's answers in
    between (commands, views) stay in their place."""

    def __init__(self, client: Client, *, until_eof: bool) -> None:
        self.client = client
        self.until_eof = until_eof
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.queue: collections.deque[tuple[_Slot, bytes]] = collections.deque()
        self.current: _Slot | None = None
        self.closed = False

    @classmethod
    def open(cls, client: Client, slot: _Slot | None, data: bytes, *, until_eof: bool) -> Upstream:
        up = cls(client, until_eof=until_eof)
        if slot is not None:
            up.send(slot, data)
        loop = client.front.loop
        task = loop.create_task(loop.create_connection(lambda: up, *client.front.internal))
        task.add_done_callback(up._connected)
        return up

    def _connected(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled() or task.exception() is not None:
            self.connection_lost(None)

    def send(self, slot: _Slot, data: bytes) -> None:
        self.queue.append((slot, data))
        self._next()

    def _next(self) -> None:
        if self.current is None and self.queue and self.transport is not None:
            self.current, data = self.queue.popleft()
            self.transport.write(data)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        if self.closed:
            transport.close()
            return
        self._next()

    def data_received(self, data: bytes) -> None:
        if self.current is None:  # nothing asked: not an answer of ours
            self.close()
            return
        self.current.chunks.append(data)
        if not self.until_eof:
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserError:
                self.close()
                return
        self.client._drain()
        self._next()

    def on_headers_complete(self) -> None:
        if self.current is not None:
            self.current.status = self.parser.get_status_code()

    def on_message_complete(self) -> None:
        if self.current is not None:
            self.current.done = True
            self.current = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        cut = [self.current] if self.current is not None else []
        cut += [slot for slot, _ in self.queue]
        self.current, self.queue = None, collections.deque()
        for slot in cut:  # cut short, or never sent: the client's connection closes there
            slot.done, slot.close = True, True
        self.client._drain()

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class Tunnel(asyncio.Protocol):
    """A WebSocket: the client's connection joined to one of the core's, byte for byte."""

    def __init__(self, client: Client, handshake: bytes) -> None:
        self.client = client
        self.transport: asyncio.Transport | None = None
        self.pending = [handshake]
        loop = client.front.loop
        task = loop.create_task(loop.create_connection(lambda: self, *client.front.internal))
        task.add_done_callback(self._connected)

    def _connected(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled() or task.exception() is not None:
            self.client._close()

    def write(self, data: bytes) -> None:
        if self.transport is None:
            self.pending.append(data)
        else:
            self.transport.write(data)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        if self.client.closed:
            transport.close()
            return
        self.transport.write(b"".join(self.pending))
        self.pending.clear()

    def data_received(self, data: bytes) -> None:
        self.client._write(data)

    def pause_writing(self) -> None:  # the core reads slowly: stop reading the client
        if self.client.transport is not None:
            self.client.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.client.transport is not None:
            self.client.transport.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self.client._close()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def run(
    public: socket.socket,
    core: socket.socket,
    internal: tuple[str, int],
    access_log: bool = False,
) -> None:
    """Serve ``public`` until the core's end of the socket pair closes."""
    loop = asyncio.get_running_loop()
    front = Front(loop, internal, access_log)
    await loop.create_unix_connection(lambda: CoreLink(front), sock=core)
    ready = loop.create_task(front.ready.wait())
    gone = loop.create_task(front.gone.wait())
    await asyncio.wait({ready, gone}, return_when=asyncio.FIRST_COMPLETED)
    if front.ready.is_set() and not front.stopping:
        front.server = await loop.create_server(lambda: Client(front), sock=public, backlog=2048)
    sweep = loop.create_task(_close_idle(front))
    await gone
    sweep.cancel()
    if front.server is not None:
        front.server.close()
    for client in list(front.clients):
        client._close()
    # what is written to the clients goes out before the process ends
    for _ in range(100):
        if not front.clients:
            break
        await asyncio.sleep(0.01)


async def _close_idle(front: Front) -> None:
    while True:
        await asyncio.sleep(1.0)
        now = front.loop.time()
        for client in [c for c in front.clients if c.idle(now)]:
            client._close()


def main(argv: list[str] | None = None) -> None:
    """``python -m macau_tables.server.front PUBLIC_FD CORE_FD INTERNAL_HOST INTERNAL_PORT
    [--access-log]`` (the core starts it; not a command of its own)."""
    args = sys.argv[1:] if argv is None else argv
    public = socket.socket(fileno=int(args[0]))
    core = socket.socket(fileno=int(args[1]))
    internal = (args[2], int(args[3]))
    access_log = "--access-log" in args[4:]
    # Ctrl-C reaches the whole process group: the core stops first, then we see it go
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import uvloop

        uvloop.run(run(public, core, internal, access_log))
    except ImportError:  # pragma: no cover - uvloop is a dependency where it runs
        asyncio.run(run(public, core, internal, access_log))
    os._exit(0)


if __name__ == "__main__":
    main()
