"""The WebSocket: each viewer's projection only, a snapshot on connect, exact resume."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from macau_tables.core.journal import event_from_json
from macau_tables.core.visibility import Viewer
from macau_tables.server.api import socket as server_app
from tests.server.conftest import Srv


def read_until_snapshot(ws: Any) -> list[dict[str, Any]]:
    out = []
    while True:
        msg = ws.receive_json()
        out.append(msg)
        if msg["type"] == "snapshot":
            return out


def token(srv: Srv, who: str) -> str:
    return srv.headers(who)["Authorization"].split()[1]


@contextlib.contextmanager
def ws_connect(
    srv: Srv, tok: str, table: str = "hilo-1", last_seq: int | None = None
) -> Iterator[Any]:
    """A table's socket, authenticated by its first message (never ``?token=``)."""
    url = f"/tables/{table}/ws" + ("" if last_seq is None else f"?last_seq={last_seq}")
    with srv.client.websocket_connect(url) as ws:
        ws.send_json({"type": "auth", "token": tok})
        yield ws


def test_a_player_sees_his_own_face_down_card_and_never_another_seats(srv: Srv) -> None:
    for p in ("alice", "bob"):
        srv.ok(p, "hilo-1", "join", {"amount": 10_000})
    with ws_connect(srv, token(srv, "bob")) as ws:
        (snap,) = read_until_snapshot(ws)
        assert snap["view"]["players"] == ["alice", "bob"]
        assert snap["view"]["my_stack"] == 10_000
        srv.step("hilo-1")
        for p in ("alice", "bob"):
            srv.ok(p, "hilo-1", "bet", {"amount": 1_000})
        srv.step("hilo-1")  # deal: two face-down cards
        msgs = []
        while True:
            msg = ws.receive_json()
            msgs.append(msg)
            if msg["type"] == "state" and msg["view"]["phase"] == "reveal":
                break
        dealt = [
            m["event"]
            for m in msgs
            if m["type"] == "event" and m["event"]["kind"] == "hilo.card_dealt"
        ]
        assert [d["data"]["player"] for d in dealt] == ["bob"]
        cards = msgs[-1]["view"]["cards"]
        assert cards["alice"] is None and cards["bob"] == dealt[0]["data"]["card"]
        text = str(msgs)  # alice's buy-in (her wallet and stack) is private to her
        assert "stack:hilo-1:alice" not in text
        assert "hilo.joined" not in str([m for m in msgs if "alice" in str(m)])
        # a public viewer (the cashier) sees neither card
    with ws_connect(srv, token(srv, "cashier")) as ws:
        (snap,) = read_until_snapshot(ws)
        assert snap["view"]["cards"] == {"alice": None, "bob": None}
        assert "my_stack" not in snap["view"]


def test_resume_sends_exactly_the_missed_events_the_viewer_may_see(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 10_000})
    srv.ok("bob", "hilo-1", "join", {"amount": 10_000})
    with ws_connect(srv, token(srv, "bob")) as ws:
        (snap,) = read_until_snapshot(ws)
        last = snap["seq"]
    # bob is away for a round
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 1_000})
    srv.ok("bob", "hilo-1", "bet", {"amount": 2_000})
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "reveal")
    journal = srv.client.get("/audit/tables/hilo-1/journal", headers=srv.headers("auditor")).json()[
        "entries"
    ]
    want = [
        e["seq"]
        for e in journal
        if e["seq"] > last and event_from_json(e["event"]).audience().admits(Viewer.player("bob"))
    ]
    assert len(want) < len([e for e in journal if e["seq"] > last])  # alice's card is hidden
    with ws_connect(srv, token(srv, "bob"), last_seq=last) as ws:
        msgs = read_until_snapshot(ws)
    assert [m["seq"] for m in msgs[:-1]] == want
    assert all(m["type"] == "event" for m in msgs[:-1])
    assert msgs[-1]["seq"] == journal[-1]["seq"]
    assert msgs[-1]["pending"] == [
        {
            "actor": "player:bob",
            "operations": ["reveal"],
            "default": "reveal",
            "rule": "HL-3",
            "required": True,
        }
    ]


def test_a_bad_token_or_table_is_an_error_message_then_close(srv: Srv) -> None:
    with ws_connect(srv, "nope") as ws:
        msg = ws.receive_json()
    assert (msg["type"], msg["rule"]) == ("error", "SRV-AUTH")
    with ws_connect(srv, token(srv, "bob"), "zz") as ws:
        msg = ws.receive_json()
    assert (msg["type"], msg["rule"]) == ("error", "SRV-TABLE")


def test_the_message_schemas_are_published(srv: Srv) -> None:
    s = srv.client.get("/schemas").json()
    assert set(s["websocket"]) == {"WsSnapshot", "WsEvent", "WsState", "WsError"}
    assert s["websocket"]["WsEvent"]["properties"]["type"]["const"] == "event"
    assert srv.client.get("/openapi.json").status_code == 200


def test_a_socket_closes_when_its_token_is_logged_out_or_expires(
    srv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The viewer's projection is for a session that is still valid: a logout or the
    token's expiry closes the socket as an unknown token is closed at connect (4401)."""
    monkeypatch.setattr(server_app, "WS_TOKEN_RECHECK_S", 0.05)
    srv.ok("bob", "hilo-1", "join", {"amount": 1_000})
    bob = token(srv, "bob")
    with ws_connect(srv, bob) as ws:
        read_until_snapshot(ws)
        r = srv.client.post("/auth/logout", headers={"Authorization": f"Bearer {bob}"})
        assert r.status_code == 200
        closed_in_time(srv)  # (not a receive that would wait for ever if it stayed open)
        msg = ws.receive_json()
        assert (msg["type"], msg["rule"]) == ("error", "SRV-AUTH")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    # a token that expires while its socket is open (the watch wakes at its expiry)
    cashier = token(srv, "cashier")  # (logged in for 12 h, before the short tokens)
    srv.floor.settings.token_seconds = 1
    r = srv.client.post("/auth/login", json={"name": "alice", "password": srv.creds["alice"]})
    alice = r.json()["token"]
    srv.floor.settings.token_seconds = 12 * 3600
    monkeypatch.setattr(server_app, "WS_TOKEN_RECHECK_S", 30.0)
    with ws_connect(srv, alice) as ws:
        read_until_snapshot(ws)
        closed_in_time(srv, 5.0)  # at its expiry, about a second, not 30
        msg = ws.receive_json()
        assert (msg["type"], msg["rule"]) == ("error", "SRV-AUTH")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    # a socket whose token stays valid is not closed by the watch
    with ws_connect(srv, cashier) as ws:
        read_until_snapshot(ws)
        assert srv.step("hilo-1")
        assert ws.receive_json()["type"] in ("event", "state")


def closed_in_time(srv: Srv, seconds: float = 2.0) -> None:
    """The table's subscribers are gone within ``seconds``."""
    deadline = time.monotonic() + seconds
    while srv.floor.tables["hilo-1"].subscribers and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not srv.floor.tables["hilo-1"].subscribers, "the socket stayed open"
