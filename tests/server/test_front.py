"""The front process (server/front.py, server/core_link.py): a real ``serve`` on SQLite with
the Hi-Lo double, its HTTP in the front and the tables in the core.

The core still serves the whole app on its internal address (what the front relays to),
fast path included: every answer the front gives is checked against the core's own for
the same request in the same state."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from macau_tables.server import front as front_mod
from macau_tables.server.front import KEEP_ALIVE, MAX_BODY, MAX_HEAD, FrameReader, encode
from tests.server.pg import free_port
from tests.server.serve_proc import front_pids
from tests.server.test_fastpath import CASES, _content, json_values

ROOT = Path(__file__).resolve().parents[2]
_keys = itertools.count()
SERVE_HILO = (sys.executable, "-m", "tests.server.serve_hilo")


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    front: str  # the public URL (the front process)
    core: str  # the core's internal URL
    front_pid: int
    log: Path
    tokens: dict[str, str]

    def pids_alive(self) -> bool:
        return _alive(self.front_pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def _start(directory: Path, port: int | None = None) -> Server:
    port = port or free_port()
    log = directory / "serve.log"
    offset = log.stat().st_size if log.exists() else 0  # (a restart appends)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT)}
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [*SERVE_HILO, str(directory / "x.db"), str(port), "2", "30.0", "1"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline:
        text = log.read_bytes()[offset:].decode()
        if "serving on" in text:
            break
        assert proc.poll() is None, text[-3000:]
        time.sleep(0.05)
    m = re.search(r"front process \(pid (\d+)\); .*internal (http://[\d.]+:\d+)\)", text)
    assert m is not None, text[-3000:]
    creds = dict(re.findall(r"^ {4}(\w+)\s+(\S+)$", log.read_text(), re.M))
    server = Server(proc, port, f"http://127.0.0.1:{port}", m.group(2), int(m.group(1)), log, {})
    with httpx.Client(base_url=server.front, timeout=30) as c:
        for who in ("alice", "bob", "auditor", "dealer", "supervisor"):
            if who in creds:
                r = c.post("/auth/login", json={"name": who, "password": creds[who]})
                assert r.status_code == 200, r.text
                server.tokens[who] = r.json()["token"]
    return server


def _stop(server: Server) -> None:
    if server.proc.poll() is None:
        server.proc.terminate()
        server.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = _start(tmp_path_factory.mktemp("front"))
    yield server
    _stop(server)


def _headers(server: Server, who: str | None, key: str | None) -> dict[str, str]:
    h = {"Content-Type": "application/json"}
    if who is not None:
        h["Authorization"] = f"Bearer {server.tokens[who]}"
    if key is not None:
        h["Idempotency-Key"] = key
    return h


def _both(server: Server, method: str, path: str, content: bytes, headers: dict[str, str]) -> Any:
    """The front's answer, then the core's to the same request (the same key: a command
    the first committed is answered again from its record, so equal answers also mean the
    front hashed the request as the core does)."""
    out = []
    for base in (server.front, server.core):
        r = httpx.request(method, base + path, content=content, headers=headers, timeout=30)
        out.append((r.status_code, r.headers.get("content-type"), r.content))
    return out


@pytest.mark.parametrize("case", range(len(CASES)))
def test_commands_through_the_front_are_answered_as_by_the_core(srv: Server, case: int) -> None:
    path, body, who, spec = CASES[case]
    key = None if "no-key" in spec else spec.get("k") or f"front-{next(_keys)}"
    front, core = _both(srv, "POST", path, _content(body), _headers(srv, who, key))
    assert front == core
    assert front[1] == "application/json"


def test_a_bet_and_its_retry(srv: Server) -> None:
    """Accepted through the front; the same key and body answered from the record by either
    address, byte for byte; the same key with another body refused (409) by both."""
    h = _headers(srv, "bob", "front-join")
    body = json.dumps({"op": "join", "args": {"amount": 50_000}}).encode()
    front, core = _both(srv, "POST", "/tables/hilo-2/commands", body, h)
    assert front[0] == 200, front
    assert front == core
    other = json.dumps({"op": "join", "args": {"amount": 40_000}}).encode()
    front, core = _both(srv, "POST", "/tables/hilo-2/commands", other, h)
    assert front == core
    assert front[0] == 409


@pytest.mark.parametrize("who", [None, "alice", "auditor", "supervisor"])
@pytest.mark.parametrize("table", ["hilo-1", "nope", "%68ilo-1"])
def test_views_through_the_front(srv: Server, who: str | None, table: str) -> None:
    front, core = _both(srv, "GET", f"/tables/{table}/view", b"", _headers(srv, who, None))
    assert front == core
    assert front[0] == (401 if who is None else 404 if table == "nope" else 200)


def test_an_oversized_command_is_refused_alike(srv: Server) -> None:
    body = b'{"op": "bet", "args": {"x": "' + b"y" * MAX_BODY + b'"}}'
    front, core = _both(srv, "POST", "/tables/hilo-1/commands", body, _headers(srv, "alice", "k1"))
    assert front == core
    assert front[0] == 413


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    op=st.one_of(st.sampled_from(["bet", "reveal", "leave", "join"]), json_values),
    args=json_values,
    extra=st.dictionaries(st.sampled_from(["expect_seq", "x", "args"]), json_values, max_size=2),
)
@example(op="bet", args={"amount": 2**70}, extra={})
@example(op="join", args={"amount": 1}, extra={"expect_seq": 10**30})
def test_any_body_gets_the_same_answer(srv: Server, op: Any, args: Any, extra: Any) -> None:
    body = _content({"op": op, "args": args, **extra})
    key = f"front-{next(_keys)}"
    front, core = _both(srv, "POST", "/tables/hilo-1/commands", body, _headers(srv, "alice", key))
    assert front == core


# --- HTTP itself -------------------------------------------------------------------------


def _raw(server: Server, data: bytes, *, until_close: bool = False, answers: int = 1) -> bytes:
    """Write ``data`` at once on one connection; read ``answers`` answers (or to the end)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
        s.sendall(data)
        got = b""
        while True:
            if not until_close and len(_split(got)) >= answers:
                return got
            chunk = s.recv(65536)
            if not chunk:
                return got
            got += chunk


