"""What a WebSocket may hold: its queue of messages is bounded, a client that does not
read is dropped (close code 1013) and what it held let go, and a closed socket leaves
nothing behind (the table's subscribers and the server's tasks back to their count)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocket, WebSocketDisconnect

from macau_tables.server.tables import Subscriber
from tests.reliability.conftest import Srv, wait_checked

#: more messages than any bound the queue ever had
FLOOD = 2500


def _held(srv: Srv) -> tuple[int, int]:
    """The table's subscribers and the event loop's tasks (a socket's are its own)."""
    actor = srv.floor.tables["hilo-1"]
    return len(actor.subscribers), srv.client.portal.call(_tasks)


async def _tasks() -> int:
    return len(asyncio.all_tasks()) - 1  # (not this one)


def _back_to(srv: Srv, before: tuple[int, int], seconds: float = 10.0) -> bool:
    """Whether the subscribers come back to their count, and the tasks to at most theirs
    (the floor's own background tasks may end meanwhile), within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        subs, tasks = _held(srv)
        if subs == before[0] and tasks <= before[1]:
            return True
        if time.monotonic() > deadline:
            print("held:", (subs, tasks), "before:", before)
            return False
        time.sleep(0.05)


@contextlib.contextmanager
def _ws(srv: Srv, who: str) -> Iterator[Any]:
    """``who``'s socket at the table, authenticated by its first message."""
    token = srv.headers(who)["Authorization"].split()[1]
    with srv.client.websocket_connect("/tables/hilo-1/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        yield ws


def test_a_subscriber_queue_is_bounded_and_let_go_when_it_overflows() -> None:
    async def flood() -> Subscriber:
        sub = Subscriber(viewer=None)  # type: ignore[arg-type]
        for i in range(FLOOD):
            sub.send({"type": "event", "seq": i, "event": {"data": "x" * 100}})
        return sub

    sub = asyncio.run(flood())
    # nothing held for a client that is dropped: only the end of its queue
    assert sub.queue.qsize() == 1
    assert sub.queue.get_nowait() is None
    assert sub.overflowed
    assert sub.dropped.is_set()  # (what wakes its socket's handler, a send stuck or not)


@pytest.fixture
def stuck_sends(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The server's sends to a socket stick after its first (a client that stopped
    reading, its buffers full)."""
    real = WebSocket.send_json
    sent = {"n": 0}

    async def send_json(self: WebSocket, data: Any, mode: str = "text") -> None:
        sent["n"] += 1
        if sent["n"] > 1 and data.get("error") != "overflow":
            await asyncio.Event().wait()  # never
        await real(self, data, mode)

    monkeypatch.setattr(WebSocket, "send_json", send_json)
    return sent


def test_a_client_that_does_not_read_is_dropped(srv: Srv, stuck_sends: dict[str, int]) -> None:
    wait_checked(srv)
    before = _held(srv)
    actor = srv.floor.tables["hilo-1"]

    def publish() -> None:
        for _ in range(FLOOD):
            actor.broadcast_state()

    with _ws(srv, "alice") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        srv.client.portal.call(_run_sync, publish)
        # dropped, not held: its subscription goes at once
        deadline = time.monotonic() + 10
        while len(actor.subscribers) > before[0] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(actor.subscribers) == before[0]
        assert ws.receive_json()["error"] == "overflow"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    assert _back_to(srv, before)  # and its tasks


async def _run_sync(fn: Any) -> None:
    fn()


def test_closed_sockets_leave_nothing_behind(srv: Srv) -> None:
    wait_checked(srv)
    before = _held(srv)
    for i in range(200):
        with _ws(srv, "alice") as ws:
            if i % 2:  # half read their snapshot, half go at once
                assert ws.receive_json()["type"] == "snapshot"
    assert _back_to(srv, before)
    # and the table still fans out to a new one
    with _ws(srv, "alice") as ws:
        assert ws.receive_json()["type"] == "snapshot"


def test_a_large_message_from_the_client_closes_its_socket(srv: Srv) -> None:
    """A table's socket reads nothing its client sends; a message over
    ``wire.MAX_WS_MESSAGE`` closes it (1009) rather than being held."""
    wait_checked(srv)
    before = _held(srv)
    actor = srv.floor.tables["hilo-1"]
    with _ws(srv, "alice") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_text("x" * (1024 * 1024))
        srv.client.portal.call(_run_sync, actor.broadcast_state)  # (what it would get)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009
    assert _back_to(srv, before)
