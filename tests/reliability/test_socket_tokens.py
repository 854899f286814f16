"""Tokens stay out of URLs and out of the log: a table's WebSocket is authenticated by its
first message (API clients) or by the session cookie (the browser's pages, from their own
origin), never by a ``?token=`` in its URL — which the server's log writes for every
WebSocket, access log or not. Checked on ``macau-tables serve`` as shipped, its output
read back; and on the app itself (FastAPI's test client)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from tests.reliability.conftest import Srv
from tests.server.serve_proc import Serve


def _login(url: str, who: str, password: str, session: str = "bearer") -> httpx.Response:
    body = {"name": who, "password": password}
    if session != "bearer":
        body["session"] = session
    r = httpx.post(url + "/auth/login", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return r


def _first(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return msg


def _table(server: Serve, token: str) -> str:
    r = httpx.get(server.url + "/tables", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return str(r.json()[0]["id"])


def test_no_token_in_a_socket_url_nor_in_the_log(served: Serve) -> None:
    creds = served.creds()
    in_url = _login(served.url, "alice", creds["alice"]).json()["token"]
    first = _login(served.url, "alice", creds["alice"]).json()["token"]
    browser = _login(served.url, "bob", creds["bob"], session="cookie")
    cookie = browser.cookies["mt_session"]
    table = _table(served, first)
    ws_url = served.url.replace("http://", "ws://") + f"/tables/{table}/ws"

    # the way the pages and the tests connected: the token in the URL — refused
    with connect(f"{ws_url}?token={in_url}", open_timeout=20) as ws:
        msg = _first(ws)
    assert msg["type"] == "error" and msg["rule"] == "SRV-AUTH", msg
    assert "first" in msg["message"]

    # an API client: the token as the first message
    with connect(ws_url, open_timeout=20) as ws:
        ws.send(json.dumps({"type": "auth", "token": first}))
        assert _first(ws)["type"] == "snapshot"
    # a page: the session cookie, from the server's own origin
    own = {"Cookie": f"mt_session={cookie}"}
    with connect(ws_url, additional_headers=own, origin=served.url, open_timeout=20) as ws:  # type: ignore[arg-type]
        assert _first(ws)["type"] == "snapshot"
    # the cookie sent by another site's page: refused
    with connect(
        ws_url,
        additional_headers=own,
        origin="http://elsewhere.example",  # type: ignore[arg-type]
        open_timeout=20,
    ) as ws:
        msg = _first(ws)
    assert msg["type"] == "error" and msg["rule"] == "SRV-CSRF", msg

    time.sleep(0.5)  # (the server's output flushed)
    log = served.log.read_text()
    assert f"/tables/{table}/ws" in log  # every WebSocket is logged …
    for secret in (in_url, first, cookie):
        assert secret not in log  # … never with its token


def test_no_token_in_the_access_log(tmp_path: Any) -> None:
    """With ``--access-log`` a line per request: a token a client put in a URL anyway is
    written as ``token=***``."""
    server = Serve(tmp_path, "--access-log")
    server.start()
    try:
        token = _login(server.url, "alice", server.creds()["alice"]).json()["token"]
        httpx.get(server.url + f"/health?token={token}", timeout=30)
        httpx.get(server.url + f"/me?access_token={token}&x=1", timeout=30)
        time.sleep(0.5)
        log = server.log.read_text()
    finally:
        server.stop()
    assert "GET /health?token=*** HTTP/1.1" in log
    assert token not in log


def test_the_apps_socket_authentication(lite: Srv) -> None:
    token = lite.headers("alice")["Authorization"].removeprefix("Bearer ")
    with lite.client.websocket_connect(f"/tables/hilo-1/ws?token={token}") as ws:
        msg = ws.receive_json()
    assert msg["type"] == "error" and msg["rule"] == "SRV-AUTH", msg
    with lite.client.websocket_connect("/tables/hilo-1/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "snapshot"
    for bad in ({"type": "auth", "token": "nope"}, {"type": "hello"}, "not json"):
        with lite.client.websocket_connect("/tables/hilo-1/ws") as ws:
            if isinstance(bad, str):
                ws.send_text(bad)
            else:
                ws.send_json(bad)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["rule"] == "SRV-AUTH", (bad, msg)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