def _split(data: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Complete answers (with a Content-Length) in ``data``."""
    out = []
    while b"\r\n\r\n" in data:
        head, rest = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
        if status == 100:
            data = rest
            continue
        n = int(headers.get("content-length", "0"))
        if len(rest) < n:
            break
        out.append((status, headers, rest[:n]))
        data = rest[n:]
    return out


def test_pipelined_requests_are_answered_in_order(srv: Server) -> None:
    """A relayed request, then commands and views (the core's fast answers), then another
    relayed one: the answers come back in the order asked, each with its length."""
    auth = f"Authorization: Bearer {srv.tokens['alice']}\r\n".encode()
    data = (
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        b"POST /tables/hilo-1/commands HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\n\r\n"
        b'{"op": "bet"}'
        b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\n" + auth + b"\r\n"
        b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/nope/view HTTP/1.1\r\nHost: x\r\n" + auth + b"\r\n"
    )
    answers = _split(_raw(srv, data, answers=5))
    assert [a[0] for a in answers] == [200, 401, 200, 404, 404]
    assert json.loads(answers[0][2])["ok"] is True
    assert json.loads(answers[1][2])["rule"] == "SRV-AUTH"
    assert json.loads(answers[2][2])["table_id"] == "hilo-1"


def test_relayed_and_fast_answers_interleave_in_order(srv: Server) -> None:
    """Eight rounds of relayed and fast requests in one write: the answers in the order
    asked (the coalesced-read case, deterministically: the hand-driven test below)."""
    ask = (
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    answers = _split(_raw(srv, ask * 8, answers=32))
    assert [a[0] for a in answers] == [200, 401, 404, 401] * 8


def test_a_malformed_request_after_good_ones(srv: Server) -> None:
    """The answers asked before it first, then the 400, then the connection closes."""
    data = (
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GARBAGE\x00 / HTTP/9\r\n\r\nGET /health HTTP/1.1\r\n\r\n"
    )
    answers = _split(_raw(srv, data, until_close=True))
    assert [a[0] for a in answers] == [200, 401, 400]


def test_a_websocket_handshake_after_a_pipelined_request(srv: Server) -> None:
    data = (
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/hilo-1/ws HTTP/1.1\r\n"
        b"Host: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", srv.port), timeout=20) as s:
        s.sendall(data)
        got = b""
        while b"HTTP/1.1 101" not in got or b"\r\n\r\n" not in got.split(b"HTTP/1.1 101")[1]:
            chunk = s.recv(65536)
            assert chunk, got
            got += chunk
    first, rest = got.split(b"\r\n\r\n", 1)
    assert first.startswith(b"HTTP/1.1 200")
    assert b'"ok":true' in rest
    assert b"HTTP/1.1 101 Switching Protocols" in rest


def test_malformed_http_is_refused_with_json_and_the_connection_closed(srv: Server) -> None:
    got = _raw(srv, b"GARBAGE\x00 / HTTP/9\r\n\r\n", until_close=True)
    [(status, headers, body)] = _split(got)
    assert status == 400
    assert headers["connection"] == "close"
    assert json.loads(body)["rule"] == "SRV-INPUT"


def test_huge_headers_are_refused(srv: Server) -> None:
    """A request line or headers over 64 KB: 431 with the JSON error body, connection closed
    (the front does not hold them in memory)."""
    for data in (
        b"GET /" + b"x" * (MAX_HEAD + 10) + b" HTTP/1.1\r\n\r\n",
        b"GET /health HTTP/1.1\r\nX-Big: " + b"y" * (MAX_HEAD + 10) + b"\r\n\r\n",
    ):
        [(status, headers, body)] = _split(_raw(srv, data, until_close=True))
        assert status == 431
        assert headers["connection"] == "close"
        assert json.loads(body)["rule"] == "SRV-INPUT"
    [(status, _, _)] = _split(
        _raw(srv, b"GET /health HTTP/1.1\r\nX-Ok: " + b"y" * 60_000 + b"\r\n\r\n")
    )
    assert status == 200


def test_connection_close_and_http_10(srv: Server) -> None:
    for data in (
        b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /tables/hilo-1/view HTTP/1.0\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ):
        got = _raw(srv, data, until_close=True)  # returns only once the front closed it
        assert len(_split(got)) == 1


def test_an_idle_connection_is_closed_after_the_keep_alive(srv: Server) -> None:
    """As uvicorn closes a keep-alive connection left idle for 5 s; a WebSocket stays."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=20) as s:
        s.sendall(b"GET /tables/hilo-1/view HTTP/1.1\r\nHost: x\r\n\r\n")
        started = time.monotonic()
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        waited = time.monotonic() - started
    assert len(_split(got)) == 1
    assert KEEP_ALIVE <= waited < KEEP_ALIVE + 3


def test_relayed_requests_keep_their_shape(srv: Server) -> None:
    """A chunked request body, ``Expect: 100-continue``, ``HEAD``, a query string: the core
    sees the request the client sent."""
    creds = dict(re.findall(r"^ {4}(\w+)\s+(\S+)$", srv.log.read_text(), re.M))
    body = json.dumps({"name": "alice", "password": creds["alice"]}).encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    data = (
        b"POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n" + chunked
    )
    [(status, _, answer)] = _split(_raw(srv, data))
    assert status == 200
    assert json.loads(answer)["token"]
    with httpx.Client(base_url=srv.front, timeout=30) as c:
        head = c.head("/docs")
        assert head.status_code == c.get("/docs").status_code == 200
        h = _headers(srv, "supervisor", None)
        assert c.get("/tables/hilo-1/events?after=-1&limit=2", headers=h).status_code == 200
        bad = c.get("/tables/hilo-1/events?limit=0", headers=h)
        assert bad.status_code == 422
        assert c.get("/me", headers=h).json()["role"] == "supervisor"  # the same connection


def test_a_websocket_through_the_front(srv: Server) -> None:
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{srv.port}/tables/hilo-1/ws"
    with connect(url, open_timeout=20) as ws:
        ws.send(json.dumps({"type": "auth", "token": srv.tokens["alice"]}))
        first = json.loads(ws.recv(timeout=20))
        assert first["type"] == "snapshot"
        assert first["table_id"] == "hilo-1"
        time.sleep(KEEP_ALIVE + 1.5)  # longer than an idle HTTP connection lives
        assert ws.ping().wait(10)
    with connect(url) as ws:
        ws.send(json.dumps({"type": "auth", "token": "nope"}))
        refused = json.loads(ws.recv(timeout=20))
        assert refused["rule"] == "SRV-AUTH"


# --- the processes -------------------------------------------------------------------------


def _stopped_cleanly(server: Server) -> None:
    """Stopped by SIGTERM: uvicorn's graceful exit (it ends by raising the signal again),
    no traceback in the log."""
    assert server.proc.returncode in (0, -signal.SIGTERM)
    assert "Traceback" not in server.log.read_text()


def _wait(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_front_that_dies_is_replaced(tmp_path: Path) -> None:
    server = _start(tmp_path)
    try:
        h = _headers(server, "alice", None)
        assert httpx.get(server.front + "/tables/hilo-1/view", headers=h).status_code == 200
        staff = _headers(server, "supervisor", None)
        seen = httpx.get(server.front + "/server/latency", headers=staff).json()["front"]
        assert seen == {"pid": server.front_pid, "replaced": 0}
        os.kill(server.front_pid, signal.SIGKILL)
        _wait(lambda: "starting another" in server.log.read_text())
        _wait(lambda: httpx.get(server.front + "/health", timeout=5).status_code == 200)
        assert httpx.get(server.front + "/tables/hilo-1/view", headers=h).status_code == 200
        assert server.proc.poll() is None
        seen = httpx.get(server.front + "/server/latency", headers=staff).json()["front"]
        assert seen["replaced"] == 1
        assert seen["pid"] not in (None, server.front_pid)
        assert _alive(seen["pid"])
    finally:
        _stop(server)


def test_a_front_that_keeps_dying_stops_the_server(tmp_path: Path) -> None:
    """Without a front the server is unreachable: a sixth death within 10 s stops it all
    (cleanly), for whatever supervises it to start it again."""
    server = _start(tmp_path)
    try:
        killed: list[int] = []
        for _ in range(6):
            _wait(
                lambda: (
                    server.proc.poll() is not None
                    or [p for p in front_pids(server.proc.pid) if p not in killed]
                )
            )
            if server.proc.poll() is not None:
                break
            [front] = [p for p in front_pids(server.proc.pid) if p not in killed]
            os.kill(front, signal.SIGKILL)
            killed.append(front)
        assert len(killed) == 6
        server.proc.wait(timeout=30)
        _stopped_cleanly(server)
        assert "the front process keeps exiting" in server.log.read_text()
    finally:
        _stop(server)


def test_the_front_goes_with_the_core(tmp_path: Path) -> None:
    """``kill -9`` of the core: its front exits and the port is free for the next server
    (which the tests' crash harness starts on the same port); a stop: both exit."""
    server = _start(tmp_path)
    server.proc.kill()
    server.proc.wait()
    _wait(lambda: not _alive(server.front_pid), 10)
    again = _start(tmp_path, server.port)
    try:
        h = _headers(again, "alice", None)
        assert httpx.get(again.front + "/tables/hilo-1/view", headers=h).status_code == 200
        assert again.front_pid != server.front_pid
    finally:
        _stop(again)
    _stopped_cleanly(again)
    _wait(lambda: not _alive(again.front_pid), 10)
    with contextlib.closing(socket.socket()) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", server.port))


def test_a_stop_answers_the_commands_in_flight(tmp_path: Path) -> None:
    """SIGTERM while bets stream in: the server stops cleanly (exit 0, its front gone) and
    every bet answered 200 was committed: after a restart its key is answered from its
    idempotency record, byte for byte."""
    server = _start(tmp_path)
    h = _headers(server, "alice", "join")
    r = httpx.post(
        server.front + "/tables/hilo-1/commands",
        json={"op": "join", "args": {"amount": 1_000_000}},
        headers=h,
    )
    assert r.status_code == 200, r.text
    accepted: list[tuple[str, bytes]] = []

    async def bets() -> None:
        async with httpx.AsyncClient(base_url=server.front, timeout=30) as c:

            async def one(i: int) -> None:
                hk = _headers(server, "alice", f"bet-{i}")
                with contextlib.suppress(httpx.TransportError):
                    r = await c.post(
                        "/tables/hilo-1/commands",
                        json={"op": "bet", "args": {"amount": 100}},
                        headers=hk,
                    )
                    if r.status_code == 200:
                        accepted.append((f"bet-{i}", r.content))

            tasks = []
            for i in range(200):
                tasks.append(asyncio.create_task(one(i)))
                if i == 100:
                    server.proc.send_signal(signal.SIGTERM)
                await asyncio.sleep(0.002)
            await asyncio.gather(*tasks)

    asyncio.run(bets())
    server.proc.wait(timeout=30)
    _stopped_cleanly(server)
    _wait(lambda: not _alive(server.front_pid), 10)
    assert accepted
    again = _start(tmp_path, server.port)
    try:
        h = _headers(again, "alice", None)
        for key, first in accepted:  # the same key again: the first answer, from the record
            r = httpx.post(
                again.front + "/tables/hilo-1/commands",
                json={"op": "bet", "args": {"amount": 100}},
                headers={**h, "Idempotency-Key": key},
            )
            # byte for byte (a bet placed afresh would have another event and seq)
            assert (r.status_code, r.content) == (200, first), key
    finally:
        _stop(again)


# --- the frames ------------------------------------------------------------------------------


frames = st.lists(
    st.tuples(
        st.integers(0, 2**31),
        st.sampled_from(["c", "v"]),
        st.text(max_size=20),
        st.none() | st.text(max_size=50),
        st.binary(max_size=300),
    ),
    max_size=8,
)


@given(frames=frames, cuts=st.lists(st.integers(0, 4000), max_size=6))
def test_frames_survive_any_split(frames: list[tuple[Any, ...]], cuts: list[int]) -> None:
    data = b"".join(encode(f) for f in frames)
    reader, out, last = FrameReader(), [], 0
    for cut in [*sorted({min(c, len(data)) for c in cuts}), len(data)]:
        out += reader.feed(data[last:cut])
        last = cut
    assert out == frames


# --- the front's connections, driven by hand (no server: deterministic orders) --------------


class _Transport:
    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.out.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, _name: str) -> None:
        return None


@pytest.fixture
def client() -> Iterator[front_mod.Client]:
    loop = asyncio.new_event_loop()
    c = front_mod.Client(front_mod.Front(loop, ("127.0.0.1", 9)))
    c.connection_made(_Transport())  # type: ignore[arg-type]
    yield c
    loop.close()


OK_ANSWER = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"


def test_relayed_requests_go_to_the_core_one_at_a_time(client: front_mod.Client) -> None:
    """The next relayed request is sent once the answer before it has ended: two answers
    can then never come in one read (and jump a fast answer asked between them)."""
    up = front_mod.Upstream(client, until_eof=False)
    core = _Transport()
    up.connection_made(core)  # type: ignore[arg-type]
    a, fast, c = (front_mod._Slot(False) for _ in range(3))
    client.slots.extend([a, fast, c])
    up.send(a, b"REQUEST A")
    up.send(c, b"REQUEST C")
    assert core.out == [b"REQUEST A"]
    up.data_received(OK_ANSWER[:20])
    assert core.out == [b"REQUEST A"]  # (A's answer has not ended)
    up.data_received(OK_ANSWER[20:])
    assert a.done
    assert core.out == [b"REQUEST A", b"REQUEST C"]
    up.data_received(OK_ANSWER)
    written = client.transport.out  # type: ignore[union-attr]
    assert written == [OK_ANSWER[:20], OK_ANSWER[20:]]  # C waits for the fast answer
    client._finish(fast, b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n")
    assert written[2].startswith(b"HTTP/1.1 401")
    assert written[3] == OK_ANSWER


def test_a_websocket_is_joined_after_the_answers_asked_before_it(
    client: front_mod.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    relayed: list[tuple[Any, bytes]] = []
    joined: list[bytes] = []

    def fake_open(cl: Any, slot: Any, data: bytes, *, until_eof: bool) -> Any:
        up = front_mod.Upstream(cl, until_eof=until_eof)
        up.send = lambda s, d: relayed.append((s, d))  # type: ignore[method-assign]
        return up

    monkeypatch.setattr(front_mod.Upstream, "open", fake_open)
    monkeypatch.setattr(front_mod, "Tunnel", lambda cl, handshake: joined.append(handshake))
    client.data_received(
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /tables/t/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\n\r\nFIRST FRAME"
    )
    client.data_received(b" MORE")
    assert joined == []  # /health is not answered yet
    [(slot, _)] = relayed
    client._finish(slot, OK_ANSWER)
    [handshake] = joined
    assert handshake.startswith(b"GET /tables/t/ws HTTP/1.1\r\n")
    assert b"upgrade: websocket\r\n" in handshake
    assert handshake.endswith(b"\r\n\r\nFIRST FRAME MORE")
    assert client.transport.out == [OK_ANSWER]  # type: ignore[union-attr]
