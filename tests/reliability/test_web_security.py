"""The browser's side: every answer carries the security headers (a CSP of the pages' own
scripts only, no framing, no referrer, no sniffing) — the app's and its fast path's; the
pages have no inline script for that CSP to block; the session
is an ``HttpOnly``, ``SameSite=Strict`` cookie (``Secure`` over https) whose token never
reaches the page; and a cookie-authenticated request that changes anything needs the
CSRF proof (403 ``SRV-CSRF`` without it)."""

from __future__ import annotations

import re
import socket
import uuid
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor
from tests.reliability.conftest import Srv, make_settings
from tests.server.serve_proc import Serve

TEMPLATES = Path(__file__).resolve().parents[2] / "src/macau_tables/web/templates"


def assert_secure_headers(r: Any, what: str) -> None:
    h = r.headers
    csp = h.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp, (what, dict(h))
    if not what.startswith("/docs"):
        assert "script-src 'self';" in csp, (what, csp)
        assert "unsafe-eval" not in csp and "script-src 'self' 'unsafe-inline'" not in csp
    assert h.get("x-frame-options") == "DENY", what
    assert h.get("referrer-policy") == "no-referrer", what
    assert h.get("x-content-type-options") == "nosniff", what


def test_every_answer_has_the_security_headers(lite: Srv) -> None:
    c, bob = lite.client, lite.headers("bob")
    answers = {
        "/": c.get("/"),
        "/login": c.get("/login"),
        "/table/hilo/hilo-1": c.get("/table/hilo/hilo-1"),
        "/static/js/api.js": c.get("/static/js/api.js"),
        "/health": c.get("/health"),
        "/tables": c.get("/tables", headers=bob),
        "/tables (401)": c.get("/tables"),
        "/nowhere (404)": c.get("/nowhere"),
        "view (fast path)": c.get("/tables/hilo-1/view", headers=bob),
        "command (fast path)": c.post(
            "/tables/hilo-1/commands",
            json={"op": "nothing", "args": {}},
            headers={**bob, "Idempotency-Key": "h1"},
        ),
        "/docs": c.get("/docs"),
        "/openapi.json": c.get("/openapi.json"),
    }
    for what, r in answers.items():
        assert_secure_headers(r, what)


def test_serve_as_shipped_answers_with_them_too(served: Serve) -> None:
    token = httpx.post(
        served.url + "/auth/login",
        json={"name": "alice", "password": served.creds()["alice"]},
    ).json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    table = httpx.get(served.url + "/tables", headers=bearer).json()[0]["id"]
    assert_secure_headers(httpx.get(served.url + "/"), "/")
    assert_secure_headers(httpx.get(served.url + f"/tables/{table}/view", headers=bearer), "view")
    cmd = httpx.post(
        served.url + f"/tables/{table}/commands",
        json={"op": "nothing"},
        headers={**bearer, "Idempotency-Key": str(uuid.uuid4())},
    )
    assert_secure_headers(cmd, "command (the fast path's answer)")
    # a malformed request: uvicorn's own 400, plain text, before any app sees it
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        raw = s.recv(65536).decode("latin-1").lower()
    assert raw.startswith("http/1.1 400")
    assert "content-type: text/plain" in raw


def test_the_pages_have_no_inline_script() -> None:
    """So that ``script-src 'self'`` blocks nothing of ours: every <script> has a ``src``
    or is data (``application/json``), no ``on…=`` handler, no ``javascript:`` URL, and no
    htmx attribute that evaluates code."""
    for path in sorted(TEMPLATES.glob("*.html")):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), path.name
        assert "javascript:" not in html, path.name
        assert not re.search(r"hx-on|hx-vals='js:|hx-vars|hx-vals=\"js:", html), path.name


def _cookie_login(client: TestClient, who: str, password: str) -> Any:
    body = {"name": who, "password": password, "session": "cookie"}
    return client.post("/auth/login", json=body)


def test_the_session_cookie(lite: Srv) -> None:
    r = _cookie_login(lite.client, "bob", lite.creds["bob"])
    assert r.status_code == 200, r.text
    assert "token" not in r.json() and r.json()["name"] == "bob"
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("mt_session="))
    csrf = next(c for c in cookies if c.startswith("mt_csrf="))
    assert "httponly" in session.lower() and "samesite=strict" in session.lower()
    assert "secure" not in session.lower()  # (plain http here)
    assert "httponly" not in csrf.lower() and "samesite=strict" in csrf.lower()
    # over https: Secure
    body = {"name": "alice", "password": lite.creds["alice"], "session": "cookie"}
    r = lite.client.post("https://testserver/auth/login", json=body)
    session = next(c for c in r.headers.get_list("set-cookie") if "mt_session=" in c)
    assert "secure" in session.lower()


def test_a_cookie_post_needs_the_csrf_proof(tmp_path: Any) -> None:
    floor = Floor(make_settings(str(tmp_path / "floor.db")))
    with TestClient(create_app(floor=floor)) as c:
        creds = floor.demo_credentials
        assert _cookie_login(c, "bob", creds["bob"]).status_code == 200
        csrf = c.cookies["mt_csrf"]
        assert c.get("/me").json()["name"] == "bob"  # a GET: the cookie alone
        cmd = {"op": "nothing", "args": {}}
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            for path, body in (("/tables/hilo-1/commands", cmd), ("/auth/logout", None)):
                r = c.post(path, json=body, headers={**headers, "Idempotency-Key": "c1"})
                assert r.status_code == 403, (path, headers, r.text)
                assert r.json()["rule"] == "SRV-CSRF"
        r = c.post("/tables/hilo-1/ops/nothing", json={}, headers={"Idempotency-Key": "c2"})
        assert r.status_code == 403 and r.json()["rule"] == "SRV-CSRF", r.text
        # with it: the command is the table's to answer (not an authentication refusal)
        r = c.post(
            "/tables/hilo-1/commands",
            json=cmd,
            headers={"X-CSRF-Token": csrf, "Idempotency-Key": "c3"},
        )
        assert r.status_code not in (401, 403), r.text
        r = c.post("/auth/logout", headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        assert c.get("/me").status_code == 401  # the cookie's token is logged out
        # a cashier's deposit through the cookie, without the proof
        assert _cookie_login(c, "cashier", creds["cashier"]).status_code == 200
        r = c.post(
            "/cashier/deposit",
            json={"player": "bob", "amount": 100},
            headers={"Idempotency-Key": "c4"},
        )
        assert r.status_code == 403 and r.json()["rule"] == "SRV-CSRF", r.text


def test_the_front_relays_a_cookie_command_for_its_csrf_check(served: Serve) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as c:
        body = {"name": "bob", "password": served.creds()["bob"], "session": "cookie"}
        assert c.post("/auth/login", json=body).status_code == 200
        table = c.get("/tables").json()[0]["id"]
        assert c.get(f"/tables/{table}/view").status_code == 200  # the cookie, a GET
        r = c.post(
            f"/tables/{table}/commands",
            json={"op": "nothing"},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        assert r.status_code == 403 and r.json()["rule"] == "SRV-CSRF", r.text
        r = c.post(
            f"/tables/{table}/commands",
            json={"op": "nothing"},
            headers={"Idempotency-Key": str(uuid.uuid4()), "X-CSRF-Token": c.cookies["mt_csrf"]},
        )
        assert r.status_code not in (401, 403), r.text
