"""A request's body has a size and a depth limit on every path it enters: a deeply nested
JSON body is refused 422 ``SRV-INPUT`` (Python's decoder recursed once a level and raised
``RecursionError``: a 500), a body over
``wire.MAX_REQUEST_BODY`` 413 ``SRV-INPUT``; either way nothing is posted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from macau_tables.server import store, wire
from tests.reliability.conftest import Srv
from tests.server.conftest import new_key
from tests.server.serve_proc import Serve

DEEP = 990  # what the probe sent
LARGE = 2 * 1024 * 1024  # over ``wire.MAX_REQUEST_BODY``


def _nested(n: int) -> str:
    return "[" * n + "]" * n


def _command(n: int) -> str:
    return '{"op": "bet", "args": {"amount": ' + _nested(n) + "}}"


def _postings(srv: Srv) -> int:
    return int(
        srv.client.portal.call(
            srv.floor.db.read,
            lambda c: c.execute(sa.select(sa.func.count()).select_from(store.postings_t)).scalar(),
        )
    )


def _refused(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["rule"] == "SRV-INPUT", body
    return dict(body)


def _post(srv: Srv, path: str, raw: str | bytes, who: str) -> httpx.Response:
    h = {**srv.headers(who, new_key()), "Content-Type": "application/json"}
    return srv.client.post(path, content=raw, headers=h)


@pytest.mark.parametrize(
    ("path", "who", "template"),
    [
        ("/tables/hilo-1/commands", "alice", '{"op": "bet", "args": {"amount": %s}}'),
        ("/tables/hilo-1/ops/bet", "alice", '{"amount": %s}'),
        ("/cashier/deposit", "cashier", '{"player": "alice", "amount": 100, "memo": %s}'),
        ("/auth/login", "alice", '{"name": "alice", "password": %s}'),
        ("/tables/hilo-1/pause", "supervisor", '{"reason": %s}'),
    ],
)
@pytest.mark.parametrize("depth", [40, DEEP, 20_000])
def test_a_deeply_nested_body_is_refused(
    srv: Srv, path: str, who: str, template: str, depth: int
) -> None:
    before = _postings(srv)
    r = _post(srv, path, template.replace("%s", _nested(depth)), who)
    body = _refused(r, 422)
    assert "nested deeper" in body["message"]
    assert _postings(srv) == before


def test_nesting_up_to_the_limit_reaches_the_engine(srv: Srv) -> None:
    """At the limit the body is parsed: the engine's own refusal (not the depth's)."""
    raw = _command(wire.MAX_DEPTH - 2)
    r = _post(srv, "/tables/hilo-1/commands", raw, "alice")
    assert r.status_code == 409, r.text  # (alice is not seated)
    assert r.json()["rule"] == "HL-0"


def test_brackets_inside_strings_do_not_count(srv: Srv) -> None:
    memo = json.dumps("[" * 500)  # a string, not nesting (and over memo's 200 characters)
    raw = '{"player": "alice", "amount": 100, "memo": ' + memo + "}"
    body = _refused(_post(srv, "/cashier/deposit", raw, "cashier"), 422)
    assert "memo" in body["message"]


@pytest.mark.parametrize("path", ["/cashier/deposit", "/auth/login", "/tables/hilo-1/ops/bet"])
def test_a_body_over_the_limit_is_refused_413(srv: Srv, path: str) -> None:
    before = _postings(srv)
    raw = json.dumps({"player": "alice", "amount": 100, "memo": "x" * LARGE})
    who = "cashier" if path.startswith("/cashier") else "alice"
    _refused(_post(srv, path, raw, who), 413)
    assert _postings(srv) == before
    assert wire.MAX_REQUEST_BODY < LARGE


def test_the_fastapi_command_route_is_limited_too(tmp_path: Path) -> None:
    """Without the fast path, FastAPI's own route for commands (the reference)."""
    from fastapi.testclient import TestClient

    from macau_tables.server.app import create_app
    from macau_tables.server.floor import Floor
    from tests.server.conftest import make_settings

    floor = Floor(make_settings(str(tmp_path / "floor.db")))
    with TestClient(create_app(floor=floor, fast_path=False)) as client:
        s = Srv(client, floor, dict(floor.demo_credentials))
        raw = _command(DEEP)
        body = _refused(_post(s, "/tables/hilo-1/commands", raw, "alice"), 422)
        assert "nested deeper" in body["message"]


def test_the_depth_check_counts_what_json_nests() -> None:
    assert not wire.deeper_than(b'{"a": [[1], [2, {"b": []}]]}', 5)
    assert wire.deeper_than(b'{"a": [[1], [2, {"b": [[]]}]]}', 5)
    assert not wire.deeper_than(b'["[[[[", "\\"[[[[[", {}]', 2)
    assert wire.deeper_than(_nested(40).encode())
    assert not wire.deeper_than(b"[]" * 1000)


# --- through ``macau-tables serve`` as shipped --------------------------------------------


def _login(served: Serve, who: str) -> str:
    r = httpx.post(
        served.url + "/auth/login",
        json={"name": who, "password": served.creds()[who]},
        timeout=15,
    )
    token: str = r.json()["token"]
    return token


def test_a_deep_command_to_serve_is_answered(served: Serve) -> None:
    h = {
        "Authorization": f"Bearer {_login(served, 'alice')}",
        "Idempotency-Key": new_key(),
        "Content-Type": "application/json",
    }
    url = served.url + "/tables/baccarat-1/commands"
    r = httpx.post(url, content=_command(DEEP), headers=h, timeout=15)
    assert "nested deeper" in _refused(r, 422)["message"]
    # the server is still serving
    assert httpx.get(served.url + "/health", timeout=15).status_code == 200


def test_a_deep_login_body_to_serve(served: Serve) -> None:
    raw = '{"name": "alice", "password": ' + _nested(DEEP) + "}"
    h = {"Content-Type": "application/json"}
    r = httpx.post(served.url + "/auth/login", content=raw, headers=h, timeout=15)
    assert "nested deeper" in _refused(r, 422)["message"]


def test_a_large_login_body_to_serve(served: Serve) -> None:
    raw = json.dumps({"name": "alice", "password": "x" * LARGE})
    h = {"Content-Type": "application/json"}
    r = httpx.post(served.url + "/auth/login", content=raw, headers=h, timeout=15)
    _refused(r, 413)
